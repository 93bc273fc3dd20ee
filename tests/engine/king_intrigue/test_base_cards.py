"""The King and Intrigue Power cards that carry a base-game action, by their clarifications in
the rule text (the action itself is the base game's, engine/flow.py)."""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation

from .table import KING, idx, new_game, red_turn


def test_50_your_opponents_not_you_choose_which_3_of_their_caballeros_return_in_clockwise_order():
    game = new_game(4)
    red_turn(game, 50)
    game.apply(ev.SpecialActionStarted(player="red"))
    order = []
    while game.asked().kind == "send_back":
        ask = game.asked()
        pid = ask.players[0]
        order.append(pid)
        spec = ask.options["owners"][pid]
        assert spec["count"] == 3 and list(ask.options["owners"]) == [pid]  # each chooses their own
        game.apply(ev.CaballerosSentBack(player=pid, owner=pid, from_court=3))
    assert order == ["blue", "green", "yellow"]  # clockwise from red's left; red not affected


def test_70_one_caballero_of_each_opponent_not_your_own_to_the_province():
    game = new_game(4)
    red_turn(game, 70)
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.players == ("red",) and set(ask.options["owners"]) == {"blue", "green", "yellow"}
    for pid, home in (("blue", "sevilla"), ("green", "granada"), ("yellow", "valencia")):
        game.apply(ev.CaballerosSentBack(player="red", owner=pid, from_regions={home: 1}))
    assert [game.state.counts[idx(game, r)][p] for p, r in ((1, "sevilla"), (2, "granada"), (3, "valencia"))] == [
        1, 1, 1]


def test_80_the_grande_neither_leaves_nor_enters_the_kings_region_nor_goes_to_the_castillo():
    game = new_game(4)
    red_turn(game, 80)
    game.apply(ev.SpecialActionStarted(player="red"))
    regions = game.asked().options["regions"]
    assert KING not in regions and "castillo" not in regions and "galicia" not in regions
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.GrandeMoved(player="red", region=KING))
    game.apply(ev.GrandeMoved(player="red", region="cataluna"))
    assert game.state.grandes[0] == idx(game, "cataluna")
    stuck = new_game(4)
    red_turn(stuck, 80)
    stuck.state.grandes[0] = idx(stuck, KING)
    stuck.apply(ev.SpecialActionStarted(player="red"))
    assert stuck.state.turn.special_done  # a Grande in the King's region may not be taken out


def test_90_the_mobile_scoreboard_as_in_the_base_game():
    game = new_game(4)
    red_turn(game, 90)  # green plays 80
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().kind == "place_mobile_scoreboard" and KING not in game.asked().options["moves"]["8-4-0"]
    game.apply(ev.MobileScoreboardPlaced(player="red", scoreboard="8-4-0", area="galicia"))
    assert game.state.mobile["8-4-0"] == idx(game, "galicia")


def test_a_scoring_card_scores_as_the_tables_card_says():
    game = new_game(4)
    red_turn(game, 100)  # the table's 100: all "5" regions
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.state.scoring_log[-1].title.startswith('Special scoring (all "5" regions)')


def test_160_royal_advisor_moves_the_king_to_an_adjacent_region_before_or_after_placing():
    game = new_game(4)
    red_turn(game, 160)  # red: the 3-Caballero card (blue 170 holds the King's Card)
    game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1}))
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "move_king" and set(ask.options["regions"]) == {
        "castilla_la_vieja", "aragon", "valencia", "granada", "sevilla"}
    with pytest.raises(RuleViolation, match="adjacent region"):
        game.apply(ev.KingMoved(player="red", region="galicia"))
    game.apply(ev.KingMoved(player="red", region="valencia"))
    assert game.state.king == idx(game, "valencia")


def test_30_is_what_the_tables_card_says_here_the_opponents_courts_lose_3():
    game = new_game(4)
    red_turn(game, 30)
    courts = list(game.state.court)
    game.apply(ev.SpecialActionStarted(player="red"))
    assert [b - a for a, b in zip(game.state.court, courts)] == [0, 3, 3, 3]
