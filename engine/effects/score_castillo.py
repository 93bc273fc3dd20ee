"""Special Scoring (classic): "Score the Castillo." Rules revision 3: the Castillo stays closed
until no Veto holder stops the scoring; then the table lifts and counts it (CastilloCounted,
a step here) and what it counted is scored. Games saved before counted it in the card's
turn, before the special action was announced (engine/stages/scoring.py)."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..scoring import require_scoreboards, score_area
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    # Rules revision 3: the Castillo stays closed until now (no one vetoed); the table lifts
    # and counts it, and the count it says is what is scored (`counted`).
    # Before, it may have been counted just before the special action was announced.
    if not state.castillo_after_veto:
        score(state, sp)


def score(state: GameState, sp: Special) -> None:
    lines = score_area(state, state.board.castillo)
    P.record_scoring(state, P.special_title(state, sp, "the Castillo"), lines)
    finish_special(state)


def counted(state: GameState, sp: Special, e: ev.CastilloCounted) -> None:
    P.count_castillo(state, e)
    score(state, sp)


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    """Only a board with unknown facts can lack a scoreboard (never the classic one): refused
    at the start, not half-way."""
    if state.board.missing:
        require_scoreboards(state, (state.board.castillo,))


register(
    Effect("score_castillo", begin, P.ask_lift_castillo, steps={ev.CastilloCounted: counted}, check_start=check_start)
)
