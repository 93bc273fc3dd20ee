"""Intrigue (classic): "You may move all of your own Caballeros from any one region" (moved as
engine/effects/move.py moves them, from one region, only your own, all of them)."""

from __future__ import annotations

from .. import events as ev
from ..effect_registry import Effect, register
from ..stages.turn import finish_special
from ..state import GameState, Special
from .move import ask, moved


def begin(state: GameState, sp: Special) -> None:
    sp.effect = "move_all_own"
    if not state.removable_regions(sp.player):
        finish_special(state)


register(Effect("move_all_own", begin, ask, steps={ev.CaballerosMoved: moved}))
