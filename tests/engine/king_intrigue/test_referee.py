"""An independent referee's scenarios for King and Intrigue: each test quotes the sentence of
the rule text (king-and-intrigue-expansion.md, or the classic rules it builds on) it checks,
in situations the other test files do not cover. Numbers the text does not publish (what an
Action card places, each card's Caballeros to the court, which scoring a card is) are the
tests' card file's (table.py), entered as a table would from its box; no expectation here
depends on one the text leaves open unless it is taken from that file."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import ALL, COURT, finish_turn, idx, new_game, play_powers, seat, through_setup

# --- helpers ------------------------------------------------------------------------------------


# --- setup ----------------------------------------------------------------------------------


def test_setup_the_disc_caballero_comes_from_the_province_not_the_court():
    """ "Each player places 1 Caballero from the Province in their chosen region." -- and no
    more than 1: every player's court is untouched."""
    game = new_game(4)
    s = game.state
    courts, provinces = list(s.court), list(s.provinces)
    through_setup(game, discs={"red": "aragon", "blue": "aragon", "green": "cataluna", "yellow": "galicia"})
    assert s.court == courts and [a - b for a, b in zip(provinces, s.provinces)] == [1, 1, 1, 1]
    assert s.counts[idx(game, "aragon")] == [1, 1, 0, 0]
    assert s.counts[idx(game, "galicia")][3] == 1 and s.counts[idx(game, "cataluna")][2] == 1
    assert all(s.total_accounted(p) == 30 for p in range(4))


def test_setup_every_player_keeps_exactly_13_and_plays_only_from_those():
    """ "each player will secretly choose 13 of them with which he will play the game. Each
    player then puts the 5 cards he chose not to use back in the box" -- a card left out is
    never playable."""
    game = new_game(3)
    through_setup(game, hands={"red": ALL[5:], "blue": ALL[:13], "green": ALL[:13]})
    assert [len(h) for h in game.state.hands] == [13, 13, 13]
    assert 10 not in game.asked().options["cards"]
    with pytest.raises(RuleViolation, match="cannot play Power card 10 now"):
        game.apply(ev.PowerCardPlayed(player="red", card=10))


# --- the round: ranks, turn order, the court step ----------------------------------------------


def test_five_players_turns_start_with_the_kings_card_and_go_down_by_power_card():
    """ "Then each player takes their turn, starting with the player who has the King's Card,
    and proceeding in descending Power card order." (played in seat order from the start
    player, not in value order)"""
    game = new_game(5, start="green")
    through_setup(game)
    play_powers(game, {"green": 30, "yellow": 120, "black": 60, "red": 90, "blue": 10})
    s = game.state
    assert [s.players[q] for q in s.turn_order] == ["yellow", "red", "black", "green", "blue"]
    from engine.rules.king_intrigue.round import action_cards_by_rank

    ranks = action_cards_by_rank(s)
    assert ranks[seat(game, "yellow")] == ("kings_card", 5) and ranks[seat(game, "blue")] == ("intrigue", 1)
    # "the Action card offering the most Caballeros from those remaining", in descending order
    assert [ranks[seat(game, p)] for p in ("red", "black", "green")] == [
        ("caballero", 4),
        ("caballero", 3),
        ("caballero", 2),
    ]
    assert game.asked().players == ("yellow",)


def test_the_kings_card_holder_takes_the_caballeros_of_their_power_card():
    """ "They will still take the Caballeros depicted on their Power card." (4 players: the
    King's Card and the Intrigue card holders)"""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 90, "blue": 20, "green": 60, "yellow": 50})
    assert game.asked().players == ("red",) and game.asked().options["max"] == COURT[90]
    finish_turn(game)
    finish_turn(game)
    finish_turn(game)
    ask = game.asked()
    assert ask.players == ("blue",) and ask.options["max"] == COURT[20]  # the Intrigue card: the 20's 6


def test_fewer_caballeros_to_the_court_none_at_all():
    """ "a player may choose to take fewer Caballeros" -- none is fewer."""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    court = game.state.court[1]
    game.apply(ev.CourtReplenished(player="blue", from_provinces=0))
    assert game.state.court[1] == court and game.state.stage == "turn"


def test_three_players_the_intrigue_card_offers_its_actions_or_the_power_cards():
    """ "In a 2- or 3-player game, the King's Card and Intrigue card offer a choice between two
    actions." -- "The same is true of the Intrigue card." (3 players)"""
    game = new_game(3)
    through_setup(game, discs={"red": "aragon", "blue": "aragon", "green": "aragon"})
    play_powers(game, {"red": 120, "blue": 90, "green": 70})  # green: the lowest, the 70 and the Intrigue card
    finish_turn(game)
    finish_turn(game)
    ask = game.asked()
    assert ask.players == ("green",) and ask.options["max"] == COURT[70]
    game.apply(ev.CourtReplenished(player="green", from_provinces=COURT[70]))
    options = game.asked().options["special"]["options"]
    assert "power_card" in options and any(o.startswith("intrigue") for o in options)
    game.apply(ev.SpecialActionStarted(player="green", option="power_card"))
    ask = game.asked()
    assert ask.players == ("green",) and set(ask.options["owners"]) == {"red", "blue"}  # the 70: one of each


# --- the Intrigue card ------------------------------------------------------------------------


# --- base Power cards -----------------------------------------------------------------------


# --- Player's Edition -------------------------------------------------------------------------


# --- Special cards ----------------------------------------------------------------------------


# --- more: the Veto under the Action cards, tokens through the real flow -----------------------
