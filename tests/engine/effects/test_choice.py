"""The "choice" effect: the special action of "Intrigue", "Intrigue card".

Cards: classic (1995) "Intrigue" (intrigue_all_own_or_2_extra); King and Intrigue "Intrigue
card" (intrigue).

classic 1995: "You must move all of your own Caballeros from any one region. OR You may move 2
additional Caballeros from your court to any region(s). With this card you must make a choice
between one of the two actions listed [...]. You may not perform both of the actions on this
card."

King and Intrigue, Intrigue card: "You must choose one of the two possible actions: You may move
1 of your own or 1 foreign Caballero. OR You move all of your Caballeros from one region to
another region. The King's region is always taboo!" """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.effects.classic import move, start
from tests.engine.helpers import count, new_game, refused, turn_with
from tests.engine.king_intrigue.table import FOUR, KING, _start, finish_turn, idx, play_powers, put, seat, through_setup
from tests.engine.king_intrigue.table import new_game as ki_game


def _intrigue_turn():
    """4 players, everyone's setup Caballero in Aragón; yellow (10) holds the Intrigue card and
    has replenished."""
    game = ki_game(4)
    through_setup(game, discs={p: "aragon" for p in FOUR})
    play_powers(game, {"red": 120, "blue": 90, "green": 60, "yellow": 10})
    while game.asked().players[0] != "yellow":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    return game, "yellow"


def _move_all_own_started():
    game, pid = _intrigue_turn()
    put(game, pid, "aragon", 2)  # 3 there
    _start(game, pid, option="move_all_own")
    return game, pid


@pytest.mark.parametrize("option", ["move_all_own", "place_extra"])
def test_intrigue_choice_card_does_one_of_its_two_actions(option):
    g = new_game()
    pid = turn_with(g, "intrigue_all_own_or_2_extra")
    refused(g, ev.SpecialActionStarted(player=pid), "special-action")
    start(g, pid, option)
    if option == "move_all_own":
        refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"cataluna": 1}), "special-action")
        move(g, "red", "galicia", "cataluna", 2)
        assert count(g, "red", "galicia") == 0
    else:
        refused(g, ev.CaballerosMoved(player=pid, owner="red", source="galicia", target="aragon"), "special-action")
        g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"cataluna": 2}))
        assert count(g, "red", "cataluna") == 2
    assert g.state.turn.player == 1


def test_intrigue_moves_one_caballero_in_all_own_or_foreign():
    """ "You may move 1 of your own or 1 foreign Caballero." -- one, not one of each."""
    game, pid = _intrigue_turn()
    _start(game, pid, option="move")
    game.apply(ev.CaballerosMoved(player=pid, owner="red", source="aragon", target="cataluna"))
    s = game.state
    assert s.counts[idx(game, "cataluna")][0] == 1
    assert s.turn.special_done  # no own Caballero may follow the foreign one
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna"))


@pytest.mark.parametrize("source, target", [(KING, "aragon"), ("aragon", KING)])
def test_intrigue_the_kings_region_is_always_taboo(source, target):
    """ "The King's region is always taboo!" (the Intrigue card's move: neither out of it nor
    into it)"""
    game, pid = _intrigue_turn()
    put(game, "red", KING, 1)
    _start(game, pid, option="move")
    before = [row[:] for row in game.state.counts]
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.CaballerosMoved(player=pid, owner="red", source=source, target=target))
    assert game.state.counts == before


def test_intrigue_move_all_own_moves_only_your_own_and_all_of_them():
    """ "You move all of your Caballeros from one region to another region." -- no foreign one,
    and the action may not stop before all of them have moved."""
    game, pid = _move_all_own_started()
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosMoved(player=pid, owner="red", source="aragon", target="cataluna", count=1))
    game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna", count=2))
    for stop in (ev.SpecialActionSkipped(player=pid), ev.SpecialActionFinished(player=pid)):
        with pytest.raises(RuleViolation):
            game.apply(stop)
    game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna", count=1))
    s = game.state
    assert s.counts[idx(game, "aragon")][seat(game, pid)] == 0 and s.counts[idx(game, "cataluna")][seat(game, pid)] == 3
    assert s.turn.special_done


def test_intrigue_move_all_own_goes_to_one_other_region():
    """ "You move all of your Caballeros from one region to another region." (one target: the
    Caballeros are not split between two regions)"""
    game, pid = _move_all_own_started()
    game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna", count=2))
    assert game.asked().options["targets"] == ["cataluna"]
    with pytest.raises(RuleViolation, match="to one region: Cataluña"):
        game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="pais_vasco", count=1))
    game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna", count=1))
    assert game.state.turn.special_done
