"""The flow: what is asked next, and how each event changes the state.

`asked(state)` answers "what is asked now, of whom, with which legal options".
`apply_event(state, event)` checks an event against the rules and applies it;
every check runs before the first change, so a refused event (RuleViolation)
leaves the state exactly as it was.

The round is data: each rule system lists its stages (engine/rules/*/round.py), each
stage is a module of engine/stages/, each special action an effect of engine/effects/.
A rule system's modules plug in through named hooks (engine/hooks.py); the flow names none.
The classic round:
  reveal -> power -> [replenish -> choose_card -> turn (placement and the special action,
  either order; special may open a veto window)] per player -> end of round ->
  scoring_discs (after rounds 3, 6, 9) -> next round / over
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import primitives
from .hooks import ASKS
from .primitives import Ask
from .stages import play_event

if TYPE_CHECKING:
    from .state import GameState


def asked(state: GameState) -> Ask:
    """What the game waits for now: the current stage's ask, as the rule set adjusts it."""
    ask = ASKS[state.stage](state)
    adjust = state.rules.hooks.adjust_ask
    if adjust is not None:
        adjust(state, ask)  # King and Intrigue: its Joker, and who holds which Action card
    ask.round = state.round
    ask.stage = state.stage
    return ask


# Check one event and apply it, or refuse it (RuleViolation) with the state unchanged: the
# rule set's hooks around the step, the step by `dispatch` (engine/stages/__init__.py; a rule
# set replays a held-back event through it too).
apply_event = play_event


primitives.waits_for(asked)  # a refusal out of turn names what the game waits for
