"""The 140 card (engine/effects/foreign_to_castillo.py): "You may choose to forfeit this action
entirely. However, if you move any foreign Caballeros to the Castillo, you must also move 2 of
your own Caballeros to the Castillo. You may not take any Caballeros from the King's region."
(How many foreign Caballeros: the table's card file says 2.)

Cards: King and Intrigue "Into the Castillo" (ki_140)."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import KING, _start, idx, new_game, put, red_turn

DISCS = {"red": "aragon", "blue": "aragon", "green": "aragon", "yellow": "aragon"}


def _moved(game, owner, source, count=1):
    game.apply(ev.CaballerosMoved(player="red", owner=owner, source=source, target="castillo", count=count))


def test_foreign_caballeros_in_then_two_of_your_own():
    game = new_game(4)
    red_turn(game, 140, discs=DISCS)
    put(game, "blue", KING, 1)
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "move_caballeros" and ask.options["targets"] == ["castillo"] and ask.options["can_finish"]
    assert KING not in ask.options["sources"]  # never from the King's region
    with pytest.raises(RuleViolation, match="into the Castillo only"):
        game.apply(ev.CaballerosMoved(player="red", owner="blue", source="aragon", target="galicia"))
    with pytest.raises(RuleViolation, match="King's region"):
        _moved(game, "blue", KING)
    castillo = idx(game, "castillo")
    _moved(game, "blue", "aragon")
    _moved(game, "green", "aragon")
    assert game.state.counts[castillo][1:3] == [1, 1]
    assert not game.asked().options["can_finish"]  # now 2 of red's own must follow
    assert set(game.asked().options["sources"]["aragon"]) == {"red"}
    with pytest.raises(RuleViolation, match="must also move 2 more of their own"):
        game.apply(ev.SpecialActionFinished(player="red"))
    _moved(game, "red", "aragon")
    _moved(game, "red", "galicia")
    assert game.state.counts[castillo][0] == 2 and game.state.turn.special_done


def test_the_action_may_be_forfeited_entirely():
    game = new_game(4)
    red_turn(game, 140, discs=DISCS)
    game.apply(ev.SpecialActionStarted(player="red"))
    game.apply(ev.SpecialActionFinished(player="red"))
    assert game.state.turn.special_done and game.state.counts[idx(game, "castillo")] == [0, 0, 0, 0]


def test_no_foreign_caballero_goes_in_unless_two_of_your_own_can_follow():
    game = new_game(4)
    red_turn(game, 140, discs={"red": "cataluna", **{p: "aragon" for p in ("blue", "green", "yellow")}})
    put(game, "red", "cataluna", -1)  # red has 2 outside the King's region: galicia (home)
    put(game, "red", "galicia", -1)  # ... now only 1
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.state.turn.special_done  # nothing to do: 2 of red's own could not follow


def test_140_no_caballero_is_taken_from_the_kings_region():
    """ "You may not take any Caballeros from the King's region." (the 140: foreign Caballeros,
    then 2 of your own, into the Castillo)"""
    game = new_game(4)
    red_turn(game, 140)
    put(game, "blue", KING, 2)
    put(game, "red", KING, 2)
    put(game, "red", "aragon", 2)
    _start(game)
    ask = game.asked()
    assert KING not in (ask.options.get("sources") or {})
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.CaballerosMoved(player="red", owner="blue", source=KING, target="castillo"))
    assert game.state.counts[idx(game, KING)][:2] == [2, 2]
