"""Enactment (2023): place a Scoring tile, or move one already on the board.

Rule book, "Explanations of Special cards":
  "Choose one of the two Scoring tiles and place it on a free Scoring board on the game
   board. You may also move a tile that is already on the game board to another one (but
   do not remove it from the game board)."
  "This will change the points awarded during scoring. You can also place one tile on the
   Castillo to replace both Scoring boards there. You are not allowed to place a tile in
   the King's region or take one from there."
  "In regions with such a Scoring tile, you still receive the King's and Grande's bonuses."
and "Scoring tile": "They replace a printed Scoring board in a region. There can only be
one Scoring tile in each region."

The tiles lie where the classic mobile scoreboards did (GameState.mobile, id -> area), and
GameState.scoreboard reads a tile's values there. The rule book does not print the tiles'
values: a tile the table has not entered is refused here, naming the fact (board file:
scoring_tiles), so no scoring ever meets a tile without values. The Castillo is taboo
too while the King stands by it (Rebellion)."""

from __future__ import annotations

import random
from typing import Any

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..events import Event
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

ASK = "place_scoring_tile"


def _tiles(state: GameState) -> dict:
    return getattr(state.board, "scoring_tiles", {})


def _missing(state: GameState, tid: str) -> P.RuleViolation:
    return P.fact_refusal(
        "board-fact-missing",
        state.board.missing.get(f"scoring_tiles.{tid}"),
        "the Scoring tile {tile}'s values are not known: enter its three numbers from your tile "
        "(board file: scoring_tiles.{tile})",
        tile=tid,
    )


def _moves(state: GameState) -> dict[str, list[str]]:
    """Tile -> areas it may go to now."""
    board = state.board
    occupied = {w for w in state.mobile.values() if w is not None}
    moves = {}
    targets = None  # the same free areas for every tile: worked out once
    for tid, values in _tiles(state).items():
        where = state.mobile.get(tid)
        if values is None or where == state.king:
            continue
        if targets is None:
            closed = closed_regions(state)
            targets = [board.area_id(a) for a in range(board.castillo + 1) if a not in closed and a not in occupied]
        if targets:
            moves[tid] = list(targets)
    return moves


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    tiles = _tiles(state)
    if tiles and list(tiles.values()).count(None) == len(tiles):  # no tile's values known
        raise _missing(state, next(iter(tiles)))


def begin(state: GameState, sp: Special) -> None:
    if not _moves(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(ASK, (state.players[sp.player],), {"moves": _moves(state)})


def placed(state: GameState, sp: Special, e: ev.ScoringTilePlaced) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("place a Scoring tile"))
    tiles = _tiles(state)
    if e.tile not in tiles:
        raise P.RuleViolation(
            "scoring-tile", "{tile!r} is not a Scoring tile (tiles: {tiles})", tile=e.tile, tiles=list(tiles)
        )
    if tiles[e.tile] is None:
        raise _missing(state, e.tile)
    a = P.area(state, e.area)
    where = state.mobile.get(e.tile)
    if where is not None:
        P.not_taboo(state, where, P.N_("take a Scoring tile from"))
    P.not_taboo(state, a, P.N_("place a Scoring tile in"))
    if where == a:
        raise P.RuleViolation(
            "scoring-tile", "the Scoring tile {tile} already lies in {area}", tile=e.tile, area=P.area_name(state, a)
        )
    other = state.mobile_at(a)
    if other is not None:
        raise P.RuleViolation(
            "scoring-tile",
            "{area} already has a Scoring tile ({other}): there can only be one Scoring tile in each region",
            area=P.area_name(state, a),
            other=other,
        )
    state.mobile[e.tile] = a
    finish_special(state)


def _choose(rng: random.Random, pid: str, o: dict[str, Any]) -> Event:
    tile = rng.choice(sorted(o["moves"]))
    return ev.ScoringTilePlaced(player=pid, tile=tile, area=rng.choice(o["moves"][tile]))


CHOOSERS = {ASK: _choose}

register(Effect("enactment", begin, ask, steps={ev.ScoringTilePlaced: placed}, check_start=check_start))
