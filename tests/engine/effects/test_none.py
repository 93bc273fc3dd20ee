"""TODO docstring: none."""
from __future__ import annotations

from engine import events as ev

from ..king_intrigue.table import ALL, finish_turn, new_game, play_powers, through_setup


def test_four_players_a_caballero_card_holder_executes_the_power_cards_action():
    """"Normally a player will execute the special action on his Power card." (a Caballero card
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
