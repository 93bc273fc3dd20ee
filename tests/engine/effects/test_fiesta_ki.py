"""Fiesta (King and Intrigue, Special cards).

Cards: King and Intrigue "Fiesta" (sc_fiesta).

Rule text: "You do not receive any Caballeros from the Province into your Court. In addition to
the Caballeros your Caballero card allows you to place, you may also place another 5
Caballeros." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import WITH_MODULES, _turn, finish_turn, idx, new_game


def test_fiesta_brings_no_caballero_to_the_court_and_places_5_more():
    game = new_game(4, modules=["special-cards"], cards_file=WITH_MODULES)
    _turn(game, 65)
    finish_turn(game)  # blue
    assert game.asked().options["max"] == 0  # nothing from the province
    game.apply(ev.CourtReplenished(player="red", from_provinces=0))
    game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 3}))
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "place_extra" and ask.options["max"] == 4  # 5 allowed, 4 left in the court (7 - 3)
    with pytest.raises(RuleViolation, match="not adjacent to the King's region"):
        game.apply(ev.ExtraCaballerosPlaced(player="red", placements={"galicia": 1}))
    game.apply(ev.ExtraCaballerosPlaced(player="red", placements={"castillo": 1, "valencia": 2}))
    assert game.state.court[0] == 1 and game.state.counts[idx(game, "valencia")][0] == 2
