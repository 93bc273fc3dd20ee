"""Intrigue (classic): "You may move 2 additional Caballeros from your court to any region(s)"
(`count`); never into the King's region."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    sp.effect = "place_extra"
    sp.left = sp.card.params["count"]
    if not state.court[sp.player]:
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "place_extra",
        (state.players[sp.player],),
        {"max": min(sp.left, state.court[sp.player]), "areas": P.movable_targets(state)},
    )


def placed(state: GameState, sp: Special, e: ev.ExtraCaballerosPlaced) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("place additional Caballeros"))
    placed = P.check_placements(
        state, p, e.placements, sp.left, lambda a: P.not_taboo(state, a, P.N_("place Caballeros in"))
    )
    P.do_place(state, p, placed)
    finish_special(state)


register(Effect("place_extra", begin, ask, steps={ev.ExtraCaballerosPlaced: placed}))
