"""The "power_card_back" effect: the special action of "Power Cards".

Cards: classic (1995) "Power Cards" (power_card_back).

classic 1995: "Take 1 of your Power Cards from the discard stack back into your hand. You may
take back the Power Card you just played this round. You do not have to show the card to the
other players." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.classic import start
from tests.engine.helpers import finish_round, new_game, refused, start_round, take_card, turn_with


def test_power_card_taken_back_now_or_from_the_discards():
    g = new_game()
    start_round(g)
    finish_round(g)
    assert 13 in g.state.discards[0]
    cards = ["intrigue_any_4", "decay_3", "score_5_regions", "power_card_back"]
    start_round(g, cards, power={"red": 12, "blue": 11, "green": 10})
    pid = take_card(g, "power_card_back")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start(g, pid)
    assert g.asked().kind == "veto" and g.state.vetoes == [(1, 1)]  # Blue took the Veto in round 1
    g.apply(ev.VetoWaived(player="blue"))
    assert g.asked().options["cards"] == [12, 13]
    refused(g, ev.PowerCardTakenBack(player=pid, card=5), "special-action")
    g.apply(ev.PowerCardTakenBack(player=pid, card=13))
    assert 13 in g.state.hands[0] and 13 not in g.state.discards[0]


def test_power_card_taken_back_the_one_just_played():
    g = new_game()
    pid = turn_with(g, "power_card_back")
    start(g, pid)
    g.apply(ev.PowerCardTakenBack(player=pid, card=13))
    finish_round(g)
    assert 13 in g.state.hands[0] and 13 not in g.state.discards[0]
    assert 12 in g.state.discards[1]
