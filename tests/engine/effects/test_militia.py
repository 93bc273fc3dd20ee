"""Militia: "You may split your Caballeros or put them both in one region. You do not have to
place them in neighbor regions of the King's region. However, you cannot place them in the
Castillo or directly in the King's region." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.game2023 import count, court, new_game, refused, set_court, start_special, turn_with
from tests.engine.effects.referee2023 import _refused, _to_turn


def _militia(params=None, court_size=5):
    g = new_game(params=params)
    pid = turn_with(g, "militia")
    set_court(g, pid, court_size)
    start_special(g, pid)
    return g, pid


def test_you_may_split_your_caballeros():
    g, pid = _militia()
    assert g.asked().kind == "place_anywhere" and g.asked().options["count"] == 2
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"granada": 1, "navarra": 1}))
    assert count(g, pid, "granada") == 1 and count(g, pid, "navarra") == 1 and court(g, pid) == 3
    assert g.state.stage != "special"


def test_or_put_them_both_in_one_region():
    g, pid = _militia()
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"valencia": 2}))
    assert count(g, pid, "valencia") == 2


def test_you_do_not_have_to_place_them_in_neighbor_regions_of_the_kings_region():
    g, pid = _militia()  # the King is in Castilla: Sevilla and Cataluña are far from him
    assert {"sevilla", "cataluna"} <= set(g.asked().options["areas"])
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"sevilla": 1, "cataluna": 1}))
    assert count(g, pid, "sevilla") == 1 + 0 and count(g, pid, "cataluna") == 1


def test_you_cannot_place_them_in_the_castillo():
    g, pid = _militia()
    assert "castillo" not in g.asked().options["areas"]
    assert "Castillo" in refused(
        g, ev.ExtraCaballerosPlaced(player=pid, placements={"castillo": 1, "granada": 1}), "militia"
    )


def test_you_cannot_place_them_directly_in_the_kings_region():
    g, pid = _militia()
    assert "castilla" not in g.asked().options["areas"]
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"castilla": 2}), "kings-region-taboo")


def test_never_in_france_or_portugal():
    g, pid = _militia()
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"france": 2}), "not-a-region")


def test_as_much_of_the_action_as_possible_both_caballeros():
    g, pid = _militia()
    msg = refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"granada": 1}), "militia")
    assert "2" in msg


def test_you_may_only_use_caballeros_from_your_court():
    g, pid = _militia(court_size=1)
    assert g.asked().options["count"] == 1  # one in the court: that one goes
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"granada": 2}))
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"granada": 1}))
    assert court(g, pid) == 0
    g2, pid2 = _militia(court_size=0)
    assert g2.state.stage != "special"  # nothing to place: the special action is over at once


def test_the_number_is_the_cards():
    g, pid = _militia(params={"militia": {"count": 3}})
    assert g.asked().options["count"] == 3
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"granada": 3}))
    assert count(g, pid, "granada") == 3


def test_taboo_militia_never_into_the_kings_region():
    """Militia: "However, you cannot place them in the Castillo or directly in the King's
    region." """
    g = new_game()
    pid = _to_turn(g, "militia")
    start_special(g, pid)
    assert "castilla" not in g.asked().options["areas"] and "castillo" not in g.asked().options["areas"]
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"castilla": 2}), "kings-region-taboo")
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"castillo": 2}), "militia")


def test_militia_split_or_both_in_one_region_anywhere_but_the_kings_or_the_castillo():
    """Militia: "You may split your Caballeros or put them both in one region. You do not have to
    place them in neighbor regions of the King's region." """
    g = new_game()
    pid = _to_turn(g, "militia")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"sevilla": 1}), "militia")  # both
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"sevilla": 1, "cataluna": 1}))
    assert count(g, pid, "sevilla") == 1 and count(g, pid, "cataluna") == 1 and court(g, pid) == 5


def test_militia_never_into_the_castillo_nor_france():
    """Militia: "However, you cannot place them in the Castillo or directly in the King's region."
    and "France and Portugal do not count as regions, so you may never place Caballeros there"."""
    g = new_game()
    pid = _to_turn(g, "militia")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"castillo": 1, "sevilla": 1}))
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"castillo": 2}))
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"france": 1, "sevilla": 1}))
    _refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"portugal": 2}))
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"sevilla": 2}))  # "both in one region"
    assert count(g, pid, "sevilla") == 2
