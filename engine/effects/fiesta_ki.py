"""Fiesta (King and Intrigue, Special cards).

Rule text: "You do not receive any Caballeros from the Province into your Court. In
addition to the Caballeros your Caballero card allows you to place, you may also place
another 5 Caballeros."

The first sentence is the card's Caballeros to the court (0, in the card data). The 5 more
go where a placement goes (next to the King, or the Castillo), from the court, as the
special action; fewer are allowed ("you may")."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special

EXTRA = 5


def begin(state: GameState, sp: Special) -> None:
    sp.left = EXTRA
    if not state.court[sp.player]:
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "place_extra",
        (state.players[sp.player],),
        {"max": min(sp.left, state.court[sp.player]), "areas": P.placement_areas(state)},
    )


def placed(state: GameState, sp: Special, e: ev.ExtraCaballerosPlaced) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("place the Fiesta's Caballeros"))
    areas = set(P.placement_areas(state))

    def allowed(a: int) -> None:
        P.not_taboo(state, a, P.N_("place Caballeros in"))
        if P.where_id(state, a) not in areas:
            raise P.RuleViolation(
                "placement-area", "{area} is not adjacent to the King's region", area=P.area_name(state, a)
            )

    P.do_place(state, p, P.check_placements(state, p, e.placements, sp.left, allowed))
    finish_special(state)


register(Effect("fiesta_ki", begin, ask, steps={ev.ExtraCaballerosPlaced: placed}))
