"""The "score_least" effect: the special action of "Special Scoring".

Cards: classic (1995) "Special Scoring" (score_least_caballeros).

classic 1995: "Score the region(s) with the least Caballeros. Regions without Caballeros are not
considered. [...] If more than 1 region qualifies for the least Caballeros, each of those
regions are scored. The Castillo is not considered here." """

from __future__ import annotations

from tests.engine.effects.classic import start
from tests.engine.helpers import new_game, put, turn_with


def test_special_scoring_least_caballeros_skips_empty_regions():
    g = new_game()
    put(g, "green", "aragon", 2)
    put(g, "red", "granada", 1)
    pid = turn_with(g, "score_least_caballeros")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"granada"}


def test_special_scoring_least_caballeros_scores_every_region_tied_and_never_the_castillo():
    """ "If more than 1 region qualifies for the least Caballeros, each of those regions are
    scored. The Castillo is not considered here." (the three home regions hold 2 each; the
    Castillo's 1 is not the least)"""
    g = new_game()
    put(g, "blue", "castillo", 1)
    pid = turn_with(g, "score_least_caballeros")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"galicia", "aragon", "sevilla"}
