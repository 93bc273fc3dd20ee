"""Revelation (2023): the special Castillo scoring; nothing leaves the Castillo.

Rule book, "Explanations of Special cards":
  "Open the gate and score the Castillo as usual. However, do not move the Caballeros
   afterwards. Instead, you throw them back into the Castillo. They will only be placed in
   regions during the general scoring."
and Competition: "Special case: After scoring the Castillo with the "Revelation" card,
throw the Grandes back into the Castillo."

"As usual": the King's bonus when the King stands by the Castillo (Rebellion), a Grande's
bonus for a Grande thrown in (Competition), ties as everywhere. The gate is opened only once
no one vetoed the action (rules revision 3): the table lifts and counts the Castillo as the
action's first step (CastilloCounted, as at a general scoring: the count wins); games of
revision 2 or before may have counted it in the turn, before the action was announced."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..scoring import require_scoreboards, score_area
from ..stages.turn import finish_special
from ..state import GameState, Special


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    require_scoreboards(state, (state.board.castillo,))  # refuses, naming a board nobody published


def begin(state: GameState, sp: Special) -> None:
    # Rules revision 3: the gate stays shut until no one vetoed; now the table lifts and counts.
    if not state.castillo_after_veto:
        _score(state, sp)  # counted, if at all, before the action was announced


def ask(state: GameState, sp: Special) -> Ask:
    return P.ask_lift_castillo(state, sp)


def lifted(state: GameState, sp: Special, e: ev.CastilloCounted) -> None:
    P.count_castillo(state, e)
    _score(state, sp)


def _score(state: GameState, sp: Special) -> None:
    lines = score_area(state, state.board.castillo)
    P.record_scoring(state, P.special_title(state, sp, "the Castillo; all is thrown back in"), lines)
    finish_special(state)


register(Effect("revelation", begin, ask=ask, steps={ev.CastilloCounted: lifted}, check_start=check_start))
