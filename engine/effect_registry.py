"""The registry of special-action effects.

Every effect, the classic ones included, is one file in engine/effects/ whose name is the
effect's name in the card data, and registers itself here (engine/effects/__init__.py lists
them). The stages ask this registry what the special action under way does.

An effect is:
  begin(state, special)            set the special action up; may finish it at once
  ask(state, special) -> Ask       what the special action waits for now
  steps[event type](state, special, event)
                                   check, then apply, one event of the special action
  reveal(state, special)           the secret discs it asked for are turned up
  check_start(state, card, player) raise RuleViolation if it cannot start at all (a fact
                                   the table has not entered): checked when announced,
                                   before anything changes
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Effect:
    name: str
    begin: Callable[[Any, Any], None]
    ask: Callable[[Any, Any], Any] | None = None
    steps: dict[type, Callable[[Any, Any, Any], None]] = field(default_factory=dict)
    reveal: Callable[[Any, Any], None] | None = None
    check_start: Callable[[Any, Any, int], None] | None = None
    first_in_turn: str | None = None  # the rule sentence, when its special action opens the turn


EFFECTS: dict[str, Effect] = {}


def register(effect: Effect) -> Effect:
    if effect.name in EFFECTS:
        raise ValueError(f"effect {effect.name!r} is registered twice")
    EFFECTS[effect.name] = effect
    return effect
