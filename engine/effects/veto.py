"""Veto (classic): "You may prevent one special action during this round or the next round."
Taking the card is holding the Veto (engine/stages/turn.py `take_veto`); using it is a step
of the veto window (engine/stages/veto_window.py). This special action is started only in
games saved at rules revision 1, which held the Veto from then."""

from __future__ import annotations

from ..effect_registry import Effect, register
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    # Rules revision 1 only: the Veto was held once its special action was started.
    state.vetoes.append((sp.player, state.round_index + 1))
    finish_special(state)


register(Effect("veto", begin))
