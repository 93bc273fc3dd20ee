"""The Power cards: each player plays one, starting with the first player and clockwise;
no value twice in a round. The highest plays first."""

from __future__ import annotations

from .. import events as ev
from ..errors import N_, RuleViolation
from ..hooks import Stage
from ..primitives import (
    Ask,
    clockwise_from,
    expect_player,
    expect_stage,
    known_unavailable,
    name,
    not_in_hand,
    played_values,
    players_only,
    power_totals,
)
from ..state import GameState
from .turn import start_turn


def ask_power(state: GameState) -> Ask:
    p = state.power_order[state.power_pos]
    played = played_values(state)
    hand = sorted(state.hands[p])
    options = {
        "cards": [c for c in hand if c not in played],
        "unavailable": known_unavailable(state, p, played),
        "stacks": {s: cid for s, cid in state.revealed.items() if cid is not None},
    }
    hooks = state.rules.hooks
    if hooks.power_options is not None:
        options["modifiers"] = hooks.power_options(state, p, played, hand)  # private, as the hand is
    return Ask("play_power_card", (state.players[p],), options)


def open_power_phase(state: GameState) -> None:
    """The first player begins, then clockwise; the 2-player dummy never plays in turn."""
    state.power_order = players_only(state, clockwise_from(state, state.start_player))
    state.power_pos = 0
    state.stage = "power"


def apply_power(state: GameState, e: ev.PowerCardPlayed) -> None:
    expect_stage(state, ("power",), N_("playing a Power card"))
    p = expect_player(state, e.player, state.power_order[state.power_pos], N_("play a Power card"))
    # The public rule first, the hidden hand last: which check refused must not tell the table
    # what a hand holds (the Power cards, then Power Shift's Modifier cards).
    hooks = state.rules.hooks
    if e.modifier is not None:
        hooks.check_modifier_total(state, p, e.card, e.modifier)  # Power Shift: the total is distinct
    elif e.card in played_values(state):
        raise RuleViolation(
            "power-card-distinct",
            "{who} cannot play {card}: a Power card of that value was already played this round",
            who=name(state, p),
            card=e.card,
        )
    if e.card not in state.hands[p]:
        raise not_in_hand(state, p, e.card)
    if e.modifier is not None:
        hooks.check_modifier_held(state, p, e.modifier)
    state.hands[p].remove(e.card)
    state.played[p] = e.card
    if e.modifier is not None:
        hooks.play_modifier(state, p, e.modifier)
    state.power_pos += 1
    if state.power_pos == len(state.power_order):
        totals = power_totals(state)
        state.turn_order = sorted(range(state.n), key=lambda q: -totals[q])
        state.turn_pos = 0
        start_turn(state)


POWER = Stage("power", ask_power, {ev.PowerCardPlayed: apply_power})
