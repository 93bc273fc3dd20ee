"""Revelation (2023): the special Castillo scoring; nothing leaves the Castillo.

Rule book, "Explanations of Special cards":
  "Open the gate and score the Castillo as usual. However, do not move the Caballeros
   afterwards. Instead, you throw them back into the Castillo. They will only be placed in
   regions during the general scoring."
and Competition: "Special case: After scoring the Castillo with the "Revelation" card,
throw the Grandes back into the Castillo."

"As usual": the King's bonus when the King stands by the Castillo (Rebellion), a Grande's
bonus for a Grande thrown in (Competition), ties as everywhere. The table may lift the
Castillo and count it just before (CastilloCounted in this turn, as at a general scoring:
the count wins)."""
from __future__ import annotations

from .. import primitives as P
from ..effect_registry import Effect, register
from ..scoring import require_scoreboards, score_area


def check_start(state, card, p) -> None:
    require_scoreboards(state, (state.board.castillo,))  # refuses, naming a board nobody published


def begin(state, sp) -> None:
    lines = score_area(state, state.board.castillo)
    P.record_scoring(state, P.special_title(state, sp, "the Castillo; all is thrown back in"), lines)
    P.finish_special(state)


register(Effect("revelation", begin, check_start=check_start))
