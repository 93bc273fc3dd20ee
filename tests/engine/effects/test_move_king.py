"""The "move_king" effect: the special action of "Royal Advisor", "King's Card".

Cards: classic (1995) "Royal Advisor" (royal_advisor); classic (1995) "King's Card"
(kings_card); King and Intrigue "Royal Advisor" (ki_160); King and Intrigue "King's Card"
(kings_card).

classic 1995: "Royal Advisor (1x) Move the King to any adjacent region."

classic 1995: "King's Card (1x) Move the King to a region of your choice. You may move the King
(to any region except the Castillo) [...]. You may also leave the King where he is."

King and Intrigue, King's Card: "You may move the King before or after you place Caballeros. You
may not place the King in the Castillo." 160 (Royal Advisor): "Before or after you place
Caballeros, you may move the King to an adjacent region." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.effects.classic import start
from tests.engine.helpers import count, new_game, refused, turn_with
from tests.engine.king_intrigue.table import KING, _start, idx, play_powers, red_turn, through_setup
from tests.engine.king_intrigue.table import new_game as ki_game


def test_royal_advisor_moves_the_king_one_step():
    g = new_game()
    pid = turn_with(g, "royal_advisor")
    start(g, pid)
    refused(g, ev.KingMoved(player=pid, region="galicia"), "king-move")
    g.apply(ev.KingMoved(player=pid, region="granada"))
    assert g.state.king == g.board.area_index["granada"]


def test_kings_card_moves_the_king_anywhere_and_placement_follows():
    g = new_game()
    pid = turn_with(g, "kings_card", place=False)
    start(g, pid)
    g.apply(ev.KingMoved(player=pid, region="galicia"))
    refused(g, ev.CaballerosPlaced(player=pid, placements={"aragon": 1}), "placement-area")
    refused(g, ev.CaballerosPlaced(player=pid, placements={"galicia": 1}), "kings-region-taboo")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"pais_vasco": 3, "castillo": 2}))
    assert count(g, "red", "pais_vasco") == 3 and count(g, "red", "castillo") == 2


def test_special_action_first_then_placement_next_to_the_new_king():
    """ "Then, in the order of his choice, the player executes his special action and places
    ..." -- "You may move the King before or after you place Caballeros." (the King's Card
    first: the placement then goes next to the King's new region)"""
    game = ki_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    game.apply(ev.CourtReplenished(player="blue", from_provinces=2))
    _start(game, "blue")
    game.apply(ev.KingMoved(player="blue", region="galicia"))
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosPlaced(player="blue", placements={"granada": 1}))  # no longer next to the King
    game.apply(ev.CaballerosPlaced(player="blue", placements={"pais_vasco": 1}))
    assert game.state.counts[idx(game, "pais_vasco")][1] == 1


def test_placement_first_then_the_king_moves():
    """ "You may move the King before or after you place Caballeros.\""""
    game = ki_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    game.apply(ev.CourtReplenished(player="blue", from_provinces=2))
    game.apply(ev.CaballerosPlaced(player="blue", placements={"granada": 2}))
    ask = game.asked()
    assert ask.kind == "turn_action" and ask.options["special"]["card"] == "kings_card"
    game.apply(ev.SpecialActionStarted(player="blue"))
    game.apply(ev.KingMoved(player="blue", region="granada"))
    assert game.state.king == idx(game, "granada") and game.state.counts[idx(game, "granada")][1] == 2


def test_the_kings_card_may_not_put_the_king_in_the_castillo():
    """ "You may not place the King in the Castillo.\""""
    game = ki_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    game.apply(ev.CourtReplenished(player="blue", from_provinces=2))
    game.apply(ev.SpecialActionStarted(player="blue"))
    assert "castillo" not in game.asked().options["regions"]
    with pytest.raises(RuleViolation):
        game.apply(ev.KingMoved(player="blue", region="castillo"))
    assert game.state.king == idx(game, KING)


def test_160_the_royal_advisor_may_not_move_the_king_into_the_castillo_nor_two_steps():
    """ "Before or after you place Caballeros, you may move the King to an adjacent region.\""""
    game = ki_game(4)
    red_turn(game, 160)
    _start(game)
    for far in ("castillo", "cataluna"):
        with pytest.raises(RuleViolation):
            game.apply(ev.KingMoved(player="red", region=far))
    game.apply(ev.KingMoved(player="red", region="sevilla"))
    # after the move: the placement goes next to the King's new region
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1}))
    game.apply(ev.CaballerosPlaced(player="red", placements={"granada": 1}))


def test_160_royal_advisor_moves_the_king_to_an_adjacent_region_before_or_after_placing():
    game = ki_game(4)
    red_turn(game, 160)  # red: the 3-Caballero card (blue 170 holds the King's Card)
    game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1}))
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "move_king" and set(ask.options["regions"]) == {
        "castilla_la_vieja",
        "aragon",
        "valencia",
        "granada",
        "sevilla",
    }
    with pytest.raises(RuleViolation, match="adjacent region"):
        game.apply(ev.KingMoved(player="red", region="galicia"))
    game.apply(ev.KingMoved(player="red", region="valencia"))
    assert game.state.king == idx(game, "valencia")
