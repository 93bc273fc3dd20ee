"""Placement anywhere (King and Intrigue, the 20 card).

Rule text: "You may place Caballeros in the region of your choice, instead of only in
regions neighboring the King's region. The King's region itself is always taboo!"

The special action is this turn's placement itself (the Action card's number, from the
court), to any region but the King's, or the Castillo. Done after the placement, there is
nothing left to place and it ends at once."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def _limit(state: GameState) -> int:
    return P.turn_card(state).placement or 0


def begin(state: GameState, sp: Special) -> None:
    if P.current_turn(state).placed or not state.court[sp.player] or not _limit(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "place_extra",
        (state.players[sp.player],),
        {"max": min(_limit(state), state.court[sp.player]), "areas": P.movable_targets(state), "anywhere": True},
    )


def placed(state: GameState, sp: Special, e: ev.ExtraCaballerosPlaced) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("place Caballeros"))
    where = P.check_placements(
        state, p, e.placements, _limit(state), lambda a: P.not_taboo(state, a, P.N_("place Caballeros in"))
    )
    P.do_place(state, p, where)
    P.current_turn(state).placed = True
    finish_special(state)


register(Effect("placement_anywhere", begin, ask, steps={ev.ExtraCaballerosPlaced: placed}))
