"""Infiltration (2023): this turn's Caballeros may go into the King's region.

Rule book, "Explanations of Special cards":
  "This card breaks the most important rule in the game. With this card, you may place
   your Caballeros in the King's region. You may split them between multiple regions as
   usual."

The special action is the card's placement with the King's region allowed besides his
neighbours and the Castillo ("You decide whether to perform the Special action first and
then place the Caballeros, or vice versa. However, you cannot split the actions"): doing
it is placing, so the turn's placement is then done. Placed first the ordinary way, the
Caballeros are out and the special action has nothing left to do. Vetoed, the player still
places the ordinary way. The King's region is where Caballeros may go: a region, or the
Castillo while the King stands by it (Rebellion); never France or Portugal, where no
Caballero ever goes."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import kings_neighbours
from ..stages.turn import finish_special
from ..state import GameState, Special


def _areas(state: GameState) -> list[str]:
    board = state.board
    regions = set(kings_neighbours(state))
    if state.king in board.regions:
        regions.add(state.king)
    areas = [board.region_ids[r] for r in sorted(regions)]
    return areas + [P.CASTILLO]  # the Castillo: thrown in as usual, or the King's region itself


def begin(state: GameState, sp: Special) -> None:
    if P.current_turn(state).placed:
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "place_extra",
        (state.players[sp.player],),
        {"max": min(P.turn_card(state).placement or 0, state.court[sp.player]), "areas": _areas(state)},
    )


def placed(state: GameState, sp: Special, e: ev.ExtraCaballerosPlaced) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("place Caballeros"))
    allowed = {state.board.area_index[a] for a in _areas(state)}

    def next_to_or_in_kings_region(a: int) -> None:
        if a not in allowed:
            raise P.RuleViolation(
                "placement-area",
                "{area} is neither the King's region nor next to it ({kings_region})",
                area=P.area_name(state, a),
                kings_region=P.area_name(state, state.king),
            )

    limit = P.placement_limit(state, P.turn_card(state), e.placements)
    placed = P.check_placements(state, p, e.placements, limit, next_to_or_in_kings_region)
    P.do_place(state, p, placed)
    P.current_turn(state).placed = True
    finish_special(state)


register(Effect("infiltration", begin, ask, steps={ev.ExtraCaballerosPlaced: placed}))
