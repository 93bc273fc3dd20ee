"""Your Majesty (2023): the King's card; move the King to any region.

Rule book, "Explanations of Special cards":
  "You can move the King to any region. You cannot throw him into the Castillo and you
   cannot move it to France or Portugal."
  "If you choose not to perform the Special action, the King remains in place."
and "Use an Action card": "If you used the King's card "Your Majesty", put it back as the
5th stack face down." (engine.primitives.put_away_used keeps it out of the discard pile).

"Any region" holds wherever the King stands now: after Rebellion (by the Castillo) or
Exile (France, Portugal) every region is open to him."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def _targets(state: GameState) -> list[str]:
    return [state.board.region_ids[r] for r in state.board.regions if r != state.king]


def begin(state: GameState, sp: Special) -> None:
    """Nothing to set up: the player names the region."""


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("move_king", (state.players[sp.player],), {"regions": _targets(state)})


def moved(state: GameState, sp: Special, e: ev.KingMoved) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("move the King"))
    if e.region not in _targets(state):
        if e.region == P.CASTILLO or state.board.area_index.get(e.region, -1) > state.board.castillo:
            raise P.RuleViolation(
                "king-move-2023",
                "{card} moves the King to a region: never into the Castillo, nor to France or Portugal",
                card=P.Card(sp.card.name),
            )
        r = P.region(state, e.region, P.N_("the King's new region"))
        raise P.RuleViolation("king-move-2023", "the King already stands in {region}", region=P.area_name(state, r))
    state.king = P.region(state, e.region, P.N_("the King's new region"))
    finish_special(state)


register(Effect("your_majesty", begin, ask, steps={ev.KingMoved: moved}))
