"""Caballeros moved between the provinces, the court and the board by the rules' own steps:
replenishing the court (the Replenishment phase, Court-style cards) and sending Caballeros back
(the King is angry, one of each back). Split from primitives.py, whose checks these use."""

from __future__ import annotations

from typing import Any

from . import events as ev
from .primitives import (
    N_,
    RuleViolation,
    area,
    area_name,
    name,
    not_taboo,
    plural,
)
from .state import GameState


def taken_from_regions(state: GameState, owner: int, from_regions: dict[str, int], rule: str) -> dict[int, int]:
    """Check Caballeros of `owner` to be taken off the board: never from the
    Castillo or the King's region, never more than lie there."""
    taken = {}
    for rid, c in from_regions.items():
        if not c:
            continue
        a = area(state, rid)
        if a == state.board.castillo:
            raise RuleViolation("castillo-no-removal", "Caballeros cannot be taken from the Castillo")
        not_taboo(state, a, N_("take Caballeros from"))
        if state.counts[a][owner] < c:
            raise RuleViolation(
                rule,
                "{who} has only {held} Caballeros in {area}, not {count}",
                who=name(state, owner),
                held=state.counts[a][owner],
                area=area_name(state, a),
                count=c,
            )
        taken[a] = c
    return taken


def replenish_options(state: GameState, p: int, cap: int) -> dict[str, Any]:
    board = state.board
    return {
        "max": cap,
        "provinces": state.provinces[p],
        "regions": {board.region_ids[r]: c for r, c in state.removable_regions(p).items()},
    }


def check_replenish(state: GameState, p: int, e: ev.CourtReplenished, cap: int) -> dict[int, int]:
    taken = taken_from_regions(state, p, e.from_regions, "replenish-from-board")
    total = e.from_provinces + sum(taken.values())
    # Public limits first, the hidden provinces last: the tablet is public, and neither a
    # province count nor which check refused may tell it (30 minus the provinces, court and
    # board is the player's hidden Castillo tally).
    if total > cap:
        raise RuleViolation(
            "replenish-limit",
            "{who} may move at most {cap} Caballeros to the court now, not {total}",
            who=name(state, p),
            cap=cap,
            total=total,
        )
    if e.from_provinces > state.provinces[p]:
        raise RuleViolation(
            "replenish-limit",
            "{who} does not have {from_provinces} Caballeros left in the provinces: enter what they actually moved",
            who=name(state, p),
            from_provinces=e.from_provinces,
        )
    if taken and e.from_provinces < state.provinces[p]:
        raise RuleViolation(
            "replenish-from-board",
            "{who} still has Caballeros in the provinces: take those first, then from the board",
            who=name(state, p),
        )
    return taken


def do_replenish(state: GameState, p: int, from_provinces: int, taken: dict[int, int]) -> None:
    state.provinces[p] -= from_provinces
    for a, c in taken.items():
        state.counts[a][p] -= c
    state.court[p] += from_provinces + sum(taken.values())


def send_back_options(state: GameState, owner: int, count: int, court: bool) -> dict[str, Any]:
    board = state.board
    return {
        "count": count,
        "court": state.court[owner] if court else 0,
        "regions": {board.region_ids[r]: c for r, c in state.removable_regions(owner).items()},
    }


def check_send_back(
    state: GameState, owner: int, e: ev.CaballerosSentBack, count: int, court_ok: bool
) -> dict[int, int]:
    taken = taken_from_regions(state, owner, e.from_regions, "special-action")
    if e.from_court and not court_ok:
        raise RuleViolation("special-action", "this card takes Caballeros from the regions, not the court")
    if e.from_court > state.court[owner]:
        raise RuleViolation(
            "special-action",
            "{who} has only {court} Caballeros in the court",
            who=name(state, owner),
            court=state.court[owner],
        )
    total = e.from_court + sum(taken.values())
    if total != count:
        raise RuleViolation(
            "special-action",
            plural(
                "{who} must send back exactly {count} Caballero, not {total}",
                "{who} must send back exactly {count} Caballeros, not {total}",
                "count",
            ),
            who=name(state, owner),
            count=count,
            total=total,
        )
    return taken


def do_send_back(state: GameState, owner: int, from_court: int, taken: dict[int, int]) -> None:
    for a, c in taken.items():
        state.counts[a][owner] -= c
    state.court[owner] -= from_court
    state.provinces[owner] += from_court + sum(taken.values())
