"""The names the editions print (regions, cards, the Castillo) and the cards' texts, in the
table's language. The engine and its data files keep the English names as ids of meaning; they
are turned into the table's words only where shown, through these functions.

Each name is a catalogue message with a context ("place", "card", "card text"), so "Intrigue"
the card and a word "intrigue" elsewhere can differ. all_names() lists every name the data
files hold, for the catalogue's template (companion/words/tool.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources

from companion.words.catalogue import pgettext

PLACE, CARD, CARD_TEXT = "place", "card", "card text"


def place(name: str) -> str:
    """A region, the Castillo, France or Portugal, as the table's edition prints it."""
    return pgettext(PLACE, name)


def card(name: str) -> str:
    return pgettext(CARD, name)


def card_text(text: str) -> str:
    """What a card says, in the team's own words in the table's language."""
    return pgettext(CARD_TEXT, text)


def _data(name: str) -> dict:
    return json.loads(resources.files("engine").joinpath("data", name).read_text(encoding="utf-8"))


def _walk(value) -> Iterator[dict]:
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _walk(inner)


def all_names() -> Iterator[tuple[str, str, str]]:
    """(context, message, the data file it comes from) of every name and card text shown."""
    for file in ("board_classic.json", "board_2023.json"):
        data = _data(file)
        for area in [*data.get("regions", []), *data.get("spaces", []), data.get("castillo") or {}]:
            if area.get("name"):
                yield PLACE, area["name"], file
    for file in ("action_cards_classic.json", "action_cards_2023.json", "cards_king_intrigue.json"):
        for item in _walk(_data(file)):
            if isinstance(item.get("name"), str) and ("effect" in item or "stack" in item):
                yield CARD, item["name"], file
                if isinstance(item.get("text"), str) and item["text"]:
                    yield CARD_TEXT, item["text"], file
