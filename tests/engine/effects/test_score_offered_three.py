"""Special scoring, three regions offered (King and Intrigue, Special cards).

Cards: King and Intrigue "Special scoring (three offered)" (sc_scoring_offered).

Rule text: "Special Scoring: You give your opponent the choice of 3 regions. Of these 3 regions,
your opponent chooses which will be scored." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.modules_table import _turn


def test_three_regions_offered_and_the_opponent_on_the_left_chooses():
    game = _turn(115)
    game.apply(ev.SpecialActionStarted(player="red"))
    for region in ("galicia", "aragon"):
        game.apply(ev.RegionChosen(player="red", region=region))
    with pytest.raises(RuleViolation, match="already offered"):
        game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="sevilla"))
    ask = game.asked()
    assert ask.players == ("blue",) and ask.options["regions"] == ["galicia", "aragon", "sevilla"]
    with pytest.raises(RuleViolation, match="cannot choose which offered region is scored now"):
        game.apply(ev.RegionChosen(player="red", region="galicia"))
    with pytest.raises(RuleViolation, match="one of the regions offered"):
        game.apply(ev.RegionChosen(player="blue", region="cataluna"))
    game.apply(ev.RegionChosen(player="blue", region="sevilla"))
    record = game.state.scoring_log[-1]
    assert "Sevilla, chosen by Blue" in record.title and record.lines[0].player == "blue"
