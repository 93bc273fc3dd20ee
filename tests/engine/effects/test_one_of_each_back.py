"""The "one_of_each_back" effect: the special action of "One of each".

Cards: classic (1995) "One of each" (one_of_each_back); King and Intrigue "One of each" (ki_70).

classic 1995: "You send 1 Caballero of each other player from any region back to the provinces.
You choose 1 Caballero from each other player (not yourself), and place them back in the
provinces."

King and Intrigue, 70: "You choose 1 Caballero belonging to each opponent (not your own) and
place them in the Province." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.effects.classic import moves, start
from tests.engine.helpers import count, new_game, provinces, put, refused, turn_with
from tests.engine.king_intrigue.table import idx, red_turn
from tests.engine.king_intrigue.table import new_game as ki_game


def test_one_of_each_other_player_back_to_provinces():
    g = new_game()
    put(g, "green", "castilla_la_nueva", 1)  # only the taboo region besides Sevilla
    pid = turn_with(g, "one_of_each_back")
    start(g, pid)
    refused(
        g, ev.CaballerosSentBack(player=pid, owner="green", from_regions={"castilla_la_nueva": 1}), "kings-region-taboo"
    )
    refused(g, ev.CaballerosSentBack(player=pid, owner="blue", from_regions={"aragon": 2}), "special-action")
    refused(g, ev.CaballerosSentBack(player=pid, owner="red", from_regions={"galicia": 1}), "special-action")
    g.apply(ev.CaballerosSentBack(player=pid, owner="blue", from_regions={"aragon": 1}))
    g.apply(ev.CaballerosSentBack(player=pid, owner="green", from_regions={"sevilla": 1}))
    assert count(g, "blue", "aragon") == 1 and provinces(g, "green") == 21
    assert moves(g) == [("blue", 1, "aragon", "provinces"), ("green", 1, "sevilla", "provinces")]


def test_70_the_caballero_of_each_opponent_goes_to_the_province():
    """ "You choose 1 Caballero belonging to each opponent (not your own) and place them in the
    Province." (the province, not the court)"""
    game = ki_game(4)
    red_turn(game, 70)
    s = game.state
    provinces, courts = list(s.provinces), list(s.court)
    game.apply(ev.SpecialActionStarted(player="red"))
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosSentBack(player="red", owner="red", from_regions={"galicia": 1}))
    for pid, home in (("blue", "sevilla"), ("green", "granada"), ("yellow", "valencia")):
        game.apply(ev.CaballerosSentBack(player="red", owner=pid, from_regions={home: 1}))
    assert [b - a for a, b in zip(provinces, s.provinces)] == [0, 1, 1, 1] and s.court == courts


def test_70_one_caballero_of_each_opponent_not_your_own_to_the_province():
    game = ki_game(4)
    red_turn(game, 70)
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.players == ("red",) and set(ask.options["owners"]) == {"blue", "green", "yellow"}
    for pid, home in (("blue", "sevilla"), ("green", "granada"), ("yellow", "valencia")):
        game.apply(ev.CaballerosSentBack(player="red", owner=pid, from_regions={home: 1}))
    assert [game.state.counts[idx(game, r)][p] for p, r in ((1, "sevilla"), (2, "granada"), (3, "valencia"))] == [
        1,
        1,
        1,
    ]
