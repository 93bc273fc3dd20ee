"""Where a fact of a card or of the board came from, or why it is not known, in the table's
language.

The files keep their notes in English (a file's words do not depend on the language it was
written in). Three kinds are said in the table's language when shown: the notes the app writes
itself (WRITTEN_BY_THE_APP), the notes of the shipped data files (each a catalogue message in the
"source" context, companion/words/names.py source_notes), and the notes the engine composes from
those (engine/board/load.py's other side of the board, engine/board/checks.py's stacks), read back
out of their words here. A note of any other shape (a table's own file) is shown as written."""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable

from companion.words import N_, _, names
from companion.words.catalogue import ngettext, pgettext

WRITTEN_BY_THE_APP = {
    "added at the table": N_("added at the table"),
    "completed at the table": N_("completed at the table"),
    "turned up at the table": N_("turned up at the table"),
    "read off the card at the table": N_("read off the card at the table"),
    "counted at the end of a game": N_("counted at the end of a game"),
    "entered from our board": N_("entered from our board"),
    "entered from our board during a game": N_("entered from our board during a game"),
    "entered with the other side of our board": N_("entered with the other side of our board"),
    "checked against our board": N_("checked against our board"),
    "Our El Grande 2023 cards": N_("Our El Grande 2023 cards"),
    "Our King and Intrigue cards": N_("Our King and Intrigue cards"),
    "stand-in for self-play: not the printed cards": N_("stand-in for self-play: not the printed cards"),
    "stand-in for self-play: not the printed board": N_("stand-in for self-play: not the printed board"),
}

# engine/board/load.py: the 2-3 player side of the 2023 board, made from the 4-5 side's facts
_OTHER_SIDE_MAP = re.compile(
    r"^inferred: the (?P<side>\S+) side taken to show the same map as the (?P<shown>\S+) side "
    r"\(the rule book shows one map\); (?P=shown) side: (?P<source>.+)$",
    re.S,
)
_UNKNOWN_SCOREBOARD = re.compile(
    r"^(?P<area>.+)'s Scoring board on the (?P<side>\S+) player side is not known \(the rule book does "
    r"not print it\): enter its numbers for 1st, 2nd and 3rd place from your board \(board file: [^)]+\)$"
)
# engine/board/checks.py _stack_note: a stack the card set does not account for yet
_STACK = re.compile(
    r"^(?:The (?P<module>\S+) module's stack|Stack) (?P<stack>\d+) holds (?P<size>\d+) cards?; "
    r"the card set accounts for (?P<known>\d+)(?: \(listed: (?P<listed>.+?); ×\? = copies unknown\))?"
    r"(?:; (?P<loose>\d+) listed cards have no known stack yet)?(?:: enter .*)?$"
)


class _Words:
    """The catalogue of one reader: `t` (a phone's page language), or the table's language."""

    def __init__(self, t: gettext.NullTranslations | None) -> None:
        self.say: Callable[[str], str] = t.gettext if t else _
        self.plural: Callable[[str, str, int], str] = t.ngettext if t else ngettext
        self.named: Callable[[str, str], str] = t.pgettext if t else pgettext


def source_words(source: str, card_names: dict[str, str] | None = None, t=None, rules: str | None = None) -> str:
    """A note on a fact as the table reads it; `card_names`: card id -> printed name, for a
    stack's listed cards; `t`: the translations to read in (default: the table's language);
    `rules`: the rule set whose board it is (its edition's names of the regions)."""
    words = _Words(t)
    known = WRITTEN_BY_THE_APP.get(source)
    if known:
        return words.say(known)
    other_side = _OTHER_SIDE_MAP.match(source)
    if other_side:
        return words.say(
            N_(
                "inferred: the {side} side taken to show the same map as the {shown} side (the rule book "
                "shows one map); {shown} side: {source}"
            )
        ).format(
            side=other_side["side"],
            shown=other_side["shown"],
            source=source_words(other_side["source"], t=t, rules=rules),
        )
    unknown = _UNKNOWN_SCOREBOARD.match(source)
    if unknown:
        return words.say(
            N_(
                "{area}'s Scoring board on the {side} player side is not known (the rule book does not print it): "
                "enter its numbers for 1st, 2nd and 3rd place from your board"
            )
        ).format(area=_area(unknown["area"], words, rules), side=unknown["side"])
    stack = _STACK.match(source)
    if stack:
        return _stack_words(stack, card_names or {}, words)
    return words.named(names.SOURCE, source)


def _area(name: str, words: _Words, rules: str | None) -> str:
    if name == "the Castillo":
        return words.say(N_("the Castillo"))
    edition = rules in names.edition_boards()
    return words.named(names.EDITION_PLACE.format(rules=rules) if edition else names.PLACE, name)


def _stack_words(found: re.Match, card_names: dict[str, str], words: _Words) -> str:
    size, known, stack = int(found["size"]), int(found["known"]), found["stack"]
    if found["module"]:
        module = words.named(names.MODULE, names.MODULE_NAMES.get(found["module"], found["module"]))
        said = words.plural(
            "Stack {stack} of the {module} module holds {n} card",
            "Stack {stack} of the {module} module holds {n} cards",
            size,
        ).format(module=module, stack=stack, n=size)
    else:
        said = words.plural("Stack {stack} holds {n} card", "Stack {stack} holds {n} cards", size).format(
            stack=stack, n=size
        )
    said += "; " + words.say(N_("the card set accounts for {known}")).format(known=known)
    if found["listed"]:
        listed = ", ".join(_listed_card(item, card_names, words) for item in found["listed"].split(", "))
        said += " " + words.say(N_("(listed: {cards}; ×? = copies unknown)")).format(cards=listed)
    if found["loose"]:
        loose = int(found["loose"])
        said += "; " + words.plural(
            "{n} listed card has no known stack yet", "{n} listed cards have no known stack yet", loose
        ).format(n=loose)
    return said


def _listed_card(item: str, card_names: dict[str, str], words: _Words) -> str:
    """ "exile ×?" -> "Exil ×?": a card id with its copies, by the card's printed name."""
    card_id, _space, copies = item.partition(" ")
    name = card_names.get(card_id)
    return f"{words.named(names.CARD, name)} {copies}".strip() if name else item
