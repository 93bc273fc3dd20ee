"""Special Scoring (classic): "Score the 1st place position only in all regions. In the case of
any ties, no points are rewarded."
"""

from __future__ import annotations

from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..scoring import require_scoreboards, score_regions
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    lines = score_regions(state, list(state.board.regions), first_only=True)
    P.record_scoring(state, P.special_title(state, sp, "1st place only, all regions"), lines)
    finish_special(state)


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    """Only a board with unknown facts can lack a scoreboard (never the classic one): refused
    at the start, not half-way."""
    if state.board.missing:
        require_scoreboards(state, state.board.regions)


register(Effect("score_first_only", begin, check_start=check_start))
