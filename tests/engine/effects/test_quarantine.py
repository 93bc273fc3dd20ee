"""Quarantine (King and Intrigue, Player's Edition): a region closed like the King's.

Cards: King and Intrigue "Quarantine" (pe_quarantine).

Rule text: "Any region hosting the quarantine marker may not be changed in any way. It is taboo
just like the King's region. For further details, see the base game rules (King's region, page
5)." Components: "1 quarantine marker"."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.queries import is_taboo
from engine.snapshot import SnapshotError, load_snapshot
from engine.state import closed_regions
from tests.engine.king_intrigue.modules_table import red_turn
from tests.engine.king_intrigue.table import (
    BASE,
    BOTH,
    KING,
    WITH_MODULES,
    _module_turn,
    _score,
    _start,
    finish_turn,
    idx,
    new_game,
    seat,
)


def test_quarantine_may_not_go_on_the_kings_region_and_a_send_back_spares_it():
    """ "Any region hosting the quarantine marker may not be changed in any way." (the 70 in a
    later turn may not take a Caballero from it)"""
    game = _module_turn(
        135,
        discs={"red": "aragon", "blue": "aragon", "green": "aragon", "yellow": "aragon"},
        others={"red": 135, "blue": 180, "green": 40, "yellow": 10},
    )
    ask = _start(game)
    assert KING not in ask.options["regions"]
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    assert "aragon" not in s.removable_regions(1) and "aragon" not in s.removable_regions(0)


def test_a_disc_to_a_quarantined_region_sends_the_castillo_caballeros_to_the_court():
    _, _, after = _score(castillo={"red": 2}, secret_discs={"red": "aragon"}, quarantine="aragon")
    assert after.regions["aragon"]["red"] == 3 and after.court.get("red") == 2
    # the King may come to the quarantined region afterwards (his card moves him anywhere)
    _, _, after = _score(castillo={"red": 2}, secret_discs={"red": BASE["king"]}, quarantine=BASE["king"])
    assert after.court.get("red") == 2
    with pytest.raises(SnapshotError, match="only the King and Intrigue rules"):
        load_snapshot({**BASE, "rules": "classic", "mistress": "red"})


def test_quarantine_closes_a_region_just_like_the_kings():
    game = red_turn(135)
    ask = _start(game)
    assert ask.options["purpose"] == "quarantine" and "castilla_la_nueva" not in ask.options["regions"]
    with pytest.raises(RuleViolation, match="it is the King's region"):
        game.apply(ev.RegionChosen(player="red", region="castilla_la_nueva"))
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s, aragon = game.state, idx(game, "aragon")
    assert s.markers["quarantine"] == aragon and is_taboo(s, aragon) and aragon in closed_regions(s)
    # "may not be changed in any way": not offered, and refused by name
    assert "aragon" not in game.asked().options["place"]["areas"]
    with pytest.raises(RuleViolation, match="cannot place Caballeros in Aragón: it lies under the quarantine marker"):
        game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1}))
    # nothing may be taken from it either (a replenishment from the board, a send-back ...)
    assert "aragon" not in s.removable_regions(seat(game, "green")) and aragon not in s.removable_regions(1)


def test_quarantine_lasts_as_the_card_says_and_refuses_to_start_until_entered():
    game = red_turn(135)
    game.apply(ev.CaballerosPlaced(player="red", placements={}))
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    while game.state.round_index == 0:
        finish_turn(game)
    assert game.state.markers["quarantine"] is None  # until: "round" (the tests' card file)
    unentered = {
        **WITH_MODULES,
        "power_cards": [c for c in WITH_MODULES["power_cards"] if c["id"] != "pe_quarantine"]
        + [{"id": "pe_quarantine", "value": 135, "court": 2}],
    }
    with pytest.raises(
        RuleViolation,
        match=r"how long the quarantine marker stays is not published.*"
        r"power_cards\[pe_quarantine\]\.params\.until",
    ):
        new_game(4, modules=BOTH, cards_file=unentered)


def test_a_disc_that_sends_caballeros_to_a_quarantined_region_sends_them_to_the_court():
    game = red_turn(135)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    s.markers["quarantine"] = idx(game, "aragon")
    s.counts[s.board.castillo][0] += 2
    s.provinces[0] -= 2
    from engine.stages.scoring import run_general_scoring

    s.scoring_needed, s.scoring_discs = [0], {0: idx(game, "aragon")}
    before = s.court[0]
    run_general_scoring(s)
    assert s.court[0] == before + 2 and s.counts[idx(game, "aragon")][0] == 0
