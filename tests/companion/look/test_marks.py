"""The pieces' outlines (companion/look/marks.py): each mark shape fits its circle, the shapes
differ, the Grande stands taller than wide, and y-down pictures get the same shapes mirrored."""

from __future__ import annotations

import math

import pytest

from companion.look import marks
from companion.look.players import MARK_SHAPES, PLAYER_LOOKS, web_looks, with_looks


@pytest.mark.parametrize("shape", MARK_SHAPES)
def test_a_mark_fits_its_circle_and_is_centred(shape):
    outline = marks.points(shape, 100, 50, 10)
    assert len(outline) >= 3
    assert all(math.dist(p, (100, 50)) <= 10 * 1.25 for p in outline)  # a triangle's point a little beyond
    cx, cy = sum(x for x, _ in outline) / len(outline), sum(y for _, y in outline) / len(outline)
    assert math.dist((cx, cy), (100, 50)) < 3
    assert 0 < marks.inner_radius(shape, 10) <= 10


def test_the_shapes_differ():
    outlines = {shape: tuple(marks.points(shape, 0, 0, 10)) for shape in MARK_SHAPES if shape not in marks.HOLLOW}
    assert len(set(outlines.values())) == len(outlines)


def test_y_down_mirrors_y_up():
    up, down = marks.points("triangle", 0, 0, 10), marks.points("triangle", 0, 0, 10, y_up=False)
    assert [c for x, y in up for c in (x, -y)] == pytest.approx([c for p in down for c in p])
    assert max(y for _, y in up) > 5  # y up: the triangle's point is up
    tower = marks.grande(0, 0, 40)
    width = max(x for x, _ in tower) - min(x for x, _ in tower)
    assert max(y for _, y in tower) == pytest.approx(40) and min(y for _, y in tower) == 0 and width < 40


def test_pages_get_the_looks_served():
    looks = web_looks()
    assert set(looks) == set(PLAYER_LOOKS)
    assert looks["yellow"]["fill"] == "#f5c71a" and looks["yellow"]["ink"] == "#1a1a1a"
    page = with_looks(b"<script>var LOOKS = /*PLAYER_LOOKS*/{};</script>")
    assert b'"initial":"Y"' in page and b"PLAYER_LOOKS" not in page
