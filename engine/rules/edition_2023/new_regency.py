"""New Regency (2023 mini expansion): the ten ♠ Action cards as the fifth stack.

The rule book: "Set up the game as usual, but return the King's card to the box. Instead,
shuffle the 10 Action cards with the ♠ symbol and place them face down as the 5th stack
next to the others. The 5th stack follows the same rules as the other Action card stacks.
At the beginning of each round, you reveal the top card. At the end of the round, discard
the card (whether it was used or not) and reveal the next one from the stack."

Where the engine does it:
- state._deal_stacks: the ♠ cards (module "new-regency") go to `state.regency_undrawn`,
  and only with this module; the King's card is not dealt (the reveal turns it up only without
  New Regency).
- engine/stages/reveal.py: one card more, for stack 5, checked here (`check_revealed`, `reveal`: its hooks).
- engine.primitives.put_away_used: a used or left-over ♠ card goes to the discard pile like any
  other (the King's card never does).
A ♠ card's Caballeros are printed on the card (`card.placement`), not given by its stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import card_entry
from ...errors import Card, RuleViolation
from ...hooks import Part, register_part
from ...state import GameState

if TYPE_CHECKING:
    from ...board.model import ActionCard

MODULE = "new-regency"
STACK = 5


def is_regency_card(card: ActionCard) -> bool:
    return card is not None and getattr(card, "module", None) == MODULE


def check_revealed(state: GameState, cid: str) -> None:
    """The card turned up on stack 5 is a ♠ card still face down there."""
    card = state.board.cards.get(cid)
    if card is None or not is_regency_card(card):
        raise RuleViolation("reveal", "{cid!r} is not a New Regency card (stack 5)", cid=cid)
    if card.copies is None:  # nobody entered its copies: it turns up while the ♠ stack has room
        card_entry.check_turn_up(state, card, 5)
        return
    if not state.regency_undrawn.get(cid):
        raise RuleViolation(
            "reveal",
            "no {card} card is left face down in stack 5 (used New Regency cards are discarded, never shuffled back)",
            card=Card(card.name),
        )


def reveal(state: GameState, cid: str) -> None:
    state.regency_undrawn[cid] -= 1


def _offer(state: GameState) -> dict[str, int]:
    """The ♠ cards stack 5 may still show."""
    return {cid: k for cid, k in state.regency_undrawn.items() if k}


PART = register_part(
    Part("new-regency", hooks={"stack5_offer": _offer, "stack5_check": check_revealed, "stack5_reveal": reveal})
)
