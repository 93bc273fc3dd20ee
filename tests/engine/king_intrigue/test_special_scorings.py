"""The three special-scoring cards of the Special cards (engine/effects/score_own_region.py,
score_offered_three.py; the base game's score_chosen_region):
  "You may only choose a region in which you have at least 1 Caballero."
  "You may choose a region in which you have no Caballeros."
  "You give your opponent the choice of 3 regions. Of these 3 regions, your opponent chooses
   which will be scored.\""""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation

from .table import ALL, WITH_MODULES, finish_turn, new_game, play_powers, put, through_setup


def _turn(value):
    game = new_game(4, modules=["special-cards"], cards_file=WITH_MODULES)
    through_setup(game, discs={p: "aragon" for p in ("red", "blue", "green", "yellow")},
                  hands={"red": [value] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": value, "blue": 170, "green": 40, "yellow": 10})
    finish_turn(game)  # blue
    game.apply(ev.CourtReplenished(player="red", from_provinces=0))
    return game


def test_a_region_where_you_have_at_least_one_caballero():
    game = _turn(95)
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().options["regions"] == ["galicia", "aragon"]  # red's home and the setup disc's
    with pytest.raises(RuleViolation, match="where Red has at least 1 Caballero, not Cataluña"):
        game.apply(ev.RegionChosen(player="red", region="cataluna"))
    put(game, "red", "aragon", 2)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    record = game.state.scoring_log[-1]
    assert {ln.player: ln.points for ln in record.lines if ln.kind == "place"} == {"red": 5, "blue": 1, "green": 1,
                                                                                 "yellow": 1}


def test_a_region_where_you_have_no_caballero():
    game = _turn(105)
    game.apply(ev.SpecialActionStarted(player="red"))
    assert "cataluna" in game.asked().options["regions"]
    game.apply(ev.RegionChosen(player="red", region="sevilla"))  # blue's home: 2
    assert [(ln.player, ln.points) for ln in game.state.scoring_log[-1].lines] == [("blue", 4), ("blue", 2)]


def test_three_regions_offered_and_the_opponent_on_the_left_chooses():
    game = _turn(115)
    game.apply(ev.SpecialActionStarted(player="red"))
    for region in ("galicia", "aragon"):
        game.apply(ev.RegionChosen(player="red", region=region))
    with pytest.raises(RuleViolation, match="already offered"):
        game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="sevilla"))
    ask = game.asked()
    assert ask.players == ("blue",) and ask.options["regions"] == ["galicia", "aragon", "sevilla"]
    with pytest.raises(RuleViolation, match="cannot choose which offered region is scored now"):
        game.apply(ev.RegionChosen(player="red", region="galicia"))
    with pytest.raises(RuleViolation, match="one of the regions offered"):
        game.apply(ev.RegionChosen(player="blue", region="cataluna"))
    game.apply(ev.RegionChosen(player="blue", region="sevilla"))
    record = game.state.scoring_log[-1]
    assert "Sevilla, chosen by Blue" in record.title and record.lines[0].player == "blue"
