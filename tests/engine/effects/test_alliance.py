"""Alliance (Player's Edition; engine/effects/alliance.py): "During general scoring, all
players count and combine the number of Caballeros they have in the two marked regions. The
rewards for each region are combined ... If one of the regions is the King's region, or a
player's home region, bonus points are awarded accordingly. After general scoring is
completed, remove the alliance markers.\""""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import (
    ALL,
    KING,
    WITH_MODULES,
    _hand,
    _module_turn,
    _start,
    finish_turn,
    idx,
    new_game,
    play_powers,
    put,
    through_setup,
)


def test_two_regions_scored_as_one_at_the_general_scoring():
    game = new_game(4, modules=["players-edition"], cards_file=WITH_MODULES)
    through_setup(
        game,
        discs={p: "cataluna" for p in ("red", "blue", "green", "yellow")},
        hands={"red": [45] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]},
    )
    play_powers(game, {"red": 45, "blue": 170, "green": 90, "yellow": 10})
    finish_turn(game)
    finish_turn(game)
    game.apply(ev.CourtReplenished(player="red", from_provinces=3))
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().options["purpose"] == "alliance" and KING not in game.asked().options["regions"]
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.RegionChosen(player="red", region=KING))
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    assert "aragon" not in game.asked().options["regions"]
    with pytest.raises(RuleViolation, match="two different regions"):
        game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="pais_vasco"))
    s = game.state
    assert (s.markers["alliance_1"], s.markers["alliance_2"]) == (idx(game, "aragon"), idx(game, "pais_vasco"))
    # Aragón 5/4/1 and País Vasco 5/3/1: blue 3 + 0, green 1 + 1, red 0 + 1 -> blue 1st, green 2nd, red 3rd.
    put(game, "blue", "aragon", 3)
    put(game, "green", "aragon", 1)
    put(game, "green", "pais_vasco", 1)
    put(game, "red", "pais_vasco", 1)
    s.grandes[1] = idx(game, "pais_vasco")  # blue's Grande in the alliance: the home bonus
    while s.stage != "scoring_discs":
        if s.stage == "power":
            game.apply(ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][-1]))
        else:
            finish_turn(game)
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="galicia"))
    counts = [s.counts[idx(game, "aragon")][q] + s.counts[idx(game, "pais_vasco")][q] for q in range(4)]
    game.apply(ev.SecretDiscsRevealed())
    lines = [ln for ln in s.scoring_log[-1].lines if ln.area in ("aragon", "pais_vasco")]
    got = {}
    for ln in lines:
        got[ln.player] = got.get(ln.player, 0) + ln.points
    assert counts[:3] == [1, 3, 2]  # (the turns since placed nothing there)
    assert got == {"blue": 5 + 5 + 2, "green": 4 + 3, "red": 1 + 1}
    assert all("Alliance: Aragón + País Vasco scored as one" in ln.reason or ln.kind == "home_bonus" for ln in lines)
    assert s.markers["alliance_1"] is None and s.markers["alliance_2"] is None


def test_alliance_a_second_alliance_card_moves_the_markers():
    """ "If another player plays the Alliance card before the next general scoring, they may
    move the Alliance markers to different regions.\""""
    game = _module_turn(45, hands={"red": _hand(45), "blue": [45] + ALL[6:], "green": ALL[:13], "yellow": ALL[:13]})
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="pais_vasco"))
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    play_powers(game, {"red": 10, "blue": 45, "green": 60, "yellow": 70})  # blue: a Caballero card
    while game.asked().players[0] != "blue":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="blue", from_provinces=0))
    _start(game, "blue")
    game.apply(ev.RegionChosen(player="blue", region="galicia"))
    game.apply(ev.RegionChosen(player="blue", region="sevilla"))
    assert {s.markers["alliance_1"], s.markers["alliance_2"]} == {idx(game, "galicia"), idx(game, "sevilla")}
