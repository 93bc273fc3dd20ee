"""Rebellion (2023): the King stands by the Castillo, which becomes the King's region.

Rule book, "Explanations of Special cards":
  "Place the King next to the Castillo (he is claustrophobic, so don't throw him in). The
   Castillo is now the King's region, with all consequences. If the Castillo is scored, you
   can get the King's bonus. However, the Caballeros are not moved to regions, throw them
   back in. The King remains there until he is moved again. All regions are considered
   neighboring regions of the Castillo."

The consequences live where each rule is applied, all reading state.king (the Castillo's
index) through engine.queries: placement in any region but never into the Castillo (it is
taboo: nothing thrown in, nothing moved in, no Grande, no Scoring tile); the King's bonus
in score_area; at a general scoring no disc is set and everything stays in the Castillo
(engine/stages/end_of_round.py, engine/stages/scoring.py)."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import king_in_castillo
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    if king_in_castillo(state):
        finish_special(state)  # he is there already: nothing changes


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("move_king", (state.players[sp.player],), {"regions": [P.CASTILLO]})


def moved(state: GameState, sp: Special, e: ev.KingMoved) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("move the King"))
    if e.region != P.CASTILLO:
        raise P.RuleViolation(
            "king-move-2023",
            "{card} places the King next to the Castillo, not in {region}",
            card=P.Card(sp.card.name),
            region=e.region,
        )
    state.king = state.board.castillo
    finish_special(state)


register(Effect("rebellion", begin, ask, steps={ev.KingMoved: moved}))
