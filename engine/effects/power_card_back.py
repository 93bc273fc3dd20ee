"""Power Cards (classic): "Take 1 of your Power Cards from the discard stack back into your
hand" (or this round's card). Which one stays secret once any was taken back."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    """Waits for the player's one choice."""


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "take_back_power_card", (state.players[sp.player],), {"cards": P.power_cards_to_take_back(state, sp.player)}
    )


def taken_back(state: GameState, sp: Special, e: ev.PowerCardTakenBack) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("take back a Power card"))
    if e.card not in P.power_cards_to_take_back(state, p):
        raise P.RuleViolation(
            "special-action",
            P.N_("{who} can take back only a discarded Power card or this round's: {cards}")
            if P.take_back_list(state, p)
            else P.N_("{who} can take back only a discarded Power card or this round's"),
            who=P.name(state, p),
            cards=P.take_back_list(state, p),
        )
    state.took_back_any[p] = True
    if e.card in state.discards[p]:
        state.discards[p].remove(e.card)
        state.hands[p].add(e.card)
    else:
        state.take_back_played[p] = True
    finish_special(state)


register(Effect("power_card_back", begin, ask, steps={ev.PowerCardTakenBack: taken_back}))
