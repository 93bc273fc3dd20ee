"""TODO docstring: king_is_angry."""
from __future__ import annotations

from engine import events as ev

from ..helpers import count, court, new_game, refused, turn_with
from ..king_intrigue.table import new_game as ki_game, red_turn
from .classic import moves, start


def test_the_king_is_angry_each_opponent_sends_three_clockwise():
    g = new_game()
    pid = turn_with(g, "king_is_angry")
    start(g, pid)
    assert g.asked().players == ("blue",)  # the player to the left first
    refused(g, ev.CaballerosSentBack(player="blue", owner="blue", from_court=2), "special-action")
    g.apply(ev.CaballerosSentBack(player="blue", owner="blue", from_court=1, from_regions={"aragon": 2}))
    assert g.asked().players == ("green",)
    g.apply(ev.CaballerosSentBack(player="green", owner="green", from_court=3))
    assert count(g, "blue", "aragon") == 0 and court(g, "blue") == 6 and court(g, "green") == 4
    assert moves(g) == [("blue", 1, "court", "provinces"), ("blue", 2, "aragon", "provinces"),
                        ("green", 3, "court", "provinces")]


def test_50_you_are_not_affected():
    """"In clockwise order, your opponents (not you) choose which 3 of their Caballeros to
    return to the province." -- the player's own pieces stay."""
    game = ki_game(4)
    red_turn(game, 50)
    s = game.state
    mine = (s.court[0], [row[0] for row in s.counts], s.provinces[0])
    provinces = list(s.provinces)
    game.apply(ev.SpecialActionStarted(player="red"))
    while game.asked().kind == "send_back":
        pid = game.asked().players[0]
        assert pid != "red"
        game.apply(ev.CaballerosSentBack(player=pid, owner=pid, from_court=3))
    assert (s.court[0], [row[0] for row in s.counts], s.provinces[0]) == mine
    assert [b - a for a, b in zip(provinces, s.provinces)] == [0, 3, 3, 3]


def test_50_your_opponents_not_you_choose_which_3_of_their_caballeros_return_in_clockwise_order():
    game = ki_game(4)
    red_turn(game, 50)
    game.apply(ev.SpecialActionStarted(player="red"))
    order = []
    while game.asked().kind == "send_back":
        ask = game.asked()
        pid = ask.players[0]
        order.append(pid)
        spec = ask.options["owners"][pid]
        assert spec["count"] == 3 and list(ask.options["owners"]) == [pid]  # each chooses their own
        game.apply(ev.CaballerosSentBack(player=pid, owner=pid, from_court=3))
    assert order == ["blue", "green", "yellow"]  # clockwise from red's left; red not affected
