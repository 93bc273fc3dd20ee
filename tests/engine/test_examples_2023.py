"""The 2023 rule book's own examples, each played through the engine on the 2023 board.

Where an example's picture carries a fact its text does not (where the King stands, a count
not said), the test arranges the least that makes the text true, and says so."""
from __future__ import annotations

from engine import events as ev
from engine.flow import _placement_areas
from engine.scoring import regions_in_group, score_area

from .effects.game2023 import (clear, count, court, general_scoring, grande, idx, king, new_game, put, refused,
                               set_court, start_round, start_special, take, turn_with)

# Clockwise from "you" (purple): Orange is your left neighbour, then Blue, then Green.
TABLE = ["purple", "orange", "blue", "green"]
HOMES = {"purple": "granada", "orange": "cataluna", "blue": "sevilla", "green": "navarra"}


def _table(king="castilla", **kw):
    return new_game(players=TABLE, homes=HOMES, king=king, **kw)


def _points(lines) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in lines:
        out[line.player] = out.get(line.player, 0) + line.points
    return out


# --- Use an Action card -------------------------------------------------------------------

def test_example_1_your_majesty_place_first_then_move_the_king():
    """"The King is in Valencia, so you place 2 Caballeros in Granada and 2 in Toledo. You throw
    the last Caballero into the Castillo. After that, you use the Special action to move the
    King to Toledo." """
    g = _table(king="valencia")
    start_round(g, "intrigue")
    pid = take(g, "your_majesty")
    assert g.asked().options["place"]["card_allows"] == 5  # "You may place up to 5"
    g.apply(ev.CaballerosPlaced(player=pid, placements={"granada": 2, "toledo": 2, "castillo": 1}))
    start_special(g, pid)
    g.apply(ev.KingMoved(player=pid, region="toledo"))
    assert (count(g, pid, "granada"), count(g, pid, "toledo"), count(g, pid, "castillo")) == (2 + 2, 2, 1)
    assert king(g) == "toledo" and court(g, pid) == 2
    assert "your_majesty" not in g.state.discard_pile  # "put it back as the 5th stack face down"


def test_example_2_fiesta_special_action_not_performed_then_place_3():
    """"It's Special action scores all 5-point regions (Aragón, Navarra and Valencia). Since this
    would give more points to other players, you decide not to perform the Special action.
    After that, you may place up to 3 Caballeros ... You place 1 in Aragón and 2 in Toledo."
    (The King: in Castilla, next to both.)"""
    g = _table()
    assert [g.board.region_ids[r] for r in regions_in_group(g.state, "5")] == ["navarra", "aragon", "valencia"]
    pid = turn_with(g, "fiesta", place=False)
    before = list(g.state.scores)
    g.apply(ev.SpecialActionSkipped(player=pid))
    assert g.asked().options["place"]["card_allows"] == 3
    g.apply(ev.CaballerosPlaced(player=pid, placements={"aragon": 1, "toledo": 2}))
    assert g.state.scores == before and count(g, pid, "aragon") == 1 and count(g, pid, "toledo") == 2
    assert g.state.discard_pile == ["fiesta"]  # "Place your used Action card face up on the discard pile"


def test_placement_example_castilla():
    """"Castilla is the King's region. Therefore, you may place your Caballeros in Galicia,
    Navarra, Aragón, Toledo or throw them into the Castillo." """
    g = _table(king="castilla")
    assert _placement_areas(g.state) == ["galicia", "navarra", "aragon", "toledo", "castillo"]
    pid = turn_with(g, "revelation", place=False)
    refused(g, ev.CaballerosPlaced(player=pid, placements={"castilla": 1}), "kings-region-taboo")
    refused(g, ev.CaballerosPlaced(player=pid, placements={"valencia": 1}), "placement-area")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"galicia": 1, "toledo": 1, "castillo": 1}))


# --- Action card explanations ----------------------------------------------------------------

def test_intrigue_example_move_2_own_and_2_opposing():
    """"You move 1 of your Caballeros from Granada to Castilla and throw 1 into the Castillo.
    Then, you move 1 green Caballero to Valencia and 1 blue to Castilla." (The King: in
    Aragón, away from every region the example uses; Green's and Blue's came from Toledo.)"""
    g = _table(king="aragon")
    pid = turn_with(g, "intrigue")
    put(g, "green", "toledo", 1)
    put(g, "blue", "toledo", 1)
    start_special(g, pid)
    o = g.asked().options
    assert (o["left"], o["own_left"], o["foreign_left"]) == (4, 2, 2)
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="castilla"))
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="castillo"))
    refused(g, ev.CaballerosMoved(player=pid, owner=pid, source="castilla", target="galicia"), "special-action")
    g.apply(ev.CaballerosMoved(player=pid, owner="green", source="toledo", target="valencia"))
    g.apply(ev.CaballerosMoved(player=pid, owner="blue", source="toledo", target="castilla"))
    assert (count(g, pid, "castilla"), count(g, pid, "castillo"), count(g, pid, "granada")) == (1, 1, 0)
    assert count(g, "green", "valencia") == 1 and count(g, "blue", "castilla") == 1
    assert g.state.stage != "special"


def test_withdrawal_example_each_opponent_returns_3_your_left_neighbor_starts():
    """"Orange is to your left and returns 3 Caballeros from their Court back to the Province
    first. Blue returns 2 from their Court and 1 Caballero from Valencia to the Province. Green
    is last and returns 2 from Toledo and 1 from Valencia." """
    g = _table()
    pid = turn_with(g, "withdrawal")
    clear(g)
    set_court(g, "orange", 4)
    set_court(g, "blue", 2)
    put(g, "blue", "valencia", 2)
    put(g, "green", "toledo", 2)
    put(g, "green", "valencia", 1)
    start_special(g, pid)
    order = []
    for owner, from_court, regions in (("orange", 3, {}), ("blue", 2, {"valencia": 1}),
                                       ("green", 0, {"toledo": 2, "valencia": 1})):
        ask = g.asked()
        assert ask.kind == "send_back" and ask.players == (owner,) and ask.options["owners"][owner]["count"] == 3
        order.append(owner)
        g.apply(ev.CaballerosSentBack(player=owner, owner=owner, from_court=from_court, from_regions=regions))
    assert order == ["orange", "blue", "green"]
    assert (court(g, "orange"), court(g, "blue"), count(g, "blue", "valencia")) == (1, 0, 1)
    assert (count(g, "green", "toledo"), count(g, "green", "valencia")) == (0, 0)
    assert g.state.stage != "special"


def test_coup_example_each_opponent_moves_all_from_the_region_you_choose():
    """"You choose Toledo. ... Orange moves 1 Caballero to Cataluña, Blue moves 2 to Granada,
    and Green moves 2 to Valencia. Your Caballeros stay in Toledo." """
    g = _table()
    pid = turn_with(g, "coup")
    clear(g)
    for who, n in ((pid, 3), ("orange", 1), ("blue", 2), ("green", 2)):
        put(g, who, "toledo", n)
    start_special(g, pid)
    g.apply(ev.RegionChosen(player=pid, region="toledo"))
    assert set(g.asked().players) == {"orange", "blue", "green"}
    for who, dest in (("orange", "cataluna"), ("blue", "granada"), ("green", "valencia")):
        g.apply(ev.SecretDiscSet(player=who, region=dest))
    g.apply(ev.SecretDiscsRevealed())
    assert (count(g, "orange", "cataluna"), count(g, "blue", "granada"), count(g, "green", "valencia")) == (1, 2, 2)
    assert count(g, pid, "toledo") == 3 and sum(g.state.counts[idx(g, "toledo")]) == 3
    assert g.state.outcomes[-1].discs == {"orange": "cataluna", "blue": "granada", "green": "valencia"}


def test_outposts_example_score_all_4_point_regions_with_scoring_tiles():
    """"Score all regions that give 4 points for 1st place. In this case, these are Sevilla,
    Cataluña, and Toledo, since a Scoring tile was placed in Toledo. You don't score Galicia,
    because it also has a Scoring tile." (The tiles: this table's, 4-0-0 and 8-4-0.)"""
    g = _table(king="aragon")
    g.state.mobile.update(tile_a=idx(g, "toledo"), tile_b=idx(g, "galicia"))  # laid by two Enactments before
    assert [g.board.region_ids[r] for r in regions_in_group(g.state, "4")] == ["cataluna", "toledo", "sevilla"]
    pid = turn_with(g, "outposts")
    clear(g)
    for area in ("galicia", "cataluna", "toledo", "sevilla"):
        put(g, "blue", area, 1)
    start_special(g, pid)
    lines = g.state.scoring_log[-1].lines
    assert {line.area for line in lines} == {"cataluna", "toledo", "sevilla"}
    assert [line.points for line in lines if line.area == "toledo"] == [4]  # the tile's, not the printed 7


# --- General scoring --------------------------------------------------------------------------

def test_castillo_example_then_your_3_caballeros_move_to_granada():
    """"You have 3 Caballeros in the Castillo, Blue 2 and Orange 1. You have the majority and get
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
    """"Orange has the majority with 4 Caballeros here and gets 4 points for first place. Blue has
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
    """"You, Blue, and Green each have 2 Caballeros. Remember: The Grande of Green does not count
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
    """"Blue and Green each have 2 Caballeros and therefore share 2nd place. Therefore, Blue does
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
    """"In Granada you have the majority with 3 Caballeros. Because your Grande is located there,
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
