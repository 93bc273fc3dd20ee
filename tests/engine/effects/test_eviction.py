"""TODO docstring: eviction."""
from __future__ import annotations

from engine import events as ev

from ..helpers import count, court, new_game, put, refused, turn_with
from .classic import moves, start


def test_eviction_moves_opponents_out_and_back_to_court_on_taboo():
    g = new_game()
    put(g, "blue", "valencia", 2)
    put(g, "green", "valencia", 3)
    put(g, "red", "valencia", 1)
    pid = turn_with(g, "eviction")
    start(g, pid)
    refused(g, ev.RegionChosen(player=pid, region="castilla_la_nueva"), "kings-region-taboo")
    g.apply(ev.RegionChosen(player=pid, region="valencia"))
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscSet(player="green", region="castilla_la_nueva"))
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "red", "valencia") == 1  # the evicting player stays
    assert count(g, "blue", "granada") == 2 and count(g, "green", "castilla_la_nueva") == 0
    assert court(g, "green") == 7 + 3
    assert g.state.outcomes[-1].title == "Eviction, played by Red"
    assert moves(g) == [("blue", 2, "valencia", "granada"), ("green", 3, "valencia", "court")]
