"""Risk of Collapse (King and Intrigue, Player's Edition): the Castillo takes no more.

Rule text: "Caballeros already inside the Castillo remain in the Castillo, and will be scored
normally during general and special scorings." Components: "1 risk of collapse tile".

Read: the tile goes on the Castillo; while it lies there no Caballero (nor Grande) goes into
the Castillo (engine/queries.entry_refusal: placements, moves, the cards that throw pieces
in), and those inside stay and are scored and emptied as usual. How long the tile stays is not
published: the card's `until` (engine/effects/ki_tokens.py), entered by the table. The action
has no choice: it is done when started."""

from __future__ import annotations

from ..effect_registry import Effect, register
from ..stages.turn import finish_special
from ..state import GameState, Special
from . import ki_tokens

MARKER = "risk_of_collapse"


def begin(state: GameState, sp: Special) -> None:
    state.markers[MARKER] = state.board.castillo
    finish_special(state)


register(Effect(MARKER, begin, check_start=ki_tokens.need_until))
