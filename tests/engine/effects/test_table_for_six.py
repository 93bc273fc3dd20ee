"""Table for Six (King and Intrigue, Special cards): a limit table caps a region.

Cards: King and Intrigue "Table for Six" (sc_table_for_six).

Rule text: "You may not place the limit table in the King's region. A player using the Intrigue
card may move Caballeros to or from the limit table. If (e.g., by secret disc) more Caballeros
are placed in the region than there is space on the limit table, these newer, excess Caballeros
are returned to the players' Courts." Components: "3 limit tables"."""

from __future__ import annotations

from engine import events as ev
from tests.engine.king_intrigue.modules_table import apply_checked, red_turn
from tests.engine.king_intrigue.table import (
    FOUR,
    _module_turn,
    _points,
    _reveal_discs,
    _start,
    _to_general_scoring,
    finish_turn,
    idx,
    put,
)


def _full_limit_table_at_the_general_scoring():
    """Round 3: red's limit table on Aragón, filled to its 6 seats by blue; red has 3 in the
    Castillo and sets its disc on Aragón at the general scoring after round 3."""
    game = _module_turn(155, round_index=2)
    s = game.state
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    aragon = idx(game, "aragon")
    put(game, "blue", "aragon", 6 - sum(s.counts[aragon]))
    put(game, "red", "castillo", 3)
    _to_general_scoring(game)
    assert s.counts[aragon] == [0, 6, 0, 0] and s.counts[s.board.castillo][0] == 3
    court = s.court[0]
    record = _reveal_discs(game, region="galicia", red="aragon")
    return game, record, court


def test_table_for_six_an_intrigue_move_may_take_a_caballero_off_the_limit_table():
    """ "A player using the Intrigue card may move Caballeros to or from the limit table.\""""
    game = _module_turn(155, discs={p: "aragon" for p in FOUR})
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    assert s.markers["limit_1"] == idx(game, "aragon") or idx(game, "aragon") in s.markers.values()
    while game.asked().players[0] != "yellow":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    _start(game, "yellow", option="move")
    game.apply(ev.CaballerosMoved(player="yellow", owner="blue", source="aragon", target="cataluna"))
    assert s.counts[idx(game, "aragon")][1] == 0 and s.counts[idx(game, "cataluna")][1] == 1


def test_table_for_six_caballeros_a_disc_brings_to_a_full_table_go_to_the_court():
    """ "If (e.g., by secret disc) more Caballeros are placed in the region than there is space
    on the limit table, these newer, excess Caballeros are returned to the players' Courts.\""""
    game, _, court = _full_limit_table_at_the_general_scoring()
    s = game.state
    assert s.counts[idx(game, "aragon")] == [0, 6, 0, 0] and s.court[0] == court + 3


def test_table_for_six_excess_caballeros_from_a_disc_are_not_scored_in_the_region():
    """The excess go back to the court when the disc brings them, i.e. before the region is
    scored: red (nothing left in Aragón) scores nothing there."""
    game, record, _ = _full_limit_table_at_the_general_scoring()
    assert _points(record.lines, "aragon", "place") == {"blue": 5}


def test_table_for_six_the_newer_excess_caballeros_go_back_to_the_court():
    game = red_turn(155)
    put(game, "green", "aragon", 4)
    ask = _start(game)
    assert "castilla_la_nueva" not in ask.options["regions"]  # "not ... in the King's region"
    apply_checked(game, ev.RegionChosen(player="red", region="aragon"))
    court = game.state.court[0]
    # 4 there, 6 seats: red places 3, one is newer than the table's room and goes back
    apply_checked(game, ev.CaballerosPlaced(player="red", placements={"aragon": 3}))
    s = game.state
    assert s.counts[idx(game, "aragon")][0] == 2 and s.court[0] == court - 2
    assert s.outcomes[-1].moves == [{"player": "red", "count": 1, "source": "aragon", "target": "court"}]
