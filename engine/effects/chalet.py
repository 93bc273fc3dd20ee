"""Chalet (2023): the King goes to the region with the fewest Caballeros.

Rule book, "Explanations of Special cards":
  "First, you need to find out which region has the least Caballeros (from all players).
   Place the King in this region."
  "You can not move the King to regions without any Caballeros."

Counted: every colour's Caballeros in each region (the dummy's too; the Castillo is not a
region). The book does not say who breaks a tie for the least: the player playing the card
chooses among the tied regions. The King's own region counts like any other; if it is
(one of) the least, leaving him there is a choice, and if it alone is the least he stays."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def _least(state: GameState) -> list[int]:
    counts = state.counts
    totals = [(r, t) for r in state.board.regions if (t := sum(counts[r]))]
    if not totals:
        return []
    fewest = min(t for _, t in totals)
    return [r for r, t in totals if t == fewest]


def begin(state: GameState, sp: Special) -> None:
    least = _least(state)
    if not least or least == [state.king]:
        finish_special(state)  # no region holds a Caballero, or the King is there already


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "move_king", (state.players[sp.player],), {"regions": [state.board.region_ids[r] for r in _least(state)]}
    )


def moved(state: GameState, sp: Special, e: ev.KingMoved) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("move the King"))
    r = P.region(state, e.region, P.N_("the King's new region"))
    least = _least(state)
    if r not in least:
        raise P.RuleViolation(
            "king-move-2023",
            "{card} places the King in the region with the fewest Caballeros (at least 1): {fewest}, not {region}",
            card=P.Card(sp.card.name),
            fewest=[P.area_name(state, q) for q in least],
            region=P.area_name(state, r),
        )
    state.king = r
    finish_special(state)


register(Effect("chalet", begin, ask, steps={ev.KingMoved: moved}))
