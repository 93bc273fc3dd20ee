"""Empowerment (2023): a Power card back to your hand.

Rule book, "Explanations of Special cards":
  "You may either take the Power card you just played and return it to your hand, or
   choose one from your discard pile. You don't have to show the card to the others."
  "Special case: If you choose the Power card you just played and it was the lowest card
   played in that round, you still receive the First Player marker at the end of the round."
  "For the "Power Shift" mini-expansion: You may also return one of your played Modifier
   cards to your hand instead."

The First Player marker goes by the values played this round, whoever took a card back
(engine.stages.end_of_round.end_round), so the special case holds as it does for the classic card. With
Power Shift the ask also lists the Modifier cards that may go back (ModifierTakenBack;
engine.rules.edition_2023.power_shift.returnable_modifiers)."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..rules.edition_2023 import power_shift
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    if not P.power_cards_to_take_back(state, sp.player):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    options: dict[str, Any] = {"cards": P.power_cards_to_take_back(state, sp.player)}
    modifiers = power_shift.returnable_modifiers(state, sp.player)
    if modifiers:
        options["modifiers"] = modifiers
    return P.Ask("take_back_power_card", (state.players[sp.player],), options)


def taken_back(state: GameState, sp: Special, e: ev.PowerCardTakenBack) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("take back a Power card"))
    cards = P.power_cards_to_take_back(state, p)
    if e.card not in cards:
        raise P.RuleViolation(
            "special-action",
            P.N_("{who} can take back only the Power card just played or one from their discard pile: {cards}")
            if P.take_back_list(state, p)
            else P.N_("{who} can take back only the Power card just played or one from their discard pile"),
            who=P.name(state, p),
            cards=P.take_back_list(state, p),
        )
    state.took_back_any[p] = True
    if e.card in state.discards[p]:
        state.discards[p].remove(e.card)
        state.hands[p].add(e.card)
    else:
        state.take_back_played[p] = True  # back to the hand at the end of the round
    finish_special(state)


def modifier_taken_back(state: GameState, sp: Special, e: ev.ModifierTakenBack) -> None:
    """Power Shift's step (looked up when it runs: engine.rules.edition_2023.power_shift imports the effects,
    so at this module's import it may be half made)."""
    power_shift.modifier_taken_back(state, sp, e)


register(
    Effect(
        "empowerment", begin, ask, steps={ev.PowerCardTakenBack: taken_back, ev.ModifierTakenBack: modifier_taken_back}
    )
)
