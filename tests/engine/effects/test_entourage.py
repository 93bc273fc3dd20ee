"""Entourage: "You must move 2 Caballeros to the same region as the King. If there are less
than 2 Caballeros in the region, you must move as many Caballeros as possible along with the
King. You forfeit the others." Where the King goes and whose Caballeros go with him are the
card's (params king_to, whose)."""

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.game2023 import clear, count, king, new_game, put, refused, start_special, turn_with
from tests.engine.effects.referee2023 import _refused, _to_turn

REGENCY = ["new-regency"]


def _entourage(arrange, params=None):
    g = new_game(modules=REGENCY, params=params)
    pid = turn_with(g, "entourage")
    clear(g)
    for who, area, n in arrange:
        put(g, who, area, n)
    start_special(g, pid)
    return g, pid


def test_you_must_move_2_caballeros_to_the_same_region_as_the_king():
    g, pid = _entourage([("blue", "castilla", 3), ("green", "castilla", 1)])
    ask = g.asked()
    assert ask.kind == "move_king_with_entourage" and ask.options["count"] == 2
    assert ask.options["from"] == "castilla" and ask.options["caballeros"] == {"blue": 3, "green": 1}
    g.apply(ev.EntourageMoved(player=pid, region="sevilla", caballeros={"blue": 1, "green": 1}))
    assert king(g) == "sevilla" and g.state.stage != "special"
    assert (count(g, "blue", "sevilla"), count(g, "green", "sevilla"), count(g, "blue", "castilla")) == (1, 1, 2)
    assert {"player": "blue", "count": 1, "source": "castilla", "target": "sevilla"} in g.state.outcomes[-1].moves


def test_exactly_2():
    g, pid = _entourage([("blue", "castilla", 3)])
    refused(g, ev.EntourageMoved(player=pid, region="sevilla", caballeros={"blue": 1}), "entourage")
    refused(g, ev.EntourageMoved(player=pid, region="sevilla", caballeros={"blue": 3}), "entourage")


def test_if_there_are_less_than_2_as_many_as_possible_go_along_with_the_king():
    g, pid = _entourage([("blue", "castilla", 1)])
    assert g.asked().options["count"] == 1
    refused(g, ev.EntourageMoved(player=pid, region="sevilla", caballeros={}), "entourage")
    g.apply(ev.EntourageMoved(player=pid, region="sevilla", caballeros={"blue": 1}))
    assert count(g, "blue", "sevilla") == 1 and count(g, "blue", "castilla") == 0


def test_you_forfeit_the_others():
    g, pid = _entourage([])
    assert g.asked().options["count"] == 0
    g.apply(ev.EntourageMoved(player=pid, region="granada", caballeros={}))
    assert king(g) == "granada"


def test_whose_own():
    g, pid = _entourage(
        [("blue", "castilla", 3), ("purple", "castilla", 1)],
        params={"entourage": {"king_to": "any_region", "whose": "own"}},
    )
    assert g.asked().options["caballeros"] == {"purple": 1} and g.asked().options["count"] == 1
    refused(g, ev.EntourageMoved(player=pid, region="sevilla", caballeros={"blue": 1}), "entourage")
    g.apply(ev.EntourageMoved(player=pid, region="sevilla", caballeros={"purple": 1}))


def test_whose_opposing():
    g, pid = _entourage(
        [("blue", "castilla", 1), ("purple", "castilla", 3)],
        params={"entourage": {"king_to": "any_region", "whose": "opposing"}},
    )
    assert g.asked().options["caballeros"] == {"blue": 1} and g.asked().options["count"] == 1


def test_king_to_an_adjacent_region():
    g, pid = _entourage([("blue", "castilla", 2)], params={"entourage": {"king_to": "adjacent_region", "whose": "any"}})
    assert g.asked().options["regions"] == ["galicia", "navarra", "aragon", "toledo"]
    refused(g, ev.EntourageMoved(player=pid, region="sevilla", caballeros={"blue": 2}), "king-move-2023")
    g.apply(ev.EntourageMoved(player=pid, region="toledo", caballeros={"blue": 2}))
    assert king(g) == "toledo" and count(g, "blue", "toledo") == 2


def test_nobody_leaves_the_castillo_with_him():
    g = new_game(modules=REGENCY)
    g.state.king = g.state.board.castillo  # arranged: after Rebellion
    pid = turn_with(g, "entourage")
    put(g, "blue", "castillo", 3)
    start_special(g, pid)
    assert g.asked().options["count"] == 0 and g.asked().options["from"] == "castillo"


def test_unstated_params_refuse_the_card_naming_the_fact():
    g = new_game(modules=REGENCY, params={"entourage": None})
    pid = turn_with(g, "entourage")
    msg = refused(g, ev.SpecialActionStarted(player=pid), "card-fact-missing")
    assert "cards[entourage].params.king_to" in msg


def test_entourage_two_caballeros_go_with_the_king_or_as_many_as_there_are():
    """Entourage: "You must move 2 Caballeros to the same region as the King. If there are less
    than 2 Caballeros in the region, you must move as many Caballeros as possible along with the
    King. You forfeit the others." """
    g = new_game(modules=["new-regency"])
    clear(g)
    put(g, "blue", "castilla", 1)
    put(g, "green", "castilla", 2)
    pid = _to_turn(g, "entourage")
    start_special(g, pid)
    _refused(g, ev.EntourageMoved(player=pid, region="granada", caballeros={"green": 1}), "entourage")
    _refused(g, ev.EntourageMoved(player=pid, region="granada", caballeros={"green": 3}), "entourage")
    g.apply(ev.EntourageMoved(player=pid, region="granada", caballeros={"green": 1, "blue": 1}))
    assert king(g) == "granada" and count(g, "green", "granada") == 1 and count(g, "blue", "granada") == 1
    assert count(g, "green", "castilla") == 1
    g2 = new_game(modules=["new-regency"])
    clear(g2)
    put(g2, "blue", "castilla", 1)
    pid = _to_turn(g2, "entourage")
    start_special(g2, pid)
    assert g2.asked().options["count"] == 1
    g2.apply(ev.EntourageMoved(player=pid, region="toledo", caballeros={"blue": 1}))
    assert count(g2, "blue", "toledo") == 1


def test_entourage_takes_nobody_out_of_the_castillo_when_the_king_stands_by_it():
    """Entourage: "If there are less than 2 Caballeros in the region, you must move as many
    Caballeros as possible along with the King." — by the Castillo (Rebellion) there are none that
    may go: "The Castillo is not a region" and "No one may ever ... take Caballeros from the
    Castillo"."""
    g = new_game(modules=["new-regency"])
    clear(g)
    g.state.king = g.board.castillo
    put(g, "blue", "castillo", 3)
    pid = _to_turn(g, "entourage")
    start_special(g, pid)
    assert g.asked().options["count"] == 0
    _refused(g, ev.EntourageMoved(player=pid, region="toledo", caballeros={"blue": 2}), "entourage")
    g.apply(ev.EntourageMoved(player=pid, region="toledo", caballeros={}))
    assert king(g) == "toledo" and count(g, "blue", "castillo") == 3
