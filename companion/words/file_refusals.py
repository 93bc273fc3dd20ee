"""A board or card fact refused, in the table's language and in people's words.

The engine checks the table's board and card files and refuses a fact in one English line naming
the file's field ("board file: regions[galicia].scoreboard: [3, 4, 0]: scoreboard must not
increase (1st >= 2nd >= 3rd place)", engine/board/checks.py, engine/rules/king_intrigue/cards.py,
engine/board/errors.py); the file and its field paths are what a file's editor needs. A table
entering facts by taps needs the fact by its name and the problem in its words: these read the
field and the problem back out of the line ("Galicia's scoreboard: 3·4·0: a scoreboard must not
increase (1st ≥ 2nd ≥ 3rd place)"). A line of another shape, or a field the caller cannot name,
is shown as the engine wrote it."""

from __future__ import annotations

import re
from collections.abc import Callable

from companion.words import N_, _, names
from companion.words.effects import meaning_words, parameter_word

_LINE = re.compile(r"^(?:(?:board|card) file: )?(?P<path>[a-z_]+(?:\[[^\]]+\])?(?:\.[a-z0-9_-]+)*): (?P<problem>.+)$")
_VALUES = r"\[(?P<values>-?\d+(?:, -?\d+)*)\]"
_PROBLEMS: list[tuple[re.Pattern, str]] = [
    (
        re.compile(rf"^{_VALUES}: scoreboard must not increase \(1st >= 2nd >= 3rd place\)$"),
        N_("{values}: a scoreboard must not increase (1st ≥ 2nd ≥ 3rd place)"),
    ),
    (re.compile(rf"^{_VALUES}: points may not be negative$"), N_("{values}: points may not be negative")),
    (
        re.compile(
            r"^empty; list the regions it borders on your board \(or leave the field out while they are not known\)$"
        ),
        N_("none chosen: tap the regions it borders on your board"),
    ),
    (
        re.compile(r"^module (?P<module>\S+) has no stack (?P<stack>\d+) \(stacks: (?P<stacks>[\d, ]+)\)$"),
        N_("the {module} module has no stack {stack} (its stacks: {stacks})"),
    ),
    (
        re.compile(r"^the base game has no stack (?P<stack>\d+) \(stacks: (?P<stacks>[\d, ]+)\)$"),
        N_("the base game has no stack {stack} (its stacks: {stacks})"),
    ),
    (
        re.compile(r"^must be an integer (?P<low>-?\d+)\.\.(?P<high>-?\d+)(?: \((?P<meaning>.+)\))?$"),
        N_("must be a whole number from {low} to {high}"),
    ),
    (
        re.compile(r"^(?P<value>\d+) is also (?P<card>\S+)'s value \(each value is on one card of a colour\)$"),
        N_("{value} is also the value of {card} (each value is on one card of a colour)"),
    ),
    (re.compile(r"^is required$"), N_("is required")),
    (re.compile(r"^must be an integer$"), N_("must be a whole number")),
    (re.compile(r"^must be at most (?P<high>-?\d+)$"), N_("must be at most {high}")),
    (re.compile(r"^must be at least (?P<low>-?\d+)$"), N_("must be at least {low}")),
]
# A card's field as the table reads it (a parameter: by its word, companion/words/effects.py)
_CARD_FIELDS = {
    "stack": N_("stack"),
    "copies": N_("copies"),
    "placement": N_("Caballeros placed"),
    "value": N_("value"),
    "court": N_("Caballeros to the court"),
    "name": N_("name"),
}
# A meaning a refusal gives in brackets, from engine/rules/king_intrigue/cards.py (the others are the
# effects' parameter meanings, companion/words/effects.py MEANINGS)
COURT_MEANING = N_("Caballeros the card brings to the court")
_CARD_PATH = re.compile(r"^(?:cards|power_cards)\[(?P<id>[^\]]+)\]\.(?P<field>[a-z_]+)(?:\.(?P<param>[a-z_]+))?$")


def refusal_words(
    line: str, fact_label: Callable[[str], str | None] | None = None, card_names: dict[str, str] | None = None
) -> str:
    """The engine's refusal of a fact in the table's words; `fact_label`: a fact's name by its
    path ("regions.galicia.scoreboard" -> "Galicia's scoreboard", the board draft's labels);
    `card_names`: a card's printed name by its id."""
    found = _LINE.match(line)
    if found is None:
        return line
    problem = _problem(found["problem"], card_names or {})
    fact = _fact(found["path"], fact_label, card_names or {})
    if problem is None or fact is None:
        return line
    # Translators: a refused fact: "Galicia's scoreboard: 3·4·0: a scoreboard must not increase (...)"
    return _("{fact}: {problem}").format(fact=fact, problem=problem)


def _problem(problem: str, card_names: dict[str, str]) -> str | None:
    for pattern, message in _PROBLEMS:
        found = pattern.match(problem)
        if found is None:
            continue
        values = {k: v for k, v in found.groupdict().items() if v is not None}
        if "values" in values:
            values["values"] = "·".join(v.strip() for v in values["values"].split(","))
        if "module" in values:
            values["module"] = names.module(names.MODULE_NAMES.get(values["module"], values["module"]))
        if "card" in values:
            values["card"] = names.card(card_names.get(values["card"], values["card"]))
        meaning = values.pop("meaning", None)
        words = _(message).format(**values)
        return f"{words} ({meaning_words(meaning)})" if meaning else words
    return None


def _fact(path: str, fact_label: Callable[[str], str | None] | None, card_names: dict[str, str]) -> str | None:
    """A field of the file by the fact's name, or None when it cannot be named here."""
    dotted = re.sub(r"\[([^\]]+)\]", r".\1", path)  # regions[galicia].scoreboard -> regions.galicia.scoreboard
    label = fact_label(dotted) if fact_label else None
    if label:
        return label
    card = _CARD_PATH.match(path)
    if card is None or card["id"] not in card_names:
        return None
    name = names.card(card_names[card["id"]])
    if card["field"] == "params" and card["param"]:
        field = parameter_word(card["param"])
    elif card["field"] in _CARD_FIELDS and not card["param"]:
        field = _(_CARD_FIELDS[card["field"]])
    else:
        return None
    return _("{card}, {field}").format(card=name, field=field)
