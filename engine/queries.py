"""Where the King is, and what that allows: the only place that knows the King may stand
outside the regions (2023: France or Portugal with "Exile"; the Castillo with "Rebellion").

`state.king` is an area index: a region, the Castillo (board.castillo) or a space
(board.castillo + 1, + 2 ...: France, Portugal). Whatever it is, it is the King's
region: taboo, and it gives the King's bonus when scored."""

from __future__ import annotations

from .errors import N_, Place, Said, fact_refusal
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
            raise fact_refusal(
                "board-fact-missing",
                board.missing.get(f"spaces.{sid}.neighbours"),
                "{space}'s neighbouring regions are not known: enter them from your board "
                "(board file: spaces[{id}].neighbours)",
                space=Place(board.space_names[i]),
                id=sid,
            )
        return known
    return board.neighbours[state.king]


# --- what may not be changed, and where nothing more may go ----------------------------------
# King and Intrigue lays tokens that extend the King's taboo (rule text, Quarantine and King's
# Guard: "Any region hosting the ... marker may not be changed in any way. It is taboo just like
# the King's region"), close the Castillo (Risk of Collapse) or cap a region (Table for Six's
# limit tables). Every check and option in the engine asks these queries, never `state.king`
# alone. `state.markers` is empty in the classic and 2023 games: they answer at once there.

TABOO_MARKERS = ("quarantine", "kings_guard")  # marker id -> the region it closes
COLLAPSE_MARKER = "risk_of_collapse"  # on the Castillo: nothing more goes in
LIMIT_MARKERS = ("limit_1", "limit_2", "limit_3")  # Table for Six: region -> at most `seats`
LIMIT_EFFECT = "table_for_six"
_TABOO_WHY = {
    "quarantine": N_("it lies under the quarantine marker (taboo just like the King's region)"),
    "kings_guard": N_("the King's Guard stands there (taboo just like the King's region)"),
}


def tokens_out(state: GameState) -> bool:
    """A token that closes or caps something lies on the board (King and Intrigue): the
    queries below have more to say than the King's region. False at once in the classic and
    2023 games (no markers), and in a King and Intrigue game while the tokens are in the supply."""
    markers = state.markers
    return bool(markers) and (
        markers.get("quarantine") is not None
        or markers.get("kings_guard") is not None
        or markers.get(COLLAPSE_MARKER) is not None
    )


def is_taboo(state: GameState, a: int) -> bool:
    if a == state.king:
        return True
    markers = state.markers
    return bool(markers) and (markers.get("quarantine") == a or markers.get("kings_guard") == a)


def taboo_reason(state: GameState, a: int) -> str | None:
    """Why area `a` may not be changed (None: it may)."""
    if a == state.king:
        return Said(N_("it is the King's region"))
    markers = state.markers
    if markers:
        for m in TABOO_MARKERS:
            if markers.get(m) == a:
                return Said(_TABOO_WHY[m])
    return None


def limit_seats(state: GameState) -> int | None:
    """A limit table's seats (Table for Six: the card's `seats`), None when no card says."""
    for card in state.board.cards.values():
        if card.effect == LIMIT_EFFECT:
            return card.params.get("seats")
    return None


def room(state: GameState, a: int) -> int | None:
    """Seats left at area `a`'s limit table (None: no limit table there)."""
    markers = state.markers
    if not markers or not any(markers.get(m) == a for m in LIMIT_MARKERS):
        return None
    seats = limit_seats(state)
    return None if seats is None else max(0, seats - sum(state.counts[a]))


def entry_refusal(state: GameState, a: int, count: int = 1) -> str | None:
    """Why `count` Caballeros may not be placed or moved into area `a` (None: they may): the
    area is taboo, or the Castillo has collapsed (Risk of Collapse). A full limit table refuses
    nothing: "If ... more Caballeros are placed in the region than there is space on the limit
    table, these newer, excess Caballeros are returned to the players' Courts" (`room`, and
    effects/table_for_six.excess_returned after each event)."""
    why = taboo_reason(state, a)
    if why is not None or not tokens_out(state):
        return why
    if a == state.board.castillo and state.markers.get(COLLAPSE_MARKER) is not None:
        return Said(N_("the Castillo is at risk of collapse: nothing more goes in until the tile is removed"))
    return None


def enterable(state: GameState, areas: list[str]) -> list[str]:
    """Of these area ids, those one more Caballero may go into (the asks' options)."""
    if not tokens_out(state):
        return areas
    index = state.board.area_index
    return [aid for aid in areas if entry_refusal(state, index[aid]) is None]
