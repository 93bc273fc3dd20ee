"""The table completes its card set during a game, and the game goes on.

The 2023 rule book names only some of its 40 stack cards and gives few of their stacks or
copies (engine/data/action_cards_2023.json). A table that turns up a card the set does not
list, or a listed card whose stack is not known, enters it once, in the card-file
vocabulary (the effect and its parameters from engine/data/effects.json), and it is part of
the game from then on: the board is rebuilt from the setup's files plus every entry so far,
checked exactly like a card file, and the new copies go face down into their stack.

An entry is accepted between rounds' steps, before the cards of a round are turned up (the
stage "reveal" or the dummy's Region cards), never in the middle of a turn."""
from __future__ import annotations

from .board import DataFileError, load_board
from .errors import RuleViolation
from .state import GameState

OPEN_STAGES = ("modifiers_deal", "dummy_regions", "reveal")  # before a round's cards are up


def merged_cards_file(base: dict | None, entries: list[dict], rules: str) -> dict:
    """The setup's card file with the entries folded in: a later entry for the same id
    completes or corrects the earlier one, field by field (params merged)."""
    cards: dict[str, dict] = {}
    for entry in list((base or {}).get("cards", [])) + list(entries):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str):
            raise RuleViolation("card-set", "each card entry needs an \"id\"")
        old = cards.get(ident, {})
        merged = {**old, **entry}
        if "params" in old or "params" in entry:
            merged["params"] = {**old.get("params", {}), **entry.get("params", {})}
        cards[ident] = merged
    return {**(base or {}), "rules": rules, "cards": list(cards.values())}


def _copies_by_stack(state: GameState, board) -> dict[str, tuple[int | None, int]]:
    out = {}
    for c in board.cards.values():
        if c.module is None or c.module in state.rules.modules:
            out[c.id] = (c.stack, c.copies or 0)
    return out


def _regency_deltas(state: GameState, before, board) -> dict[str, int]:
    """New Regency's ♠ cards face down in stack 5 after the entries: a ♠ card the table adds
    or whose copies it gives goes face down there too ("The 5th stack follows the same rules
    as the other Action card stacks"), less those already turned up."""
    out = {}
    if not state.rules.new_regency:
        return out
    for c in board.cards.values():
        if c.module != "new-regency" or c.stack is None or c.copies is None:
            continue
        seen = before.get(c.id, (None, 0))[1] - state.regency_undrawn.get(c.id, 0)
        if c.copies < seen:
            raise RuleViolation("card-set", f"cards[{c.id}].copies: {seen} have already been turned up, "
                                f"so the box holds at least {seen}")
        out[c.id] = c.copies - seen
    return out


def apply_completion(state: GameState, e) -> None:
    """Check the entries like a card file, then rebuild the board and deal the new copies."""
    if state.stage not in OPEN_STAGES:
        raise RuleViolation("card-set", "the card set is completed before a round's cards are turned up, "
                            "not in the middle of a round")
    entries = state.card_entries + list(e.cards)
    board_file, cards_file = state.table_files
    merged = merged_cards_file(cards_file, entries, state.rules.id)
    try:
        board = load_board(state.rules.id, state.n - (state.dummy is not None), board_file, merged)
    except DataFileError as exc:
        raise RuleViolation("card-set", str(exc)) from None
    before, after = _copies_by_stack(state, state.board), _copies_by_stack(state, board)
    deltas = {}
    for cid, (stack, copies) in after.items():
        old_stack, old_copies = before.get(cid, (None, 0))
        if stack is None or stack > 4:
            continue
        seen = old_copies - _face_down(state, old_stack, cid) if old_stack else 0
        if old_stack is not None and old_stack != stack and seen:
            raise RuleViolation("card-set", f"cards[{cid}].stack: {cid} has already been turned up from "
                                f"stack {old_stack}; it cannot be moved to stack {stack}")
        if copies < seen:
            raise RuleViolation("card-set", f"cards[{cid}].copies: {seen} have already been turned up, "
                                f"so the box holds at least {seen}")
        deltas[cid] = (old_stack if old_stack is not None and old_stack <= 4 else None, stack, copies - seen)
    regency = _regency_deltas(state, before, board)
    _deal(state, deltas)
    for cid, face_down in regency.items():
        if face_down > 0:
            state.regency_undrawn[cid] = face_down
        else:
            state.regency_undrawn.pop(cid, None)
    state.board = board
    state.card_entries = entries


def _face_down(state: GameState, stack: int, cid: str) -> int:
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
