"""The "score_most" effect: the special action of "Special Scoring".

Cards: classic (1995) "Special Scoring" (score_most_caballeros).

classic 1995: "Score the region(s) with the most Caballeros. The region containing the most
Caballeros (of all players) are scored immediately. If more than 1 region qualifies for the most
Caballeros, each of those regions are scored." """

from __future__ import annotations

from tests.engine.effects.classic import start
from tests.engine.helpers import new_game, put, score, turn_with


def test_special_scoring_most_caballeros():
    g = new_game()
    put(g, "green", "aragon", 2)
    pid = turn_with(g, "score_most_caballeros")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"aragon"}
    assert score(g, "blue") == 4 and score(g, "green") == 4


def test_special_scoring_most_caballeros_scores_every_region_tied_for_the_most():
    """ "If more than 1 region qualifies for the most Caballeros, each of those regions are
    scored." (Aragón and Sevilla hold 4 each)"""
    g = new_game()
    put(g, "green", "aragon", 2)
    put(g, "red", "sevilla", 2)
    pid = turn_with(g, "score_most_caballeros")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"aragon", "sevilla"}
