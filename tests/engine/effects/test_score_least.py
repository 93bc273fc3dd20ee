"""TODO docstring: score_least."""
from __future__ import annotations

from ..helpers import new_game, put, turn_with
from .classic import start


def test_special_scoring_least_caballeros_skips_empty_regions():
    g = new_game()
    put(g, "green", "aragon", 2)
    put(g, "red", "granada", 1)
    pid = turn_with(g, "score_least_caballeros")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"granada"}
