"""The stages of a round, one module each; a rule system lists its round as a tuple of them
(engine/rules/*/round.py). Each stage is a `Stage` (engine/hooks.py): its name (what
`state.stage` says while it waits), what it asks, and the events it takes.

    reveal        the table turns up the Action cards
    power         each player plays a Power card
    replenish     a turn begins: Caballeros into the court
    turn          choosing an Action card, placing, the special action (and the transitions)
    veto_window   a special action announced waits for the Veto holders
    special       a special action under way (its effect: engine/effects/<effect>.py)
    scoring       the general scoring's secret discs and the Castillo's count
    end_of_round  cards put away, the First Player marker, the next round, the game's end
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..effect_registry import EFFECTS
from ..errors import RuleViolation
from ..hooks import EVENTS

if TYPE_CHECKING:
    from ..state import GameState


def dispatch(state: GameState, event: Any) -> None:
    """Apply one event: a step of the effect under way (engine/effects/), else the handler of
    the stage that takes it (which refuses it out of its stage)."""
    sp = state.special
    if state.stage == "special" and sp is not None and sp.effect in EFFECTS:  # the stage has its special
        step = EFFECTS[sp.effect].steps.get(type(event))
        if step is not None:
            step(state, sp, event)
            state.event_count += 1
            return
    handler = EVENTS.get(type(event))
    if handler is None:
        raise RuleViolation("phase-order", "{event} is not a game event", event=type(event).__name__)
    handler(state, event)
    state.event_count += 1


HELD = object()  # what before_event returns for an event it holds back (already counted)


def play_event(state: GameState, event: Any) -> None:
    """Check one event and apply it, or refuse it (RuleViolation) with the state unchanged:
    the rule set's hooks around the step (engine/hooks.py), the step itself by `dispatch`."""
    hooks = state.rules.hooks
    before_event = hooks.before_event
    if before_event is None:
        dispatch(state, event)
        return
    before = before_event(state, event)
    if before is HELD:
        return
    step = hooks.own_step(state, event)
    if step is None:
        dispatch(state, event)
    else:
        step(state, event)
        state.event_count += 1
    hooks.after_event(state, before, step is None)
