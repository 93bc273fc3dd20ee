"""Decay of Authority (classic): "Your fellow players must send all of the Caballeros from their
courts back to the provinces" (or `count` of them)."""

from __future__ import annotations

from .. import primitives as P
from ..effect_registry import Effect, register
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    limit = sp.card.params.get("count")
    for q in P.opponents(state, sp.player):
        k = state.court[q] if limit is None else min(limit, state.court[q])
        state.court[q] -= k
        state.provinces[q] += k
        sp.moves.append(P.move_line(state, q, k, "court", "provinces"))
    P.special_outcome(state, sp)
    finish_special(state)


register(Effect("decay", begin))
