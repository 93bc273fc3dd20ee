"""The "king_is_angry" effect: the special action of "The King is Angry!", "Withdrawal", "The King
is angry".

Cards: classic (1995) "The King is Angry!" (king_is_angry); 2023 edition "Withdrawal"
(withdrawal); King and Intrigue "The King is angry" (ki_50).

classic 1995: "The King is Angry! (1x) Your fellow players must each send 3 Caballeros back to
the provinces. They can be taken from any region(s) and/or from his court. Starting with the
player to your left and continuing clockwise, each other player (not yourself) must send 3 of
his own Caballeros back to the provinces."

2023: "Example "Withdrawal": Each opponent must return 3 of their [Caballeros] from the regions
or their Court to the Province. Your left neighbor starts."

2023: "You can never take them from the Castillo or the King's region. In case you don't have
enough Caballeros at the specified location, send back as many as possible."

King and Intrigue, 50: "In clockwise order, your opponents (not you) choose which 3 of their
Caballeros to return to the province." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.book2023 import _table
from tests.engine.effects.classic import moves, start
from tests.engine.effects.game2023 import TWO, _dummy, clear, provinces, put, set_court, start_special
from tests.engine.effects.game2023 import count as count_2023
from tests.engine.effects.game2023 import court as court_2023
from tests.engine.effects.game2023 import new_game as new_game_2023
from tests.engine.effects.game2023 import refused as refused_2023
from tests.engine.effects.game2023 import turn_with as turn_with_2023
from tests.engine.effects.referee2023 import _refused, _to_turn
from tests.engine.helpers import count, court, new_game, refused, turn_with
from tests.engine.king_intrigue.table import new_game as ki_game
from tests.engine.king_intrigue.table import red_turn


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
    assert moves(g) == [
        ("blue", 1, "court", "provinces"),
        ("blue", 2, "aragon", "provinces"),
        ("green", 3, "court", "provinces"),
    ]


def test_50_you_are_not_affected():
    """ "In clockwise order, your opponents (not you) choose which 3 of their Caballeros to
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


def test_withdrawal_skips_the_dummy():
    g = new_game_2023(**TWO)
    pid = turn_with_2023(g, "withdrawal")
    put(g, "green", "toledo", 4)
    start_special(g, pid)
    ask = g.asked()
    assert ask.players == ("blue",) and list(ask.options["owners"]) == ["blue"]
    g.apply(ev.CaballerosSentBack(player="blue", owner="blue", from_court=3))
    assert count_2023(g, _dummy(g), "toledo") == 4 and g.state.stage != "special"


def test_withdrawal_never_from_the_castillo_or_the_kings_region_and_as_many_as_possible():
    """ "You can never take them from the Castillo or the King's region. In case you don't have
    enough Caballeros at the specified location, send back as many as possible." """
    g = new_game_2023()
    pid = turn_with_2023(g, "withdrawal")
    clear(g)
    set_court(g, "blue", 1)
    put(g, "blue", "castilla", 3)  # the King's region
    put(g, "blue", "castillo", 3)
    put(g, "blue", "toledo", 1)
    start_special(g, pid)
    assert g.asked().options["owners"]["blue"]["count"] == 2
    refused_2023(
        g,
        ev.CaballerosSentBack(player="blue", owner="blue", from_court=1, from_regions={"castilla": 1}),
        "kings-region-taboo",
    )
    refused_2023(
        g,
        ev.CaballerosSentBack(player="blue", owner="blue", from_court=1, from_regions={"castillo": 1}),
        "castillo-no-removal",
    )
    g.apply(ev.CaballerosSentBack(player="blue", owner="blue", from_court=1, from_regions={"toledo": 1}))
    assert provinces(g, "blue") == 30 - 3 - 3


def test_withdrawal_example_each_opponent_returns_3_your_left_neighbor_starts():
    """ "Orange is to your left and returns 3 Caballeros from their Court back to the Province
    first. Blue returns 2 from their Court and 1 Caballero from Valencia to the Province. Green
    is last and returns 2 from Toledo and 1 from Valencia." """
    g = _table()
    pid = turn_with_2023(g, "withdrawal")
    clear(g)
    set_court(g, "orange", 4)
    set_court(g, "blue", 2)
    put(g, "blue", "valencia", 2)
    put(g, "green", "toledo", 2)
    put(g, "green", "valencia", 1)
    start_special(g, pid)
    order = []
    for owner, from_court, regions in (
        ("orange", 3, {}),
        ("blue", 2, {"valencia": 1}),
        ("green", 0, {"toledo": 2, "valencia": 1}),
    ):
        ask = g.asked()
        assert ask.kind == "send_back" and ask.players == (owner,) and ask.options["owners"][owner]["count"] == 3
        order.append(owner)
        g.apply(ev.CaballerosSentBack(player=owner, owner=owner, from_court=from_court, from_regions=regions))
    assert order == ["orange", "blue", "green"]
    assert (court_2023(g, "orange"), court_2023(g, "blue"), count_2023(g, "blue", "valencia")) == (1, 0, 1)
    assert (count_2023(g, "green", "toledo"), count_2023(g, "green", "valencia")) == (0, 0)
    assert g.state.stage != "special"


def test_withdrawal_example_left_neighbour_first_court_or_regions():
    """ "Example "Withdrawal": Each opponent must return 3 of their Caballeros from the regions or
    their Court to the Province. Your left neighbor starts." "Orange is to your left and returns 3
    Caballeros from their Court ... Blue returns 2 from their Court and 1 Caballero from Valencia
    ... Green is last and returns 2 from Toledo and 1 from Valencia." """
    g = new_game_2023(
        players=["purple", "orange", "blue", "green"],
        homes={"purple": "granada", "orange": "cataluna", "blue": "sevilla", "green": "navarra"},
    )
    clear(g)
    set_court(g, "orange", 3)
    set_court(g, "blue", 2)
    put(g, "blue", "valencia", 1)
    put(g, "green", "toledo", 2)
    put(g, "green", "valencia", 1)
    pid = _to_turn(g, "withdrawal")
    start_special(g, pid)
    assert g.asked().players == ("orange",)
    g.apply(ev.CaballerosSentBack(player="orange", owner="orange", from_court=3))
    assert g.asked().players == ("blue",)
    _refused(g, ev.CaballerosSentBack(player="blue", owner="blue", from_court=2), "special-action")  # 3 due
    g.apply(ev.CaballerosSentBack(player="blue", owner="blue", from_court=2, from_regions={"valencia": 1}))
    g.apply(ev.CaballerosSentBack(player="green", owner="green", from_regions={"toledo": 2, "valencia": 1}))
    assert court_2023(g, "orange") == court_2023(g, "blue") == 0 and count_2023(g, "green", "toledo") == 0
    assert provinces(g, "green") == 30


def test_send_back_as_many_as_possible():
    """ "In case you don't have enough Caballeros at the specified location, send back as many as
    possible." (Blue has only 1 outside the Castillo and the King's region)"""
    g = new_game_2023()
    clear(g)
    put(g, "blue", "toledo", 1)
    put(g, "blue", "castillo", 4)
    put(g, "blue", "castilla", 2)
    pid = _to_turn(g, "withdrawal")
    start_special(g, pid)
    assert g.asked().players == ("blue",) and g.asked().options["owners"]["blue"]["count"] == 1
    g.apply(ev.CaballerosSentBack(player="blue", owner="blue", from_regions={"toledo": 1}))
    assert g.state.special is None and count_2023(g, "blue", "castilla") == 2
