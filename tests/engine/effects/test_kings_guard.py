"""King's Guard (King and Intrigue, Special cards): the King's marker closes a second region.

Cards: King and Intrigue "King's Guard" (sc_kings_guard).

Rule text: "Any region hosting the King's marker may not be changed in any way. It is taboo just
like the King's region. For further details, see the base game rules (King's region, page 5). If
the King's marker is placed in a round immediately preceding a general scoring, it remains on
the board during general scoring, adding the King's bonus to the region it occupies."
Components: "1 King's Guard"."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.queries import entry_refusal
from tests.engine.king_intrigue.modules_table import red_turn
from tests.engine.king_intrigue.table import (
    FOUR,
    KING,
    _module_turn,
    _points,
    _reveal_discs,
    _score,
    _start,
    _to_general_scoring,
    finish_turn,
    idx,
    put,
)


def test_kings_guard_may_not_go_on_the_kings_region_and_closes_its_region_to_the_intrigue():
    """ "Any region hosting the King's marker may not be changed in any way. It is taboo just
    like the King's region.\""""
    game = _module_turn(165, discs={p: "aragon" for p in FOUR})
    ask = _start(game)
    assert KING not in ask.options["regions"]
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    while game.asked().players[0] != "yellow":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    _start(game, "yellow", option="move")
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosMoved(player="yellow", owner="blue", source="aragon", target="cataluna"))
    assert game.state.counts[idx(game, "aragon")][1] == 1


def test_kings_guard_in_the_round_before_a_general_scoring_adds_the_kings_bonus_there():
    """ "If the King's marker is placed in a round immediately preceding a general scoring, it
    remains on the board during general scoring, adding the King's bonus to the region it
    occupies." (played in round 3, through the real general scoring)"""
    game = _module_turn(165, round_index=2)
    s = game.state
    put(game, "red", "aragon", 4)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    _to_general_scoring(game)
    assert s.markers["kings_guard"] == idx(game, "aragon")
    record = _reveal_discs(game)
    assert _points(record.lines, "aragon", "king_bonus") == {"red": 2}
    assert s.markers["kings_guard"] is None  # gone after that scoring


def test_the_kings_guard_adds_the_kings_bonus_to_its_region():
    plain, _, _ = _score()
    gained, lines, after = _score(kings_guard="aragon")
    assert gained["red"] == plain["red"] + 2
    assert any(ln.area == "aragon" and ln.kind == "king_bonus" for ln in lines)
    assert after.kings_guard == "aragon"  # it leaves with the round, not the scoring


def test_kings_guard_is_taboo_and_adds_the_kings_bonus_at_a_general_scoring_that_follows():
    game = red_turn(165)
    put(game, "red", "aragon", 3)
    put(game, "green", "aragon", 1)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    assert entry_refusal(s, idx(game, "aragon")) == "the King's Guard stands there (taboo just like the King's region)"
    # the round ends; round 1 is not followed by a general scoring: the Guard leaves
    while s.round_index == 0:
        finish_turn(game)
    assert s.markers["kings_guard"] is None


def test_kings_guard_bonus_at_the_general_scoring():
    game = red_turn(165)
    put(game, "red", "aragon", 3)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    # The tokens' lines on their own (a whole general scoring with the King's Guard, through the
    # flow: test_referee.py's King's Guard scenario)
    from engine.rules.king_intrigue import general_scoring as KI

    record = type("R", (), {})()
    record.lines = []
    before = s.scores[0]
    KI.tokens_at_scoring(s, record)
    assert [(ln.area, ln.player, ln.points, ln.kind) for ln in record.lines] == [("aragon", "red", 2, "king_bonus")]
    assert s.scores[0] == before + 2
