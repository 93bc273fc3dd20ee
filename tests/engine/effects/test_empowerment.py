"""Empowerment: "You may either take the Power card you just played and return it to your hand,
or choose one from your discard pile. You don't have to show the card to the others. Special
case: If you choose the Power card you just played and it was the lowest card played in that
round, you still receive the First Player marker at the end of the round. For the "Power
Shift" mini-expansion: You may also return one of your played Modifier cards to your hand
instead." """

from __future__ import annotations

from engine import events as ev
from engine.game import Game
from engine.views import public_view
from tests.engine.effects.game2023 import (
    finish_round,
    finish_turn,
    new_game,
    refused,
    reveal_for,
    seat,
    start_round,
    start_special,
    take,
    turn_with,
)
from tests.engine.effects.referee2023 import _power_shift, _round_of_plain_turns, _to_turn


def _empowerment_round(g: Game) -> None:
    """Purple plays 1 (the lowest) and takes Empowerment last in the round."""
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "fiesta", "coup"]))
    for pid, c in (("purple", 1), ("blue", 8), ("green", 7), ("orange", 6)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    for stack in (1, 3, 4):
        g.apply(ev.CourtReplenished(player=g.asked().players[0], from_provinces=0))
        g.apply(ev.ActionCardChosen(player=g.asked().players[0], stack=stack))
        finish_turn(g)
    take(g, "empowerment")
    start_special(g, "purple")


def _empowered(order=None):
    g = new_game()
    pid = turn_with(g, "empowerment", order=order)
    start_special(g, pid)
    return g, pid


def test_take_the_power_card_you_just_played_and_return_it_to_your_hand():
    g, pid = _empowered()
    played = g.state.played[seat(g, pid)]
    assert g.asked().options["cards"] == [played]
    g.apply(ev.PowerCardTakenBack(player=pid, card=played))
    finish_round(g)
    assert played in g.state.hands[seat(g, pid)] and played not in g.state.discards[seat(g, pid)]


def test_or_choose_one_from_your_discard_pile():
    g = new_game()
    start_round(g, "intrigue")
    finish_round(g)  # Purple's 13 lies on the discard pile now
    pid = turn_with(g, "empowerment")
    start_special(g, pid)
    assert 13 in g.asked().options["cards"]
    g.apply(ev.PowerCardTakenBack(player=pid, card=13))
    assert 13 in g.state.hands[seat(g, pid)]


def test_only_those():
    g, pid = _empowered()
    refused(g, ev.PowerCardTakenBack(player=pid, card=3), "special-action")


def test_you_dont_have_to_show_the_card_to_the_others():
    g, pid = _empowered()
    asked = public_view(g.state).asked
    assert asked.kind == "take_back_power_card" and "cards" not in (asked.options or {})


def test_the_lowest_card_taken_back_still_receives_the_first_player_marker():
    g = new_game()
    start_round(g, "empowerment", order=["blue", "green", "orange", "purple"])
    for _ in range(3):  # the others take cards and do nothing
        take(g, next(c for s, c in sorted(g.state.revealed.items()) if c and c != "empowerment"))
        g.apply(ev.CaballerosPlaced(player=g.asked().players[0], placements={}))
        g.apply(ev.SpecialActionSkipped(player=g.asked().players[0]))
    pid = take(g, "empowerment")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    lowest = g.state.played[seat(g, pid)]
    g.apply(ev.PowerCardTakenBack(player=pid, card=lowest))
    assert g.state.start_player == seat(g, pid) and lowest in g.state.hands[seat(g, pid)]


def test_power_shift_you_may_also_return_one_of_your_played_modifier_cards_instead():
    g = new_game(modules=["power-shift"], stand_in_modifiers=True)
    free = list(g.asked().options["free"])
    for pid in g.state.players:
        g.apply(ev.ModifiersDealt(player=pid, modifiers=free[:3]))
        free = free[3:]
    for pid in g.state.players:
        g.apply(ev.ModifierPassed(player=pid, modifier=sorted(g.state.modifier_hands[seat(g, pid)])[0]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "fiesta", "adopted_home"]))
    hand = sorted(g.state.modifier_hands[0], key=lambda m: g.state.modifiers[m].effect is not None)
    mid = hand[0]  # one without an ability
    g.apply(ev.PowerCardPlayed(player="purple", card=13, modifier=mid))
    for pid, card in (("blue", 9), ("green", 8), ("orange", 7)):
        g.apply(ev.PowerCardPlayed(player=pid, card=card))
    pid = take(g, "empowerment")
    if g.asked().kind == "modifier_ability":
        g.apply(ev.ModifierAbilitySkipped(player=pid))
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    assert g.asked().options["modifiers"] == [mid]
    g.apply(ev.ModifierTakenBack(player=pid, modifier=mid))
    assert g.state.stage != "special" and g.state.played[0] == 13
    finish_round(g)
    assert mid in g.state.modifier_hands[0] and 13 not in g.state.hands[0]


def test_empowerment_the_card_just_played_back_and_still_the_first_player_marker():
    """Empowerment: "You may either take the Power card you just played and return it to your
    hand, or choose one from your discard pile." "Special case: If you choose the Power card you
    just played and it was the lowest card played in that round, you still receive the First
    Player marker at the end of the round." """
    g = new_game()
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "fiesta", "coup"]))
    for pid, c in (("purple", 1), ("blue", 8), ("green", 7), ("orange", 6)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    for stack in (1, 3, 4):  # Blue, Green, Orange leave the Empowerment
        g.apply(ev.CourtReplenished(player=g.asked().players[0], from_provinces=0))
        g.apply(ev.ActionCardChosen(player=g.asked().players[0], stack=stack))
        finish_turn(g)
    take(g, "empowerment")
    start_special(g, "purple")
    assert g.asked().options["cards"] == [1]
    g.apply(ev.PowerCardTakenBack(player="purple", card=1))
    g.apply(ev.CaballerosPlaced(player="purple", placements={}))
    assert g.state.players[g.state.start_player] == "purple" and 1 in g.state.hands[seat(g, "purple")]
    assert public_view(g.state).model_dump()["players"][0]["power_cards_in_hand"] == 13


def test_empowerment_a_card_from_the_discard_pile_unseen():
    """ "or choose one from your discard pile. You don't have to show the card to the others." """
    g = new_game()
    start_round(g, "intrigue", order=["purple", "blue", "green", "orange"])  # purple plays 13
    finish_round(g)
    pid = _to_turn(g, "empowerment", order=["purple", "blue", "green", "orange"])
    start_special(g, pid)
    assert 13 in g.asked().options["cards"]
    assert public_view(g.state).asked.options is None  # the choice is private
    g.apply(ev.PowerCardTakenBack(player=pid, card=13))
    assert 13 in g.state.hands[seat(g, pid)]
    assert public_view(g.state).players[0].model_dump()["power_cards_in_hand"] == len(g.state.hands[0])


def test_empowerment_the_card_just_played_stays_in_the_hand_for_the_next_round():
    """Empowerment: "take the Power card you just played and return it to your hand" — it is not
    put on the discard pile at the round's end, and may be played again next round."""
    g = new_game()
    _empowerment_round(g)
    g.apply(ev.PowerCardTakenBack(player="purple", card=1))
    finish_turn(g)
    p = seat(g, "purple")
    assert 1 in g.state.hands[p] and 1 not in g.state.discards[p]
    g.apply(ev.ActionCardsRevealed(cards=reveal_for(g, "intrigue")))
    assert g.asked().players == ("purple",)  # the lowest card: the First Player marker
    g.apply(ev.PowerCardPlayed(player="purple", card=1))
    assert g.state.played[p] == 1


def test_empowerment_a_card_from_the_discard_pile_leaves_the_one_just_played_discarded():
    """ "or choose one from your discard pile" — then the card just played goes face down on the
    discard pile at the end of the round as usual ("Put your played Power card face down on your
    discard pile")."""
    g = new_game()
    start_round(g, "intrigue", order=["purple", "blue", "green", "orange"])  # purple plays 13
    finish_round(g)
    pid = _to_turn(g, "empowerment", order=["purple", "blue", "green", "orange"])  # purple plays 12
    start_special(g, pid)
    g.apply(ev.PowerCardTakenBack(player=pid, card=13))
    finish_turn(g)
    finish_round(g)
    p = seat(g, pid)
    assert 13 in g.state.hands[p] and 12 not in g.state.hands[p] and 12 in g.state.discards[p]


def test_empowerment_with_power_shift_a_played_modifier_back_instead_of_the_power_card():
    """Empowerment: "For the "Power Shift" mini-expansion: You may also return one of your played
    Modifier cards to your hand instead." (the Modifier back in hand; the Power card discarded)"""
    g = _power_shift()
    p = seat(g, "purple")
    mod = sorted(m for m in g.state.modifier_hands[p] if m.startswith("p"))[0]
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "fiesta", "coup"]))
    g.apply(ev.PowerCardPlayed(player="purple", card=12, modifier=mod))
    for pid, c in (("blue", 8), ("green", 7), ("orange", 6)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    take(g, "empowerment")
    start_special(g, "purple")
    assert mod in g.asked().options["modifiers"]
    g.apply(ev.ModifierTakenBack(player="purple", modifier=mod))
    finish_turn(g)
    _round_of_plain_turns(g)
    assert mod in g.state.modifier_hands[p] and mod not in g.state.modifier_discards[p]
    assert 12 in g.state.discards[p] and 12 not in g.state.hands[p]
