"""The "none" effect: a card with no special action of its own (the engine's word for it in the
card data).

Cards: King and Intrigue "Intrigue" (the 10, ki_10), "King" (the 180, ki_180) and the Action
card "Caballero card" (caballero).

King and Intrigue: the 10: "This is the Power card with the lowest value. You are therefore the
player that takes the Intrigue card and executes its action." The 180: "This is the Power card
with the highest value. You are therefore the player that takes the King's Card and executes its
action." The Caballero card: "The Caballero card allows her to place 2 Caballeros in Spain." and
"Normally a player will execute the special action on his Power card." Their holder acts with
the other card (engine/rules/king_intrigue.py, turn_sources); the Intrigue card's action is
test_choice.py, the King's Card's test_move_king.py."""

from __future__ import annotations

import pytest

from engine import events as ev
from tests.engine.king_intrigue.table import ALL, finish_turn, new_game, play_powers, through_setup


def test_four_players_a_caballero_card_holder_executes_the_power_cards_action():
    """ "Normally a player will execute the special action on his Power card." (a Caballero card
    holder in a 4-player game: the 90's mobile scoreboard)"""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 90, "blue": 120, "green": 60, "yellow": 10})
    finish_turn(game)  # blue
    game.apply(ev.CourtReplenished(player="red", from_provinces=0))
    special = game.asked().options["special"]
    assert special["card"] != "kings_card" and special["options"] is None
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().kind == "place_mobile_scoreboard"


def test_the_10_and_180_have_no_action_of_their_own_so_no_choice():
    hands = {"red": ALL[5:], "blue": ALL[:13], "green": ALL[:13]}
    game = new_game(3)
    through_setup(game, hands=hands)
    play_powers(game, {"red": 180, "blue": 40, "green": 10})
    game.apply(ev.CourtReplenished(player="red", from_provinces=0))
    assert game.asked().options["special"]["card"] == "kings_card"
    assert game.asked().options["special"]["options"] is None


@pytest.mark.parametrize(
    "lowest,card,options",
    [
        (10, "intrigue", ["move", "move_all_own"]),
        (20, "ki_20", ["intrigue_move", "intrigue_move_all_own", "power_card"]),
    ],
)
def test_the_10_takes_the_intrigue_card_and_offers_only_its_actions(lowest, card, options):
    """The 10: "This is the Power card with the lowest value. You are therefore the player that
    takes the Intrigue card and executes its action." With 3 players another lowest card (the 20)
    offers its own action beside the Intrigue card's; the 10 has none to offer."""
    game = new_game(3)
    through_setup(game, hands={"red": ALL[5:], "blue": ALL[:13], "green": ALL[:13]})
    play_powers(game, {"red": 180, "blue": 40, "green": lowest})
    while game.asked().players[0] != "green":
        finish_turn(game)
    assert game.asked().options["action_card"] == "intrigue"
    game.apply(ev.CourtReplenished(player="green", from_provinces=0))
    special = game.asked().options["special"]
    assert special["card"] == card and special["options"] == options
