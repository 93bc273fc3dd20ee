"""Bridge Construction (King and Intrigue, Player's Edition).

Cards: King and Intrigue "Bridge Construction" (pe_bridge).

Rule text: "Place the bridge between two adjacent regions. Neither of these regions may be the
King's region. In addition to the 3 Caballeros you will place this turn, you will also place a
Caballero from your Court onto the bridge itself. As long as the bridge remains: directly before
your turn in following rounds, you may freely move your Caballeros between these two regions. In
each general scoring, the player who controls the bridge scores 1 point. If you remove the
Caballero from the bridge, the bridge is returned to the supply. If another player plays the
Bridge card, they take the bridge. If you have a Caballero on the bridge at this time, return it
to your Court." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.snapshot import SnapshotError, load_snapshot
from tests.engine.king_intrigue.modules_table import apply_checked, red_turn
from tests.engine.king_intrigue.table import (
    BASE,
    KING,
    _module_turn,
    _reveal_discs,
    _score,
    _start,
    _to_general_scoring,
    finish_turn,
    idx,
    put,
    seat,
)


def test_bridge_regions_must_be_adjacent_and_neither_the_kings():
    """ "Place the bridge between two adjacent regions. Neither of these regions may be the
    King's region.\""""
    game = _module_turn(55)
    _start(game)
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.RegionChosen(player="red", region=KING))
    game.apply(ev.RegionChosen(player="red", region="valencia"))
    assert KING not in game.asked().options["regions"]
    with pytest.raises(RuleViolation):
        game.apply(ev.RegionChosen(player="red", region=KING))
    with pytest.raises(RuleViolation):
        game.apply(ev.RegionChosen(player="red", region="sevilla"))  # not adjacent to Valencia


def test_the_bridge_pays_its_owner_1_point_at_the_real_general_scoring_and_remains():
    """ "In each general scoring, the player who controls the bridge scores 1 point." -- "As long
    as the bridge remains\""""
    game = _module_turn(55, round_index=2)
    s = game.state
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="valencia"))
    _to_general_scoring(game)
    record = _reveal_discs(game)
    assert [(ln.player, ln.points) for ln in record.lines if ln.kind == "bridge"] == [("red", 1)]
    assert s.aside.get("bridge") == 0 and s.markers["bridge_1"] is not None


def test_the_bridge_pays_its_owner_one_point_and_stays():
    plain, _, _ = _score()
    gained, lines, after = _score(bridge="blue", bridge_regions=["aragon", "valencia"])
    assert gained["blue"] == plain["blue"] + 1 and any(ln.kind == "bridge" for ln in lines)
    assert after.bridge == "blue" and after.bridge_regions == ["aragon", "valencia"]
    with pytest.raises(SnapshotError, match="two adjacent regions"):
        load_snapshot({**BASE, "bridge": "blue", "bridge_regions": ["aragon", "galicia"]})


def test_bridge_a_caballero_on_the_bridge_counts_among_the_30_and_scores_1_at_a_general_scoring():
    game = red_turn(55)
    ask = _start(game)
    assert ask.options["purpose"] == "bridge" and "castilla_la_nueva" not in ask.options["regions"]
    apply_checked(game, ev.RegionChosen(player="red", region="aragon"))
    ask = game.asked()
    assert ask.options["purpose"] == "bridge_second"
    # Aragón's neighbours but the King's region (Castilla la Nueva)
    assert set(ask.options["regions"]) == {"pais_vasco", "castilla_la_vieja", "cataluna", "valencia"}
    with pytest.raises(RuleViolation, match="two adjacent regions"):
        game.apply(ev.RegionChosen(player="red", region="galicia"))
    court = game.state.court[0]
    apply_checked(game, ev.RegionChosen(player="red", region="valencia"))
    s = game.state
    assert s.aside == {"bridge": 0} and s.court[0] == court - 1 and s.total_accounted(0) == 30
    from engine.rules.king_intrigue import general_scoring as KI

    record = type("R", (), {})()
    record.lines = []
    KI.tokens_at_scoring(s, record)
    assert [(ln.player, ln.points, ln.kind) for ln in record.lines] == [("red", 1, "bridge")]
    from engine.views import public_view

    assert public_view(s).markers["bridge_caballero"] == "red"


def test_bridge_free_moves_directly_before_your_turn_in_following_rounds():
    game = red_turn(55)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="valencia"))
    put(game, "red", "aragon", 3)
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    hands = {p: sorted(s.hands[seat(game, p)]) for p in s.players}
    from tests.engine.king_intrigue.table import play_powers

    play_powers(
        game,
        {
            "red": hands["red"][1],
            "blue": hands["blue"][-1],
            "green": hands["green"][0],
            "yellow": hands["yellow"][2] if hands["yellow"][2] != hands["red"][1] else hands["yellow"][3],
        },
    )
    while game.asked().players[0] != "red":
        finish_turn(game)
    ask = game.asked()
    assert ask.kind == "bridge_crossing" and ask.options["regions"] == ["aragon", "valencia"]
    with pytest.raises(RuleViolation, match="between its two regions"):
        game.apply(ev.CaballerosMoved(player="red", owner="red", source="aragon", target="galicia", count=1))
    apply_checked(game, ev.CaballerosMoved(player="red", owner="red", source="aragon", target="valencia", count=2))
    assert s.counts[idx(game, "valencia")][0] == 2
    apply_checked(game, ev.SpecialActionFinished(player="red"))
    assert game.asked().kind == "replenish"


def test_another_bridge_card_takes_the_bridge_and_the_caballero_on_it_goes_back_to_its_court():
    game = red_turn(55)
    s = game.state
    s.aside["bridge"] = seat(game, "green")
    s.court[seat(game, "green")] -= 1
    s.markers.update(bridge_1=idx(game, "galicia"), bridge_2=idx(game, "pais_vasco"))
    green_court = s.court[seat(game, "green")]
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    apply_checked(game, ev.RegionChosen(player="red", region="valencia"))
    assert s.aside == {"bridge": 0} and s.court[seat(game, "green")] == green_court + 1
    assert (s.markers["bridge_1"], s.markers["bridge_2"]) == (idx(game, "aragon"), idx(game, "valencia"))
