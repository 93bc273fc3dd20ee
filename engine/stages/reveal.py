"""The reveal: the table turns up the top Action card of each stack. The King's card is
turned up again every round, unless a part brings a fifth stack (New Regency's ♠ cards)."""

from __future__ import annotations

from .. import card_entry
from .. import events as ev
from ..errors import N_, RuleViolation, Said
from ..hooks import Stage
from ..primitives import KINGS_CARD_STACK, Ask, expect_stage, undrawn
from ..state import TABLE, GameState
from .power import open_power_phase


def ask_reveal(state: GameState) -> Ask:
    """The table turns up the top card of each stack: the options are the cards each
    stack may still show (with four stacks, stack 2 holds the printed 2s and 3s; with New
    Regency, stack 5 is the ♠ stack)."""
    stacks = {}
    for s in state.rules.stacks:
        face_down = undrawn(state, s)
        stacks[s] = {cid: k for cid, k in face_down.items() if k}
    offer5 = state.rules.hooks.stack5_offer
    if offer5 is not None:
        stacks[KINGS_CARD_STACK] = offer5(state)
    if state.board.missing:  # cards whose copies nobody entered (engine/card_entry.py)
        for s in stacks:
            stacks[s].update(card_entry.unknown_copies_offered(state, s))
    return Ask("reveal_action_cards", (TABLE,), {"stacks": stacks})


def _stacks_named(state: GameState) -> Said:
    stacks = _stacks(state)
    return Said(N_("stacks {stacks} and {last}"), stacks=stacks[:-1], last=stacks[-1])


def _check_revealed(state: GameState, s: int, cid: str) -> None:
    card = state.board.cards.get(cid)
    if s == KINGS_CARD_STACK:  # a part's fifth stack
        state.rules.hooks.stack5_check(state, cid)
        return
    if card is None or card.stack is None or state.rules.table_stack(card.stack) != s:
        raise RuleViolation(
            "reveal",
            N_(
                "{card!r} is not a card of stack {stack}: if the table turned it up, complete the card set with "
                "it first"
            )
            if card is None or card.stack is not None
            else N_(
                "{card!r} is not a card of stack {stack} (the card set does not know its stack): if the table "
                "turned it up, complete the card set with it first"
            ),
            card=cid,
            stack=s,
        )
    if card.copies is None:  # nobody entered its copies: it turns up while its stack has room
        card_entry.check_turn_up(state, card, s)
        return
    if not undrawn(state, s).get(cid):
        raise RuleViolation(
            "reveal",
            "no {card} card is left face down in stack {stack}: if the box holds more copies than the card set says, "
            "complete the card set first",
            card=cid,
            stack=s,
        )


def _kings_card(state: GameState) -> str:
    return next(
        c.id for c in state.board.cards.values() if c.stack == KINGS_CARD_STACK and getattr(c, "module", None) is None
    )


def apply_reveal(state: GameState, e: ev.ActionCardsRevealed) -> None:
    hooks = state.rules.hooks
    expect_stage(state, hooks.reveal_stages(state), N_("revealing action cards"))
    stacks = _stacks(state)
    if len(e.cards) != len(stacks):
        raise RuleViolation(
            "reveal",
            "enter one card for each of {stacks}, got {got}",
            stacks=_stacks_named(state),
            got=len(e.cards),
        )
    for s, cid in zip(stacks, e.cards):
        _check_revealed(state, s, cid)
    for s, cid in zip(stacks, e.cards):
        if state.board.cards[cid].copies is None:
            card_entry.turned_up(state, state.board.cards[cid])
            continue
        if s == KINGS_CARD_STACK:
            hooks.stack5_reveal(state, cid)
            continue
        if not any(state.stacks_undrawn[s - 1].values()):
            state.stacks_undrawn[s - 1] = undrawn(state, s)
            state.stacks_bottom[s - 1] = []
        state.stacks_undrawn[s - 1][cid] -= 1
    state.revealed = dict(zip(stacks, e.cards))
    if hooks.stack5_check is None:
        # The King's card is turned up again every round ("Your Majesty" in 2023).
        state.revealed[KINGS_CARD_STACK] = _kings_card(state)
    state.played = [None] * state.n
    if hooks.after_reveal is not None:
        hooks.after_reveal(state)  # a stage of its own first (the dummy's Power card)
    else:
        open_power_phase(state)


def _stacks(state: GameState) -> tuple[int, ...]:
    """The stacks turned up, in order: the rule set's, and a part's fifth stack."""
    stacks = state.rules.stacks
    return stacks if state.rules.hooks.stack5_check is None else stacks + (KINGS_CARD_STACK,)


REVEAL = Stage("reveal", ask_reveal, {ev.ActionCardsRevealed: apply_reveal})
