"""Mistress (King and Intrigue, Special cards): the King is distracted.

Rule text: "You may not place Caballeros in the King's region. If there is a special scoring
in the King's region this round, the King's bonus will not be awarded. Also, if there is a
general scoring directly following this round, the King's bonus will not be awarded. Home
region bonuses score as usual."

Read: the action lays the card in front of the player (public marker `mistress`): to the end
of the round, and through a general scoring that directly follows, no King's bonus is paid
(rules/king_intrigue/round.py drops those lines; the King's Guard's bonus too, it is the King's);
the first sentence is the usual taboo (nothing else changes). No choice: done when started."""

from __future__ import annotations

from ..effect_registry import Effect, register
from ..stages.turn import finish_special
from ..state import GameState, Special

MARKER = "mistress"


def begin(state: GameState, sp: Special) -> None:
    state.markers[MARKER] = state.players[sp.player]
    finish_special(state)


register(Effect(MARKER, begin))
