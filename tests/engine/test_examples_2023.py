"""The 2023 rule book's own examples, each played through the engine on the 2023 board.

Where an example's picture carries a fact its text does not (where the King stands, a count
not said), the test arranges the least that makes the text true, and says so."""

from __future__ import annotations

from engine import events as ev
from engine.primitives import placement_areas
from engine.scoring import score_area
from tests.engine.effects.book2023 import _table
from tests.engine.effects.game2023 import clear, count, general_scoring, grande, idx, put, refused, turn_with


def _points(lines) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in lines:
        out[line.player] = out.get(line.player, 0) + line.points
    return out


# --- Use an Action card -------------------------------------------------------------------


def test_placement_example_castilla():
    """ "Castilla is the King's region. Therefore, you may place your Caballeros in Galicia,
    Navarra, Aragón, Toledo or throw them into the Castillo." """
    g = _table(king="castilla")
    assert placement_areas(g.state) == ["galicia", "navarra", "aragon", "toledo", "castillo"]
    pid = turn_with(g, "revelation", place=False)
    refused(g, ev.CaballerosPlaced(player=pid, placements={"castilla": 1}), "kings-region-taboo")
    refused(g, ev.CaballerosPlaced(player=pid, placements={"valencia": 1}), "placement-area")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"galicia": 1, "toledo": 1, "castillo": 1}))


# --- Action card explanations ----------------------------------------------------------------


# --- General scoring --------------------------------------------------------------------------


def test_castillo_example_then_your_3_caballeros_move_to_granada():
    """ "You have 3 Caballeros in the Castillo, Blue 2 and Orange 1. You have the majority and get
    5 points. Blue ... gets 3 points. Orange ... gets 1 point. Green has no Caballeros in the
    Castillo and therefore gets no points. ... You move your 3 Caballeros from the Castillo to
    Granada." """
    g = _table(round=3, king="aragon")
    turn_with(g, "intrigue")
    clear(g)
    for who, n in (("purple", 3), ("blue", 2), ("orange", 1)):
        put(g, who, "castillo", n)
    general_scoring(g, {"purple": "granada", "blue": "galicia", "orange": "galicia", "green": "galicia"})
    castillo = _points(line for line in g.state.scoring_log[-1].lines if line.area == "castillo")
    assert castillo == {"purple": 5, "blue": 3, "orange": 1}
    assert count(g, "purple", "granada") == 3 and count(g, "purple", "castillo") == 0
    transfer = g.state.scoring_log[-1].transfers[0]
    assert transfer == {"player": "purple", "count": 3, "region": "granada", "to_court": False}


def test_galicia_example_no_points_for_3rd_place_no_4th_place():
    """ "Orange has the majority with 4 Caballeros here and gets 4 points for first place. Blue has
    3 Caballeros and gets 2 points. You are in 3rd place with 2 Caballeros. Unfortunately, no
    points are awarded for 3rd place in Galicia. Green doesn't get any points either, since
    there is no 4th place." """
    g = _table(king="aragon")
    clear(g)
    for who, n in (("orange", 4), ("blue", 3), ("purple", 2), ("green", 1)):
        put(g, who, "galicia", n)
    lines = score_area(g.state, idx(g, "galicia"))
    assert _points(lines) == {"orange": 4, "blue": 2, "purple": 0, "green": 0}
    assert "no 4th place" in next(line.reason for line in lines if line.player == "green")


def test_navarra_example_three_tied_for_1st_take_2nd_place_points():
    """ "You, Blue, and Green each have 2 Caballeros. Remember: The Grande of Green does not count
    towards the majority. All are tied for first place, therefore you are all considered to be
    in 2. place and each of you gets 3 points. Orange has 1 Caballero and gets 1 point for 3rd
    place." """
    g = _table(king="aragon")
    assert grande(g, "green") == "navarra"
    clear(g)
    for who, n in (("purple", 2), ("blue", 2), ("green", 2), ("orange", 1)):
        put(g, who, "navarra", n)
    lines = score_area(g.state, idx(g, "navarra"))
    assert _points(lines) == {"purple": 3, "blue": 3, "green": 3, "orange": 1}
    assert not [line for line in lines if line.kind != "place"]


def test_sevilla_example_a_tie_gets_no_grandes_bonus():
    """ "Blue and Green each have 2 Caballeros and therefore share 2nd place. Therefore, Blue does
    not get the Grande's bonus. Blue and Green each get 3 points, you get 1." """
    g = _table(king="aragon")
    assert grande(g, "blue") == "sevilla"
    clear(g)
    for who, n in (("blue", 2), ("green", 2), ("purple", 1)):
        put(g, who, "sevilla", n)
    lines = score_area(g.state, idx(g, "sevilla"))
    assert _points(lines) == {"blue": 3, "green": 3, "purple": 1}
    assert not [line for line in lines if line.kind == "home_bonus"]


def test_granada_example_majority_with_grande_and_king_10_points():
    """ "In Granada you have the majority with 3 Caballeros. Because your Grande is located there,
    you get 2 bonus points as well. You get a total of 10 points. Orange and Green get 1 point
    each for 3rd place." (10 = 6 + the Grande's 2 + the King's 2: the King stands in Granada.)"""
    g = _table(king="aragon")
    g.state.king = idx(g, "granada")  # arranged: the King came to Granada later (setup draws apart)
    assert grande(g, "purple") == "granada"
    clear(g)
    for who, n in (("purple", 3), ("orange", 1), ("green", 1)):
        put(g, who, "granada", n)
    lines = score_area(g.state, idx(g, "granada"))
    assert _points(lines) == {"purple": 10, "orange": 1, "green": 1}
    assert {line.kind for line in lines if line.player == "purple"} == {"place", "king_bonus", "home_bonus"}
