"""The "decay" effect: the special action of "Decay of Authority", "Opponents only".

Cards: classic (1995) "Decay of Authority" (decay_all, decay_3); King and Intrigue "Opponents
only" (ki_30).

classic 1995: "Decay of Authority (1x) Your fellow players must send all of the Caballeros from
their courts back to the provinces. This applies only to your opponents, not to yourself."

classic 1995: "Decay of Authority (1x) Your fellow players must send 3 of the Caballeros from
their courts back to the provinces. This applies only to your opponents, not to yourself.
Players with less than 3 Caballeros in their court send them all."

2023: "If you have to send Caballeros back to the Province, the card text will specify whether
you take them from regions or your Court. [...] In case you don't have enough Caballeros at the
specified location, send back as many as possible."

King and Intrigue, 30 (Opponents only): "This does not affect you. It only affects your
opponents." What it does is not published: the table enters it from its card; the tests' table
(and the engine's self-play stand-in) enter this effect, count 3."""

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.classic import moves, start
from tests.engine.helpers import court, new_game, provinces, turn_with
from tests.engine.king_intrigue.table import new_game as ki_game
from tests.engine.king_intrigue.table import red_turn


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
