"""Veto (2023): "Once you have chosen the Veto card, you place it face up in front of you. You
are then allowed to completely prevent a Special action that someone wants to perform this or
next round. All others must announce their Special action before performing it. You must
immediately decide whether you want to prevent this Special action. You cannot cancel a
Special action if it has already begun. Discard the "Veto" card after you have used it, or
latest at the end of the next round." """

from __future__ import annotations

from engine import events as ev
from engine.game import Game
from engine.views import public_view
from tests.engine.effects.game2023 import (
    clear,
    count,
    finish_round,
    finish_turn,
    king,
    new_game,
    put,
    refused,
    start_round,
    start_special,
    take,
    turn_with,
)
from tests.engine.effects.referee2023 import _refused, _to_turn


def _veto_taken() -> Game:
    g = new_game()
    start_round(g, "veto")
    take(g, "veto")
    return g


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
    from tests.engine.effects.game2023 import finish_turn

    while not (g.state.stage == "replenish" and g.asked().players[0] == pid):
        finish_turn(g) if g.state.stage == "turn" else take(g, "fiesta")


def test_veto_placed_in_front_of_you_when_chosen_the_card_still_places():
    """Veto: "Once you have chosen the Veto card, you place it face up in front of you." (its
    Caballeros are placed as usual)"""
    g = _veto_taken()
    assert public_view(g.state).players[0].vetoes_held == 1
    assert g.asked().options["place"] is not None and g.asked().options["special"] is None


def test_veto_decided_when_announced_prevents_the_whole_action():
    """ "You are then allowed to completely prevent a Special action that someone wants to perform
    this or next round. All others must announce their Special action before performing it. You
    must immediately decide" """
    g = _veto_taken()
    finish_turn(g)
    put(g, "blue", "granada", 2)
    pid = take(g, "intrigue")
    start_special(g, pid)
    ask = g.asked()
    assert ask.kind == "veto" and ask.players == ("purple",)
    _refused(g, ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="toledo"), "phase-order")
    g.apply(ev.VetoUsed(player="purple"))
    assert count(g, "blue", "granada") == 2 and g.state.vetoes == [] and "veto" in g.state.discard_pile
    assert g.asked().options["special"] is None and g.asked().options["place"] is not None


def test_veto_never_once_begun():
    """ "You cannot cancel a Special action if it has already begun." """
    g = _veto_taken()
    finish_turn(g)
    put(g, "blue", "granada", 2)
    pid = take(g, "intrigue")
    start_special(g, pid)
    g.apply(ev.VetoWaived(player="purple"))
    assert g.asked().vetoes == ()
    _refused(g, ev.VetoUsed(player="purple"), "veto")
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="toledo"))
    _refused(g, ev.VetoUsed(player="purple"), "veto")


def test_veto_next_round_then_discarded_at_its_end():
    """ "Discard the "Veto" card after you have used it, or latest at the end of the next round." """
    g = _veto_taken()
    finish_turn(g)
    finish_round(g)
    assert g.state.vetoes and "veto" not in g.state.discard_pile
    start_round(g, "intrigue", order=["blue", "purple", "green", "orange"])
    pid = take(g, "intrigue")
    start_special(g, pid)
    assert g.asked().kind == "veto"
    g.apply(ev.VetoWaived(player="purple"))
    if g.state.stage == "special":
        g.apply(ev.SpecialActionFinished(player=pid))
    finish_turn(g)
    finish_round(g)
    assert g.state.vetoes == [] and "veto" in g.state.discard_pile
    start_round(g, "militia")
    pid = take(g, "militia")
    start_special(g, pid)
    assert g.asked().kind != "veto"


def test_veto_not_against_your_own_special_action():
    """ "prevent a Special action that someone wants to perform" — the holder is not asked about
    their own."""
    g = _veto_taken()
    finish_turn(g)
    finish_round(g)
    pid = _to_turn(g, "intrigue", order=["purple", "blue", "green", "orange"])
    start_special(g, pid)
    assert g.asked().kind != "veto" and g.asked().vetoes == ()


def test_a_vetoed_your_majesty_leaves_the_king_and_the_card_returns_face_down():
    """Veto: "completely prevent a Special action" and "If you used the King's card "Your
    Majesty", put it back as the 5th stack face down." / "Do not discard the King's card, it is
    available in every round." """
    g = _veto_taken()
    finish_turn(g)
    king_before = king(g)
    pid = take(g, "your_majesty")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    assert g.asked().kind == "veto"
    g.apply(ev.VetoUsed(player="purple"))
    assert king(g) == king_before
    finish_turn(g)
    finish_round(g)
    assert "your_majesty" not in g.state.discard_pile
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "fiesta", "adopted_home"]))
    assert g.state.revealed[5] == "your_majesty"


def test_veto_waived_once_may_still_stop_a_later_special_action_the_same_round():
    """Veto: "You are then allowed to completely prevent a Special action that someone wants to
    perform this or next round." "You must immediately decide whether you want to prevent this
    Special action." — deciding not to stop one keeps the Veto for the next."""
    g = _veto_taken()
    finish_turn(g)
    put(g, "blue", "granada", 2)
    put(g, "green", "toledo", 2)
    pid = take(g, "intrigue")
    start_special(g, pid)
    g.apply(ev.VetoWaived(player="purple"))
    g.apply(ev.SpecialActionFinished(player=pid))
    finish_turn(g)
    pid2 = take(g, "fiesta")
    assert pid2 != pid
    start_special(g, pid2)
    assert g.asked().kind == "veto" and g.asked().players == ("purple",)
    scored = len(g.state.scoring_log)
    g.apply(ev.VetoUsed(player="purple"))
    assert len(g.state.scoring_log) == scored and g.state.vetoes == []


def test_a_vetoed_infiltration_leaves_only_the_usual_placement():
    """Veto: "completely prevent a Special action" — Infiltration's Special action is what lets
    you "place your Caballeros in the King's region"; stopped, the card's Caballeros go only
    where they always may ("You may never place Caballeros directly in the King's region")."""
    g = new_game()
    g.apply(ev.ActionCardsRevealed(cards=["infiltration", "veto", "fiesta", "coup"]))
    for pid, c in (("purple", 13), ("blue", 12), ("green", 11), ("orange", 10)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    take(g, "veto")
    finish_turn(g)
    pid = take(g, "infiltration")
    start_special(g, pid)
    g.apply(ev.VetoUsed(player="purple"))
    assert g.asked().options["special"] is None and "castilla" not in g.asked().options["place"]["areas"]
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"castilla": 1}), "kings-region-taboo")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"toledo": 1}))
    assert count(g, pid, "toledo") == 1 and count(g, pid, "castilla") == 0
