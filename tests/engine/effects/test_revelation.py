"""Revelation: "Open the gate and score the Castillo as usual. However, do not move the
Caballeros afterwards. Instead, you throw them back into the Castillo. They will only be
placed in regions during the general scoring." """
from __future__ import annotations

from engine import events as ev

from .game2023 import (clear, count, general_scoring, lift_castillo, new_game, put, refused, score, start_special,
                       turn_with)


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
    g = new_game(players=["purple", "blue", "green"], board_file={"spaces": [
        {"id": "france", "neighbours": ["navarra"]}, {"id": "portugal", "neighbours": ["galicia"]}]})
    pid = turn_with(g, "revelation")
    msg = refused(g, ev.SpecialActionStarted(player=pid), "board-fact-missing")
    assert "castillo.scoreboard" in msg
