"""How a rule system plugs into the generic round (engine/stages/) without the flow naming it.

A rule system lists its round as data: a tuple of `Stage`s (what each asks, which events it
takes). A module of a rule system (the 2-player dummy, New Regency, Power Shift, King and
Intrigue) is a `Part`: the stages it adds and the named hooks it answers. A game's rule set
names its parts (`RuleSet.parts`); `RuleSet.hooks` is the `Hooks` they make, worked out once.
Every hook a part does not answer keeps the classic game's behaviour, written here.
`register_round` and `register_part` (called by engine/rules/*/, wired in by
engine/__init__.py) fill ROUNDS, and ASKS and EVENTS, the tables the flow reads.

The hooks, and where the stages ask them:
  adjust_ask(state, ask)               flow.asked: a rule set's own options on any ask
  before_event(state, event)           engine.stages.play_event, before any step: refuse, or
                                       hold the event back (HELD), or note what the after
                                       hook needs (King and Intrigue)
  own_step(state, event)               the rule set's own step for this event now, if any
  after_event(state, before, dispatched)    after the step: the rule set's own consequences
  power_options(state, p, played, hand)     stages/power: extra options of the Power card ask
  check_modifier_total(state, p, card, m)   stages/power: a Modifier card played with it
  check_modifier_held(state, p, m), play_modifier(state, p, m)
  played_values(state)                 the values no one may play again this round
  power_totals(state)                  every seat's value this round (turn order, first player)
  after_replenish(state, p)            the stage after a turn's replenishment
  end_round(state)                     stages/end_of_round: the part's own cards at round end
  round_stage(state)                   the stage a round begins with
  reveal_stages(state)                 the stages the Action cards may be turned up in
  after_reveal(state)                  the stage after the reveal (None: the Power cards)
  take_turn(state)                     a seat the table plays by rule (the dummy): its turn
  leave_castillo(state)                general scoring: a seat's Caballeros that set no disc
  after_general_scoring(state)
  stack5_offer(state), stack5_check(state, cid), stack5_reveal(state, cid)
                                       a fifth stack of Action cards (None: the King's card)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import RuleViolation


@dataclass(frozen=True)
class Stage:
    """One stage of a round: `state.stage` while it waits, what it asks, and the events it
    takes (each handler checks the stage itself, so a refusal names what the game waits for)."""

    name: str
    ask: Callable[[Any], Any]
    events: dict[type, Callable[[Any, Any], None]] = field(default_factory=dict)


@dataclass(frozen=True)
class Part:
    """A rule system's module: its own stages and the hooks it answers."""

    name: str
    stages: tuple[Stage, ...] = ()
    hooks: dict[str, Callable] = field(default_factory=dict)


def _no_modifiers(state: object, p: int, card: int, mid: str) -> None:
    raise RuleViolation("power-shift", "Modifier cards belong to the power-shift module, not chosen here")


_CLASSIC: dict[str, Callable | None] = {
    "adjust_ask": None,
    "before_event": None,
    "own_step": None,
    "after_event": None,
    "power_options": None,
    "check_modifier_total": _no_modifiers,
    "check_modifier_held": None,
    "play_modifier": None,
    "played_values": None,
    "power_totals": None,  # the cards' values (engine.primitives)
    "after_replenish": None,
    "end_round": None,  # after_replenish None: choosing a card
    "round_stage": lambda state: "reveal",
    "reveal_stages": lambda state: ("reveal",),
    "after_reveal": None,
    "take_turn": None,
    "leave_castillo": None,
    "after_general_scoring": None,
    "stack5_offer": None,
    "stack5_check": None,
    "stack5_reveal": None,
}

PARTS: dict[str, Part] = {}
ROUNDS: dict[str, tuple[Stage, ...]] = {}
# Every stage's ask, by stage name, and every event's handler, by event type: the rounds' and
# the parts' together (an event out of its stage is refused by its handler, naming the stage
# the game waits for, whatever the rule set).
ASKS: dict[str, Callable[[Any], Any]] = {}
EVENTS: dict[type, Callable[[Any, Any], None]] = {}


def _add_stages(stages: tuple[Stage, ...]) -> None:
    for stage in stages:
        if ASKS.setdefault(stage.name, stage.ask) is not stage.ask:
            raise ValueError(f"stage {stage.name!r} is asked two ways")
        for kind, handler in stage.events.items():
            if EVENTS.setdefault(kind, handler) is not handler:
                raise ValueError(f"{kind.__name__} is taken by two stages")


def register_round(system: str, stages: tuple[Stage, ...]) -> tuple[Stage, ...]:
    """A rule system's round, in order."""
    _add_stages(stages)
    ROUNDS[system] = stages
    return stages


def register_events(handlers: dict[type, Callable[[Any, Any], None]]) -> None:
    """Events the table may send at any stage (a correction, a card set completed)."""
    _add_stages((Stage("", lambda state: None, handlers),))
    del ASKS[""]


def register_part(part: Part) -> Part:
    unknown = set(part.hooks) - set(_CLASSIC)
    if unknown:
        raise ValueError(f"part {part.name!r} answers no such hook: {', '.join(sorted(unknown))}")
    _add_stages(part.stages)
    PARTS[part.name] = part
    return part


class Hooks:
    """The hooks of one rule set: the classic game's, with its parts' answers over them."""

    def __init__(self, parts: tuple[str, ...]) -> None:
        self.__dict__.update(_CLASSIC)
        answered: dict[str, str] = {}
        for name in parts:
            part = PARTS[name]
            for hook, fn in part.hooks.items():
                if hook in answered:
                    raise ValueError(f"hook {hook!r} answered by both {answered[hook]} and {name}")
                answered[hook] = name
                setattr(self, hook, fn)


_RESOLVED: dict[tuple[str, ...], Hooks] = {}


def hooks_for(parts: tuple[str, ...]) -> Hooks:
    found = _RESOLVED.get(parts)
    if found is None:
        found = _RESOLVED[parts] = Hooks(parts)
    return found
