"""The veto window: an announced special action waits while the Veto holders, clockwise,
stop it or let it pass (a classic Veto may also stop the rest of one under way)."""

from __future__ import annotations

from .. import events as ev
from ..errors import N_, RuleViolation
from ..hooks import Stage
from ..primitives import (
    VETO_STACK,
    Ask,
    expect_stage,
    lifting_castillo,
    name,
    player,
    put_away_used,
    veto_card,
    veto_stops_whole_only,
)
from ..state import GameState
from .turn import begin_special, finish_special


def ask_veto_window(state: GameState) -> Ask:
    sp = state.special
    assert sp is not None  # the window is the announced special action's
    pending = tuple(state.players[q] for q in sp.vetoes_pending)
    return Ask("veto", pending, {"against": state.players[sp.player], "card": sp.card.id}, card=sp.card.id)


def apply_veto_used(state: GameState, e: ev.VetoUsed) -> None:
    if state.stage == "special" and state.turn is not None and state.turn.card is None:
        raise RuleViolation(
            "veto", "a Veto prevents an Action card's Special action, not a Power Shift Modifier card's ability"
        )
    if state.stage == "special" and veto_stops_whole_only(state):
        raise RuleViolation(
            "veto",
            "a Veto prevents a whole special action when it is announced; it cannot cancel one that has already begun",
        )
    if lifting_castillo(state):
        raise RuleViolation(
            "veto",
            "every Veto holder let the Castillo scoring pass: the Castillo is being "
            "lifted, and a Veto can no longer stop it",
        )
    expect_stage(state, ("veto_window", "special"), N_("using a Veto"))
    sp = state.special
    assert sp is not None
    p = player(state, e.player)
    if p == sp.player:
        raise RuleViolation("veto", "a Veto stops another player's special action, not your own")
    held = sorted((last, i) for i, (q, last) in enumerate(state.vetoes) if q == p)
    if not held:
        raise RuleViolation("veto", "{who} holds no Veto card that may be used now", who=name(state, p))
    del state.vetoes[held[0][1]]
    put_away_used(state, VETO_STACK, veto_card(state))
    finish_special(state)


def apply_veto_waived(state: GameState, e: ev.VetoWaived) -> None:
    expect_stage(state, ("veto_window",), N_("letting a special action pass"))
    sp = state.special
    assert sp is not None
    p = player(state, e.player)
    if p not in sp.vetoes_pending:
        raise RuleViolation("veto", "{who} is not asked about a Veto now", who=name(state, p))
    sp.vetoes_pending.remove(p)
    if not sp.vetoes_pending:
        begin_special(state)


VETO_WINDOW = Stage("veto_window", ask_veto_window, {ev.VetoUsed: apply_veto_used, ev.VetoWaived: apply_veto_waived})
