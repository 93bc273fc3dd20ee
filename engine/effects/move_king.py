"""Royal Advisor and the King's Card (classic): "Move the King to any adjacent region"
(`adjacent_only`), or "to a region of your choice"."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import kings_neighbours
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    """Waits for the player's one choice."""


def king_targets(state: GameState, sp: Special) -> list[str]:
    board = state.board
    if sp.card.params["adjacent_only"]:
        regions = sorted(kings_neighbours(state))
    else:
        regions = [r for r in board.regions if r != state.king]
    return [board.region_ids[r] for r in regions]


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("move_king", (state.players[sp.player],), {"regions": king_targets(state, sp)})


def moved(state: GameState, sp: Special, e: ev.KingMoved) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("move the King"))
    r = P.region(state, e.region, P.N_("the King's new region"))
    if e.region not in king_targets(state, sp):
        raise P.RuleViolation(
            "king-move",
            P.N_("{card} moves the King to an adjacent region, not {region}")
            if sp.card.params["adjacent_only"]
            else P.N_("{card} moves the King to another region, not {region}"),
            card=P.Card(sp.card.name),
            region=P.area_name(state, r),
        )
    state.king = r
    finish_special(state)


register(Effect("move_king", begin, ask, steps={ev.KingMoved: moved}))
