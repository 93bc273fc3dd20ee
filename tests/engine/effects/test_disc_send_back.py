"""The "disc_send_back" effect: the special action of "Secret Disc".

Cards: classic (1995) "Secret Disc" (disc_all_from_region, disc_2_from_region).

classic 1995: "Each of your fellow players selects a region with their Secret Disk. They must
then send all of their own Caballeros from that region back to the provinces. [...] Each of the
other players (not yourself) simultaneously selects a region with the Secret Disk where they
have at least 1 Caballero."

classic 1995: "Each of your fellow players selects a region with their Secret Disk. They must
then send 2 of their own Caballeros from that region back to the provinces. [...] where they
have at least 2 (or 1, if that is their only option) Caballeros." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.classic import moves, start
from tests.engine.helpers import count, new_game, put, refused, turn_with


def test_secret_disc_all_from_region_reveals_together():
    g = new_game()
    put(g, "blue", "granada", 3)
    pid = turn_with(g, "disc_all_from_region")
    start(g, pid)
    assert set(g.asked().players) == {"blue", "green"}
    refused(g, ev.SecretDiscSet(player="blue", region="galicia"), "secret-disc")
    g.apply(ev.SecretDiscSet(player="blue", region="aragon"))
    refused(g, ev.SecretDiscsRevealed(), "secret-disc")
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))  # changed before the reveal
    g.apply(ev.SecretDiscSet(player="green", region="sevilla"))
    assert count(g, "blue", "granada") == 3  # nothing happens until the reveal
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "granada") == 0 and count(g, "blue", "aragon") == 2
    assert count(g, "green", "sevilla") == 0
    assert g.state.outcomes[-1].discs == {"blue": "granada", "green": "sevilla"}
    assert moves(g) == [("blue", 3, "granada", "provinces"), ("green", 2, "sevilla", "provinces")]


def test_secret_disc_2_from_region_needs_two_there_if_possible():
    g = new_game()
    put(g, "blue", "granada", 1)
    put(g, "green", "sevilla", -1)
    put(g, "green", "valencia", 1)
    pid = turn_with(g, "disc_2_from_region")
    start(g, pid)
    refused(g, ev.SecretDiscSet(player="blue", region="granada"), "secret-disc")  # only 1 there; Aragón has 2
    g.apply(ev.SecretDiscSet(player="blue", region="aragon"))
    g.apply(ev.SecretDiscSet(player="green", region="valencia"))  # 1 is all Green has anywhere
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "aragon") == 0 and count(g, "green", "valencia") == 0
    assert count(g, "green", "sevilla") == 1
