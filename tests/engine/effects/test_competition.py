"""Competition: "Only with this card, you can throw Grandes into the Castillo. When scoring the
Castillo, you can get the Grande's bonus. Then move your Grande using the Secret disc (along
with your Caballeros)." "Special case: After scoring the Castillo with the "Revelation"
card, throw the Grandes back into the Castillo." """
from __future__ import annotations

from engine import events as ev

from .game2023 import (clear, count, finish_round, general_scoring, grande, new_game, put, refused, score,
                       start_round, start_special, take, turn_with)


def _thrown(round=None):
    g = new_game(round=round)
    pid = turn_with(g, "competition")
    start_special(g, pid)
    assert g.asked().kind == "move_grande" and g.asked().options["regions"] == ["castillo"]
    g.apply(ev.GrandeMoved(player=pid, region="castillo"))
    return g, pid


def test_only_with_this_card_you_can_throw_grandes_into_the_castillo():
    g, pid = _thrown()
    assert grande(g, pid) == "castillo" and g.state.stage != "special"


def test_it_throws_your_grande_into_the_castillo_nowhere_else():
    g = new_game()
    pid = turn_with(g, "competition")
    start_special(g, pid)
    refused(g, ev.GrandeMoved(player=pid, region="granada"), "grande-castillo")


def test_not_a_grande_from_the_kings_region():
    g = new_game(king="galicia", homes={"purple": "castilla", "blue": "aragon", "green": "sevilla",
                                        "orange": "cataluna"})
    g.state.grandes[0] = g.board.area_index["galicia"]  # arranged: Purple's Grande stands with the King
    pid = turn_with(g, "competition")
    start_special(g, pid)
    assert g.state.stage != "special" and grande(g, pid) == "galicia"  # nothing it may do


def test_when_scoring_the_castillo_you_can_get_the_grandes_bonus():
    g, pid = _thrown(round=3)
    clear(g)
    put(g, pid, "castillo", 2)
    put(g, "blue", "castillo", 1)
    general_scoring(g, {pid: "granada"})
    lines = [line for line in g.state.scoring_log[-1].lines if line.area == "castillo"]
    assert {(line.player, line.kind, line.points) for line in lines} >= {(pid, "place", 5), (pid, "home_bonus", 2)}


def test_no_bonus_on_a_tie():
    g, pid = _thrown(round=3)
    clear(g)
    put(g, pid, "castillo", 2)
    put(g, "blue", "castillo", 2)
    general_scoring(g)
    assert not [line for line in g.state.scoring_log[-1].lines if line.kind == "home_bonus"]


def test_then_move_your_grande_using_the_secret_disc_along_with_your_caballeros():
    g, pid = _thrown(round=3)
    clear(g)
    put(g, pid, "castillo", 2)
    general_scoring(g, {pid: "granada"})
    assert grande(g, pid) == "granada" and count(g, pid, "granada") == 2
    assert "Grande goes to Granada" in g.state.outcomes[-1].title


def test_the_grande_moves_even_with_no_caballeros_in_the_castillo():
    g, pid = _thrown(round=3)
    clear(g)
    general_scoring(g, {pid: "valencia"})
    assert grande(g, pid) == "valencia"


def test_that_disc_may_not_show_the_kings_region():
    g, pid = _thrown(round=3)
    finish_round(g)
    assert "castilla" not in g.asked().options["regions"][pid]  # the King is in Castilla
    assert "castilla" in g.asked().options["regions"]["blue"]  # a Caballero may go back to the court
    refused(g, ev.SecretDiscSet(player=pid, region="castilla"), "secret-disc")


def test_after_revelation_the_grandes_are_thrown_back_into_the_castillo():
    g, pid = _thrown()
    finish_round(g)
    start_round(g, "revelation")
    taker = take(g, "revelation")
    g.apply(ev.SpecialActionStarted(player=taker))
    assert grande(g, pid) == "castillo" and score(g, pid) == 0  # nothing in it: no bonus either


def test_never_while_the_king_stands_by_the_castillo():
    g = new_game()
    g.state.king = g.state.board.castillo  # arranged: after Rebellion
    pid = turn_with(g, "competition")
    start_special(g, pid)
    assert g.state.stage != "special" and grande(g, pid) == "galicia"
