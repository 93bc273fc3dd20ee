"""TODO docstring: score_chosen_region."""
from __future__ import annotations

import pytest

from engine import events as ev

from ..helpers import new_game, put, refused, score, turn_with
from ..king_intrigue.modules_table import _turn
from .classic import start
from .game2023 import clear, new_game as new_game_2023, put as put_2023, start_special
from .referee2023 import _last_scoring, _points, _refused, _to_turn


@pytest.mark.parametrize("card", ["score_chosen_region_2", "score_chosen_region_3"])
def test_special_scoring_of_a_chosen_region_even_the_kings(card):
    g = new_game()
    put(g, "blue", "castilla_la_nueva", 2)
    put(g, "red", "castilla_la_nueva", 1)
    pid = turn_with(g, card)
    start(g, pid)
    refused(g, ev.RegionChosen(player=pid, region="castillo"), "unknown-id")
    g.apply(ev.RegionChosen(player=pid, region="castilla_la_nueva"))
    assert score(g, "blue") == 7 + 2 and score(g, "red") == 4  # with the King's bonus
    assert g.state.scoring_log[-1].lines[0].area == "castilla_la_nueva"


def test_a_region_where_you_have_no_caballero():
    game = _turn(105)
    game.apply(ev.SpecialActionStarted(player="red"))
    assert "cataluna" in game.asked().options["regions"]
    game.apply(ev.RegionChosen(player="red", region="sevilla"))  # blue's home: 2
    assert [(ln.player, ln.points) for ln in game.state.scoring_log[-1].lines] == [("blue", 4), ("blue", 2)]


def test_a_chosen_region_may_be_the_kings_region():
    """"If you can choose a region, you may choose the King's region." (a card of the table's
    that scores one region of your choice; the King's bonus comes with it)"""
    chooser = {"id": "local_hero", "stack": 4, "copies": 1, "name": "Local Hero", "effect": "score_chosen_region"}
    g = new_game_2023(extra_cards=(chooser,))
    clear(g)
    put_2023(g, "blue", "castilla", 2)
    pid = _to_turn(g, "local_hero")
    start_special(g, pid)
    assert "castilla" in g.asked().options["regions"]
    _refused(g, ev.RegionChosen(player=pid, region="castillo"))
    g.apply(ev.RegionChosen(player=pid, region="castilla"))
    assert _points(_last_scoring(g)) == {"blue": 6 + 2}
