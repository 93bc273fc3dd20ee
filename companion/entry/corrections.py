"""The table's corrections in the game's history, in words (no Kivy).

A correction's event says how the board lies afterwards; what it changed is
found by replaying the game's events up to it and comparing the public view
just before with the event ("Galicia: Red from 4 to 3"). The Castillo's figures are
never put into words: only that it was set.
"""

from __future__ import annotations

from companion.entry.correction_reasons import reason_words
from companion.entry.position_words import position_changes, start_words
from companion.table.outcomes import Instructions
from companion.words import _
from engine import events as ev
from engine.flow import apply_event
from engine.game import start_state
from engine.views import public_view


def correction_title(event: dict, names: dict[str, str] | None = None, board=None) -> str:
    """As the undo button says it (companion.table.authority.describe); `names`: the players' as
    the log writes them, `board`: the game's (the reason's changes said in the table's words)."""
    why = reason_words(event.get("reason") or "", names or {}, board)
    return _("the table's correction ({why})").format(why=why) if why else _("the table's correction")


def correction_history(table) -> list[Instructions]:
    """Every correction in force, oldest first, with what it changed. Tracking mode only."""
    if table.state is None:
        return []
    found = []
    state = start_state(table.setup.game, table.board)
    for record in table.effective:
        if record["t"] != "event":
            continue
        event = ev.event_from_dict(record["e"])
        if isinstance(event, ev.TableCorrected):
            found.append(_words(table, state, record["e"]))
        apply_event(state, event)
    return found


def _words(table, state, event: dict) -> Instructions:
    before = public_view(state).model_dump(mode="json")
    lines = start_words(event, table.names) + position_changes(before, event, table.names, table.board)
    if event.get("castillo") is not None:
        lines.append(_("The Castillo: set from a count (the figures are not shown here)"))
    title = correction_title(event, table.names, table.board)
    return Instructions(
        event.get("round") or state.round,
        _("Round {round}: {title}").format(
            round=event.get("round") or state.round, title=title[:1].upper() + title[1:]
        ),
        "",
        lines or [_("Nothing changed on the board.")],
    )
