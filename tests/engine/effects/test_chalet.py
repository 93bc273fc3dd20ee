"""Chalet: "First, you need to find out which region has the least Caballeros (from all
players). Place the King in this region. You can not move the King to regions without any
Caballeros." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.game2023 import clear, king, new_game, put, refused, start_special, turn_with
from tests.engine.effects.referee2023 import _refused, _to_turn

REGENCY = ["new-regency"]


def _chalet(arrange):
    g = new_game(modules=REGENCY)
    pid = turn_with(g, "chalet")
    clear(g)
    for who, area, n in arrange:
        put(g, who, area, n)
    start_special(g, pid)
    return g, pid


def test_the_region_with_the_least_caballeros_from_all_players():
    g, pid = _chalet(
        [
            ("blue", "toledo", 1),
            ("green", "toledo", 1),
            ("purple", "granada", 3),
            ("orange", "valencia", 1),
            ("blue", "valencia", 2),
        ]
    )
    assert g.asked().options["regions"] == ["toledo"]  # 2 there, every colour counted
    refused(g, ev.KingMoved(player=pid, region="valencia"), "king-move-2023")
    g.apply(ev.KingMoved(player=pid, region="toledo"))
    assert king(g) == "toledo" and g.state.stage != "special"


def test_you_can_not_move_the_king_to_regions_without_any_caballeros():
    g, pid = _chalet([("blue", "toledo", 2), ("green", "granada", 5)])
    assert g.asked().options["regions"] == ["toledo"]
    refused(g, ev.KingMoved(player=pid, region="galicia"), "king-move-2023")  # empty


def test_the_castillo_is_not_a_region():
    g, pid = _chalet([("blue", "toledo", 2), ("green", "castillo", 1)])
    assert g.asked().options["regions"] == ["toledo"]


def test_a_tie_for_the_least_the_player_chooses():
    g, pid = _chalet([("blue", "toledo", 2), ("green", "granada", 2), ("orange", "navarra", 3)])
    assert g.asked().options["regions"] == ["toledo", "granada"]
    g.apply(ev.KingMoved(player=pid, region="granada"))
    assert king(g) == "granada"


def test_the_kings_own_region_if_least_he_stays():
    g, pid = _chalet([("blue", "castilla", 1), ("green", "granada", 2)])
    assert g.state.stage != "special" and king(g) == "castilla"


def test_no_caballero_in_any_region_nothing_happens():
    g, pid = _chalet([("blue", "castillo", 2)])
    assert g.state.stage != "special" and king(g) == "castilla"


def test_chalet_the_king_to_the_region_with_the_fewest_caballeros_never_an_empty_one():
    """Chalet: "First, you need to find out which region has the least Caballeros (from all
    players). Place the King in this region." "You can not move the King to regions without any
    Caballeros." """
    g = new_game(modules=["new-regency"])
    clear(g)
    put(g, "blue", "castilla", 3)
    put(g, "blue", "toledo", 2)
    put(g, "green", "toledo", 1)
    put(g, "orange", "sevilla", 2)
    put(g, "purple", "granada", 2)
    pid = _to_turn(g, "chalet")
    start_special(g, pid)
    assert sorted(g.asked().options["regions"]) == ["granada", "sevilla"]
    _refused(g, ev.KingMoved(player=pid, region="galicia"), "king-move-2023")  # empty
    _refused(g, ev.KingMoved(player=pid, region="toledo"), "king-move-2023")
    g.apply(ev.KingMoved(player=pid, region="sevilla"))
    assert king(g) == "sevilla"
