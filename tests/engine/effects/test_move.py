"""The "move" effect: the special action of "Intrigue".

Cards: classic (1995) "Intrigue" (intrigue_any_3, intrigue_any_4, intrigue_own_4,
intrigue_foreign_3, intrigue_2_own_2_foreign, intrigue_5_from_one_region); 2023 edition
"Intrigue" (intrigue).

classic 1995: "Unless specifically noted otherwise, you may move your own and others'
Caballeros. Unless specifically noted otherwise, you may move Caballeros from one or more
regions. [...] You may not move Caballeros from the Castillo, or from your Court. You are always
allowed to move less Caballeros than the number indicated on the card. You are not restricted to
regions adjacent to the King's Region during the relocation of Caballeros."

classic 1995: "Intrigue (2x) You may move up to 5 Caballeros from any one region. All Caballeros
moved must be taken from the same region, but may, as usual, be moved into any combination of
different regions."

2023: "Depending on the card's text, you may move your own [Caballeros], opposing [Caballeros],
or Caballeros of your choice [Caballeros]. You may take the Caballeros from different regions
and move them to other regions, or throw them into the Castillo. [...] The cards will specify
whether you're only allowed to move to or take from one (specific) region. You are not allowed
to move Caballeros out of the Castillo or from your Court."

2023: "Example "Intrigue": Move up to 2 of your own [Caballeros] and 2 opposing [Caballeros]." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.book2023 import _table
from tests.engine.effects.classic import move, start
from tests.engine.effects.game2023 import TWO, _dummy, clear, idx, seat, start_special
from tests.engine.effects.game2023 import count as count_2023
from tests.engine.effects.game2023 import new_game as new_game_2023
from tests.engine.effects.game2023 import put as put_2023
from tests.engine.effects.game2023 import refused as refused_2023
from tests.engine.effects.game2023 import turn_with as turn_with_2023
from tests.engine.effects.referee2023 import _refused, _to_turn
from tests.engine.helpers import count, new_game, put, refused, turn_with


def test_intrigue_any_3_moves_anyones_caballeros_then_ends():
    g = new_game()
    pid = turn_with(g, "intrigue_any_3")
    start(g, pid)
    move(g, "blue", "aragon", "galicia", 2)
    refused(
        g,
        ev.CaballerosMoved(player="red", owner="green", source="sevilla", target="valencia", count=2),
        "special-action",
    )
    move(g, "green", "sevilla", "castillo", 1)
    assert count(g, "blue", "galicia") == 2 and count(g, "green", "castillo") == 1
    assert g.state.turn.player == 1  # Blue's turn now: the card allowed 3


def test_intrigue_never_touches_castillo_or_kings_region():
    g = new_game()
    put(g, "blue", "castilla_la_nueva", 2)
    put(g, "blue", "castillo", 2)
    pid = turn_with(g, "intrigue_any_4")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="castillo", target="galicia"), "castillo-no-removal")
    refused(
        g,
        ev.CaballerosMoved(player=pid, owner="blue", source="castilla_la_nueva", target="galicia"),
        "kings-region-taboo",
    )
    refused(
        g,
        ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="castilla_la_nueva"),
        "kings-region-taboo",
    )
    move(g, "blue", "aragon", "valencia", 2)
    move(g, "red", "galicia", "valencia", 2)
    assert g.state.turn.player == 1


def test_intrigue_own_4_refuses_foreign_caballeros():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "intrigue_own_4")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="galicia"), "special-action")
    move(g, "red", "valencia", "granada", 3)
    g.apply(ev.SpecialActionFinished(player=pid))
    assert count(g, "red", "granada") == 3


def test_intrigue_foreign_3_refuses_own_caballeros():
    g = new_game()
    pid = turn_with(g, "intrigue_foreign_3")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="galicia", target="aragon"), "special-action")
    move(g, "green", "sevilla", "aragon", 2)
    move(g, "blue", "aragon", "galicia", 1)
    assert g.state.turn.player == 1 and count(g, "blue", "galicia") == 1


def test_intrigue_2_own_2_foreign_limits_each_kind():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "intrigue_2_own_2_foreign")
    start(g, pid)
    refused(
        g, ev.CaballerosMoved(player=pid, owner="red", source="valencia", target="granada", count=3), "special-action"
    )
    move(g, "red", "valencia", "granada", 2)
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="valencia", target="granada"), "special-action")
    move(g, "blue", "aragon", "granada", 2)
    assert count(g, "red", "granada") == 2 and count(g, "blue", "granada") == 2
    assert g.state.turn.player == 1


def test_intrigue_5_from_one_region_keeps_one_source():
    g = new_game()
    put(g, "blue", "valencia", 3)
    put(g, "green", "valencia", 3)
    pid = turn_with(g, "intrigue_5_from_one_region")
    start(g, pid)
    move(g, "blue", "valencia", "galicia", 3)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="galicia"), "special-action")
    move(g, "green", "valencia", "castillo", 2)
    assert g.state.turn.player == 1  # 5 moved


def test_intrigue_may_move_the_dummys_caballeros():
    g = new_game_2023(**TWO)
    pid = turn_with_2023(g, "intrigue")
    put_2023(g, "green", "toledo", 2)
    start_special(g, pid)
    assert g.asked().options["sources"]["toledo"] == {"green": 2}
    g.apply(ev.CaballerosMoved(player=pid, owner="green", source="toledo", target="castillo", count=2))
    assert count_2023(g, _dummy(g), "castillo") == 2


def test_intrigue_with_the_king_in_france_moves_between_regions_only():
    g = new_game_2023()
    g.state.king = idx(g, "france")  # arranged: after Exile
    pid = turn_with_2023(g, "intrigue")
    put_2023(g, pid, "toledo", 2)
    start_special(g, pid)
    targets = g.asked().options["targets"]
    assert "france" not in targets and "castilla" in targets and "castillo" in targets
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="toledo", target="castilla"))
    assert count_2023(g, pid, "castilla") == 1


def test_intrigue_example_move_2_own_and_2_opposing():
    """ "You move 1 of your Caballeros from Granada to Castilla and throw 1 into the Castillo.
    Then, you move 1 green Caballero to Valencia and 1 blue to Castilla." (The King: in
    Aragón, away from every region the example uses; Green's and Blue's came from Toledo.)"""
    g = _table(king="aragon")
    pid = turn_with_2023(g, "intrigue")
    put_2023(g, "green", "toledo", 1)
    put_2023(g, "blue", "toledo", 1)
    start_special(g, pid)
    o = g.asked().options
    assert (o["left"], o["own_left"], o["foreign_left"]) == (4, 2, 2)
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="castilla"))
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="castillo"))
    refused_2023(g, ev.CaballerosMoved(player=pid, owner=pid, source="castilla", target="galicia"), "special-action")
    g.apply(ev.CaballerosMoved(player=pid, owner="green", source="toledo", target="valencia"))
    g.apply(ev.CaballerosMoved(player=pid, owner="blue", source="toledo", target="castilla"))
    assert (count_2023(g, pid, "castilla"), count_2023(g, pid, "castillo"), count_2023(g, pid, "granada")) == (1, 1, 0)
    assert count_2023(g, "green", "valencia") == 1 and count_2023(g, "blue", "castilla") == 1
    assert g.state.stage != "special"


def test_move_to_any_region_split_as_you_like_intrigue_example():
    """ "You can move them to any region, not just neighbor regions of the King's region. You can
    split them as you like." Intrigue: "You move 1 of your Caballeros from Granada to Castilla and
    throw 1 into the Castillo. Then, you move 1 green Caballero to Valencia and 1 blue to
    Castilla." (the King in Galicia)"""
    g = new_game_2023(king="navarra")
    g.state.king = g.board.area_index["galicia"]
    g.state.grandes[seat(g, "purple")] = g.board.area_index["navarra"]
    clear(g)
    put_2023(g, "purple", "granada", 2)
    put_2023(g, "green", "sevilla", 1)
    put_2023(g, "blue", "aragon", 1)
    pid = _to_turn(g, "intrigue")
    start_special(g, pid)
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="castilla"))
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="castillo"))
    _refused(g, ev.CaballerosMoved(player=pid, owner=pid, source="castilla", target="toledo"), "special-action")
    g.apply(ev.CaballerosMoved(player=pid, owner="green", source="sevilla", target="valencia"))
    g.apply(ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="castilla"))
    assert g.state.special is None
    assert (
        count_2023(g, "purple", "castilla"),
        count_2023(g, "purple", "castillo"),
        count_2023(g, "green", "valencia"),
        count_2023(g, "blue", "castilla"),
    ) == (1, 1, 1, 1)


def test_move_never_from_the_court():
    """ "You are not allowed to move Caballeros out of the Castillo or from your Court." """
    g = new_game_2023()
    put_2023(g, "purple", "granada", 1)
    pid = _to_turn(g, "intrigue")
    start_special(g, pid)
    _refused(g, ev.CaballerosMoved(player=pid, owner=pid, source="court", target="granada"), "unknown-id")
    _refused(g, ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="portugal"), "not-a-region")
