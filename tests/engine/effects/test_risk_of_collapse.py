"""Risk of Collapse (King and Intrigue, Player's Edition): the Castillo takes no more.

Cards: King and Intrigue "Risk of Collapse" (pe_risk_of_collapse).

Rule text: "Caballeros already inside the Castillo remain in the Castillo, and will be scored
normally during general and special scorings." Components: "1 risk of collapse tile"."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.modules_table import red_turn
from tests.engine.king_intrigue.table import (
    _module_turn,
    _points,
    _reveal_discs,
    _start,
    _to_general_scoring,
    put,
    seat,
)


def test_risk_of_collapse_caballeros_inside_are_scored_normally():
    """ "Caballeros already inside the Castillo remain in the Castillo, and will be scored
    normally during general and special scorings.\""""
    game = _module_turn(145)
    put(game, "green", "castillo", 2)
    put(game, "red", "castillo", 1)
    _start(game)
    _to_general_scoring(game)
    record = _reveal_discs(game)
    got = _points(record.lines, "castillo", "place")
    assert got.get("green") == 5 and got.get("red") == 3  # Castillo 5/3/1


def test_risk_of_collapse_lets_nothing_more_into_the_castillo():
    game = red_turn(145)
    put(game, "green", "castillo", 2)
    _start(game)  # no choice: done at once
    s = game.state
    assert s.markers["risk_of_collapse"] == s.board.castillo
    assert "castillo" not in game.asked().options["place"]["areas"]
    with pytest.raises(RuleViolation, match="the Castillo is at risk of collapse"):
        game.apply(ev.CaballerosPlaced(player="red", placements={"castillo": 1}))
    assert s.counts[s.board.castillo][seat(game, "green")] == 2  # "already inside ... remain in the Castillo"
