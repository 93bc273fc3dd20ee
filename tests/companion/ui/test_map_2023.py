"""The 2023 map (issue 13, item 4): the classic map's shapes under the 2023 names, France and
Portugal drawn beyond the border (spaces: a name and the King, never counts), the King beside
the Castillo (Rebellion), Grandes in it (Competition), Scoring tiles on regions and the Castillo
(their values, or "values not entered", on two lines), the side's paid places (2-3 side: the third number
struck), unknown values as "?", and the dummy's colour keyed as the dummy.

Without Kivy: the 2023 shapes against the 2023 board, and map_layout over crowded and random
2023 positions (engine playouts). In the real app under Xvfb (map_2023_scenarios.py: the table
screen's map given 2023 positions built with the engine, checked like test_shapes.py and saved
as PNGs): test_app_2023.py's launch at 1280x800, the screen catalogue (catalogue_2023_ki.py) at
1920x1200 and 800x1280."""

from __future__ import annotations

import itertools
import random

from companion.ui.widgets import map_layout
from engine.board.load import load_board
from engine.flow import apply_event
from engine.game import board_for, start_state
from engine.playout import play_random_game
from engine.views import public_view
from tests.companion.ui.test_map_layout import problems, text_size
from tests.companion.ui.test_map_shapes import (
    _distance_to_boundary,
    _edges,
    _segments_cross_properly,
    _sign,
    _signed_area,
    _strictly_inside,
    _undirected_edges,
)

MAP = map_layout.map_shapes("2023")
CLASSIC = map_layout.map_shapes("classic")
BOARD = load_board("2023", 4)
SMALL = load_board("2023", 2)
REGIONS = list(MAP["regions"])
SPACES = list(MAP["spaces"])
PLAYERS = ["red", "yellow", "green", "blue", "black"]
TOWER = (
    MAP["castillo"]["center"][0] - 0.65 * 55 - 2,
    MAP["castillo"]["center"][1] - 1.1 * 55 - 2,
    MAP["castillo"]["center"][0] + 0.65 * 55 + 2,
    MAP["castillo"]["center"][1] + 0.85 * 55 + 2,
)


def _names(board) -> dict:
    return {aid: board.area_name(i) for aid, i in board.area_index.items()}


def _values(board) -> dict:
    return {aid: board.scoreboards[i] for aid, i in board.area_index.items() if i <= board.castillo}


def _lay_out(game: dict, board=BOARD, pending: dict | None = None, dummy: str = "") -> list:
    return map_layout.layout(
        MAP,
        game,
        _names(board),
        _values(board),
        pending or {},
        "red",
        text_size,
        TOWER,
        paid=board.scoring_places,
        tiles=board.scoring_tiles,
        dummy=dummy,
        dummy_name=f"the dummy ({dummy.title()})",
    )


def _area_polygon(aid: str):
    if aid == "castillo":
        return map_layout._castillo_zone(MAP["castillo"])
    return (MAP["regions"].get(aid) or MAP["spaces"][aid])["polygon"]


def _tokens_where_they_belong(marks) -> list[str]:
    """The King, Grandes and names in France, Portugal and by the Castillo wholly inside their
    space (the Castillo: the sea around it). In a crowded region a token may end up beside it, as
    on the classic map (test_map_layout.py)."""
    return [
        f"{m.kind} of {m.area} at {m.rect} is not inside {m.area}"
        for m in marks
        if m.kind in ("king", "grande", "space")
        and m.area not in REGIONS
        and not map_layout.rect_inside(m.rect, _area_polygon(m.area))
    ]


# --- the 2023 shapes ------------------------------------------------------------------


def test_the_2023_map_is_the_classic_one_under_the_2023_names():
    assert set(MAP["regions"]) == set(BOARD.region_ids)
    assert set(MAP["spaces"]) == set(BOARD.space_ids) == {"france", "portugal"}
    renamed = {"navarra": "pais_vasco", "castilla": "castilla_la_vieja", "toledo": "castilla_la_nueva"}
    for rid, region in MAP["regions"].items():
        assert region == CLASSIC["regions"][renamed.get(rid, rid)], rid
    assert MAP["castillo"]["center"] == CLASSIC["castillo"]["center"]
    assert "spaces" not in CLASSIC and "legend" not in CLASSIC  # the classic map is as it was


def test_regions_share_edges_exactly_where_the_2023_board_has_neighbours():
    edges = {rid: _undirected_edges([tuple(p) for p in r["polygon"]]) for rid, r in MAP["regions"].items()}
    for i, j in itertools.combinations(range(len(BOARD.region_ids)), 2):
        a, b = BOARD.region_ids[i], BOARD.region_ids[j]
        assert bool(edges[a] & edges[b]) == (j in BOARD.neighbours[i]), (a, b)


def test_france_and_portugal_lie_beyond_the_border_without_overlapping_anything():
    regions = {rid: [tuple(p) for p in r["polygon"]] for rid, r in MAP["regions"].items()}
    orientation = {_sign(_signed_area(poly)) for poly in regions.values()}
    for sid, space in MAP["spaces"].items():
        poly = [tuple(p) for p in space["polygon"]]
        assert {_sign(_signed_area(poly))} == orientation, sid
        for x, y in poly:
            assert 0 <= x <= MAP["width"] and 0 <= y <= MAP["height"], (sid, x, y)
        for rid, other in regions.items():
            assert not any(_strictly_inside(p, other) for p in poly), (sid, rid)
            assert not any(_strictly_inside(p, poly) for p in other), (sid, rid)
            for (p, q), (r, s) in itertools.product(_edges(poly), _edges(other)):
                assert not _segments_cross_properly(p, q, r, s), (sid, rid, p, q, r, s)
        for key in ("label", "king"):
            point = tuple(space[key])
            assert _strictly_inside(point, poly) and _distance_to_boundary(point, poly) >= 35, (sid, key)


def test_the_castillo_and_the_dummys_corner_are_at_sea():
    zone = [tuple(p) for p in MAP["castillo"]["zone"]]
    assert map_layout.rect_inside(TOWER, zone)
    for key in ("king", "grande"):
        assert _strictly_inside(tuple(MAP["castillo"][key]), zone), key
    legend = [tuple(p) for p in MAP["legend"]["zone"]]
    assert _strictly_inside(tuple(MAP["legend"]["anchor"]), legend)
    land = [r["polygon"] for r in MAP["regions"].values()] + [s["polygon"] for s in MAP["spaces"].values()]
    for sea in (zone, legend):
        for poly in land:
            poly = [tuple(p) for p in poly]
            assert not any(_strictly_inside(p, poly) for p in sea)
            assert not any(_strictly_inside(p, sea) for p in poly)


# --- words --------------------------------------------------------------------------------


def test_values_show_what_the_side_pays_and_never_guess():
    assert map_layout.values_parts((6, 4, 2)) == ("6·4·2", "")
    assert map_layout.values_parts((6, 4, 2), paid=2) == ("6·4", "·2")  # 2-3 side: the 3rd is struck
    assert map_layout.values_parts(None) == ("?·?·?", "")
    assert map_layout.values_parts(None, paid=2) == ("?·?", "·?")
    assert map_layout.mobile_parts("8-4-0", None) == ("8·4·0", "")  # classic: the id says it
    assert map_layout.mobile_parts("tile_a", {"tile_a": None}) == ("values\nnot entered", "")
    assert map_layout.mobile_parts("tile_a", {"tile_a": (8, 4, 0)}, paid=2) == ("8·4", "·0")


def test_a_2023_board_shows_its_names_tiles_spaces_and_the_dummy():
    game = {
        "king": "france",
        "regions": {"toledo": {"red": 2, "white": 3}},
        "players": [
            {"id": "red", "grande": "castillo"},
            {"id": "blue", "grande": "navarra"},
            {"id": "white", "grande": None},
        ],
        "mobile_scoreboards": {"tile_a": "castillo", "tile_b": "galicia"},
    }
    board = load_board("2023", 2, {"rules": "2023", "scoring_tiles": {"tile_a": [8, 4, 0]}})
    marks = _lay_out(game, board, dummy="white")
    by = {(m.kind, m.area): m for m in marks}
    assert {by[("name", r)].text for r in REGIONS} == {
        "Galicia",
        "Navarra",
        "Aragón",
        "Cataluña",
        "Castilla",
        "Toledo",
        "Valencia",
        "Sevilla",
        "Granada",
    }
    assert (by[("space", "france")].text, by[("space", "portugal")].text) == ("France", "Portugal")
    assert not [m for m in marks if m.area in SPACES and m.kind not in ("space", "king")]  # no counts, no values
    assert ("king", "france") in by and ("grande", "castillo") in by
    assert (by[("mobile", "castillo")].text, by[("mobile", "castillo")].struck) == ("8·4", "·0")
    assert by[("mobile", "galicia")].text == "values\nnot entered"
    assert (by[("values", "toledo")].text, by[("values", "toledo")].struck) == ("?·?", "·?")  # 2-3 side unknown
    assert by[("legend", "dummy")].items == [("white", 0)] and by[("legend", "dummy")].text == "the dummy (White)"
    assert by[("counts", "toledo")].items == [("red", 2), ("white", 3)]
    assert not problems(marks) and not _tokens_where_they_belong(marks)


# --- crowded and random 2023 boards ---------------------------------------------------------


def _crowded(king: str, grandes: dict, tiles: dict, count: int = 12) -> dict:
    return {
        "king": king,
        "regions": {r: {p: count for p in PLAYERS} for r in REGIONS},
        "players": [{"id": p, "grande": grandes.get(p)} for p in PLAYERS],
        "mobile_scoreboards": tiles,
    }


def test_nothing_covers_anything_wherever_the_king_grandes_and_tiles_stand():
    """The King in every region, by the Castillo, in France and in Portugal x all five Grandes
    together in every region or the Castillo, one tile with their Grandes and one on the Castillo
    (or the King's region), tiles entered or not; a +3 being placed in every region."""
    entered = load_board("2023", 4, {"rules": "2023", "scoring_tiles": {"tile_a": [8, 4, 0], "tile_b": [4, 0, 0]}})
    checked = 0
    for king, together in itertools.product(REGIONS + ["castillo"] + SPACES, REGIONS + ["castillo"]):
        for board in (BOARD, entered):
            other = "castillo" if together != "castillo" else "galicia"
            game = _crowded(king, {p: together for p in PLAYERS}, {"tile_a": together, "tile_b": other})
            marks = _lay_out(game, board, {r: 3 for r in REGIONS})
            assert not problems(marks), (king, together, problems(marks))
            assert not _tokens_where_they_belong(marks), (king, together, _tokens_where_they_belong(marks))
            checked += 1
    assert checked == 12 * 10 * 2


def _positions(rng: random.Random, players: int, modules: tuple, every: int):
    """Public views along a random 2023 game (the engine's playout, with the stand-in files)."""
    setup, events, _ = play_random_game(rng, players, check=False, rules="2023", modules=modules)
    board = board_for(setup)
    state = start_state(setup, board)
    for n, event in enumerate(events):
        apply_event(state, event)
        if n % every == 0:
            yield board, public_view(state).model_dump(mode="json")


def test_random_2023_games():
    """Every 15th position of random 2023 games (2 players with the dummy, 4 and 5 with the
    modules): nothing covers anything, the King and Grandes stand where the view says."""
    rng = random.Random(2023)
    seen = set()
    for players, modules in (
        (2, ()),
        (2, ("new-regency", "power-shift")),
        (4, ("old-hands",)),
        (5, ("new-regency", "old-hands", "power-shift")),
    ):
        for board, game in _positions(rng, players, modules, 15):
            marks = _lay_out(game, board, dummy=game.get("dummy") or "")
            assert not problems(marks), (game["king"], problems(marks))
            assert not _tokens_where_they_belong(marks)
            king = [m.area for m in marks if m.kind == "king"]
            assert king == [game["king"]]
            seen.add(game["king"])
            assert ("legend" in {m.kind for m in marks}) == (players == 2)
    assert len(seen) >= 5
