"""The Court (classic): "You may move 2 of your Caballeros from the provinces to your court"
(`count`), by the replenishment's rules (the provinces first, then the board)."""

from __future__ import annotations

from .. import court_moves as C
from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    """Waits for the player's one choice."""


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "replenish", (state.players[sp.player],), C.replenish_options(state, sp.player, sp.card.params["count"])
    )


def replenished(state: GameState, sp: Special, e: ev.CourtReplenished) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("use The Court"))
    taken = C.check_replenish(state, p, e, sp.card.params["count"])
    C.do_replenish(state, p, e.from_provinces, taken)
    finish_special(state)


register(Effect("court", begin, ask, steps={ev.CourtReplenished: replenished}))
