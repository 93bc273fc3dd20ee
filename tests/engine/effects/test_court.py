"""The "court" effect: the special action of "The Court".

Cards: classic (1995) "The Court" (the_court).

classic 1995: "The Court (1x) You may move 2 of your Caballeros from the provinces to your
court. This action increases your supply. The normal replenishment rules apply."

2023: "If there are not enough of your Caballeros left in the Province, you may take your
Caballeros from the regions on the map (not from the Castillo) to your Court. This also applies
when moving Caballeros to your Court via Action cards." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.classic import start
from tests.engine.helpers import court, new_game, provinces, put, refused, turn_with


def test_the_court_moves_two_from_the_provinces():
    g = new_game()
    pid = turn_with(g, "the_court")
    start(g, pid)
    refused(g, ev.CourtReplenished(player=pid, from_provinces=3), "replenish-limit")
    g.apply(ev.CourtReplenished(player=pid, from_provinces=2))
    assert court(g, "red") == 9 and provinces(g, "red") == 19


def test_the_court_short_of_the_provinces_takes_from_a_region_never_the_castillo():
    """ "The normal replenishment rules apply." -- "If there are not enough of your Caballeros in
    the provinces, you may remove Caballeros from the board (but not the Castillo) to make up the
    difference." """
    g = new_game()
    pid = turn_with(g, "the_court")
    put(g, pid, "valencia", provinces(g, pid) - 1)  # 1 left in the provinces
    start(g, pid)
    refused(g, ev.CourtReplenished(player=pid, from_provinces=1, from_regions={"castillo": 1}), "castillo-no-removal")
    refused(g, ev.CourtReplenished(player=pid, from_provinces=0, from_regions={"valencia": 1}), "replenish-from-board")
    before = court(g, pid)
    g.apply(ev.CourtReplenished(player=pid, from_provinces=1, from_regions={"valencia": 1}))
    assert court(g, pid) == before + 2 and provinces(g, pid) == 0
