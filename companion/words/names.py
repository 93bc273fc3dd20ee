"""The names the editions print (regions, cards, the Castillo, the rule sets and modules) and the
cards' texts, in the table's language. The engine and its data files keep the English names as
ids of meaning; they are turned into the table's words only where shown, through these functions.

Each name is a catalogue message with a context ("place", "card", "card text", "rule set",
"module"), so "Intrigue" the card and a word "intrigue" elsewhere can differ. all_names() lists
every name the data files hold (and the rule sets' and modules' names as the new-game screen
offers them), for the catalogue's template (companion/words/tool.py). A name the catalogue does
not hold (a card the table named itself) is shown as it is. docs/languages.md says which names
are an edition's printed names and which the team's own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from importlib import resources

from companion.words.catalogue import pgettext

PLACE, CARD, CARD_TEXT, RULE_SET, MODULE = "place", "card", "card text", "rule set", "module"
SOURCE = "source"  # where a fact of a data file comes from, or why it is not known
# A board of a rule set that prints its own forms of the names (the 2023 edition keeps the Spanish
# names in every language it is sold in, the classic German board prints German ones): its names
# have a context of their own, "place, 2023 edition".
EDITION_PLACE = "place, {rules} edition"

BOARD_FILES = ("board_classic.json", "board_2023.json")
# Every card file whose cards a table can see: the printed sets as far as published, and the
# labelled stand-ins self-play, the demo and a table that chooses them play with.
CARD_FILES = (
    "action_cards_classic.json",
    "action_cards_2023.json",
    "cards_king_intrigue.json",
    "standins_2023.json",
    "standins_king_intrigue.json",
    "power_shift_stand_in.json",
)
# What makes a dict of a card file a card (an Action card, a Power card, a Modifier card).
_CARD_KEYS = ("effect", "stack", "ability", "value")


def place(name: str, rules: str | None = None) -> str:
    """A region, the Castillo, France or Portugal, as the table's edition prints it; `rules`: the
    game's rule set ("classic", "2023", "king-intrigue"), for the edition whose board it is (left
    out: the classic edition's names, and the language's usual forms of the others)."""
    if rules in edition_boards():
        return pgettext(EDITION_PLACE.format(rules=rules), name)
    return pgettext(PLACE, name)


def area(board, index: int) -> str:
    """An area of a board (engine.board.model.Board) by its index, as the edition of that board
    prints it: `names.area(state.board, a)` where the engine's `area_name(state, a)` was shown."""
    return place(board.area_name(index), board.rules)


def card(name: str) -> str:
    """An Action, Power or Modifier card's name, as the table's edition prints it."""
    return pgettext(CARD, name)


def card_text(text: str) -> str:
    """What a card says, in the team's own words in the table's language."""
    return pgettext(CARD_TEXT, text)


def source(words: str) -> str:
    """A data file's note on a fact (its source, or what is missing and why), in the team's own
    words in the table's language (companion/words/sources.py says which notes come here)."""
    return pgettext(SOURCE, words)


def rule_set(name: str) -> str:
    """A rule set by the name the new-game screen offers it ("Classic (1995)", "2023 edition",
    "King and Intrigue": companion/table_rules/rules_choice.py RULES_WORDS)."""
    return pgettext(RULE_SET, name)


def module(name: str) -> str:
    """A module by its box's name ("New Regency", "Power Shift": rules_choice.py MODULE_WORDS)."""
    return pgettext(MODULE, name)


def _data(name: str) -> dict:
    return json.loads(resources.files("engine").joinpath("data", name).read_text(encoding="utf-8"))


@cache
def edition_boards() -> frozenset[str]:
    """The rule sets whose board is their own edition's (a board file's "rules"), read once."""
    return frozenset(_data(file)["rules"] for file in BOARD_FILES if _data(file).get("rules"))


def _walk(value) -> Iterator[dict]:
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _walk(inner)


def _text(item: dict) -> str:
    return item["text"] if isinstance(item.get("text"), str) else ""


def board_names() -> Iterator[tuple[str, str, str]]:
    """Every region, the Castillo, France and Portugal of each board: each as a place, and a
    rule set's own board's also in its edition's context."""
    for file in BOARD_FILES:
        data = _data(file)
        for area in [*data.get("regions", []), *data.get("spaces", []), data.get("castillo") or {}]:
            if area.get("name"):
                yield PLACE, area["name"], file
                if data.get("rules"):
                    yield EDITION_PLACE.format(rules=data["rules"]), area["name"], file


def card_names() -> Iterator[tuple[str, str, str]]:
    """Every card's name and text (a Modifier card's ability has a text and no name)."""
    for file in CARD_FILES:
        for item in _walk(_data(file)):
            if isinstance(item.get("name"), str) and item["name"] and any(k in item for k in _CARD_KEYS):
                yield CARD, item["name"], file
            if _text(item) and "effect" in item:
                yield CARD_TEXT, _text(item), file


def source_notes() -> Iterator[tuple[str, str, str]]:
    """Every note of the board and card files on where a fact comes from or why it is missing:
    a "source", and the values of a "provenance" or "missing" table, at any depth."""
    for file in (*BOARD_FILES, *CARD_FILES):
        yield from ((SOURCE, note, file) for note in _notes(_data(file)))


def _notes(value, inside: bool = False) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(inner, str) and inner and (inside or key == "source"):
                yield inner
            yield from _notes(inner, inside or key in ("provenance", "missing"))
    elif isinstance(value, list):
        for inner in value:
            yield from _notes(inner, inside)


# The rule sets and modules by the names their boxes print (companion/table_rules/rules_choice.py
# offers them by these ids): shown through rule_set() and module().
RULE_SET_NAMES = {"classic": "Classic (1995)", "2023": "2023 edition", "king-intrigue": "King and Intrigue"}
MODULE_NAMES = {
    "new-regency": "New Regency",
    "old-hands": "Old Hands",
    "power-shift": "Power Shift",
    "four-stacks": "Four stacks",
    "players-edition": "Player's Edition",
    "special-cards": "Special cards",
}


def rules_names() -> Iterator[tuple[str, str, str]]:
    """The rule sets' and modules' printed names."""
    source = "companion/words/names.py"
    for name in RULE_SET_NAMES.values():
        yield RULE_SET, name, source
    for name in MODULE_NAMES.values():
        yield MODULE, name, source


def all_names() -> Iterator[tuple[str, str, str]]:
    """(context, message, where it comes from) of every name and card text shown; the data files
    are named by their file name (in engine/data), the others by their path."""
    yield from board_names()
    yield from card_names()
    yield from rules_names()
    yield from source_notes()
