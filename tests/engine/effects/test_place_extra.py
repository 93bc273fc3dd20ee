"""The "place_extra" effect: the special action of "Intrigue".

Cards: classic (1995) "Intrigue" (intrigue_2_extra_from_court).

classic 1995: "You may move 2 additional Caballeros from your court to any region(s). With this
card you may move up to 3 Caballeros from your court: 1 of which may only be moved to a region
adjacent to the King's Region (or into the Castillo), and 2 more which [may] be moved into the
region(s) of your choice." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.classic import start
from tests.engine.helpers import count, court, new_game, refused, turn_with


def test_intrigue_2_extra_from_court_go_anywhere_but_the_kings_region():
    g = new_game()
    pid = turn_with(g, "intrigue_2_extra_from_court", place=False)
    refused(g, ev.CaballerosPlaced(player=pid, placements={"valencia": 2}), "placement-limit")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"valencia": 1}))
    start(g, pid)
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"castilla_la_nueva": 1}), "kings-region-taboo")
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"cataluna": 3}), "placement-limit")
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"cataluna": 1, "pais_vasco": 1}))
    assert count(g, "red", "cataluna") == 1 and court(g, "red") == 4
