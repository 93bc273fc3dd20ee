"""Fiesta (Special cards; engine/effects/fiesta_ki.py): "You do not receive any Caballeros from
the Province into your Court. In addition to the Caballeros your Caballero card allows you to
place, you may also place another 5 Caballeros." -- Coup (Special cards): a Grande into the
Castillo, relocated with its Caballeros by the secret disc at the next general scoring (read
as the 2023 Competition: your own Grande)."""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation

from .table import ALL, KING, WITH_MODULES, finish_turn, idx, new_game, play_powers, through_setup


def _turn(game, value):
    through_setup(game, hands={"red": [value] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": value, "blue": 170, "green": 40, "yellow": 10})  # red: the 3-Caballero card


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


def test_coup_throws_the_grande_into_the_castillo_and_the_disc_takes_it_out_at_the_general_scoring():
    game = new_game(4, modules=["special-cards"], cards_file=WITH_MODULES)
    _turn(game, 85)
    finish_turn(game)
    game.apply(ev.CourtReplenished(player="red", from_provinces=3))
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().options["regions"] == ["castillo"]
    game.apply(ev.GrandeMoved(player="red", region="castillo"))
    s = game.state
    assert s.grandes[0] == idx(game, "castillo")
    while s.stage != "scoring_discs":
        if s.stage == "power":
            game.apply(ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][0]))
        else:
            finish_turn(game)
    assert KING not in game.asked().options["regions"]["red"]  # a Grande may not go to the King's region
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="cataluna"))
    game.apply(ev.SecretDiscsRevealed())
    assert s.grandes[0] == idx(game, "cataluna")
