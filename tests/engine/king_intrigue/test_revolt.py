"""Revolt (Special cards; engine/effects/revolt.py): "When reversed, the 8/4/0 mobile scoreboard
becomes a 0/4/8 scoreboard, meaning that the player with the fewest Caballeros (at least one)
scores 8 points. The player with the second fewest Caballeros scores 4 points." -- "When a
player moves a reversed scoreboard, it remains reversed.\""""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation

from .table import ALL, KING, WITH_MODULES, finish_turn, idx, new_game, play_powers, put, through_setup


def _turn():
    game = new_game(4, modules=["special-cards"], cards_file=WITH_MODULES)
    through_setup(game, discs={p: "aragon" for p in ("red", "blue", "green", "yellow")},
                  hands={"red": [125] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": 125, "blue": 170, "green": 40, "yellow": 10})
    finish_turn(game)  # blue
    game.apply(ev.CourtReplenished(player="red", from_provinces=2))
    return game


def test_the_fewest_score_first_on_a_reversed_scoreboard_and_it_stays_reversed():
    game = _turn()
    s = game.state
    s.mobile["8-4-0"] = idx(game, "aragon")
    s.mobile["4-0-0"] = idx(game, KING)
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "turn_scoreboard" and ask.options["scoreboards"] == ["8-4-0"]  # 4-0-0: the King's region
    with pytest.raises(RuleViolation, match="may not be changed"):
        game.apply(ev.ScoreboardTurned(player="red", scoreboard="4-0-0"))
    game.apply(ev.ScoreboardTurned(player="red", scoreboard="8-4-0"))
    assert s.markers["reversed_8-4-0"] is True
    put(game, "red", "aragon", 3)   # red 4: the most, 4th
    put(game, "blue", "aragon", 1)  # blue 2: 3rd
    # green and yellow 1 each: tied for the fewest, they take the 2nd place's 4 each.
    s.grandes[0] = idx(game, "aragon")  # red's Grande: the home bonus stays with the majority
    while s.stage != "scoring_discs":
        if s.stage == "power":
            game.apply(ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][0]))
        else:
            finish_turn(game)
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="cataluna"))
    game.apply(ev.SecretDiscsRevealed())
    lines = [ln for ln in s.scoring_log[-1].lines if ln.area == "aragon"]
    assert s.mobile["8-4-0"] == idx(game, "aragon") and s.counts[idx(game, "aragon")] == [4, 2, 1, 1]
    assert {(ln.player, ln.points, ln.kind) for ln in lines} == {
        ("green", 4, "place"), ("yellow", 4, "place"), ("blue", 0, "place"), ("red", 0, "place"),
        ("red", 2, "home_bonus")}
    assert s.markers["reversed_8-4-0"] is True  # still reversed after the scoring


def test_a_second_revolt_turns_it_back():
    game = _turn()
    game.state.markers["reversed_4-0-0"] = True
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().options["reversed"] == ["4-0-0"]
    game.apply(ev.ScoreboardTurned(player="red", scoreboard="4-0-0"))
    assert game.state.markers["reversed_4-0-0"] is None
