"""TODO docstring: move."""
from __future__ import annotations

from engine import events as ev

from ..helpers import count, new_game, put, refused, turn_with
from .classic import move, start


def test_intrigue_any_3_moves_anyones_caballeros_then_ends():
    g = new_game()
    pid = turn_with(g, "intrigue_any_3")
    start(g, pid)
    move(g, "blue", "aragon", "galicia", 2)
    refused(g, ev.CaballerosMoved(player="red", owner="green", source="sevilla", target="valencia", count=2),
            "special-action")
    move(g, "green", "sevilla", "castillo", 1)
    assert count(g, "blue", "galicia") == 2 and count(g, "green", "castillo") == 1
    assert g.state.turn.player == 1  # Blue's turn now: the card allowed 3


def test_intrigue_never_touches_castillo_or_kings_region():
    g = new_game()
    put(g, "blue", "castilla_la_nueva", 2)
    put(g, "blue", "castillo", 2)
    pid = turn_with(g, "intrigue_any_4")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="castillo", target="galicia"),
            "castillo-no-removal")
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="castilla_la_nueva", target="galicia"),
            "kings-region-taboo")
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="castilla_la_nueva"),
            "kings-region-taboo")
    move(g, "blue", "aragon", "valencia", 2)
    move(g, "red", "galicia", "valencia", 2)
    assert g.state.turn.player == 1


def test_intrigue_own_4_refuses_foreign_caballeros():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "intrigue_own_4")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="galicia"), "special-action")
    move(g, "red", "valencia", "granada", 3)
    g.apply(ev.SpecialActionFinished(player=pid))
    assert count(g, "red", "granada") == 3


def test_intrigue_foreign_3_refuses_own_caballeros():
    g = new_game()
    pid = turn_with(g, "intrigue_foreign_3")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="galicia", target="aragon"), "special-action")
    move(g, "green", "sevilla", "aragon", 2)
    move(g, "blue", "aragon", "galicia", 1)
    assert g.state.turn.player == 1 and count(g, "blue", "galicia") == 1


def test_intrigue_2_own_2_foreign_limits_each_kind():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "intrigue_2_own_2_foreign")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="valencia", target="granada", count=3),
            "special-action")
    move(g, "red", "valencia", "granada", 2)
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="valencia", target="granada"), "special-action")
    move(g, "blue", "aragon", "granada", 2)
    assert count(g, "red", "granada") == 2 and count(g, "blue", "granada") == 2
    assert g.state.turn.player == 1


def test_intrigue_5_from_one_region_keeps_one_source():
    g = new_game()
    put(g, "blue", "valencia", 3)
    put(g, "green", "valencia", 3)
    pid = turn_with(g, "intrigue_5_from_one_region")
    start(g, pid)
    move(g, "blue", "valencia", "galicia", 3)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="galicia"), "special-action")
    move(g, "green", "valencia", "castillo", 2)
    assert g.state.turn.player == 1  # 5 moved
