"""Infiltration: "This card breaks the most important rule in the game. With this card, you may
place your Caballeros in the King's region. You may split them between multiple regions as
usual." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.game2023 import count, court, new_game, refused, start_special, turn_with
from tests.engine.effects.referee2023 import _refused, _to_turn


def _infiltration():
    g = new_game()
    pid = turn_with(g, "infiltration", place=False)  # stack 1: 1 Caballero
    return g, pid


def test_with_this_card_you_may_place_your_caballeros_in_the_kings_region():
    g, pid = _infiltration()
    start_special(g, pid)
    ask = g.asked()
    assert ask.kind == "place_extra" and "castilla" in ask.options["areas"] and ask.options["max"] == 1
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"castilla": 1}))
    assert count(g, pid, "castilla") == 1 and court(g, pid) == 6
    assert g.state.turn is None or g.state.turn.player != g.state.players.index(pid)  # the turn is over


def test_you_may_split_them_between_multiple_regions_as_usual():
    g = new_game(stacks={"infiltration": 3})  # this table's copy places 3
    pid = turn_with(g, "infiltration", place=False)
    start_special(g, pid)
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"castilla": 1, "toledo": 1, "castillo": 1}))
    assert (count(g, pid, "castilla"), count(g, pid, "toledo"), count(g, pid, "castillo")) == (1, 1, 1)


def test_only_next_to_or_in_the_kings_region():
    g, pid = _infiltration()
    start_special(g, pid)
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"sevilla": 1}), "placement-area")
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"castilla": 2}), "placement-limit")


def test_without_the_special_action_the_kings_region_stays_taboo():
    g, pid = _infiltration()
    refused(g, ev.CaballerosPlaced(player=pid, placements={"castilla": 1}), "kings-region-taboo")


def test_placed_first_the_ordinary_way_the_special_action_has_nothing_left():
    g, pid = _infiltration()
    g.apply(ev.CaballerosPlaced(player=pid, placements={"toledo": 1}))
    start_special(g, pid)
    assert count(g, pid, "castilla") == 0 and g.state.stage != "special"


def test_vetoed_the_player_still_places_the_ordinary_way():
    g = new_game()
    g.state.vetoes.append((1, 1))  # arranged: Blue holds a Veto
    pid = turn_with(g, "infiltration", place=False)
    start_special(g, pid)
    assert g.asked().kind == "veto"
    g.apply(ev.VetoUsed(player="blue"))
    ask = g.asked()
    assert ask.kind == "turn_action" and ask.options["place"] and "castilla" not in ask.options["place"]["areas"]
    g.apply(ev.CaballerosPlaced(player=pid, placements={"toledo": 1}))


def test_infiltration_into_the_kings_region_split_as_usual():
    """Infiltration: "With this card, you may place your Caballeros in the King's region. You may
    split them between multiple regions as usual." """
    g = new_game()
    pid = _to_turn(g, "infiltration")
    start_special(g, pid)
    assert "castilla" in g.asked().options["areas"]
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"sevilla": 1}), "placement-area")
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"castilla": 1}))
    assert count(g, pid, "castilla") == 1 and g.asked().players[0] != pid  # placed: the turn is over


def test_infiltration_after_a_normal_placement_nothing_more():
    """ "You must fully complete one action before performing the other": placed the usual way,
    the Caballeros are out; Infiltration adds no second placement."""
    g = new_game()
    pid = _to_turn(g, "infiltration")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"toledo": 1}))
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"castilla": 1}), "either-order")
    start_special(g, pid)
    assert count(g, pid, "castilla") == 0 and g.asked().players[0] != pid


def test_infiltration_never_into_france_where_the_king_stands():
    """Infiltration: "you may place your Caballeros in the King's region" — but "France and
    Portugal do not count as regions, so you may never place Caballeros there"."""
    g = new_game()
    g.state.king = g.board.area_index["france"]
    pid = _to_turn(g, "infiltration")
    start_special(g, pid)
    assert sorted(g.asked().options["areas"]) == ["aragon", "castillo", "cataluna", "navarra"]
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"france": 1}))
