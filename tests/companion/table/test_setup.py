"""The new-game screen's seats (companion/table/setup.py): a switch of the rules ticks the seats
those rules take, from the engine's data (engine.board.player_range), never a count Start refuses."""

from __future__ import annotations

import pytest

from companion.table.setup import DEFAULT_SEATS, seat_colours, seats_ticked
from companion.table_rules.rules_choice import RulesChoice, seats_words
from engine.board.errors import RuleSetError
from engine.board.load import player_range
from engine.events import GameSetup
from engine.game import board_for


def test_each_rule_system_takes_the_players_its_board_data_names():
    assert player_range("classic") == (2, 5) and player_range("2023") == (2, 5)  # 2023: both sides together
    assert player_range("king-intrigue") == (2, 5)
    with pytest.raises(RuleSetError, match="unknown rule set"):
        player_range("checkers")


def test_a_fresh_new_game_switched_to_2023_ticks_the_2023_box_colours_and_starts():
    """The screen opens on the classic rules, four seats ticked; picking the 2023 edition keeps
    four seats, the 2023 box's own colours, not the classic ones ticked before added to them."""
    classic = seat_colours("classic")[:DEFAULT_SEATS]
    assert classic == ["red", "yellow", "green", "blue"]
    ticked = seats_ticked("2023", classic, named=set())
    assert ticked == ["purple", "blue", "green", "orange"]
    low, high = player_range("2023")
    assert low <= len(ticked) <= high
    board_for(
        GameSetup(
            players=ticked,
            names={p: p.title() for p in ticked},
            king="castilla",
            homes=dict(zip(ticked, ["galicia", "aragon", "sevilla", "valencia"])),
            start_player=ticked[0],
            rules="2023",
            variant="full",
        )
    )  # Start takes it


def test_typed_names_keep_their_seats_and_the_count_stays_within_the_rules():
    five = ["red", "yellow", "green", "blue", "black"]
    assert seats_ticked("2023", five, named={"red", "black"}) == ["red", "black", "purple", "blue", "green"]
    # More ticked than the rules take (a 2023 table of eight colours, back to the classic five)
    eight = seat_colours("2023")
    assert len(eight) == 8
    assert len(seats_ticked("classic", eight, named=set())) == player_range("classic")[1]
    assert seats_ticked("classic", ["purple"], named={"purple"}) == ["red", "yellow"]  # purple: not a classic colour
    assert seats_ticked("king-intrigue", ["red", "blue", "green"], named={"blue"}) == ["blue", "red", "yellow"]


def test_a_count_the_rules_do_not_take_is_said_before_start():
    assert seats_words("2023", 6) == "The 2023 edition takes 2 to 5 players: 6 are ticked."
    assert seats_words("classic", 1) == "The classic game takes 2 to 5 players: 1 is ticked."
    assert seats_words("king-intrigue", 4) == ""
    assert RulesChoice("2023").words(6) == seats_words("2023", 6)
    assert RulesChoice("classic").words(0).startswith("The classic game takes 2 to 5 players")
    assert RulesChoice("2023").words(4).startswith("The 4-5 player side")
