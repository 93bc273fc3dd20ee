"""Your Majesty: "You can move the King to any region. You cannot throw him into the Castillo
and you cannot move it to France or Portugal. If you choose not to perform the Special
action, the King remains in place." """

from __future__ import annotations

from engine import events as ev
from engine.views import public_view
from tests.engine.effects.book2023 import _table
from tests.engine.effects.game2023 import (
    count,
    court,
    finish_round,
    finish_turn,
    king,
    new_game,
    refused,
    start_round,
    start_special,
    take,
    turn_with,
)
from tests.engine.effects.referee2023 import _refused, _to_turn


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


def test_example_1_your_majesty_place_first_then_move_the_king():
    """ "The King is in Valencia, so you place 2 Caballeros in Granada and 2 in Toledo. You throw
    the last Caballero into the Castillo. After that, you use the Special action to move the
    King to Toledo." """
    g = _table(king="valencia")
    start_round(g, "intrigue")
    pid = take(g, "your_majesty")
    assert g.asked().options["place"]["card_allows"] == 5  # "You may place up to 5"
    g.apply(ev.CaballerosPlaced(player=pid, placements={"granada": 2, "toledo": 2, "castillo": 1}))
    start_special(g, pid)
    g.apply(ev.KingMoved(player=pid, region="toledo"))
    assert (count(g, pid, "granada"), count(g, pid, "toledo"), count(g, pid, "castillo")) == (2 + 2, 2, 1)
    assert king(g) == "toledo" and court(g, pid) == 2
    assert "your_majesty" not in g.state.discard_pile  # "put it back as the 5th stack face down"


def test_your_majesty_goes_back_face_down_as_the_fifth_stack():
    """ "If you used the King's card "Your Majesty", put it back as the 5th stack face down." and
    "Then you start again with phase 1 and turn over a card from each Action card stack (also
    the King's card)" """
    g = new_game()
    pid = _to_turn(g, "your_majesty")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    g.apply(ev.KingMoved(player=pid, region="toledo"))
    assert g.state.revealed[5] is None and public_view(g.state).action_cards[5] is None
    g.apply(ev.CourtReplenished(player=g.asked().players[0], from_provinces=0))
    _refused(g, ev.ActionCardChosen(player=g.asked().players[0], stack=5), "action-card-available")
    g.apply(ev.ActionCardChosen(player=g.asked().players[0], stack=1))
    finish_turn(g)
    finish_round(g)
    assert "your_majesty" not in g.state.discard_pile
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "fiesta", "adopted_home"]))
    assert g.state.revealed[5] == "your_majesty"


def test_your_majesty_any_region_never_the_castillo_or_france_or_staying():
    """Your Majesty: "You can move the King to any region. You cannot throw him into the Castillo
    and you cannot move it to France or Portugal." "If you choose not to perform the Special
    action, the King remains in place." """
    g = new_game()
    pid = _to_turn(g, "your_majesty")
    start_special(g, pid)
    assert sorted(g.asked().options["regions"]) == sorted(r for r in g.board.region_ids if r != "castilla")
    _refused(g, ev.KingMoved(player=pid, region="castillo"), "king-move-2023")
    _refused(g, ev.KingMoved(player=pid, region="portugal"), "king-move-2023")
    _refused(g, ev.KingMoved(player=pid, region="castilla"), "king-move-2023")
    g.apply(ev.KingMoved(player=pid, region="sevilla"))  # not a neighbour: any region
    assert king(g) == "sevilla"
    g2 = new_game()
    pid = _to_turn(g2, "your_majesty")
    g2.apply(ev.SpecialActionSkipped(player=pid))
    assert king(g2) == "castilla"
