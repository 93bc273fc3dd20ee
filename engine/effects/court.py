"""The Court (classic): "You may move 2 of your Caballeros from the provinces to your court"
(`count`), by the replenishment's rules (the provinces first, then the board)."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..stages.turn import finish_special


def begin(state, sp) -> None:
    """Waits for the player's one choice."""


def ask(state, sp):
    return P.Ask(
        "replenish", (state.players[sp.player],), P.replenish_options(state, sp.player, sp.card.params["count"])
    )


def replenished(state, sp, e: ev.CourtReplenished) -> None:
    p = P.expect_player(state, e.player, sp.player, "use The Court")
    taken = P.check_replenish(state, p, e, sp.card.params["count"])
    P.do_replenish(state, p, e.from_provinces, taken)
    finish_special(state)


register(Effect("court", begin, ask, steps={ev.CourtReplenished: replenished}))
