"""Special Scoring (classic): "You may select any one region to be scored." """

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..scoring import require_scoreboards, score_area
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    """Waits for the player's one choice."""


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "choose_region",
        (state.players[sp.player],),
        {"purpose": "special_scoring", "regions": list(state.board.region_ids)},
    )


def region_chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("choose the region"))
    r = P.region(state, e.region, P.N_("the chosen region"))
    P.record_scoring(state, P.special_title(state, sp, P.area_name(state, r)), score_area(state, r))
    finish_special(state)


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    """Only a board with unknown facts can lack a scoreboard (never the classic one): refused
    at the start, not half-way."""
    if state.board.missing:
        require_scoreboards(state, state.board.regions)  # any region may be chosen


register(Effect("score_chosen_region", begin, ask, steps={ev.RegionChosen: region_chosen}, check_start=check_start))
