"""Veto (2023): prevent a whole special action when it is announced.

Rule book, "Explanations of Special cards":
  "Once you have chosen the Veto card, you place it face up in front of you. You are then
   allowed to completely prevent a Special action that someone wants to perform this or
   next round. All others must announce their Special action before performing it. You
   must immediately decide whether you want to prevent this Special action. You cannot
   cancel a Special action if it has already begun."
  "Discard the "Veto" card after you have used it, or latest at the end of the next round."

Where each sentence is applied (engine/stages/): taking the card is holding it
(_apply_choose, VETO_EFFECTS); announcing a special action (SpecialActionStarted) asks
each holder at once, before anything happens (the veto window); a VetoUsed there prevents
the whole action; once begun no Veto is offered or accepted (_veto_stops_whole_only); a
used Veto, or one held to the end of the round after it was taken, goes to the discard
pile (_put_away_used). This module only keeps games of rules revision 1, where a Veto was
held once its special action was started, playable."""

from __future__ import annotations

from ..effect_registry import Effect, register
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    state.vetoes.append((sp.player, state.round_index + 1))
    finish_special(state)


register(Effect("veto_2023", begin))
