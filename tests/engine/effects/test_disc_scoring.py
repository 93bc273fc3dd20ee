"""TODO docstring: disc_scoring."""
from __future__ import annotations

from engine import events as ev

from ..helpers import new_game, score, turn_with
from .classic import moves, start


def test_disc_scoring_scores_regions_chosen_exactly_once():
    g = new_game()
    pid = turn_with(g, "disc_scoring")
    start(g, pid)
    assert set(g.asked().players) == {"red", "blue", "green"}
    g.apply(ev.SecretDiscSet(player="red", region="galicia"))
    g.apply(ev.SecretDiscSet(player="blue", region="sevilla"))
    g.apply(ev.SecretDiscSet(player="green", region="sevilla"))
    g.apply(ev.SecretDiscsRevealed())
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"galicia"}
    assert g.state.outcomes[-1].discs == {"red": "galicia", "blue": "sevilla", "green": "sevilla"}
    assert moves(g) == []
    assert score(g, "red") == 4 + 2 and score(g, "green") == 0
