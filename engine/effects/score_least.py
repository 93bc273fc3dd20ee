"""Special Scoring (classic): "Score the region(s) with the least Caballeros. Regions without
Caballeros are not considered." (Scored as engine/effects/score_most.py scores the most.)"""

from __future__ import annotations

from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..scoring import regions_by_total, require_scoreboards
from ..state import GameState
from .score_most import begin


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    """Only a board with unknown facts can lack a scoreboard (never the classic one): refused
    at the start, not half-way."""
    if state.board.missing:
        require_scoreboards(state, regions_by_total(state, False))


register(Effect("score_least", begin, check_start=check_start))
