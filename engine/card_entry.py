"""The table completes its card set, or its board's unpublished facts, during a game, and
the game goes on.

The 2023 rule book names only some of its 40 stack cards and gives few of their stacks or
copies (engine/data/action_cards_2023.json). A table that turns up a card the set does not
list, or a listed card whose stack is not known, enters it once, in the card-file
vocabulary (the effect and its parameters from engine/data/effects.json), and it is part of
the game from then on: the board is rebuilt from the setup's files plus every entry so far,
checked exactly like a card file, and the new copies go face down into their stack.

Entries are accepted between steps, never in the middle of a special action: so a card
whose number of Caballeros nobody entered can be completed by the player who took it, and
a general scoring that stopped on a scoreboard nobody entered (`BoardFactsEntered`: the
2-3 player side, France's neighbours, a Scoring tile's values) goes on once it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .board.errors import DataFileError
from .board.load import load_board
from .errors import Card, RuleViolation, plural
from .state import GameState

if TYPE_CHECKING:
    from .board.model import ActionCard, Board

CLOSED_STAGES = ("special", "veto_window", "over")  # in the middle of a special action; the game over


def merged_board_file(base: dict | None, entries: list[dict], rules: str) -> dict | None:
    """The setup's board file with the entries folded in, entry by entry: regions and spaces
    by id (fields replaced), the Castillo's fields, Scoring tiles by id, provenance notes."""
    if base is None and not entries:
        return None
    out: dict = {"rules": rules, **(base or {})}
    for entry in entries:
        for key, value in entry.items():
            if key in ("regions", "spaces") and isinstance(value, list):
                rows = {r.get("id"): dict(r) for r in out.get(key, []) if isinstance(r, dict)}
                for row in value:
                    ident = row.get("id") if isinstance(row, dict) else None
                    rows[ident] = {**rows.get(ident, {}), **row} if isinstance(row, dict) else row
                out[key] = list(rows.values())
            elif key in ("castillo", "scoring_tiles", "provenance") and isinstance(value, dict):
                out[key] = {**out.get(key, {}), **value}
            else:
                out[key] = value
    return out


def _rebuild(state: GameState, board_entries: list[dict], card_entries: list[dict], rule: str) -> Board:
    board_file, cards_file = state.table_files
    merged_board = merged_board_file(board_file, board_entries, state.rules.id)
    merged_cards = merged_cards_file(cards_file, card_entries, state.rules.id) if (cards_file or card_entries) else None
    try:
        return load_board(
            state.rules.id,
            state.n - (state.dummy is not None),
            merged_board,
            merged_cards,
            spade_printed=state.spade_printed,
        )
    except DataFileError as exc:
        raise RuleViolation(rule, "{problem}", problem=str(exc)) from None


def _take_up(state: GameState, board: Board) -> None:
    """The rebuilt board from now on; the card in play is read from it too."""
    state.board = board
    if state.turn is not None and state.turn.card is not None:
        state.turn.card = board.cards.get(state.turn.card.id, state.turn.card)


def apply_board_facts(state: GameState, e: ev.BoardFactsEntered) -> None:
    """Check the board entry like a board file, then play on with the completed board."""
    if state.stage in CLOSED_STAGES:
        raise RuleViolation(
            "board-fact-missing",
            "board facts are entered between steps, not in the middle of a special action or after the game",
        )
    entries = state.board_entries + [dict(e.board)]
    board = _rebuild(state, entries, state.card_entries, "board-fact-missing")
    _take_up(state, board)
    state.board_entries = entries


def merged_cards_file(base: dict | None, entries: list[dict], rules: str) -> dict:
    """The setup's card file with the entries folded in: a later entry for the same id
    completes or corrects the earlier one, field by field (params merged)."""
    cards: dict[str, dict] = {}
    for entry in list((base or {}).get("cards", [])) + list(entries):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str):
            raise RuleViolation("card-set", 'each card entry needs an "id"')
        old = cards.get(ident, {})
        merged = {**old, **entry}
        if "params" in old or "params" in entry:
            merged["params"] = {**old.get("params", {}), **entry.get("params", {})}
        cards[ident] = merged
    return {**(base or {}), "rules": rules, "cards": list(cards.values())}


def _copies_by_stack(state: GameState, board: Board) -> dict[str, tuple[int | None, int | None]]:
    out = {}
    for c in board.cards.values():
        if c.module is None or c.module in state.rules.modules:
            out[c.id] = (c.stack, c.copies)
    return out


# ---- a card whose copies nobody entered -----------------------------------------------------
# Nobody can count a stack's copies during a game (its cards are face down), and a 9-round game
# never runs through a 2023 stack (used cards go to the discard pile), so copies may stay unknown:
# such a card is "at least as many as turned up so far", and turns up again only while its stack
# may still hold another: the stack's printed size leaves room beyond the copies the set knows and
# one at least of each other card of the stack (GameState.copies_seen counts them).


def stack_room(state: GameState, module: str | None, stack: int) -> int | None:
    """Cards of a printed stack the set does not account for yet (None: its size is not known)."""
    board = state.board
    size = (board.module_stack_sizes.get(module, {}) if module else board.stack_sizes).get(stack)
    if size is None:
        return None
    used = 0
    for c in board.cards.values():
        if c.module == module and c.stack == stack:
            used += c.copies if c.copies is not None else max(1, state.copies_seen.get(c.id, 0))
    return size - used


def may_turn_up(state: GameState, card: ActionCard) -> bool:
    """A card of unknown copies turns up the first time (it is in the box), again while its stack
    may hold another."""
    if not state.copies_seen.get(card.id):
        return True
    room = stack_room(state, card.module, card.stack)
    return room is None or room >= 1


def check_turn_up(state: GameState, card: ActionCard, stack: int) -> None:
    if not may_turn_up(state, card):
        seen = state.copies_seen[card.id]
        raise RuleViolation(
            "reveal",
            plural(
                "{card} has turned up {seen} time from stack {stack}, and stack {stack} holds no card the card set "
                "does not account for: if the table turned up another, correct the card set first (its copies, "
                "or another card's)",
                "{card} has turned up {seen} times from stack {stack}, and stack {stack} holds no card the card set "
                "does not account for: if the table turned up another, correct the card set first (its copies, "
                "or another card's)",
                "seen",
            ),
            card=Card(card.name),
            seen=seen,
            stack=stack,
        )


def turned_up(state: GameState, card: ActionCard) -> None:
    state.copies_seen[card.id] = state.copies_seen.get(card.id, 0) + 1


def unknown_copies_offered(state: GameState, stack: int) -> dict[str, int]:
    """Cards of this table stack whose copies the set does not know and that may turn up now
    (New Regency's ♠ stack: stack 5)."""
    out = {}
    for c in state.board.cards.values():
        if c.copies is not None or c.stack is None:
            continue
        if stack == 5:
            if c.module != "new-regency" or not state.rules.new_regency:
                continue
        elif c.module is not None or c.stack > 4 or state.rules.table_stack(c.stack) != stack:
            continue
        if may_turn_up(state, c):
            out[c.id] = 1
    return out


def _seen(state: GameState, cid: str, stack: int | None, copies: int | None) -> int:
    """Copies of a card turned up so far, by what the set knew before the entry."""
    if copies is None:
        return state.copies_seen.get(cid, 0)
    return copies - _face_down(state, stack, cid) if stack else 0


def _regency_deltas(state: GameState, before: dict[str, tuple[int | None, int]], board: Board) -> dict[str, int]:
    """New Regency's ♠ cards face down in stack 5 after the entries: a ♠ card the table adds
    or whose copies it gives goes face down there too ("The 5th stack follows the same rules
    as the other Action card stacks"), less those already turned up."""
    out: dict[str, int] = {}
    if not state.rules.new_regency:
        return out
    for c in board.cards.values():
        if c.module != "new-regency" or c.stack is None or c.copies is None:
            continue
        old_copies = before.get(c.id, (None, 0))[1]
        seen = state.copies_seen.get(c.id, 0) if old_copies is None else old_copies - state.regency_undrawn.get(c.id, 0)
        if c.copies < seen:
            raise RuleViolation(
                "card-set",
                "cards[{id}].copies: {seen} have already been turned up, so the box holds at least {seen}",
                id=c.id,
                seen=seen,
            )
        out[c.id] = c.copies - seen
    return out


def apply_completion(state: GameState, e: ev.CardSetCompleted) -> None:
    """Check the entries like a card file, then rebuild the board and deal the new copies."""
    if state.stage in CLOSED_STAGES:
        raise RuleViolation(
            "card-set",
            "the card set is completed between steps, not in the middle of a special action or after the game",
        )
    entries = state.card_entries + list(e.cards)
    board = _rebuild(state, state.board_entries, entries, "card-set")
    before, after = _copies_by_stack(state, state.board), _copies_by_stack(state, board)
    deltas = {}
    for cid, (stack, copies) in after.items():
        old_stack, old_copies = before.get(cid, (None, 0))
        seen = _seen(state, cid, old_stack, old_copies)
        if old_stack is not None and old_stack != stack and seen:
            raise RuleViolation(
                "card-set",
                "cards[{id}].stack: {id} has already been turned up from stack {old_stack}; it cannot be moved to "
                "stack {stack}",
                id=cid,
                old_stack=old_stack,
                stack=stack,
            )
        if stack is None or stack > 4:
            continue
        if copies is not None and copies < seen:
            raise RuleViolation(
                "card-set",
                "cards[{id}].copies: {seen} have already been turned up, so the box holds at least {seen}",
                id=cid,
                seen=seen,
            )
        # copies unknown: none counted face down; it turns up while its stack has room (may_turn_up)
        deltas[cid] = (
            old_stack if old_stack is not None and old_stack <= 4 else None,
            stack,
            0 if copies is None else copies - seen,
        )
    regency = _regency_deltas(state, before, board)
    _deal(state, deltas)
    for cid, (_, copies) in after.items():
        if copies is not None:
            state.copies_seen.pop(cid, None)  # counted face down from now on
    for cid, face_down in regency.items():
        if face_down > 0:
            state.regency_undrawn[cid] = face_down
        else:
            state.regency_undrawn.pop(cid, None)
    _take_up(state, board)
    state.card_entries = entries


def _face_down(state: GameState, stack: int, cid: str) -> int:
    if stack == 5:
        return state.regency_undrawn.get(cid, 0)
    if stack is None or stack > 4:
        return 0
    return state.stacks_undrawn[state.rules.table_stack(stack) - 1].get(cid, 0)


def _deal(state: GameState, deltas: dict) -> None:
    for cid, (old_stack, stack, face_down) in deltas.items():
        if old_stack is not None:
            state.stacks_undrawn[state.rules.table_stack(old_stack) - 1].pop(cid, None)
        undrawn = state.stacks_undrawn[state.rules.table_stack(stack) - 1]
        if face_down > 0:
            undrawn[cid] = face_down
        else:
            undrawn.pop(cid, None)
