"""2023 positions for the map tests, built with the engine (start_state, then the pieces moved
the way the 2023 cards move them): the King exiled to France or Portugal, the King beside the
Castillo (Rebellion), Grandes thrown into the Castillo (Competition), Scoring tiles on regions
and on the Castillo (values entered by the table, or not), the 2-3 player side (two places
paid; its scoreboards unknown, or entered), and the 2-player dummy.

Each builder returns (name, board, public game view as the app gets it)."""

from __future__ import annotations

from engine.board.load import load_board
from engine.events import GameSetup
from engine.game import start_state
from engine.views import public_view

TILES_ENTERED = {"rules": "2023", "scoring_tiles": {"tile_a": [8, 4, 0], "tile_b": [4, 0, 0]}}
NAMES = {"red": "Maximiliana Fernández", "yellow": "Bo", "green": "Ana", "blue": "Jean-Christophe", "black": "Zé"}
# The 2-3 side's scoreboards as a table entered them from its own board (made-up numbers: the
# test is about how they are shown, not what they are).
SIDE_23 = {
    "rules": "2023",
    "side": "2-3",
    "regions": [
        {"id": rid, "scoreboard": values}
        for rid, values in (
            ("galicia", [4, 2, 0]),
            ("navarra", [5, 3, 1]),
            ("aragon", [5, 4, 1]),
            ("cataluna", [4, 2, 1]),
            ("castilla", [6, 4, 2]),
            ("toledo", [7, 4, 2]),
            ("valencia", [5, 3, 2]),
            ("sevilla", [4, 3, 1]),
            ("granada", [6, 3, 1]),
        )
    ],
    "castillo": {"scoreboard": [5, 3, 1]},
    "scoring_tiles": {"tile_a": [8, 4, 0], "tile_b": [4, 0, 0]},
}


def _state(players: list[str], homes: dict, king: str, board_file: dict | None = None, dummy: str | None = None):
    setup = GameSetup(
        players=players,
        names={p: NAMES[p] for p in players},
        king=king,
        homes=homes,
        start_player=players[0],
        rules="2023",
        dummy=dummy,
        board_file=board_file,
    )
    board = load_board("2023", len(players), board_file)
    return start_state(setup, board), board


def _put(state, counts: dict[str, dict[str, int]]) -> None:
    """Caballeros from the provinces onto the board (as placements would)."""
    board = state.board
    for aid, per in counts.items():
        for pid, n in per.items():
            p = state.players.index(pid)
            state.counts[board.area_index[aid]][p] += n
            state.provinces[p] -= n


def _crowd(state, players: list[str], most: int) -> None:
    """Every colour in every region, 1..most each (a board late in a 5-player game)."""
    board = state.board
    for r, rid in enumerate(board.region_ids):
        _put(state, {rid: {pid: 1 + (r * 3 + i * 5) % most for i, pid in enumerate(players)}})


def _view(state) -> dict:
    return public_view(state).model_dump(mode="json")


def exile_and_competition():
    """4 players, tiles entered: the King exiled to France, Red's Grande thrown into the Castillo,
    the 8·4·0 tile on Galicia and the 4·0·0 tile on the Castillo."""
    players = ["red", "yellow", "green", "blue"]
    state, board = _state(
        players, {"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia"}, "toledo", TILES_ENTERED
    )
    _put(
        state,
        {
            "galicia": {"red": 3, "blue": 2, "green": 1},
            "navarra": {"yellow": 2, "blue": 1},
            "castilla": {"red": 2, "yellow": 2, "green": 2, "blue": 2},
            "toledo": {"green": 3, "red": 1},
            "cataluna": {"blue": 4, "yellow": 1},
            "granada": {"red": 2, "green": 2},
            "castillo": {"red": 2, "blue": 1},
        },
    )
    state.king = board.area_index["france"]
    state.grandes[players.index("red")] = board.castillo
    state.mobile.update(tile_a=board.area_index["galicia"], tile_b=board.castillo)
    return "exile_france_competition", board, _view(state)


def rebellion_crowded():
    """5 players, tiles not entered: the King beside the Castillo (Rebellion), three Grandes thrown
    into it, both tiles on regions (Galicia, the narrowest, and Toledo), every colour in every region."""
    players = ["red", "yellow", "green", "blue", "black"]
    homes = {"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia", "black": "cataluna"}
    state, board = _state(players, homes, "toledo")
    _crowd(state, players, 6)
    state.king = board.castillo
    for pid in ("red", "green", "black"):
        state.grandes[players.index(pid)] = board.castillo
    state.mobile.update(tile_a=board.area_index["galicia"], tile_b=board.area_index["toledo"])
    return "rebellion_crowded", board, _view(state)


def dummy_in_portugal():
    """2 players and the dummy (White) on the 2-3 side nobody entered: "?" values, 2 places paid;
    the King exiled to Portugal; the dummy's Caballeros in five regions; a tile nobody entered on
    the Castillo."""
    state, board = _state(["red", "blue"], {"red": "galicia", "blue": "granada"}, "castilla", dummy="white")
    _put(
        state,
        {
            "castilla": {"red": 2, "white": 2},
            "aragon": {"white": 2, "blue": 1},
            "toledo": {"white": 4, "red": 3, "blue": 3},
            "valencia": {"white": 2},
            "sevilla": {"white": 2, "red": 1},
        },
    )
    state.king = board.area_index["portugal"]
    state.mobile.update(tile_b=board.castillo)
    return "dummy_portugal_unknown_side", board, _view(state)


def dummy_side_entered():
    """2 players and the dummy on the 2-3 side as the table entered it: the third number of each
    scoreboard struck (not paid); the 8·4·0 tile on the Castillo, the King in Toledo, Blue's Grande
    in the Castillo."""
    state, board = _state(["red", "blue"], {"red": "galicia", "blue": "granada"}, "toledo", SIDE_23, dummy="white")
    _put(
        state,
        {
            "navarra": {"white": 2, "red": 2},
            "aragon": {"white": 2, "blue": 1, "red": 1},
            "toledo": {"red": 2},
            "valencia": {"white": 4, "blue": 2},
            "castillo": {"red": 3, "blue": 2},
        },
    )
    state.grandes[1] = board.castillo
    state.mobile.update(tile_a=board.castillo)
    return "dummy_side_entered_tile_on_castillo", board, _view(state)


POSITIONS = (exile_and_competition, rebellion_crowded, dummy_in_portugal, dummy_side_entered)
