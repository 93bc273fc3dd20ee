"""The "score_chosen_region" effect: the special action of "Special Scoring", "Special scoring",
"Special scoring (any region)".

Cards: classic (1995) "Special Scoring" (score_chosen_region_2, score_chosen_region_3); King and
Intrigue "Special scoring" (ki_150); King and Intrigue "Special scoring (any region)"
(sc_scoring_any).

classic 1995: "You may select any one region to be scored. Choose a region on the board and
score this region immediately. [...] You may choose the King's Region as the region to be
scored, but you may not choose the Castillo."

2023: "If you can choose a region, you may choose the King's region."

King and Intrigue: "The 60, 100, 110, 120, 150, and 170 cards trigger a special scoring and are
identical to those Action cards found in the base game (stacks 3 and 4, pages 11-12)." Which
scoring each is, is not published: the table enters it from its cards; the tests' table (and the
engine's self-play stand-in) enter 60, 100, 110: score_group ("4", "5", "6-7"); 120:
score_castillo; 150: score_chosen_region; 170: score_first_only. Special scoring (any region),
Special cards: "You may choose a region in which you have no Caballeros." """

from __future__ import annotations

import pytest

from engine import events as ev
from tests.engine.effects.classic import start
from tests.engine.effects.game2023 import clear, start_special
from tests.engine.effects.game2023 import new_game as new_game_2023
from tests.engine.effects.game2023 import put as put_2023
from tests.engine.effects.referee2023 import _last_scoring, _points, _refused, _to_turn
from tests.engine.helpers import new_game, put, refused, score, turn_with
from tests.engine.king_intrigue.modules_table import _turn
from tests.engine.king_intrigue.table import KING, _start, red_turn
from tests.engine.king_intrigue.table import new_game as ki_game
from tests.engine.king_intrigue.table import put as ki_put


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
    """ "If you can choose a region, you may choose the King's region." (a card of the table's
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


def test_king_and_intrigue_150_entered_as_a_chosen_region_may_score_the_kings_region():
    """King and Intrigue's 150 (Special scoring), entered by the table as "You may select any one
    region to be scored. [...] You may choose the King's Region as the region to be scored, but
    you may not choose the Castillo." """
    game = ki_game(4)
    red_turn(game, 150)
    ki_put(game, "blue", KING, 2)
    ask = _start(game)
    assert ask.kind == "choose_region" and KING in ask.options["regions"] and "castillo" not in ask.options["regions"]
    game.apply(ev.RegionChosen(player="red", region=KING))
    log = game.state.scoring_log[-1]
    assert {(ln.player, ln.points, ln.kind) for ln in log.lines} == {("blue", 7, "place"), ("blue", 2, "king_bonus")}
