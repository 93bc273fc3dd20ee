"""Veto (2023): "Once you have chosen the Veto card, you place it face up in front of you. You
are then allowed to completely prevent a Special action that someone wants to perform this or
next round. All others must announce their Special action before performing it. You must
immediately decide whether you want to prevent this Special action. You cannot cancel a
Special action if it has already begun. Discard the "Veto" card after you have used it, or
latest at the end of the next round." """
from __future__ import annotations

from engine import events as ev

from .game2023 import (clear, count, finish_round, new_game, put, refused, start_round, start_special, take,
                       turn_with)


def _vetoed_round():
    """Purple takes the Veto; Blue next takes the Intrigue in the same round."""
    g = new_game()
    start_round(g, "veto")
    take(g, "veto")
    return g


def test_once_you_have_chosen_the_veto_card_you_place_it_in_front_of_you():
    g = _vetoed_round()
    assert g.state.vetoes == [(0, 1)]  # held at once: no special action to start
    assert g.asked().options["special"] is None


def test_all_others_must_announce_their_special_action_you_must_immediately_decide():
    g = _vetoed_round()
    finish_round_until(g, "blue")
    pid = take(g, "intrigue")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    ask = g.asked()
    assert ask.kind == "veto" and ask.players == ("purple",) and ask.options["against"] == "blue"


def test_completely_prevent_a_special_action_this_round():
    g = _vetoed_round()
    finish_round_until(g, "blue")
    pid = take(g, "intrigue")
    put(g, "blue", "granada", 2)
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    g.apply(ev.VetoUsed(player="purple"))
    assert count(g, "blue", "granada") == 2 and g.state.vetoes == []
    assert "veto" in g.state.discard_pile  # "Discard the Veto card after you have used it"


def test_or_next_round():
    g = _vetoed_round()
    finish_round(g)
    pid = turn_with(g, "intrigue", order=["blue", "purple", "green", "orange"])
    start_special(g, pid)
    assert g.asked().kind == "veto"
    g.apply(ev.VetoUsed(player="purple"))
    assert g.state.vetoes == []


def test_you_cannot_cancel_a_special_action_if_it_has_already_begun():
    g = _vetoed_round()
    finish_round_until(g, "blue")
    pid = take(g, "intrigue")
    clear(g)
    put(g, "blue", "granada", 3)
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    g.apply(ev.VetoWaived(player="purple"))
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="valencia"))
    assert g.asked().kind == "move_caballeros" and g.asked().vetoes == ()  # no longer offered
    msg = refused(g, ev.VetoUsed(player="purple"), "veto")
    assert "already begun" in msg


def test_discarded_latest_at_the_end_of_the_next_round():
    g = _vetoed_round()
    finish_round(g)
    assert g.state.vetoes and "veto" not in g.state.discard_pile
    start_round(g, "intrigue")
    finish_round(g)
    assert g.state.vetoes == [] and "veto" in g.state.discard_pile


def finish_round_until(g, pid):
    """Turns pass with nothing done until `pid` is asked to take a card."""
    from .game2023 import finish_turn
    while not (g.state.stage == "replenish" and g.asked().players[0] == pid):
        finish_turn(g) if g.state.stage == "turn" else take(g, "fiesta")
