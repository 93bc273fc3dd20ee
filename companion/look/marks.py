"""The outlines of a player's pieces, as plain points: the map (Kivy), the share picture (PIL) and
the phone page and club board (SVG) draw the same shapes from here.

points(shape, x, y, r) is a mark's outline (one of players.MARK_SHAPES) centred on (x, y) and
fitting a circle of radius r; grande(x, y, h) is the Grande's tall piece (a crowned tower),
standing h high on (x, y). Screens with y up (Kivy) pass y_up=True; pictures and SVG, y down.
"""

from __future__ import annotations

import math

Point = tuple[float, float]

CIRCLE_STEPS = 32
# Where each shape's corners start (degrees, counter-clockwise from "right", y up): a triangle
# stands on its base, a square sits flat, a diamond on its point.
_POLYGONS = {"triangle": (3, 90), "square": (4, 45), "diamond": (4, 90), "hexagon": (6, 0)}
# A shape's share of the circle it fits: corners reach r, so the flat ones look as heavy as a disc.
_REACH = {"triangle": 1.1, "square": 0.95, "diamond": 1.0, "hexagon": 0.9, "circle": 0.85, "ring": 0.85}
# A line of a player's (a score plot's): its dash pattern (SVG stroke-dasharray, in stroke widths),
# so a line is told by more than its colour too.
DASHES = {
    "circle": "",
    "triangle": "6 2",
    "square": "1.5 1.5",
    "diamond": "6 1.5 1.5 1.5",
    "hexagon": "3 1.5",
    "star": "0.8 1.6",
    "cross": "4 1.5 0.8 1.5",
    "ring": "10 2",
}
HOLLOW = ("ring",)  # drawn as an outline: the colour is a thick band, the middle is the ground


def _regular(x: float, y: float, r: float, corners: int, start: float, sign: float) -> list[Point]:
    return [
        (
            x + r * math.cos(math.radians(start + 360 * k / corners)),
            y + sign * r * math.sin(math.radians(start + 360 * k / corners)),
        )
        for k in range(corners)
    ]


def points(shape: str, x: float, y: float, r: float, *, y_up: bool = True) -> list[Point]:
    """The outline of a mark of `shape` centred on (x, y) within radius r."""
    sign = 1.0 if y_up else -1.0
    reach = r * _REACH.get(shape, 1.0)
    if shape in _POLYGONS:
        corners, start = _POLYGONS[shape]
        if shape == "triangle":  # its centre of mass sits low: lift it so it looks centred
            y += sign * reach * 0.12
        return _regular(x, y, reach, corners, start, sign)
    if shape == "star":
        return [
            (
                x + (reach if k % 2 == 0 else reach * 0.48) * math.cos(math.radians(90 + 36 * k)),
                y + sign * (reach if k % 2 == 0 else reach * 0.48) * math.sin(math.radians(90 + 36 * k)),
            )
            for k in range(10)
        ]
    if shape == "cross":
        a, b = reach * 0.36, reach * 0.92  # a plus sign: arms a wide, b long
        outline = [
            (a, b),
            (a, a),
            (b, a),
            (b, -a),
            (a, -a),
            (a, -b),
            (-a, -b),
            (-a, -a),
            (-b, -a),
            (-b, a),
            (-a, a),
            (-a, b),
        ]
        return [(x + px, y + sign * py) for px, py in outline]
    return _regular(x, y, reach, CIRCLE_STEPS, 90, sign)  # circle, ring, and any shape unknown


def inner_radius(shape: str, r: float) -> float:
    """How wide a letter or number may be written inside the mark (the circle it holds)."""
    reach = r * _REACH.get(shape, 1.0)
    share = {"triangle": 0.5, "square": 0.707, "diamond": 0.707, "hexagon": 0.866, "star": 0.45, "cross": 0.45}
    return reach * share.get(shape, 1.0)


def grande(x: float, y: float, h: float, *, y_up: bool = True) -> list[Point]:
    """The Grande: a tower with a crown of three points, standing h high with its foot on (x, y);
    0.7 h wide at the base, so it never passes for a Caballero's flat mark."""
    w = 0.7 * h
    outline = [
        (-w / 2, 0),
        (w / 2, 0),
        (w / 2, 0.12 * h),
        (0.3 * w, 0.2 * h),
        (0.3 * w, 0.66 * h),
        (0.45 * w, 0.74 * h),
        (0.45 * w, 1.0 * h),
        (0.22 * w, 0.86 * h),
        (0, 1.0 * h),
        (-0.22 * w, 0.86 * h),
        (-0.45 * w, 1.0 * h),
        (-0.45 * w, 0.74 * h),
        (-0.3 * w, 0.66 * h),
        (-0.3 * w, 0.2 * h),
        (-w / 2, 0.12 * h),
    ]
    sign = 1.0 if y_up else -1.0
    return [(x + px, y + sign * py) for px, py in outline]


def crown(x: float, y: float, r: float, *, y_up: bool = True) -> list[Point]:
    """The King's crown (no letter: a "K" would read as Black's initial), centred on (x, y)."""
    outline = [(-0.6, -0.4), (0.6, -0.4), (0.68, 0.42), (0.32, 0.06), (0, 0.5), (-0.32, 0.06), (-0.68, 0.42)]
    sign = 1.0 if y_up else -1.0
    return [(x + px * r, y + sign * py * r) for px, py in outline]


def svg_points(outline: list[Point]) -> str:
    """An outline as an SVG polygon's `points` attribute."""
    return " ".join(f"{px:.2f},{py:.2f}" for px, py in outline)
