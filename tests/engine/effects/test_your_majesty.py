"""Your Majesty: "You can move the King to any region. You cannot throw him into the Castillo
and you cannot move it to France or Portugal. If you choose not to perform the Special
action, the King remains in place." """
from __future__ import annotations

from engine import events as ev

from .game2023 import finish_round, king, new_game, refused, start_round, start_special, take, turn_with


def _majesty(**kw):
    g = new_game(**kw)
    pid = turn_with(g, "your_majesty")
    return g, pid


def test_you_can_move_the_king_to_any_region():
    g, pid = _majesty()
    start_special(g, pid)
    assert set(g.asked().options["regions"]) == set(g.board.region_ids) - {"castilla"}
    g.apply(ev.KingMoved(player=pid, region="sevilla"))  # far from Castilla
    assert king(g) == "sevilla" and g.state.stage != "special"


def test_you_cannot_throw_him_into_the_castillo():
    g, pid = _majesty()
    start_special(g, pid)
    refused(g, ev.KingMoved(player=pid, region="castillo"), "king-move-2023")


def test_you_cannot_move_it_to_france_or_portugal():
    g, pid = _majesty()
    start_special(g, pid)
    for space in ("france", "portugal"):
        refused(g, ev.KingMoved(player=pid, region=space), "king-move-2023")


def test_not_to_the_region_he_stands_in():
    g, pid = _majesty()
    start_special(g, pid)
    refused(g, ev.KingMoved(player=pid, region="castilla"), "king-move-2023")


def test_if_you_choose_not_to_perform_the_special_action_the_king_remains_in_place():
    g, pid = _majesty()
    g.apply(ev.SpecialActionSkipped(player=pid))
    assert king(g) == "castilla"


def test_from_france_any_region():
    g, pid = _majesty()
    g.state.king = g.board.area_index["france"]  # arranged: after Exile
    start_special(g, pid)
    assert len(g.asked().options["regions"]) == len(g.board.region_ids)
    g.apply(ev.KingMoved(player=pid, region="castilla"))
    assert king(g) == "castilla"


def test_it_goes_back_as_the_fifth_stack_face_down_and_is_up_again_next_round():
    g, pid = _majesty()
    start_special(g, pid)
    g.apply(ev.KingMoved(player=pid, region="toledo"))
    finish_round(g)
    assert "your_majesty" not in g.state.discard_pile
    start_round(g, "intrigue")
    assert g.state.revealed[5] == "your_majesty"
    take(g, "your_majesty")
