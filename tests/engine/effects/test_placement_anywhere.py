"""The 20 card (engine/effects/placement_anywhere.py): "You may place Caballeros in the region
of your choice, instead of only in regions neighboring the King's region. The King's region
itself is always taboo!"

Cards: King and Intrigue "Placement anywhere" (ki_20)."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import KING, idx, new_game, red_turn


def test_the_placement_goes_to_a_region_not_next_to_the_king():
    game = new_game(4)
    red_turn(game, 20)  # red holds the 2-Caballero card
    assert "galicia" not in game.asked().options["place"]["areas"]  # not next to the King
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "place_extra" and ask.options["max"] == 2 and "galicia" in ask.options["areas"]
    assert KING not in ask.options["areas"] and "castillo" in ask.options["areas"]
    with pytest.raises(RuleViolation, match="it is the King's region"):
        game.apply(ev.ExtraCaballerosPlaced(player="red", placements={KING: 1}))
    with pytest.raises(RuleViolation, match="at most 2"):
        game.apply(ev.ExtraCaballerosPlaced(player="red", placements={"galicia": 3}))
    before = game.state.counts[idx(game, "galicia")][0]
    game.apply(ev.ExtraCaballerosPlaced(player="red", placements={"galicia": 1, "cataluna": 1}))
    assert game.state.counts[idx(game, "galicia")][0] == before + 1
    assert game.asked().players == ("yellow",)  # the placement was the turn's: the turn is over


def test_after_the_usual_placement_there_is_nothing_left_to_place():
    game = new_game(4)
    red_turn(game, 20)
    game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 2}))
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().players == ("yellow",)
