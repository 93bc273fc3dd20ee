"""Competition: "Only with this card, you can throw Grandes into the Castillo. When scoring the
Castillo, you can get the Grande's bonus. Then move your Grande using the Secret disc (along
with your Caballeros)." "Special case: After scoring the Castillo with the "Revelation"
card, throw the Grandes back into the Castillo."

Cards: 2023 edition "Competition" (competition); King and Intrigue "Coup" (sc_coup).

King and Intrigue, Coup (Special cards): "You may not take a Grande from the King's region.
During the next general scoring, any player whose Grande is found in the Castillo is relocated
(along with his Caballeros) to the region chosen on that player's secret disc." (read as the
2023 Competition: your own Grande)"""

from __future__ import annotations

from engine import events as ev
from engine.views import public_view
from tests.engine.effects.game2023 import (
    clear,
    count,
    finish_round,
    general_scoring,
    grande,
    lift_castillo,
    new_game,
    put,
    refused,
    score,
    seat,
    start_round,
    start_special,
    take,
    turn_with,
)
from tests.engine.effects.referee2023 import _area_points, _castillo_table, _last_scoring, _refused, _to_turn
from tests.engine.effects.referee2023 import _points as _points_2023
from tests.engine.king_intrigue.table import (
    KING,
    WITH_MODULES,
    _module_turn,
    _points,
    _reveal_discs,
    _start,
    _to_general_scoring,
    _turn,
    finish_turn,
    idx,
)
from tests.engine.king_intrigue.table import new_game as ki_game
from tests.engine.king_intrigue.table import put as ki_put


def _thrown(round=None):
    g = new_game(round=round)
    pid = turn_with(g, "competition")
    start_special(g, pid)
    assert g.asked().kind == "move_grande" and g.asked().options["regions"] == ["castillo"]
    g.apply(ev.GrandeMoved(player=pid, region="castillo"))
    return g, pid


def test_only_with_this_card_you_can_throw_grandes_into_the_castillo():
    g, pid = _thrown()
    assert grande(g, pid) == "castillo" and g.state.stage != "special"


def test_it_throws_your_grande_into_the_castillo_nowhere_else():
    g = new_game()
    pid = turn_with(g, "competition")
    start_special(g, pid)
    refused(g, ev.GrandeMoved(player=pid, region="granada"), "grande-castillo")


def test_not_a_grande_from_the_kings_region():
    g = new_game(
        king="galicia", homes={"purple": "castilla", "blue": "aragon", "green": "sevilla", "orange": "cataluna"}
    )
    g.state.grandes[0] = g.board.area_index["galicia"]  # arranged: Purple's Grande stands with the King
    pid = turn_with(g, "competition")
    start_special(g, pid)
    assert g.state.stage != "special" and grande(g, pid) == "galicia"  # nothing it may do


def test_when_scoring_the_castillo_you_can_get_the_grandes_bonus():
    g, pid = _thrown(round=3)
    clear(g)
    put(g, pid, "castillo", 2)
    put(g, "blue", "castillo", 1)
    general_scoring(g, {pid: "granada"})
    lines = [line for line in g.state.scoring_log[-1].lines if line.area == "castillo"]
    assert {(line.player, line.kind, line.points) for line in lines} >= {(pid, "place", 5), (pid, "home_bonus", 2)}


def test_no_bonus_on_a_tie():
    g, pid = _thrown(round=3)
    clear(g)
    put(g, pid, "castillo", 2)
    put(g, "blue", "castillo", 2)
    general_scoring(g)
    assert not [line for line in g.state.scoring_log[-1].lines if line.kind == "home_bonus"]


def test_then_move_your_grande_using_the_secret_disc_along_with_your_caballeros():
    g, pid = _thrown(round=3)
    clear(g)
    put(g, pid, "castillo", 2)
    general_scoring(g, {pid: "granada"})
    assert grande(g, pid) == "granada" and count(g, pid, "granada") == 2
    assert "Grande goes to Granada" in g.state.outcomes[-1].title


def test_the_grande_moves_even_with_no_caballeros_in_the_castillo():
    g, pid = _thrown(round=3)
    clear(g)
    general_scoring(g, {pid: "valencia"})
    assert grande(g, pid) == "valencia"


def test_that_disc_may_not_show_the_kings_region():
    g, pid = _thrown(round=3)
    finish_round(g)
    assert "castilla" not in g.asked().options["regions"][pid]  # the King is in Castilla
    assert "castilla" in g.asked().options["regions"]["blue"]  # a Caballero may go back to the court
    refused(g, ev.SecretDiscSet(player=pid, region="castilla"), "secret-disc")


def test_after_revelation_the_grandes_are_thrown_back_into_the_castillo():
    g, pid = _thrown()
    finish_round(g)
    start_round(g, "revelation")
    taker = take(g, "revelation")
    g.apply(ev.SpecialActionStarted(player=taker))
    assert grande(g, pid) == "castillo" and score(g, pid) == 0  # nothing in it: no bonus either


def test_never_while_the_king_stands_by_the_castillo():
    g = new_game()
    g.state.king = g.state.board.castillo  # arranged: after Rebellion
    pid = turn_with(g, "competition")
    start_special(g, pid)
    assert g.state.stage != "special" and grande(g, pid) == "galicia"


def test_coup_the_home_bonus_can_score_twice_castillo_and_relocated_region():
    """ "In this way, it is possible for a player to score their home region bonus twice during
    a general scoring (once for the Castillo and once for the region to which the Grande is
    relocated).\""""
    game = _module_turn(85)
    _start(game)
    game.apply(ev.GrandeMoved(player="red", region="castillo"))
    ki_put(game, "red", "castillo", 3)
    s = game.state
    _to_general_scoring(game)
    record = _reveal_discs(game, region="galicia", red="cataluna")
    castillo = _points(record.lines, "castillo", "home_bonus")
    assert castillo.get("red") == 2
    # red brought its Castillo Caballeros (3 + whatever was placed) to Cataluña, where nobody
    # else stands: 1st there and the Grande's home bonus again
    assert s.grandes[0] == idx(game, "cataluna")
    assert _points(record.lines, "cataluna", "home_bonus").get("red") == 2


def test_coup_a_grande_in_the_kings_region_may_not_be_taken():
    """ "You may not take a Grande from the King's region.\""""
    game = _module_turn(85)
    s = game.state
    s.grandes[0] = idx(game, KING)
    _start(game)
    assert s.grandes[0] == idx(game, KING) and s.turn.special_done


def test_coup_throws_the_grande_into_the_castillo_and_the_disc_takes_it_out_at_the_general_scoring():
    game = ki_game(4, modules=["special-cards"], cards_file=WITH_MODULES)
    _turn(game, 85)
    finish_turn(game)
    game.apply(ev.CourtReplenished(player="red", from_provinces=3))
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().options["regions"] == ["castillo"]
    game.apply(ev.GrandeMoved(player="red", region="castillo"))
    s = game.state
    assert s.grandes[0] == idx(game, "castillo")
    while s.stage != "scoring_discs":
        if s.stage == "power":
            game.apply(ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][0]))
        else:
            finish_turn(game)
    assert KING not in game.asked().options["regions"]["red"]  # a Grande may not go to the King's region
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="cataluna"))
    game.apply(ev.SecretDiscsRevealed())
    assert s.grandes[0] == idx(game, "cataluna")


def test_taboo_competition_the_grande_in_the_kings_region_stays():
    """Competition throws your Grande into the Castillo, but "No ... Grandes ... may be ...
    removed from the King's region." """
    g = new_game(
        king="galicia", homes={"purple": "sevilla", "blue": "aragon", "green": "granada", "orange": "cataluna"}
    )
    g.state.grandes[seat(g, "purple")] = g.board.area_index["galicia"]
    pid = _to_turn(g, "competition")
    start_special(g, pid)
    assert g.state.special is None and grande(g, pid) == "galicia"


def test_competition_grande_into_the_castillo_bonus_then_moved_by_the_disc():
    """Competition: "Only with this card, you can throw Grandes into the Castillo. When scoring the
    Castillo, you can get the Grande's bonus. Then move your Grande using the Secret disc (along
    with your Caballeros)." """
    g = new_game(round=3)
    clear(g)
    put(g, "purple", "castillo", 2)
    put(g, "blue", "castillo", 1)
    pid = _to_turn(g, "competition")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start_special(g, pid)
    _refused(g, ev.GrandeMoved(player=pid, region="toledo"), "grande-castillo")
    g.apply(ev.GrandeMoved(player=pid, region="castillo"))
    assert grande(g, pid) == "castillo" and public_view(g.state).players[0].grande == "castillo"
    general_scoring(g, {"purple": "toledo"})
    castillo = [ln for ln in g.state.scoring_log[-1].lines if ln.area == "castillo"]
    assert _points_2023(castillo) == {"purple": 5 + 2, "blue": 3}
    assert grande(g, "purple") == "toledo" and count(g, "purple", "toledo") == 2


def test_competition_after_revelation_the_grande_is_thrown_back():
    """ "Special case: After scoring the Castillo with the "Revelation" card, throw the Grandes back
    into the Castillo." """
    g = new_game()
    put(g, "purple", "castillo", 2)
    g.state.grandes[seat(g, "purple")] = g.board.castillo
    pid = _to_turn(g, "revelation", order=["blue", "purple", "green", "orange"])
    start_special(g, pid)
    lift_castillo(g)
    assert grande(g, "purple") == "castillo"
    assert {ln.kind for ln in _last_scoring(g) if ln.player == "purple"} == {"place", "home_bonus"}


def test_competition_a_grande_alone_in_the_castillo_still_moves_by_the_disc():
    """Competition: "Then move your Grande using the Secret disc (along with your Caballeros)." —
    with none of your Caballeros inside, the Grande still goes where your disc points, before the
    regions are scored (Toledo: you alone first there, so the Grande's bonus too)."""
    g = _castillo_table(king="granada")
    g.state.grandes[seat(g, "purple")] = g.board.castillo
    put(g, "blue", "castillo", 1)
    put(g, "purple", "toledo", 2)
    start_round(g, "intrigue")
    general_scoring(g, {"purple": "toledo", "blue": "galicia"})
    assert grande(g, "purple") == "toledo"
    assert _area_points(g, "castillo") == {"blue": 5}
    assert _area_points(g, "toledo") == {"purple": 7 + 2}
