"""TODO docstring: score_group."""
from __future__ import annotations

import pytest

from engine import events as ev

from ..helpers import new_game, put, score, turn_with
from ..king_intrigue.table import new_game as ki_game, red_turn
from .classic import start


@pytest.mark.parametrize("card,scored", [
    ("score_4_regions", {"galicia", "sevilla"}),
    ("score_5_regions", {"aragon", "valencia"}),
    ("score_6_7_regions", {"granada"}),
])
def test_special_scoring_of_a_value_group(card, scored):
    g = new_game()
    for region in ("valencia", "granada"):
        put(g, "green", region, 1)
    pid = turn_with(g, card)
    start(g, pid)
    record = g.state.scoring_log[-1]
    assert {ln.area for ln in record.lines} == scored


def test_special_scoring_group_follows_mobile_scoreboards():
    g = new_game()
    g.state.mobile["4-0-0"] = g.board.area_index["aragon"]
    g.state.mobile["8-4-0"] = g.board.area_index["galicia"]
    pid = turn_with(g, "score_4_regions")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"aragon", "sevilla"}
    assert score(g, "blue") == 4 + 2  # the 4-0-0 in Aragón, and Blue's home bonus


def test_a_scoring_card_scores_as_the_tables_card_says():
    game = ki_game(4)
    red_turn(game, 100)  # the table's 100: all "5" regions
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.state.scoring_log[-1].title.startswith('Special scoring (all "5" regions)')
