"""Where a fact of a card or of the board came from, in the table's language.

The files keep the source in English (a file's words do not depend on the language it was
written in); the ones the app writes itself are said in the table's language when shown. A
citation from the data files ("rule book, 'Setup' 2: ...") is a quote and is shown as it is."""

from __future__ import annotations

from companion.words import N_, _

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


def source_words(source: str) -> str:
    """A source as the table reads it (one the app wrote: in its language)."""
    known = WRITTEN_BY_THE_APP.get(source)
    return _(known) if known else source
