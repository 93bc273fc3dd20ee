"""Exile: "The neighboring regions to France and Portugal work the same way as usual. You can
only move the King to France or Portugal with this card." Place Caballeros: "France and
Portugal do not count as regions, so you may never place Caballeros there (nor your Grande
or the King)." """

from __future__ import annotations

from engine import events as ev
from engine.views import public_view
from tests.engine.effects.game2023 import (
    BOARD_FILE,
    count,
    finish_round,
    finish_turn,
    king,
    new_game,
    put,
    refused,
    start_round,
    start_special,
    take,
    turn_with,
)
from tests.engine.effects.referee2023 import _refused, _round_of_plain_turns, _to_turn

REGENCY = ["new-regency"]


def _exiled(space="france", board_file=BOARD_FILE):
    g = new_game(modules=REGENCY, board_file=board_file)
    pid = turn_with(g, "exile")
    start_special(g, pid)
    assert set(g.asked().options["regions"]) == {"france", "portugal"}
    g.apply(ev.KingMoved(player=pid, region=space))
    return g, pid


def _next_placement(g, card="intrigue"):
    finish_round(g)
    start_round(g, card)
    return take(g, card)


def test_you_can_only_move_the_king_to_france_or_portugal_with_this_card():
    g, pid = _exiled()
    assert king(g) == "france" and g.state.stage != "special"


def test_this_card_moves_him_there_and_to_no_region():
    g = new_game(modules=REGENCY)
    pid = turn_with(g, "exile")
    start_special(g, pid)
    refused(g, ev.KingMoved(player=pid, region="toledo"), "king-move-2023")
    refused(g, ev.KingMoved(player=pid, region="castillo"), "king-move-2023")
    refused(g, ev.KingMoved(player=pid, region="andorra"), "unknown-id")


def test_the_neighboring_regions_to_france_work_the_same_way_as_usual():
    g, _ = _exiled()
    pid = _next_placement(g)
    assert g.asked().options["place"]["areas"] == ["navarra", "aragon", "cataluna", "castillo"]  # the table's entry
    refused(g, ev.CaballerosPlaced(player=pid, placements={"granada": 1}), "placement-area")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"navarra": 1}))
    assert count(g, pid, "navarra") == 1


def test_and_portugals():
    g, _ = _exiled("portugal")
    _next_placement(g)
    assert g.asked().options["place"]["areas"] == ["galicia", "castilla", "toledo", "sevilla", "castillo"]


def test_you_may_never_place_caballeros_in_france_or_portugal():
    g, _ = _exiled()
    pid = _next_placement(g)
    refused(g, ev.CaballerosPlaced(player=pid, placements={"france": 1}), "not-a-region")


def test_nor_move_caballeros_there():
    g, _ = _exiled()
    pid = _next_placement(g, "intrigue")
    put(g, pid, "granada", 1)
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    assert "france" not in g.asked().options["targets"]
    refused(g, ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="portugal"), "not-a-region")


def test_from_france_to_portugal():
    g, _ = _exiled()
    finish_round(g)
    start_round(g, "exile")
    pid = take(g, "exile")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    assert g.asked().options["regions"] == ["portugal"]
    refused(g, ev.KingMoved(player=pid, region="france"), "king-move-2023")
    g.apply(ev.KingMoved(player=pid, region="portugal"))
    assert king(g) == "portugal"


def test_unknown_neighbours_refuse_the_card_naming_the_fact():
    g = new_game(modules=REGENCY, board_file={"scoring_tiles": {"tile_a": [4, 0, 0]}})
    pid = turn_with(g, "exile")
    msg = refused(g, ev.SpecialActionStarted(player=pid), "board-fact-missing")
    assert "spaces[france].neighbours" in msg and "refused" in g.asked().options["special"]


def test_a_space_whose_neighbours_are_unknown_is_refused_naming_it():
    g = new_game(modules=REGENCY, board_file={"spaces": [{"id": "france", "neighbours": ["navarra"]}]})
    pid = turn_with(g, "exile")
    start_special(g, pid)
    assert g.asked().options["regions"] == ["france"]
    msg = refused(g, ev.KingMoved(player=pid, region="portugal"), "board-fact-missing")
    assert "spaces[portugal].neighbours" in msg


def test_the_table_sees_the_king_in_france():
    from engine.views import public_view

    g, _ = _exiled()
    assert public_view(g.state).king == "france"


def test_exile_only_to_france_or_portugal_whose_neighbours_work_as_usual():
    """Exile: "The neighboring regions to France and Portugal work the same way as usual. You can
    only move the King to France or Portugal with this card." (the test board: France borders
    Navarra, Aragón and Cataluña)"""
    g = new_game(modules=["new-regency"])
    pid = _to_turn(g, "exile")
    start_special(g, pid)
    assert sorted(g.asked().options["regions"]) == ["france", "portugal"]
    _refused(g, ev.KingMoved(player=pid, region="toledo"), "king-move-2023")
    g.apply(ev.KingMoved(player=pid, region="france"))
    assert king(g) == "france" and public_view(g.state).king == "france"
    finish_turn(g)
    _round_of_plain_turns(g)
    pid = _to_turn(g, "intrigue")
    assert sorted(g.asked().options["place"]["areas"]) == ["aragon", "castillo", "cataluna", "navarra"]
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"france": 1}), "not-a-region")


def test_exile_refuses_naming_the_fact_when_the_board_has_no_neighbours_for_france():
    """The rule book does not say which regions border France and Portugal: without the table's
    board file, Exile refuses to start, naming the missing fact."""
    g = new_game(modules=["new-regency"], board_file={"scoring_tiles": BOARD_FILE["scoring_tiles"]})
    pid = _to_turn(g, "exile")
    assert "France" in g.asked().options["special"]["refused"]
    _refused(g, ev.SpecialActionStarted(player=pid), "board-fact-missing")
