"""Revelation: "Open the gate and score the Castillo as usual. However, do not move the
Caballeros afterwards. Instead, you throw them back into the Castillo. They will only be
placed in regions during the general scoring." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.game2023 import (
    clear,
    count,
    general_scoring,
    lift_castillo,
    new_game,
    put,
    refused,
    score,
    start_special,
    turn_with,
)
from tests.engine.effects.referee2023 import (
    BOARD_2_3,
    DUMMY,
    _area_points,
    _dummy_seat,
    _last_scoring,
    _points,
    _put_dummy,
    _to_turn,
    _two,
)


def _revelation(castillo=(("purple", 3), ("blue", 2), ("orange", 1))):
    g = new_game()
    pid = turn_with(g, "revelation")
    clear(g)
    for who, n in castillo:
        put(g, who, "castillo", n)
    return g, pid


def test_open_the_gate_and_score_the_castillo_as_usual():
    g, pid = _revelation()
    start_special(g, pid)
    lift_castillo(g)
    assert (score(g, "purple"), score(g, "blue"), score(g, "orange"), score(g, "green")) == (5, 3, 1, 0)
    record = g.state.scoring_log[-1]
    assert "Revelation" in record.title and {line.area for line in record.lines} == {"castillo"}


def test_ties_as_usual():
    g, pid = _revelation((("purple", 2), ("blue", 2), ("orange", 1)))
    start_special(g, pid)
    lift_castillo(g)
    # tied for 1st: both take the 2nd place's points; the next is 3rd
    assert (score(g, "purple"), score(g, "blue"), score(g, "orange")) == (3, 3, 1)


def test_do_not_move_the_caballeros_throw_them_back_into_the_castillo():
    g, pid = _revelation()
    start_special(g, pid)
    lift_castillo(g)
    assert (count(g, "purple", "castillo"), count(g, "blue", "castillo"), count(g, "orange", "castillo")) == (3, 2, 1)
    assert g.asked().kind != "secret_disc" and g.state.stage != "special"


def test_they_will_only_be_placed_in_regions_during_the_general_scoring():
    g = new_game(round=3)
    pid = turn_with(g, "revelation")
    clear(g)
    put(g, "purple", "castillo", 3)
    start_special(g, pid)
    lift_castillo(g)
    general_scoring(g, {"purple": "granada"})
    assert count(g, "purple", "castillo") == 0 and count(g, "purple", "granada") == 3


def test_the_table_counts_the_castillo_once_no_one_vetoed():
    g, pid = _revelation()
    # The gate stays shut until the action is announced and let pass
    refused(g, ev.CastilloCounted(counts={"purple": 1, "blue": 2, "orange": 1}), "veto")
    start_special(g, pid)
    assert g.asked().kind == "lift_castillo" and not g.state.scoring_log
    lift_castillo(g, {"purple": 1, "blue": 2, "orange": 1})  # the count wins
    # Blue 2, Purple and Orange tied for 2nd with 1 each: the 3rd place's points
    assert (score(g, "blue"), score(g, "purple"), score(g, "orange")) == (5, 1, 1)
    assert count(g, "purple", "castillo") == 1


def test_a_castillo_board_nobody_published_refuses_it_naming_the_fact():
    g = new_game(
        players=["purple", "blue", "green"],
        board_file={
            "spaces": [{"id": "france", "neighbours": ["navarra"]}, {"id": "portugal", "neighbours": ["galicia"]}]
        },
    )
    pid = turn_with(g, "revelation")
    msg = refused(g, ev.SpecialActionStarted(player=pid), "board-fact-missing")
    assert "castillo.scoreboard" in msg


def test_revelation_scores_the_castillo_and_throws_everything_back():
    """Revelation: "Open the gate and score the Castillo as usual. However, do not move the
    Caballeros afterwards. Instead, you throw them back into the Castillo." """
    g = new_game()
    put(g, "blue", "castillo", 3)
    put(g, "green", "castillo", 1)
    pid = _to_turn(g, "revelation")
    start_special(g, pid)
    lift_castillo(g)
    assert _points(_last_scoring(g)) == {"blue": 5, "green": 3}
    assert count(g, "blue", "castillo") == 3 and count(g, "green", "castillo") == 1


def test_revelation_with_two_players_pays_the_first_two_numbers_and_nothing_to_the_dummy():
    """Revelation: "Open the gate and score the Castillo as usual." with 2 players: "Only the
    first two numbers on the Scoring board count." and the dummy "does not get points" (the
    dummy 3 first, you 2 second: the Castillo's 2nd number; Blue 1 third: nothing)."""
    g = _two()
    clear(g)
    _put_dummy(g, "castillo", 3)
    put(g, "purple", "castillo", 2)
    put(g, "blue", "castillo", 1)
    pid = _to_turn(g, "revelation")
    start_special(g, pid)
    lift_castillo(g)
    assert _area_points(g, "castillo") == {DUMMY: 0, "purple": BOARD_2_3["castillo"]["scoreboard"][1], "blue": 0}
    assert g.state.counts[g.board.castillo][_dummy_seat(g)] == 3 and count(g, "purple", "castillo") == 2


def test_revelation_while_the_king_stands_by_the_castillo_pays_the_kings_bonus():
    """Rebellion: "If the Castillo is scored, you can get the King's bonus." with "These bonuses
    apply during both general and special scorings." (Revelation: Blue alone first, 5 + 2)"""
    g = new_game(king="granada")
    clear(g)
    g.state.king = g.board.castillo
    put(g, "blue", "castillo", 3)
    put(g, "green", "castillo", 1)
    pid = _to_turn(g, "revelation")
    start_special(g, pid)
    lift_castillo(g)
    assert _area_points(g, "castillo") == {"blue": 5 + 2, "green": 3}
    assert [ln.player for ln in _last_scoring(g) if ln.kind == "king_bonus"] == ["blue"]
