"""Enactment: "Choose one of the two Scoring tiles and place it on a free Scoring board on the
game board. You may also move a tile that is already on the game board to another one (but
do not remove it from the game board). This will change the points awarded during scoring.
You can also place one tile on the Castillo to replace both Scoring boards there. You are
not allowed to place a tile in the King's region or take one from there. In regions with
such a Scoring tile, you still receive the King's and Grande's bonuses." Scoring tile:
"There can only be one Scoring tile in each region." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.scoring import score_area
from engine.views import public_view
from tests.engine.effects.game2023 import (
    BOARD_FILE,
    clear,
    finish_round,
    idx,
    new_game,
    put,
    refused,
    start_round,
    start_special,
    take,
    turn_with,
)
from tests.engine.effects.referee2023 import _refused, _to_turn


def _enactment(board_file=BOARD_FILE, king="castilla"):
    g = new_game(board_file=board_file, king=king)
    pid = turn_with(g, "enactment")
    start_special(g, pid)
    return g, pid


def _again(g):
    """Enactment once more, in the next round (it is a single card: the table's second copy)."""
    finish_round(g)
    g.state.discard_pile.remove("enactment")  # arranged: a second Enactment card in stack 4
    g.state.stacks_undrawn[3]["enactment"] = 1
    start_round(g, "enactment")
    pid = take(g, "enactment")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    return pid


def test_choose_one_of_the_two_scoring_tiles_and_place_it_on_a_free_scoring_board():
    g, pid = _enactment()
    ask = g.asked()
    assert ask.kind == "place_scoring_tile" and set(ask.options["moves"]) == {"tile_a", "tile_b"}
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_b", area="granada"))
    assert g.state.mobile["tile_b"] == idx(g, "granada") and g.state.stage != "special"


def test_you_may_also_move_a_tile_already_on_the_board_to_another_one():
    g, pid = _enactment()
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_b", area="granada"))
    pid = _again(g)
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_b", area="valencia"))
    assert g.state.mobile["tile_b"] == idx(g, "valencia") and g.state.mobile_at(idx(g, "granada")) is None


def test_but_do_not_remove_it_from_the_game_board():
    g, pid = _enactment()
    for nowhere in ("box", "france"):
        refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_a", area=nowhere))


def test_there_can_only_be_one_scoring_tile_in_each_region():
    g, pid = _enactment()
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_b", area="granada"))
    pid = _again(g)
    assert "granada" not in g.asked().options["moves"]["tile_a"]
    refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_a", area="granada"), "scoring-tile")


def test_this_will_change_the_points_awarded_during_scoring():
    g, pid = _enactment()
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_b", area="sevilla"))  # 8-4-0 over the printed 4-3-1
    clear(g)
    put(g, "blue", "sevilla", 3)
    put(g, "green", "sevilla", 2)
    put(g, "orange", "sevilla", 1)
    lines = score_area(g.state, idx(g, "sevilla"))
    assert [(line.player, line.points) for line in lines if line.kind == "place"] == [
        ("blue", 8),
        ("green", 4),
        ("orange", 0),
    ]
    assert "Scoring tile tile_b" in lines[0].reason


def test_one_tile_on_the_castillo_replaces_both_scoring_boards_there():
    g, pid = _enactment()
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_a", area="castillo"))  # 4-0-0 over 5-3-1
    clear(g)
    put(g, "blue", "castillo", 2)
    put(g, "green", "castillo", 1)
    assert [line.points for line in score_area(g.state, g.state.board.castillo)] == [4, 0]


def test_you_are_not_allowed_to_place_a_tile_in_the_kings_region():
    g, pid = _enactment()
    assert all("castilla" not in targets for targets in g.asked().options["moves"].values())
    refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_a", area="castilla"), "kings-region-taboo")


def test_or_take_one_from_there():
    g, pid = _enactment(king="granada")
    g.state.mobile["tile_b"] = idx(g, "granada")  # arranged: it lay there before the King came
    assert set(g.asked().options["moves"]) == {"tile_a"}
    refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_b", area="valencia"), "kings-region-taboo")


def test_you_still_receive_the_kings_and_grandes_bonuses():
    g, pid = _enactment()
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_a", area="aragon"))  # Blue's home
    clear(g)
    put(g, "blue", "aragon", 2)
    g.state.king = idx(g, "aragon")  # arranged: the King came later
    kinds = {(line.kind, line.points) for line in score_area(g.state, idx(g, "aragon"))}
    assert kinds == {("place", 4), ("king_bonus", 2), ("home_bonus", 2)}


def test_a_tile_whose_values_nobody_entered_is_refused_naming_the_fact():
    g, pid = _enactment(board_file={"scoring_tiles": {"tile_b": [8, 4, 0]}})
    assert set(g.asked().options["moves"]) == {"tile_b"}
    msg = refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_a", area="granada"), "board-fact-missing")
    assert "scoring_tiles.tile_a" in msg


def test_no_tile_known_refuses_the_card_naming_the_fact():
    g = new_game(board_file=None)
    pid = turn_with(g, "enactment")
    assert "scoring_tiles.tile_a" in g.asked().options["special"]["refused"]
    refused(g, ev.SpecialActionStarted(player=pid), "board-fact-missing")


def test_a_scoring_that_meets_an_unknown_tile_refuses_naming_it():
    g = new_game(board_file=None)
    g.state.mobile["tile_a"] = idx(g, "granada")  # arranged: however it came there
    put(g, "blue", "granada", 1)
    with pytest.raises(RuleViolation) as refusal:
        score_area(g.state, idx(g, "granada"))
    assert refusal.value.rule == "board-fact-missing" and "scoring_tiles.tile_a" in str(refusal.value)


def test_taboo_enactment_no_tile_into_or_out_of_the_kings_region():
    """Enactment: "You are not allowed to place a tile in the King's region or take one from
    there." """
    g = new_game()
    pid = _to_turn(g, "enactment")
    start_special(g, pid)
    assert all("castilla" not in t for t in g.asked().options["moves"].values())
    _refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_a", area="castilla"), "kings-region-taboo")
    g.state.mobile["tile_b"] = g.board.area_index["castilla"]
    assert "tile_b" not in g.asked().options["moves"]
    _refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_b", area="toledo"), "kings-region-taboo")


def test_enactment_on_a_free_board_move_one_never_remove_one_on_the_castillo():
    """Enactment: "place it on a free Scoring board on the game board. You may also move a tile
    that is already on the game board to another one (but do not remove it from the game
    board)." "You can also place one tile on the Castillo to replace both Scoring boards there."
    and "There can only be one Scoring tile in each region." """
    g = new_game()
    g.state.mobile["tile_a"] = g.board.area_index["toledo"]
    pid = _to_turn(g, "enactment")
    start_special(g, pid)
    moves = g.asked().options["moves"]
    assert "toledo" not in moves["tile_b"] and "castillo" in moves["tile_b"]
    _refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_b", area="toledo"), "scoring-tile")
    _refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_b", area="france"), "not-a-region")
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_a", area="castillo"))
    assert g.state.scoreboard(g.board.castillo) == (4, 0, 0)
    assert public_view(g.state).mobile_scoreboards == {"tile_a": "castillo", "tile_b": None}


def test_enactment_a_second_tile_never_on_the_castillo():
    """Enactment: "You can also place one tile on the Castillo to replace both Scoring boards
    there." and "There can only be one Scoring tile in each region." """
    g = new_game()
    g.state.mobile["tile_a"] = g.board.castillo
    pid = _to_turn(g, "enactment")
    start_special(g, pid)
    assert "castillo" not in g.asked().options["moves"]["tile_b"]
    _refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_b", area="castillo"), "scoring-tile")
    g.apply(ev.ScoringTilePlaced(player=pid, tile="tile_a", area="toledo"))  # moved off, not removed
    assert g.state.mobile["tile_a"] == g.board.area_index["toledo"]
