"""Special scoring of a region where you stand (King and Intrigue, Special cards).

Cards: King and Intrigue "Special scoring (a region of yours)" (sc_scoring_own).

Rule text: "Special Scoring: You may only choose a region in which you have at least 1
Caballero." (Its sister card, "You may choose a region in which you have no Caballeros", is the
base game's score_chosen_region.) Read as the base game's "select any one region": the King's
region may be named (scoring it changes nothing there)."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.modules_table import _turn
from tests.engine.king_intrigue.table import put


def test_a_region_where_you_have_at_least_one_caballero():
    game = _turn(95)
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().options["regions"] == ["galicia", "aragon"]  # red's home and the setup disc's
    with pytest.raises(RuleViolation, match="where Red has at least 1 Caballero, not Cataluña"):
        game.apply(ev.RegionChosen(player="red", region="cataluna"))
    put(game, "red", "aragon", 2)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    record = game.state.scoring_log[-1]
    assert {ln.player: ln.points for ln in record.lines if ln.kind == "place"} == {
        "red": 5,
        "blue": 1,
        "green": 1,
        "yellow": 1,
    }
