"""Special Scoring (classic): "Score the region(s) with the most Caballeros." (Its twin,
engine/effects/score_least.py, scores the fewest.)"""

from __future__ import annotations

from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..scoring import regions_by_total, require_scoreboards, score_regions
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    most = sp.effect == "score_most"
    lines = score_regions(state, regions_by_total(state, most))
    P.record_scoring(
        state, P.special_title(state, sp, "region(s) with the " + ("most" if most else "fewest") + " Caballeros"), lines
    )
    finish_special(state)


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    """Only a board with unknown facts can lack a scoreboard (never the classic one): refused
    at the start, not half-way."""
    if state.board.missing:
        require_scoreboards(state, regions_by_total(state, True))


register(Effect("score_most", begin, check_start=check_start))
