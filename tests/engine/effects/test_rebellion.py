"""Rebellion: "Place the King next to the Castillo (he is claustrophobic, so don't throw him
in). The Castillo is now the King's region, with all consequences. If the Castillo is
scored, you can get the King's bonus. However, the Caballeros are not moved to regions,
throw them back in. The King remains there until he is moved again. All regions are
considered neighboring regions of the Castillo." """

from __future__ import annotations

from engine import events as ev
from engine.views import public_view
from tests.engine.effects.game2023 import (
    clear,
    count,
    finish_round,
    grande,
    king,
    lift_castillo,
    new_game,
    put,
    refused,
    score,
    start_round,
    start_special,
    take,
    turn_with,
)
from tests.engine.effects.referee2023 import _points, _refused, _round_of_plain_turns, _to_turn

REGENCY = ["new-regency"]


def _rebellion(round=None, place=True):
    g = new_game(modules=REGENCY, round=round)
    pid = turn_with(g, "rebellion", place=place)
    start_special(g, pid)
    assert g.asked().kind == "move_king" and g.asked().options["regions"] == ["castillo"]
    g.apply(ev.KingMoved(player=pid, region="castillo"))
    return g, pid


def _next_turn(g, card):
    finish_round(g)
    if g.state.stage == "scoring_discs":
        g.apply(ev.SecretDiscsRevealed())
    start_round(g, card)
    return take(g, card)


def test_place_the_king_next_to_the_castillo():
    g, _ = _rebellion()
    assert king(g) == "castillo" and g.state.stage != "special"


def test_it_places_him_there_and_nowhere_else():
    g = new_game(modules=REGENCY)
    pid = turn_with(g, "rebellion")
    start_special(g, pid)
    refused(g, ev.KingMoved(player=pid, region="toledo"), "king-move-2023")


def test_the_castillo_is_now_the_kings_region_nothing_is_thrown_in():
    g, _ = _rebellion()
    pid = _next_turn(g, "intrigue")
    assert "castillo" not in g.asked().options["place"]["areas"]
    refused(g, ev.CaballerosPlaced(player=pid, placements={"castillo": 1}), "kings-region-taboo")


def test_with_all_consequences_no_caballero_moved_in():
    g, _ = _rebellion()
    pid = _next_turn(g, "intrigue")
    put(g, pid, "granada", 2)
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    assert "castillo" not in g.asked().options["targets"]
    refused(g, ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="castillo"), "kings-region-taboo")


def test_with_all_consequences_no_grande_and_no_scoring_tile():
    g, _ = _rebellion()
    pid = _next_turn(g, "competition")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    assert g.state.stage != "special" and grande(g, pid) != "castillo"
    g2, _ = _rebellion()
    pid = _next_turn(g2, "enactment")
    g2.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g2, pid)
    assert "castillo" not in g2.asked().options["moves"]["tile_a"]
    refused(g2, ev.ScoringTilePlaced(player=pid, tile="tile_a", area="castillo"), "kings-region-taboo")


def test_all_regions_are_considered_neighboring_regions_of_the_castillo():
    g, _ = _rebellion()
    pid = _next_turn(g, "revelation")  # stack 3: up to 3
    assert g.asked().options["place"]["areas"] == list(g.board.region_ids)
    g.apply(ev.CaballerosPlaced(player=pid, placements={"galicia": 1, "sevilla": 1, "cataluna": 1}))
    assert count(g, pid, "sevilla") == 1


def test_if_the_castillo_is_scored_you_can_get_the_kings_bonus():
    g, _ = _rebellion()
    pid = _next_turn(g, "revelation")
    clear(g)
    put(g, "blue", "castillo", 3)
    put(g, "green", "castillo", 1)
    before = score(g, "blue")
    start_special(g, pid)
    lift_castillo(g)
    assert score(g, "blue") - before == 5 + 2
    assert any(line.kind == "king_bonus" and line.area == "castillo" for line in g.state.scoring_log[-1].lines)


def test_the_caballeros_are_not_moved_to_regions_throw_them_back_in():
    g, pid = _rebellion(round=3)
    clear(g)
    put(g, "blue", "castillo", 3)
    put(g, pid, "castillo", 1)
    finish_round(g)
    ask = g.asked()
    assert ask.kind == "reveal_secret_discs" and ask.options["castillo_stays"]  # no disc to set
    refused(g, ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "castillo") == 3 and count(g, pid, "castillo") == 1
    castillo = [line for line in g.state.scoring_log[-1].lines if line.area == "castillo"]
    assert ("blue", "king_bonus", 2) in {(line.player, line.kind, line.points) for line in castillo}
    assert "thrown back in" in g.state.outcomes[-1].title


def test_the_king_remains_there_until_he_is_moved_again():
    g, _ = _rebellion(round=3)
    finish_round(g)
    g.apply(ev.SecretDiscsRevealed())
    assert king(g) == "castillo"
    clear(g)
    put(g, "blue", "granada", 1)
    put(g, "blue", "toledo", 2)
    start_round(g, "chalet")
    pid = take(g, "chalet")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    g.apply(ev.KingMoved(player=pid, region="granada"))
    assert king(g) == "granada"


def test_already_there_nothing_changes():
    g, _ = _rebellion()
    pid = _next_turn(g, "rebellion")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    assert g.state.stage != "special" and king(g) == "castillo"


def test_the_table_sees_the_king_by_the_castillo():
    from engine.views import public_view

    g, _ = _rebellion()
    assert public_view(g.state).king == "castillo"


def test_rebellion_the_castillo_is_the_kings_region_with_all_consequences():
    """Rebellion: "Place the King next to the Castillo ... The Castillo is now the King's region,
    with all consequences." "All regions are considered neighboring regions of the Castillo."
    "The King remains there until he is moved again." """
    g = new_game(modules=["new-regency"])
    put(g, "blue", "granada", 2)
    pid = _to_turn(g, "rebellion")
    start_special(g, pid)
    _refused(g, ev.KingMoved(player=pid, region="toledo"), "king-move-2023")
    g.apply(ev.KingMoved(player=pid, region="castillo"))
    assert king(g) == "castillo" and public_view(g.state).king == "castillo"
    g.apply(ev.CaballerosPlaced(player=pid, placements={"castilla": 1, "sevilla": 1}))  # any region
    _round_of_plain_turns(g)
    pid = _to_turn(g, "intrigue")
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"castillo": 1}), "kings-region-taboo")
    start_special(g, pid)
    assert "castillo" not in g.asked().options["targets"]
    _refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="granada", target="castillo"), "kings-region-taboo")
    assert king(g) == "castillo"


def test_rebellion_the_castillo_scored_with_the_kings_bonus_nothing_moves_out():
    """ "If the Castillo is scored, you can get the King's bonus. However, the Caballeros are not
    moved to regions, throw them back in." (at a general scoring: no disc is set)"""
    g = new_game(round=3)
    clear(g)
    g.state.king = g.board.castillo
    put(g, "blue", "castillo", 3)
    put(g, "green", "castillo", 1)
    start_round(g, "intrigue")
    finish_round(g)
    ask = g.asked()
    assert ask.kind == "reveal_secret_discs"
    _refused(g, ev.SecretDiscSet(player="blue", region="toledo"), "secret-disc")
    g.apply(ev.SecretDiscsRevealed())
    castillo = [ln for ln in g.state.scoring_log[-1].lines if ln.area == "castillo"]
    assert _points(castillo) == {"blue": 5 + 2, "green": 3}
    assert count(g, "blue", "castillo") == 3 and count(g, "green", "castillo") == 1


def test_rebellion_no_scoring_tile_onto_or_off_the_castillo_while_it_is_the_kings_region():
    """Rebellion: "The Castillo is now the King's region, with all consequences." with Enactment:
    "You are not allowed to place a tile in the King's region or take one from there." """
    g = new_game()
    g.state.king = g.board.castillo
    g.state.mobile["tile_a"] = g.board.castillo
    pid = _to_turn(g, "enactment")
    start_special(g, pid)
    moves = g.asked().options["moves"]
    assert "tile_a" not in moves and "castillo" not in moves.get("tile_b", [])
    _refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_a", area="toledo"), "kings-region-taboo")
    _refused(g, ev.ScoringTilePlaced(player=pid, tile="tile_b", area="castillo"), "kings-region-taboo")


def test_rebellion_no_grande_thrown_into_the_castillo_while_it_is_the_kings_region():
    """Rebellion: "The Castillo is now the King's region, with all consequences." and "No
    Caballeros, Grandes, or Scoring tiles may be placed in or removed from the King's region." —
    Competition may not throw a Grande in then."""
    g = new_game()
    g.state.king = g.board.castillo
    pid = _to_turn(g, "competition")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)  # nothing it could do: the action ends at once
    assert g.state.special is None and grande(g, pid) == "galicia"
