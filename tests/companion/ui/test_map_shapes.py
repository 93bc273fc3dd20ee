"""The map of Spain the tablet app draws: its shapes agree with the board.

Checks companion/ui/data/spain_map.json against the engine's board with plain
geometry (no shapely, no Kivy): the same regions, shared borders exactly where
the board has adjacency, simple polygons that do not overlap, marker points
inside their region, and the Castillo circle out at sea.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from engine.board.build import classic_board

MAP_PATH = Path(__file__).parents[3] / "companion/ui/data/spain_map.json"
POINT_KEYS = ("label", "king", "grande", "scoreboard")
MIN_MARKER_GAP = 35  # units between marker points, and from a point to its region's border


# --- geometry helpers --------------------------------------------------------


def _cross(o, a, b) -> float:
    """z of (a - o) x (b - o): > 0, < 0 or 0 for the turn o -> a -> b."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


def _on_segment(p, a, b) -> bool:
    """p lies on the closed segment a-b."""
    return (
        _cross(a, b, p) == 0
        and min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])
    )


def _segments_touch(a, b, c, d) -> bool:
    """The closed segments a-b and c-d have any point in common."""
    d1, d2 = _sign(_cross(c, d, a)), _sign(_cross(c, d, b))
    d3, d4 = _sign(_cross(a, b, c)), _sign(_cross(a, b, d))
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return _on_segment(a, c, d) or _on_segment(b, c, d) or _on_segment(c, a, b) or _on_segment(d, a, b)


def _segments_cross_properly(a, b, c, d) -> bool:
    """a-b and c-d cross at a single point interior to both."""
    return _sign(_cross(c, d, a)) * _sign(_cross(c, d, b)) < 0 and _sign(_cross(a, b, c)) * _sign(_cross(a, b, d)) < 0


def _collinear_overlap(a, b, c, d) -> bool:
    """a-b and c-d lie on one line and share more than a single point."""
    if _cross(a, b, c) != 0 or _cross(a, b, d) != 0:
        return False
    axis = 0 if a[0] != b[0] else 1
    lo1, hi1 = sorted((a[axis], b[axis]))
    lo2, hi2 = sorted((c[axis], d[axis]))
    return min(hi1, hi2) > max(lo1, lo2)


def _edges(poly):
    return [(tuple(poly[i]), tuple(poly[(i + 1) % len(poly)])) for i in range(len(poly))]


def _on_boundary(p, poly) -> bool:
    return any(_on_segment(p, a, b) for a, b in _edges(poly))


def _strictly_inside(p, poly) -> bool:
    """Even-odd ray casting; points on the boundary are not inside."""
    if _on_boundary(p, poly):
        return False
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in _edges(poly):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _distance_to_segment(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _distance_to_boundary(p, poly) -> float:
    return min(_distance_to_segment(p, a, b) for a, b in _edges(poly))


def _signed_area(poly) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in _edges(poly)) / 2


def _undirected_edges(poly) -> set[frozenset]:
    return {frozenset(e) for e in _edges(poly)}


# --- fixtures ----------------------------------------------------------------


@pytest.fixture(scope="module")
def spain():
    return json.loads(MAP_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def board():
    return classic_board()


@pytest.fixture(scope="module")
def polygons(spain):
    return {rid: [tuple(p) for p in r["polygon"]] for rid, r in spain["regions"].items()}


# --- tests -------------------------------------------------------------------


def test_canvas_and_regions_match_the_board(spain, board):
    assert spain["width"] == 1000 and spain["height"] == 800
    assert set(spain["regions"]) == set(board.region_ids), (
        f"map has {sorted(spain['regions'])}, board has {sorted(board.region_ids)}"
    )


def test_polygons_are_well_formed_and_on_the_canvas(spain, polygons):
    w, h = spain["width"], spain["height"]
    for rid, poly in polygons.items():
        assert 6 <= len(poly) <= 20, f"{rid}: {len(poly)} vertices"
        assert len(set(poly)) == len(poly), f"{rid}: repeated vertex"
        for x, y in poly:
            assert 0 <= x <= w and 0 <= y <= h, f"{rid}: vertex {(x, y)} off the canvas"
        assert _signed_area(poly) != 0, f"{rid}: zero area"


def test_polygons_share_one_orientation(polygons):
    signs = {rid: _sign(_signed_area(poly)) for rid, poly in polygons.items()}
    assert len(set(signs.values())) == 1, f"mixed orientations: {signs}"


def test_no_polygon_self_intersects(polygons):
    for rid, poly in polygons.items():
        edges = _edges(poly)
        n = len(edges)
        for i, j in itertools.combinations(range(n), 2):
            (a, b), (c, d) = edges[i], edges[j]
            if j == i + 1 or (i == 0 and j == n - 1):  # consecutive: share one vertex only
                assert not _collinear_overlap(a, b, c, d), f"{rid}: edges {i} and {j} fold back"
            else:
                assert not _segments_touch(a, b, c, d), f"{rid}: edges {i} and {j} intersect"


def test_shared_edges_exactly_between_neighbours(board, polygons):
    edges = {rid: _undirected_edges(poly) for rid, poly in polygons.items()}
    ids = board.region_ids
    for i, j in itertools.combinations(range(len(ids)), 2):
        a, b = ids[i], ids[j]
        shared = edges[a] & edges[b]
        if j in board.neighbours[i]:
            assert shared, f"{a} and {b} are neighbours but share no edge"
        else:
            assert not shared, f"{a} and {b} are not neighbours but share edge(s) {shared}"


def test_non_neighbours_do_not_touch(board, polygons):
    ids = board.region_ids
    for i, j in itertools.combinations(range(len(ids)), 2):
        if j in board.neighbours[i]:
            continue
        a, b = ids[i], ids[j]
        for p in polygons[a]:
            assert not _on_boundary(p, polygons[b]), f"{a} touches {b} at {p}"
        for p in polygons[b]:
            assert not _on_boundary(p, polygons[a]), f"{b} touches {a} at {p}"


def test_polygons_do_not_overlap(polygons):
    for a, b in itertools.permutations(polygons, 2):
        for p in polygons[a]:
            assert not _strictly_inside(p, polygons[b]), f"vertex {p} of {a} lies inside {b}"
    for a, b in itertools.combinations(polygons, 2):
        for (p, q), (r, s) in itertools.product(_edges(polygons[a]), _edges(polygons[b])):
            assert not _segments_cross_properly(p, q, r, s), f"edge {p}-{q} of {a} crosses edge {r}-{s} of {b}"
            if frozenset((p, q)) != frozenset((r, s)):
                assert not _collinear_overlap(p, q, r, s), (
                    f"edge {p}-{q} of {a} runs along edge {r}-{s} of {b} without matching it"
                )


def test_marker_points_lie_inside_their_region(spain, polygons):
    for rid, region in spain["regions"].items():
        for key in POINT_KEYS:
            point = tuple(region[key])
            assert _strictly_inside(point, polygons[rid]), f"{rid}: {key} {point} not inside"
            for other, poly in polygons.items():
                if other != rid:
                    assert not _strictly_inside(point, poly), f"{rid}: {key} {point} inside {other}"


def test_marker_points_have_room(spain, polygons):
    for rid, region in spain["regions"].items():
        points = {key: tuple(region[key]) for key in POINT_KEYS}
        for key, p in points.items():
            gap = _distance_to_boundary(p, polygons[rid])
            assert gap >= MIN_MARKER_GAP, f"{rid}: {key} only {gap:.0f} from the border"
        for (k1, p1), (k2, p2) in itertools.combinations(points.items(), 2):
            gap = math.dist(p1, p2)
            assert gap >= MIN_MARKER_GAP, f"{rid}: {k1} and {k2} only {gap:.0f} apart"


def test_castillo_is_at_sea_on_the_canvas(spain, polygons):
    castillo = spain["castillo"]
    (cx, cy), r = castillo["center"], castillo["radius"]
    assert r > 0
    assert r <= cx <= spain["width"] - r and r <= cy <= spain["height"] - r, (
        f"castillo circle {castillo} leaves the canvas"
    )
    for rid, poly in polygons.items():
        assert not _strictly_inside((cx, cy), poly), f"castillo centre lies inside {rid}"
        gap = _distance_to_boundary((cx, cy), poly)
        assert gap > r, f"castillo circle overlaps {rid} (centre {gap:.0f} from it, radius {r})"


def test_sea_outline_is_a_simple_polygon_around_the_regions(spain, polygons):
    sea = [tuple(p) for p in spain.get("sea", [])]
    assert len(sea) >= 3, "the map needs its sea outline (the land drawn behind the regions)"
    edges = _edges(sea)
    n = len(edges)
    for i, j in itertools.combinations(range(n), 2):
        if j == i + 1 or (i == 0 and j == n - 1):
            continue
        assert not _segments_touch(*edges[i], *edges[j]), f"sea outline: edges {i} and {j} intersect"
    for rid, region in spain["regions"].items():
        assert _strictly_inside(tuple(region["label"]), sea), f"{rid}: label outside the sea outline"
