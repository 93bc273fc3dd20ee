"""TODO docstring: decay."""
from __future__ import annotations

from engine import events as ev

from ..helpers import court, new_game, provinces, turn_with
from ..king_intrigue.table import new_game as ki_game, red_turn
from .classic import moves, start


def test_decay_of_authority_all_empties_opponents_courts():
    g = new_game()
    pid = turn_with(g, "decay_all")
    start(g, pid)
    assert court(g, "red") == 7 and court(g, "blue") == 0 and provinces(g, "blue") == 28
    assert moves(g) == [("blue", 7, "court", "provinces"), ("green", 7, "court", "provinces")]


def test_decay_of_authority_3_takes_at_most_3():
    g = new_game()
    g.state.court[2] = 2
    g.state.provinces[2] += 5
    pid = turn_with(g, "decay_3")
    start(g, pid)
    assert court(g, "blue") == 4 and court(g, "green") == 0 and court(g, "red") == 7


def test_30_is_what_the_tables_card_says_here_the_opponents_courts_lose_3():
    game = ki_game(4)
    red_turn(game, 30)
    courts = list(game.state.court)
    game.apply(ev.SpecialActionStarted(player="red"))
    assert [b - a for a, b in zip(game.state.court, courts)] == [0, 3, 3, 3]
