"""Adopted Home: "Multiple Grandes may be present in one region. However, you are not allowed
to throw your Grande into the Castillo. You cannot place him in the King's region nor take
him from there." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.game2023 import grande, idx, new_game, refused, seat, start_special, turn_with
from tests.engine.effects.referee2023 import _refused, _to_turn


def _adopted_home(**kw):
    g = new_game(**kw)
    pid = turn_with(g, "adopted_home")
    return g, pid


def test_it_moves_your_grande_to_another_region():
    g, pid = _adopted_home()
    start_special(g, pid)
    assert g.asked().kind == "move_grande" and "valencia" in g.asked().options["regions"]
    g.apply(ev.GrandeMoved(player=pid, region="valencia"))
    assert grande(g, pid) == "valencia" and g.state.stage != "special"


def test_multiple_grandes_may_be_present_in_one_region():
    g, pid = _adopted_home()
    start_special(g, pid)
    g.apply(ev.GrandeMoved(player=pid, region="aragon"))  # Blue's Grande stands there
    assert grande(g, pid) == grande(g, "blue") == "aragon"


def test_you_are_not_allowed_to_throw_your_grande_into_the_castillo():
    g, pid = _adopted_home()
    start_special(g, pid)
    assert "castillo" not in g.asked().options["regions"]
    refused(g, ev.GrandeMoved(player=pid, region="castillo"), "grande-castillo")


def test_you_cannot_place_him_in_the_kings_region():
    g, pid = _adopted_home()
    start_special(g, pid)
    assert "castilla" not in g.asked().options["regions"]
    refused(g, ev.GrandeMoved(player=pid, region="castilla"), "kings-region-taboo")


def test_nor_take_him_from_there():
    g, pid = _adopted_home(king="granada")
    g.state.grandes[0] = idx(g, "granada")  # arranged: the King came to Purple's Grande
    start_special(g, pid)
    assert g.state.stage != "special" and grande(g, pid) == "granada"


def test_never_to_france_or_portugal():
    g, pid = _adopted_home()
    start_special(g, pid)
    refused(g, ev.GrandeMoved(player=pid, region="portugal"), "not-a-region")


def test_a_grande_in_the_castillo_stays_until_a_scoring_opens_it():
    g, pid = _adopted_home()
    g.state.grandes[0] = g.state.board.castillo  # arranged: thrown in with Competition
    start_special(g, pid)
    assert g.state.stage != "special" and grande(g, pid) == "castillo"


def test_taboo_adopted_home_neither_into_nor_out_of_the_kings_region():
    """Adopted Home: "You cannot place him in the King's region nor take him from there." """
    g = new_game()
    pid = _to_turn(g, "adopted_home")
    _refused(g, ev.GrandeMoved(player=pid, region="castilla"))
    start_special(g, pid)
    assert "castilla" not in g.asked().options["regions"]
    _refused(g, ev.GrandeMoved(player=pid, region="castilla"), "kings-region-taboo")
    g2 = new_game(
        king="galicia", homes={"purple": "sevilla", "blue": "aragon", "green": "granada", "orange": "cataluna"}
    )
    g2.state.grandes[seat(g2, "purple")] = g2.board.area_index["galicia"]  # his Grande in the King's region
    pid = _to_turn(g2, "adopted_home")
    start_special(g2, pid)
    assert g2.state.special is None and grande(g2, "purple") == "galicia"  # nothing he may do


def test_adopted_home_several_grandes_in_one_region_never_the_castillo():
    """Adopted Home: "Multiple Grandes may be present in one region. However, you are not allowed
    to throw your Grande into the Castillo." """
    g = new_game()
    pid = _to_turn(g, "adopted_home")
    start_special(g, pid)
    _refused(g, ev.GrandeMoved(player=pid, region="castillo"), "grande-castillo")
    _refused(g, ev.GrandeMoved(player=pid, region="france"), "not-a-region")
    g.apply(ev.GrandeMoved(player=pid, region="aragon"))  # Blue's Grande is there
    assert grande(g, "purple") == grande(g, "blue") == "aragon"


def test_adopted_home_cannot_take_a_grande_out_of_the_castillo():
    """ "No one may ever ... take Caballeros from the Castillo" — a Grande thrown in with
    Competition stays there until a general scoring moves it with the disc."""
    g = new_game()
    g.state.grandes[seat(g, "purple")] = g.board.castillo
    pid = _to_turn(g, "adopted_home")
    start_special(g, pid)
    assert g.state.special is None and grande(g, pid) == "castillo"
