"""Civil War (King and Intrigue, Player's Edition).

Cards: King and Intrigue "Civil War" (pe_civil_war).

Rule text (clarifications only): "You may not choose the King's region. If you have Caballeros
in the chosen region, they remain there. If you do not have any Caballeros in your Court, you
may not execute this action." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.modules_table import apply_checked, red_turn
from tests.engine.king_intrigue.table import _start, idx, put, seat


def test_civil_war_the_others_leave_the_region_yours_stay_and_you_place_from_your_court():
    game = red_turn(33)
    put(game, "red", "aragon", 1)
    put(game, "green", "aragon", 3)
    ask = _start(game)
    assert ask.options["purpose"] == "civil_war" and "castilla_la_nueva" not in ask.options["regions"]
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.RegionChosen(player="red", region="castilla_la_nueva"))
    green_court = game.state.court[seat(game, "green")]
    apply_checked(game, ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    assert s.counts[idx(game, "aragon")][seat(game, "green")] == 0
    assert s.court[seat(game, "green")] == green_court + 3  # outcome: to_court (the tests' card)
    assert s.counts[idx(game, "aragon")][0] == 1 + 2  # "they remain there", + place 2


def test_civil_war_with_an_empty_court_is_not_executed():
    game = red_turn(33)
    s = game.state
    s.provinces[0] += s.court[0]
    s.court[0] = 0
    before = [row[:] for row in s.counts]
    _start(game)
    assert s.special is None and s.counts == before
