"""Replenishment: at the start of a turn, Caballeros from the provinces (then the board)
into the court, as many as the Power card shows."""

from __future__ import annotations

from .. import events as ev
from ..court_moves import check_replenish, do_replenish, replenish_options
from ..errors import N_
from ..hooks import Stage
from ..primitives import Ask, expect_player, expect_stage
from ..state import GameState


def ask_replenish(state: GameState) -> Ask:
    turn, played = state.turn, state.played
    assert turn is not None
    p = turn.player
    value = played[p]
    assert value is not None  # every Power card is played before the turns
    cap = state.board.replenish[value]
    options = replenish_options(state, p, cap)
    # The face-up cards the player will choose from next: the tablet offers "replenish
    # fully and take this card" as one step.
    options["stacks"] = {s: cid for s, cid in state.revealed.items() if cid is not None}
    return Ask("replenish", (state.players[p],), options)


def apply_court_replenished(state: GameState, e: ev.CourtReplenished) -> None:
    # (The Court card's special action is a step of engine/effects/court.py.)
    expect_stage(state, ("replenish",), N_("moving Caballeros to the court"))
    turn = state.turn
    assert turn is not None
    p = expect_player(state, e.player, turn.player, N_("replenish"))
    value = state.played[p]
    assert value is not None
    taken = check_replenish(state, p, e, state.board.replenish[value])
    do_replenish(state, p, e.from_provinces, taken)
    turn.replenished = True
    after = state.rules.hooks.after_replenish
    state.stage = "choose_card" if after is None else after(state, p)


REPLENISH = Stage("replenish", ask_replenish, {ev.CourtReplenished: apply_court_replenished})
