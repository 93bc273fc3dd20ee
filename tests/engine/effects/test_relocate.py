"""Relocate (Player's Edition, 23; engine/effects/relocate.py): "You may not place the Castillo in
the King's region ... move all Caballeros in the region that the Castillo now occupies into the
Castillo itself ... During general scoring, you will empty and score the Castillo first, as
usual ... Then, score the Castillo according to the scoreboard in the region it occupies
(including any relevant King or home region bonuses). Finally, return the Castillo to its
normal position on the board.\""""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import (
    ALL,
    KING,
    WITH_MODULES,
    _module_turn,
    _reveal_discs,
    _start,
    _to_general_scoring,
    finish_turn,
    idx,
    new_game,
    play_powers,
    put,
    through_setup,
)


def test_the_castillo_moves_onto_a_region_takes_its_caballeros_in_and_scores_on_its_scoreboard():
    game = new_game(4, modules=["players-edition"], cards_file=WITH_MODULES)
    through_setup(
        game,
        discs={p: "granada" for p in ("red", "blue", "green", "yellow")},
        hands={"red": [23] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]},
    )
    play_powers(game, {"red": 23, "blue": 170, "green": 90, "yellow": 10})
    finish_turn(game)
    finish_turn(game)
    game.apply(ev.CourtReplenished(player="red", from_provinces=4))
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.options["purpose"] == "relocate" and KING not in ask.options["regions"]
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.RegionChosen(player="red", region=KING))
    game.apply(ev.RegionChosen(player="red", region="granada"))  # green's home: 2 + 1, the others 1 each
    s = game.state
    castillo, granada = idx(game, "castillo"), idx(game, "granada")
    assert s.markers["castillo_at"] == granada and s.counts[granada] == [0, 0, 0, 0]
    assert s.counts[castillo] == [1, 1, 3, 1]
    assert {m["player"]: m["count"] for m in s.outcomes[-1].moves} == {"red": 1, "blue": 1, "green": 3, "yellow": 1}
    while s.stage != "scoring_discs":
        if s.stage == "power":
            game.apply(ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][0]))
        else:
            finish_turn(game)
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="cataluna"))
    before = list(s.scores)
    game.apply(ev.SecretDiscsRevealed())
    lines = [ln for ln in s.scoring_log[-1].lines if ln.area == "castillo"]
    got = {}
    for ln in lines:
        got[ln.player] = got.get(ln.player, 0) + ln.points
    # Granada 6/3/1: green 1st (6) and its home bonus; the three tied for 2nd take the 3rd place's 1.
    assert got == {"green": 6 + 2, "red": 1, "blue": 1, "yellow": 1}
    assert all("relocated to Granada" in ln.reason or "Castillo (in Granada)" in ln.reason for ln in lines)
    assert sum(s.scores) - sum(before) == sum(ln.points for ln in s.scoring_log[-1].lines)
    assert s.markers["castillo_at"] is None and s.counts[castillo] == [0, 0, 0, 0]


def test_relocate_the_king_in_the_castillos_region_leaves_the_castillo_open():
    """ "If the King is moved to the region where the Castillo is located, it has no effect on
    the Castillo." -- "players may choose to place/move Caballeros in/to the region (next to
    the Castillo) or in the Castillo itself.\""""
    game = _module_turn(23)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="granada"))
    s = game.state
    assert s.markers["castillo_at"] == idx(game, "granada")
    s.king = idx(game, "granada")  # the King comes to the Castillo's region
    ask = game.asked()
    assert "castillo" in ask.options["place"]["areas"]
    game.apply(ev.CaballerosPlaced(player="red", placements={"castillo": 1}))
    assert s.counts[s.board.castillo][0] >= 1


def test_relocated_castillo_with_the_king_in_its_region_scores_the_kings_bonus_and_the_region_apart():
    """ "Then, score the Castillo according to the scoreboard in the region it occupies
    (including any relevant King or home region bonuses)." -- "take special care not to mix
    the Caballeros in the Castillo with the Caballeros in the same region\""""
    game = _module_turn(23, round_index=2)
    s = game.state
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="granada"))
    put(game, "red", "castillo", 4)
    put(game, "blue", "granada", 2)  # next to the Castillo, in the region itself
    s.king = idx(game, "granada")
    _to_general_scoring(game)
    green_in = s.counts[s.board.castillo][2]
    record = _reveal_discs(game, region="galicia")
    castillo = [(ln.player, ln.points, ln.kind) for ln in record.lines if ln.area == "castillo"]
    assert ("red", 6, "place") in castillo and ("red", 2, "king_bonus") in castillo  # Granada 6/3/1 + King
    assert green_in == 2 and ("green", 3, "place") in castillo
    granada = [(ln.player, ln.points, ln.kind) for ln in record.lines if ln.area == "granada"]
    assert ("blue", 6, "place") in granada and ("red", 6, "place") not in granada
