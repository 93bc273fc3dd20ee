"""Table for Six (King and Intrigue, Special cards): a limit table caps a region.

Rule text: "You may not place the limit table in the King's region. A player using the
Intrigue card may move Caballeros to or from the limit table. If (e.g., by secret disc) more
Caballeros are placed in the region than there is space on the limit table, these newer,
excess Caballeros are returned to the players' Courts." Components: "3 limit tables".

The player puts a limit table on a region that is neither taboo nor limited already; with the
three out, nothing is left to do. The seats of a table are the card's `seats` (6, from the
card's name; the table may correct it). Nothing is refused: Caballeros that arrive beyond the
seats (placed, moved, or by secret disc: a general scoring's Castillo, Eviction) go back to
their owners' courts, the newer ones, as the text says: rules/king_intrigue/round.py returns, after
each event, what it brought beyond the seats (one at a time from those who gained, most
first). Caballeros already there when the table comes stay."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import LIMIT_MARKERS
from ..stages.turn import finish_special
from ..state import GameState, Special
from . import ki_tokens


def _free_table(state: GameState) -> str | None:
    return next((m for m in LIMIT_MARKERS if state.markers.get(m) is None), None)


def _regions(state: GameState) -> list[int]:
    return ki_tokens.region_choices(state, exclude={state.markers.get(m) for m in LIMIT_MARKERS})


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "seats")


def begin(state: GameState, sp: Special) -> None:
    if _free_table(state) is None or not _regions(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    ids = state.board.region_ids
    return P.Ask(
        "choose_region",
        (state.players[sp.player],),
        {"purpose": "table_for_six", "regions": [ids[r] for r in _regions(state)]},
    )


def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("place a limit table"))
    r = P.region(state, e.region, P.N_("the limit table's region"))
    P.not_taboo(state, r, P.N_("put a limit table on"))
    if r not in _regions(state):
        raise P.RuleViolation("special-action", "{region} already has a limit table", region=P.area_name(state, r))
    state.markers[_free_table(state)] = r
    finish_special(state)


def excess_returned(state: GameState, before: dict[int, list[int]]) -> None:
    """After an event: Caballeros a limited region took beyond its seats go back to the courts
    of those who brought them (`before`: region -> counts before the event)."""
    seats = ki_tokens.card_param(state, "table_for_six", "seats")
    if seats is None:
        return
    moves = []
    for r, old in before.items():
        row = state.counts[r]
        over = sum(row) - max(seats, sum(old))
        while over > 0:
            gained = sorted(((row[q] - old[q], -q) for q in range(state.n) if row[q] > old[q]), reverse=True)
            q = -gained[0][1]
            row[q] -= 1
            state.court[q] += 1
            moves.append(P.move_line(state, q, 1, r, "court"))
            over -= 1
    if moves:
        P.outcome(
            state, "Table for Six: the newer Caballeros beyond the limit table's seats go back to the court", moves
        )


register(Effect("table_for_six", begin, ask, steps={ev.RegionChosen: chosen}, check_start=check_start))
