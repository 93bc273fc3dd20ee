"""The players' colours as words, in the table's language ("Red" -> "Rot", "Rojo", "Rouge").

A colour id ("red") stays the id everywhere (the log, the phones, the exports); only what the
table reads goes through colour_word(). A colour that names a player (a seat with no typed name
is called by its colour) is a noun in German, Spanish and French too, capitalised, so one form
serves at a sentence's start and inside it. player_name() is the name a player is shown by: the
typed name, or their colour in the table's language when the seat kept its colour as its name."""

from __future__ import annotations

from collections.abc import Callable

from companion.words.catalogue import _, pgettext

DUMMY_PREFIX = "the dummy ("  # engine/game.py names the 2-player dummy "the dummy (White)"

# Every colour a table may seat (companion/look/players.py PLAYER_LOOKS), by id: its word as
# printed on the English box, and that word in the table's language (read at each call).
COLOUR_WORDS: dict[str, str] = {
    "red": "Red",
    "yellow": "Yellow",
    "green": "Green",
    "blue": "Blue",
    "black": "Black",
    "purple": "Purple",
    "orange": "Orange",
    "white": "White",
}
_WORDS: dict[str, Callable[[], str]] = {
    "red": lambda: pgettext("colour", "Red"),
    "yellow": lambda: pgettext("colour", "Yellow"),
    "green": lambda: pgettext("colour", "Green"),
    "blue": lambda: pgettext("colour", "Blue"),
    "black": lambda: pgettext("colour", "Black"),
    "purple": lambda: pgettext("colour", "Purple"),
    "orange": lambda: pgettext("colour", "Orange"),
    "white": lambda: pgettext("colour", "White"),
}


def colour_word(colour_id: str) -> str:
    """A player colour in the table's language; an id the box lacks: the id, capitalised."""
    word = _WORDS.get(colour_id)
    return word() if word else colour_id.replace("_", " ").title()


def player_name(names: dict[str, str] | None, pid: str) -> str:
    """The name `pid` is shown by: the name typed for them, else their colour in the table's
    language (a seat whose name is its colour's English word reads as the colour, translated)."""
    typed = (names or {}).get(pid) or ""
    english = COLOUR_WORDS.get(pid)
    if not typed.strip() or (english is not None and typed.strip() == english):
        return colour_word(pid)
    if typed.startswith(DUMMY_PREFIX) and typed.endswith(")"):  # the engine names the dummy so
        inner = typed[len(DUMMY_PREFIX) : -1]
        inner = colour_word(pid) if english is not None and inner == english else inner
        # Translators: the 2-player dummy, by its colour or the name typed for its seat
        return _("the dummy ({name})").format(name=inner)
    return typed


def colour_adjective(colour_id: str) -> str:
    """A colour said of pieces ("2 white Caballeros"): English writes it small; the other languages
    use the colour's noun (their sentences place it where a noun goes: "Caballeros in Weiß")."""
    word = colour_word(colour_id)
    return word.lower() if word == COLOUR_WORDS.get(colour_id) else word
