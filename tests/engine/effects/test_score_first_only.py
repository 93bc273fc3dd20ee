"""The "score_first_only" effect: the special action of "Special Scoring", "Special scoring".

Cards: classic (1995) "Special Scoring" (score_first_place_only); King and Intrigue "Special
scoring" (ki_170).

classic 1995: "Score the 1st place position only in all regions. In the case of any ties, no
points are received. All regions (but not the Castillo) are scored immediately. [...] only the
player with the most Caballeros in each region receives points."

King and Intrigue: "The 60, 100, 110, 120, 150, and 170 cards trigger a special scoring and are
identical to those Action cards found in the base game (stacks 3 and 4, pages 11-12)." Which
scoring each is, is not published: the table enters it from its cards; the tests' table (and the
engine's self-play stand-in) enter 60, 100, 110: score_group ("4", "5", "6-7"); 120:
score_castillo; 150: score_chosen_region; 170: score_first_only."""

from __future__ import annotations

from tests.engine.effects.classic import start
from tests.engine.helpers import new_game, put, score, turn_with
from tests.engine.king_intrigue.modules_table import red_turn
from tests.engine.king_intrigue.table import _start
from tests.engine.king_intrigue.table import put as ki_put


def test_special_scoring_first_place_only_ties_get_nothing():
    g = new_game()
    put(g, "blue", "galicia", 2)  # Galicia: red 2, blue 2: tied
    put(g, "green", "aragon", 1)  # Aragón: blue 2, green 1
    pid = turn_with(g, "score_first_place_only")
    start(g, pid)
    assert score(g, "red") == 0
    assert score(g, "blue") == 5 + 2  # Aragón's 1st place and home bonus
    assert score(g, "green") == 4 + 2  # Sevilla


def test_king_and_intrigue_170_entered_as_first_place_only_pays_no_tie_and_no_second_place():
    """King and Intrigue's 170 (Special scoring), entered by the table as "Score the 1st place
    position only in all regions. In the case of any ties, no points are received." """
    game = red_turn(170)
    ki_put(game, "blue", "aragon", 2)
    ki_put(game, "green", "aragon", 2)
    _start(game)
    log = game.state.scoring_log[-1]
    assert log.title.startswith("Special scoring (1st place only")
    places = {(ln.area, ln.player): ln.points for ln in log.lines if ln.kind == "place"}
    assert places[("aragon", "blue")] == places[("aragon", "green")] == 0  # tied for first: nothing
    assert places[("galicia", "red")] == 4 and places[("galicia", "blue")] == 0  # a second place: nothing
