"""Special Scoring (classic): "Score all of the "4" regions" (and the "5", the "6" and "7"
regions: `group`, the number printed on the region's scoreboard)."""

from __future__ import annotations

from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..scoring import regions_in_group, require_scoreboards, score_regions
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    group = sp.card.params["group"]
    lines = score_regions(state, regions_in_group(state, group))
    P.record_scoring(state, P.special_title(state, sp, f'all "{group}" regions'), lines)
    finish_special(state)


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    """Only a board with unknown facts can lack a scoreboard (never the classic one): refused
    at the start, not half-way."""
    if state.board.missing:
        require_scoreboards(state, state.board.regions)


register(Effect("score_group", begin, check_start=check_start))
