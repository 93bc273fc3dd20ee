"""Mistress (King and Intrigue, Special cards): the King is distracted.

Cards: King and Intrigue "Mistress" (sc_mistress).

Rule text: "You may not place Caballeros in the King's region. If there is a special scoring in
the King's region this round, the King's bonus will not be awarded. Also, if there is a general
scoring directly following this round, the King's bonus will not be awarded. Home region bonuses
score as usual." """

from __future__ import annotations

from engine import events as ev
from tests.engine.king_intrigue.table import (
    ALL,
    BOTH,
    KING,
    WITH_MODULES,
    _module_turn,
    _points,
    _reveal_discs,
    _score,
    _start,
    _to_general_scoring,
    finish_turn,
    new_game,
    play_powers,
    put,
    through_setup,
)


def test_mistress_a_later_general_scoring_pays_the_kings_bonus_again():
    """ "Also, if there is a general scoring directly following this round, the King's bonus will
    not be awarded." -- played in round 1, the general scoring after round 3 pays it."""
    game = _module_turn(75)
    _start(game)
    put(game, "blue", KING, 5)
    s = game.state
    _to_general_scoring(game)
    record = _reveal_discs(game)
    assert s.round == 3 or s.round_index >= 2
    assert any(ln.kind == "king_bonus" and ln.area == KING for ln in record.lines)


def test_mistress_the_general_scoring_directly_following_pays_no_kings_bonus():
    """ "if there is a general scoring directly following this round, the King's bonus will not
    be awarded. Home region bonuses score as usual." (played in round 3: the general scoring
    after round 3 follows directly)"""
    game = _module_turn(75, round_index=2)
    s = game.state
    assert s.round == 3
    _start(game)
    put(game, "blue", KING, 5)
    _to_general_scoring(game)
    record = _reveal_discs(game)
    assert not any(ln.kind == "king_bonus" for ln in record.lines)
    assert any(ln.kind == "home_bonus" for ln in record.lines)
    assert _points(record.lines, KING, "place").get("blue") == 7  # the region itself scores as usual


def test_the_mistress_takes_every_kings_bonus_away_home_bonus_as_usual():
    plain, _, _ = _score()
    gained, lines, _ = _score(mistress="blue", kings_guard="aragon")
    assert not any(ln.kind == "king_bonus" for ln in lines)
    assert gained["green"] == plain["green"] - 2 and gained["red"] == plain["red"]


def test_mistress_no_kings_bonus_at_a_special_scoring_this_round_home_bonus_as_usual():
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES, king="cataluna")  # a "4" region
    through_setup(game, hands={"red": [75] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": 75, "blue": 180, "green": 60, "yellow": 10})  # green: score the "4" regions
    put(game, "green", "cataluna", 2)
    put(game, "red", "galicia", 4)  # red's home (Grande): the home bonus stays
    finish_turn(game)  # blue
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="red", from_provinces=ask.options["max"]))
    _start(game)
    assert game.state.markers["mistress"] == "red"
    finish_turn(game)  # red places nothing
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="green", from_provinces=ask.options["max"]))
    game.apply(ev.SpecialActionStarted(player="green"))
    lines = game.state.scoring_log[-1].lines
    assert not any(ln.kind == "king_bonus" for ln in lines)
    assert any(ln.kind == "home_bonus" and ln.player == "red" and ln.area == "galicia" for ln in lines)
    assert any(ln.area == "cataluna" and ln.player == "green" and ln.points == 4 for ln in lines)
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    assert s.markers["mistress"] is None  # this round only (no general scoring after round 1)
