"""The Joker (King and Intrigue, Player's Edition): a second Power card after everyone.

"When you play this card, you will wait for all of your opponents to play a Power card. Once
all have done so, you play another Power card out of your hand. You may not play a number
that has already been played." The Player's Edition rules: "The second card you play is
fitted into the normal order by the value of the played cards." Read: the Joker sets no
order and is no value played (its own number blocks nobody); it goes to the discard pile
at once. It is refused while the hand might have no card left to play after everyone else
(each later player can take one value away).

No special action: King and Intrigue's round (engine/rules/king_intrigue/round.py) plays a
Joker through `play_joker` when the Power card laid down is one, and offers it only while
`joker_playable`. Its test: tests/engine/effects/test_joker.py.
"""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..errors import RuleViolation
from ..state import GameState


def is_joker(state: GameState, value: int) -> bool:
    cards = state.board.ki_cards
    assert cards is not None  # asked in King and Intrigue games only
    return value in cards.joker_values(state.rules.modules)


def joker_playable(state: GameState, p: int, value: int) -> bool:
    played = {c for c in state.played if c is not None}
    left = [c for c in state.hands[p] if c != value and c not in played]
    still_to_play = len(state.power_order) - state.power_pos - 1
    return len(left) > still_to_play and p not in state.power_order[state.power_pos + 1 :]


def play_joker(state: GameState, e: ev.PowerCardPlayed) -> None:
    p = P.expect_player(state, e.player, state.power_order[state.power_pos], P.N_("play a Power card"))
    if e.card in state.power_spent[p]:
        raise P.not_in_hand(state, p, e.card)  # public: laid down in an earlier round
    if e.card not in state.hands[p] or not joker_playable(state, p, e.card):
        # Both hidden (a hand kept in secret): one refusal, so its words do not tell which.
        raise RuleViolation(
            "power-card-distinct",
            "{who} cannot play the Joker now: it is not in their hand, or after everyone else has played no "
            "card of their hand might be left to play",
            who=P.name(state, p),
        )
    state.hands[p].remove(e.card)
    state.discards[p].add(e.card)
    state.power_spent[p].add(e.card)
    state.power_order.append(p)  # plays again once everyone else has
    state.power_pos += 1
