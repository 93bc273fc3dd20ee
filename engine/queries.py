"""Where the King is, and what that allows: the only place that knows the King may stand
outside the regions (2023: France or Portugal with "Exile"; the Castillo with "Rebellion").

`state.king` is an area index: a region, the Castillo (board.castillo) or a space
(board.castillo + 1, + 2 ...: France, Portugal). Whatever it is, it is the King's
region: taboo, and it gives the King's bonus when scored."""
from __future__ import annotations

from .errors import RuleViolation
from .state import GameState


def king_in_castillo(state: GameState) -> bool:
    """Rebellion: "The Castillo is now the King's region, with all consequences"."""
    return state.king == state.board.castillo


def king_in_space(state: GameState) -> bool:
    return state.king > state.board.castillo


def _all_regions(castillo: int, _made: dict[int, frozenset[int]] = {}) -> frozenset[int]:  # noqa: B006
    """Every region of a board whose Castillo is area `castillo` (the regions are 0..castillo-1),
    made once per board size."""
    regions = _made.get(castillo)
    if regions is None:
        regions = _made[castillo] = frozenset(range(castillo))
    return regions


def kings_neighbours(state: GameState) -> frozenset[int]:
    """Regions next to the King's region, where Caballeros are placed.

    Rebellion: "All regions are considered neighboring regions of the Castillo".
    France and Portugal: "The neighboring regions to France and Portugal work the same
    way as usual"; the printed board says which they are, and until the table enters
    them the engine refuses rather than guess."""
    board = state.board
    if state.king < board.castillo:
        return board.neighbours[state.king]
    if king_in_castillo(state):
        return _all_regions(board.castillo)
    if king_in_space(state):
        i = state.king - board.castillo - 1
        known = board.space_neighbours[i]
        if known is None:
            sid = board.space_ids[i]
            raise RuleViolation("board-fact-missing", board.missing.get(f"spaces.{sid}.neighbours") or (
                f"{board.space_names[i]}'s neighbouring regions are not known: enter them from your "
                f"board (board file: spaces[{sid}].neighbours)"))
        return known
    return board.neighbours[state.king]
