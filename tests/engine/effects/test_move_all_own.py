"""The "move_all_own" effect: the special action of "Intrigue".

Cards: classic (1995) "Intrigue" (intrigue_all_own_from_region).

classic 1995: "You may move all of your own Caballeros from any one region. With this card you
must move all of your Caballeros from one region; you may not leave any in that region. However,
you may, as usual, move those Caballeros into any combination of different regions." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.classic import move, start
from tests.engine.helpers import count, new_game, put, refused, turn_with


def test_intrigue_all_own_from_region_must_move_them_all():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "intrigue_all_own_from_region")
    start(g, pid)
    move(g, "red", "valencia", "granada", 1)
    assert "valencia" not in g.asked().options["targets"]  # from one region, never back into it
    refused(g, ev.SpecialActionFinished(player=pid), "special-action")
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="galicia", target="granada"), "special-action")
    move(g, "red", "valencia", "castillo", 2)
    assert count(g, "red", "valencia") == 0 and count(g, "red", "castillo") == 2
    assert g.state.turn.player == 1
