"""The colour-vision arithmetic (companion/look/colour_vision.py) against published figures, and
the players' colours as every eye sees them: at a table of any rule system, every two colours it
can seat stay clearly apart (CIEDE2000 >= 10) in normal vision and as a protanope, deuteranope
and tritanope sees them (Machado et al. 2009, severity 1.0)."""

from __future__ import annotations

from itertools import combinations

import pytest

from companion.look.colour_vision import VISIONS, delta_e00, delta_e00_lab, lab, simulate
from companion.look.players import PLAYER_LOOKS
from companion.table.setup import colours_for

GOAL = 10.0  # "clearly apart" for small marks at a glance (a just noticeable difference is ~2.3)
SYSTEMS = ("classic", "2023", "king-intrigue")

# Sharma, Wu & Dalal 2005, Table 1: (L*a*b* 1, L*a*b* 2, CIEDE2000), pairs 1, 2, 4, 7, 13, 17,
# 18, 25 and 34 (the hue wrap, a neutral, a large and a dark pair among them).
SHARMA_2005 = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA_2005)
def test_ciede2000_matches_sharma_2005(lab1, lab2, expected):
    assert delta_e00_lab(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert delta_e00_lab(lab2, lab1) == pytest.approx(expected, abs=1e-4)  # either order


def test_lab_of_white_and_red():
    assert lab((1.0, 1.0, 1.0)) == pytest.approx((100.0, 0.0, 0.0), abs=1e-3)
    assert lab((1.0, 0.0, 0.0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.02)


def test_simulations_merge_what_they_should():
    """A dichromat loses one axis: red and green come close for protan and deutan eyes, blue
    and green for tritan eyes, and grey stays grey for all of them."""
    red, green, blue = (0.8, 0.1, 0.1), (0.1, 0.55, 0.1), (0.1, 0.1, 0.8)
    for kind in ("protanopia", "deuteranopia"):
        assert delta_e00(simulate(red, kind), simulate(green, kind)) < delta_e00(red, green) / 2
    assert delta_e00(simulate(blue, "tritanopia"), simulate(green, "tritanopia")) < delta_e00(blue, green) / 2
    for kind in VISIONS:
        assert simulate((0.5, 0.5, 0.5), kind) == pytest.approx((0.5, 0.5, 0.5), abs=0.01)


@pytest.mark.parametrize("rules", SYSTEMS)
@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_colours_a_table_seats_stay_apart(rules, vision):
    seen = {c: simulate(PLAYER_LOOKS[c].rgb, vision) for c in colours_for(rules)}
    close = [
        f"{a}/{b}: {delta_e00(seen[a], seen[b]):.1f}"
        for a, b in combinations(seen, 2)
        if delta_e00(seen[a], seen[b]) < GOAL
    ]
    assert not close, close


def test_every_colour_has_its_own_mark_and_initial():
    for rules in SYSTEMS:
        looks = [PLAYER_LOOKS[c] for c in colours_for(rules)]
        assert len({look.mark for look in looks}) == len(looks)
        assert len({look.initial for look in looks}) == len(looks)
