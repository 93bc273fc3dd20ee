"""Old Hands (2023): the four Old Hands Action cards, each replacing a random card of its stack.

The rule book ("Alternative Action cards for 'Old Hands'"): "You can choose which cards to
add, or even play with them all. Shuffle the Action cards as usual. Then, for each ♣ card
you are adding, return 1 random card from the corresponding stack back to the box. [...]
Then, add the new Action cards to their corresponding stacks."

The table draws the random cards; the setup names them (GameSetup.removed_cards) and the ♣
cards added (GameSetup.added_cards; none named: all the set's ♣ cards). Checked here, before
the stacks are dealt: one card returned from each added ♣ card's stack, and none of them a
♣, a ♠ or the King's card. "Shuffle the Action cards as usual" comes first, so with four
stacks a card of the merged 2-and-3 stack answers for a ♣ card of stack 2 or 3.

Pure data checks: no flow, so engine/state.py may call them while dealing the stacks.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NoReturn

from ...errors import N_, Card, RuleViolation, Said
from .. import RuleSet

if TYPE_CHECKING:
    from ...board.model import Board

MODULE = "old-hands"
BASE_STACKS = (1, 2, 3, 4)


def _fail(template: str, **values: Any) -> NoReturn:
    raise RuleViolation("setup", "Old Hands: {detail}", detail=Said(template, **values))


def club_cards(board: Board) -> list[str]:
    return [c.id for c in board.cards.values() if getattr(c, "module", None) == MODULE]


def added_cards(board: Board, rules: RuleSet, named: tuple[str, ...]) -> tuple[str, ...]:
    """The Old Hands cards this game adds: those named, or all of them."""
    if MODULE not in rules.modules:
        if named:
            _fail(N_("added_cards names Old Hands cards, but the old-hands module is not chosen"))
        return ()
    clubs = club_cards(board)
    for cid in named:
        if cid not in clubs:
            _fail(
                N_("added_cards: {card!r} is not an Old Hands card of this card set (Old Hands cards: {known})")
                if clubs
                else N_(
                    "added_cards: {card!r} is not an Old Hands card of this card set (Old Hands cards: none entered)"
                ),
                card=cid,
                known=clubs,
            )
    if len(set(named)) != len(named):
        _fail(N_("added_cards: an Old Hands card is named twice (each is one card)"))
    added = tuple(named) or tuple(clubs)
    if not added:
        _fail(N_('no Old Hands card is known: enter your Old Hands cards (card file: cards[] with module "old-hands")'))
    return added


def _stack(board: Board, rules: RuleSet, cid: str, what: str) -> int:
    card = board.cards[cid]
    if card.stack is None:
        _fail(
            N_("{what} {card}: its stack is not known: enter it (card file: cards[{id}].stack)"),
            what=Said(what),
            card=Card(card.name),
            id=cid,
        )
    return rules.table_stack(card.stack)


def check_removed(board: Board, rules: RuleSet, added: tuple[str, ...], removed: tuple[str, ...]) -> None:
    """ "for each Old Hands card you are adding, return 1 random card from the corresponding stack
    back to the box": the removed cards must be exactly one per added ♣ card, by stack."""
    if not added:
        if removed:
            _fail(N_("removed_cards is for the old-hands module (a card returned for each Old Hands card added)"))
        return
    for cid in removed:
        card = board.cards.get(cid)
        if card is None:
            _fail(N_("removed_cards: {card!r} is not a card of this card set"), card=cid)
        if getattr(card, "module", None) is not None or card.stack not in BASE_STACKS + (None,):
            _fail(N_("removed_cards: {card} is not a card of stacks 1 to 4 of the base game"), card=Card(card.name))
        if card.copies is not None and removed.count(cid) > card.copies:
            _fail(
                N_("removed_cards: {card} is named {named} times; the set has {copies}"),
                card=Card(card.name),
                named=removed.count(cid),
                copies=card.copies,
            )
    need = sorted(_stack(board, rules, cid, N_("Old Hands card")) for cid in added)
    got = sorted(_stack(board, rules, cid, N_("removed card")) for cid in removed)
    if need != got:  # the same stacks, as many times each
        needed, given = Counter(need), Counter(got)
        wanted = [Said(N_("{count} from stack {stack}"), count=k, stack=s) for s, k in sorted(needed.items())]
        named = [Said(N_("{count} from stack {stack}"), count=k, stack=s) for s, k in sorted(given.items())]
        _fail(
            N_(
                "one card goes back to the box for each Old Hands card added, from its stack: {wanted}; "
                "removed_cards names {named}"
            )
            if named
            else N_(
                "one card goes back to the box for each Old Hands card added, from its stack: {wanted}; "
                "removed_cards names none"
            ),
            wanted=wanted,
            named=named,
        )
