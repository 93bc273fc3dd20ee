"""Stand-in: "You are only allowed to swap them, if both are located in the regions (i.e. not
in France, Portugal, or the Castillo)." What is swapped is the card's (param swap)."""

from __future__ import annotations

import pytest

from engine import events as ev
from tests.engine.effects.game2023 import grande, idx, king, new_game, refused, seat, start_special, turn_with
from tests.engine.effects.referee2023 import _refused, _to_turn


def _stand_in(swap="king_and_any_grande", **kw):
    g = new_game(params={"stand_in": {"swap": swap}}, **kw)
    pid = turn_with(g, "stand_in")
    return g, pid


def test_the_king_and_a_grande_swap_places():
    g, pid = _stand_in()
    start_special(g, pid)
    ask = g.asked()
    assert ask.kind == "swap_pieces" and {"king": True, "grandes": ["green"]} in ask.options["pairs"]
    g.apply(ev.PiecesSwapped(player=pid, king=True, grandes=["green"]))
    assert king(g) == "sevilla" and grande(g, "green") == "castilla" and g.state.stage != "special"


def test_the_king_and_your_own_grande():
    g, pid = _stand_in("king_and_own_grande")
    start_special(g, pid)
    assert g.asked().options["pairs"] == [{"king": True, "grandes": [pid]}]
    refused(g, ev.PiecesSwapped(player=pid, king=True, grandes=["blue"]), "stand-in")
    g.apply(ev.PiecesSwapped(player=pid, king=True, grandes=[pid]))
    assert king(g) == "galicia" and grande(g, pid) == "castilla"


def test_your_grande_and_another():
    g, pid = _stand_in("own_grande_and_other_grande")
    start_special(g, pid)
    assert all(pair["grandes"][0] == pid and not pair["king"] for pair in g.asked().options["pairs"])
    g.apply(ev.PiecesSwapped(player=pid, grandes=[pid, "orange"]))
    assert grande(g, pid) == "cataluna" and grande(g, "orange") == "galicia"


def test_any_two_grandes():
    g, pid = _stand_in("any_two_grandes")
    start_special(g, pid)
    assert len(g.asked().options["pairs"]) == 6  # 4 Grandes, 4 regions
    g.apply(ev.PiecesSwapped(player=pid, grandes=["blue", "green"]))
    assert grande(g, "blue") == "sevilla" and grande(g, "green") == "aragon"


@pytest.mark.parametrize("space", ["france", "portugal", "castillo"])
def test_only_if_both_are_located_in_the_regions_not_the_king_in(space):
    g, pid = _stand_in()
    g.state.king = idx(g, space)  # arranged: after Exile or Rebellion
    start_special(g, pid)
    assert g.state.stage != "special" and king(g) == space  # nothing may be swapped


def test_only_if_both_are_located_in_the_regions_not_a_grande_in_the_castillo():
    g, pid = _stand_in()
    g.state.grandes[2] = g.state.board.castillo  # arranged: Green's thrown in with Competition
    start_special(g, pid)
    assert all(pair["grandes"] != ["green"] for pair in g.asked().options["pairs"])
    refused(g, ev.PiecesSwapped(player=pid, king=True, grandes=["green"]), "stand-in")


def test_two_grandes_never_out_of_the_kings_region():
    g, pid = _stand_in(
        "any_two_grandes",
        king="aragon",
        homes={"purple": "galicia", "blue": "castilla", "green": "sevilla", "orange": "cataluna"},
    )
    g.state.grandes[1] = idx(g, "aragon")  # arranged: Blue's Grande stands with the King
    start_special(g, pid)
    assert all("blue" not in pair["grandes"] for pair in g.asked().options["pairs"])
    refused(g, ev.PiecesSwapped(player=pid, grandes=["blue", "green"]), "stand-in")


def test_the_swap_is_refused_unless_the_card_states_it():
    g = new_game(params={"stand_in": None})
    pid = turn_with(g, "stand_in")
    msg = refused(g, ev.SpecialActionStarted(player=pid), "card-fact-missing")
    assert "cards[stand_in].params.swap" in msg


def test_taboo_stand_in_no_grande_of_the_kings_region_is_swapped():
    """Stand-in swaps two pieces "if both are located in the regions"; no Grande may be placed in
    or removed from the King's region (the test card swaps your Grande and another's)."""
    g = new_game(params={"stand_in": {"swap": "own_grande_and_other_grande"}})
    g.state.grandes[seat(g, "blue")] = g.board.area_index["castilla"]  # Blue's Grande by the King
    pid = _to_turn(g, "stand_in")
    start_special(g, pid)
    pairs = g.asked().options["pairs"]
    assert {tuple(p["grandes"]) for p in pairs} == {("purple", "green"), ("purple", "orange")}
    _refused(g, ev.PiecesSwapped(player=pid, grandes=["purple", "blue"]), "stand-in")


def test_stand_in_only_pieces_standing_in_regions():
    """Stand-in: "You are only allowed to swap them, if both are located in the regions (i.e. not
    in France, Portugal, or the Castillo)." (the test card: the King and any Grande)"""
    g = new_game()
    g.state.grandes[seat(g, "blue")] = g.board.castillo
    pid = _to_turn(g, "stand_in")
    start_special(g, pid)
    pairs = g.asked().options["pairs"]
    assert {p["grandes"][0] for p in pairs} == {"purple", "green", "orange"}
    _refused(g, ev.PiecesSwapped(player=pid, king=True, grandes=["blue"]), "stand-in")
    g.apply(ev.PiecesSwapped(player=pid, king=True, grandes=["green"]))
    assert king(g) == "sevilla" and grande(g, "green") == "castilla"
    g2 = new_game()
    g2.state.king = g2.board.area_index["france"]
    pid = _to_turn(g2, "stand_in")
    start_special(g2, pid)
    assert g2.state.special is None and king(g2) == "france"  # the King is not in a region


def test_stand_in_never_swaps_the_king_standing_by_the_castillo():
    """Stand-in: "You are only allowed to swap them, if both are located in the regions (i.e. not
    in France, Portugal, or the Castillo)." — after Rebellion the King stands by the Castillo."""
    g = new_game()
    g.state.king = g.board.castillo
    pid = _to_turn(g, "stand_in")
    start_special(g, pid)
    assert g.state.special is None and king(g) == "castillo"
    assert [grande(g, p) for p in ("purple", "blue", "green", "orange")] == ["galicia", "aragon", "sevilla", "cataluna"]
