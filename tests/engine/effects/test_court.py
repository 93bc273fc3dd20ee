"""TODO docstring: court."""
from __future__ import annotations

from engine import events as ev

from ..helpers import court, new_game, provinces, refused, turn_with
from .classic import start


def test_the_court_moves_two_from_the_provinces():
    g = new_game()
    pid = turn_with(g, "the_court")
    start(g, pid)
    refused(g, ev.CourtReplenished(player=pid, from_provinces=3), "replenish-limit")
    g.apply(ev.CourtReplenished(player=pid, from_provinces=2))
    assert court(g, "red") == 9 and provinces(g, "red") == 19
