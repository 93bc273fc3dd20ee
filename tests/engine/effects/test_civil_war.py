"""Civil War: "All other players must choose a region in which they have at least 1 Caballero.
If a player has no Caballeros in any region, they are lucky (they also need it)." What
happens there is the card's (params outcome, count)."""

from __future__ import annotations

import pytest

from engine import events as ev
from tests.engine.effects.game2023 import (
    clear,
    count,
    court,
    new_game,
    provinces,
    put,
    refused,
    start_special,
    turn_with,
)
from tests.engine.effects.referee2023 import _refused, _to_turn


def _civil_war(params=None, arrange=None):
    g = new_game(params=params)
    pid = turn_with(g, "civil_war")
    clear(g)
    for who, area, n in arrange or [
        ("blue", "toledo", 3),
        ("blue", "granada", 1),
        ("green", "valencia", 2),
        ("purple", "granada", 4),
    ]:
        put(g, who, area, n)
    start_special(g, pid)
    return g, pid


def test_all_other_players_must_choose_a_region_with_a_secret_disc():
    g, pid = _civil_war(
        arrange=[("blue", "toledo", 3), ("green", "valencia", 2), ("orange", "navarra", 1), ("purple", "granada", 4)]
    )
    ask = g.asked()
    assert ask.kind == "secret_disc" and set(ask.players) == {"blue", "green", "orange"}  # not purple
    refused(g, ev.SecretDiscSet(player="purple", region="granada"), "secret-disc")


def test_in_which_they_have_at_least_1_caballero():
    g, _ = _civil_war()
    assert g.asked().options["regions"]["blue"] == ["toledo", "granada"]
    assert "granada" not in g.asked().options["regions"]["green"]
    refused(g, ev.SecretDiscSet(player="green", region="granada"), "secret-disc")


def test_never_the_kings_region():
    g, _ = _civil_war(arrange=[("blue", "castilla", 3), ("blue", "toledo", 1)])  # the King is in Castilla
    assert g.asked().options["regions"]["blue"] == ["toledo"]
    refused(g, ev.SecretDiscSet(player="blue", region="castilla"), "secret-disc")


def test_if_a_player_has_no_caballeros_in_any_region_they_are_lucky():
    g, _ = _civil_war()  # Orange has none on the board
    assert "orange" not in g.asked().players
    g.apply(ev.SecretDiscSet(player="blue", region="toledo"))
    g.apply(ev.SecretDiscSet(player="green", region="valencia"))
    g.apply(ev.SecretDiscsRevealed())
    assert provinces(g, "orange") == 30


def test_discs_are_revealed_together_then_the_outcome_send_back():
    g, _ = _civil_war()
    g.apply(ev.SecretDiscSet(player="blue", region="toledo"))
    refused(g, ev.SecretDiscsRevealed(), "secret-disc")  # Green still chooses
    g.apply(ev.SecretDiscSet(player="green", region="valencia"))
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "toledo") == 0 and count(g, "blue", "granada") == 1
    assert count(g, "green", "valencia") == 0 and provinces(g, "blue") == 29 and provinces(g, "green") == 30
    assert count(g, "purple", "granada") == 4  # the player of the card loses nothing
    out = g.state.outcomes[-1]
    assert out.discs == {"blue": "toledo", "green": "valencia"}
    assert {"player": "blue", "count": 3, "source": "toledo", "target": "provinces"} in out.moves
    assert g.state.stage != "special"


def test_the_outcome_to_court_with_a_count():
    g, _ = _civil_war(params={"civil_war": {"outcome": "to_court", "count": 2}})
    g.apply(ev.SecretDiscSet(player="blue", region="toledo"))
    g.apply(ev.SecretDiscSet(player="green", region="valencia"))
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "toledo") == 1 and court(g, "blue") == 2
    assert count(g, "green", "valencia") == 0 and court(g, "green") == 2


def test_nobody_with_caballeros_ends_it_at_once():
    g, _ = _civil_war(arrange=[("purple", "granada", 4)])
    assert g.state.stage != "special" and count(g, "purple", "granada") == 4


def test_what_happens_in_the_region_is_the_cards_and_refused_unknown():
    g = new_game(params={"civil_war": None})  # the shipped card: its outcome is not published
    pid = turn_with(g, "civil_war")
    assert "outcome" in g.asked().options["special"]["refused"]
    msg = refused(g, ev.SpecialActionStarted(player=pid), "card-fact-missing")
    assert "cards[civil_war].params.outcome" in msg
    g.apply(ev.SpecialActionSkipped(player=pid))  # the game goes on


@pytest.mark.parametrize("players", [["purple", "blue"]])
def test_the_dummy_is_skipped(players):
    g = new_game(players=players, dummy="green", board_file=None)
    pid = turn_with(g, "civil_war")
    dummy = g.state.dummy
    clear(g)
    put(g, "blue", "toledo", 2)
    put(g, "green", "valencia", 2)
    start_special(g, pid)
    assert g.asked().players == ("blue",)
    g.apply(ev.SecretDiscSet(player="blue", region="toledo"))
    g.apply(ev.SecretDiscsRevealed())
    assert g.state.counts[g.board.area_index["valencia"]][dummy] == 2


def test_taboo_civil_war_never_takes_from_the_kings_region():
    """Civil War: "All other players must choose a region in which they have at least 1
    Caballero." — not the King's region; a player with Caballeros only there is lucky."""
    g = new_game()
    clear(g)
    put(g, "blue", "castilla", 2)
    put(g, "green", "castilla", 1)
    put(g, "green", "toledo", 1)
    pid = _to_turn(g, "civil_war")
    start_special(g, pid)
    ask = g.asked()
    assert ask.players == ("green",) and ask.options["regions"]["green"] == ["toledo"]
    _refused(g, ev.SecretDiscSet(player="green", region="castilla"), "secret-disc")


def test_civil_war_each_other_player_chooses_a_region_with_a_caballero_the_luckless_none():
    """Civil War: "All other players must choose a region in which they have at least 1
    Caballero. If a player has no Caballeros in any region, they are lucky" """
    g = new_game()
    clear(g)
    put(g, "blue", "toledo", 2)
    put(g, "green", "granada", 1)
    put(g, "purple", "granada", 3)
    pid = _to_turn(g, "civil_war")
    start_special(g, pid)
    assert set(g.asked().players) == {"blue", "green"}  # Orange has none: lucky; never the player
    assert g.asked().options["regions"]["blue"] == ["toledo"]
    _refused(g, ev.SecretDiscSet(player="blue", region="granada"), "secret-disc")
    g.apply(ev.SecretDiscSet(player="blue", region="toledo"))
    g.apply(ev.SecretDiscSet(player="green", region="granada"))
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "toledo") == 0 and count(g, "green", "granada") == 0  # the test card: send back
    assert count(g, "purple", "granada") == 3
