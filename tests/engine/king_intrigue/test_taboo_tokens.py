"""The tokens that close a region or the Castillo (engine/queries.py: closed_regions, is_taboo,
entry_refusal): Quarantine (Player's Edition), King's Guard (Special cards), Risk of Collapse
(Player's Edition), and the Mistress (Special cards), by their text and clarifications."""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.queries import closed_regions, entry_refusal, is_taboo

from .table import ALL, WITH_MODULES, finish_turn, idx, new_game, play_powers, put, seat, through_setup

BOTH = ["players-edition", "special-cards"]


def red_turn(value: int, **kw):
    """4 players: red plays `value` and holds a Caballero card; blue (180) has had the King's
    Card's turn; red has replenished fully."""
    game = new_game(4, modules=BOTH, cards_file=kw.pop("cards_file", WITH_MODULES))
    through_setup(game, hands={"red": [value] + [v for v in ALL if v != value][:12], "blue": ALL[5:],
                               "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": value, "blue": 180, "green": 40, "yellow": 10})
    while game.asked().players[0] != "red":
        finish_turn(game)
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="red", from_provinces=min(ask.options["max"], ask.options["provinces"])))
    return game


def _start(game, player="red"):
    """Start the special action; a Veto holder (green's 40) lets it pass."""
    game.apply(ev.SpecialActionStarted(player=player))
    while game.state.stage == "veto_window":
        game.apply(ev.VetoWaived(player=game.asked().players[0]))
    return game.asked()


def test_quarantine_closes_a_region_just_like_the_kings():
    game = red_turn(135)
    ask = _start(game)
    assert ask.options["purpose"] == "quarantine" and "castilla_la_nueva" not in ask.options["regions"]
    with pytest.raises(RuleViolation, match="it is the King's region"):
        game.apply(ev.RegionChosen(player="red", region="castilla_la_nueva"))
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s, aragon = game.state, idx(game, "aragon")
    assert s.markers["quarantine"] == aragon and is_taboo(s, aragon) and aragon in closed_regions(s)
    # "may not be changed in any way": not offered, and refused by name
    assert "aragon" not in game.asked().options["place"]["areas"]
    with pytest.raises(RuleViolation, match="cannot place Caballeros in Aragón: it lies under the quarantine marker"):
        game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1}))
    # nothing may be taken from it either (a replenishment from the board, a send-back ...)
    assert "aragon" not in s.removable_regions(seat(game, "green")) and aragon not in s.removable_regions(1)


def test_quarantine_lasts_as_the_card_says_and_refuses_to_start_until_entered():
    game = red_turn(135)
    game.apply(ev.CaballerosPlaced(player="red", placements={}))
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    while game.state.round_index == 0:
        finish_turn(game)
    assert game.state.markers["quarantine"] is None  # until: "round" (the tests' card file)
    unentered = {**WITH_MODULES, "power_cards": [c for c in WITH_MODULES["power_cards"]
                                                 if c["id"] != "pe_quarantine"]
                 + [{"id": "pe_quarantine", "value": 135, "court": 2}]}
    with pytest.raises(RuleViolation, match=r"how long the quarantine marker stays is not published.*"
                                            r"power_cards\[pe_quarantine\]\.params\.until"):
        new_game(4, modules=BOTH, cards_file=unentered)


def test_a_disc_that_sends_caballeros_to_a_quarantined_region_sends_them_to_the_court():
    game = red_turn(135)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    s.markers["quarantine"] = idx(game, "aragon")
    s.counts[s.board.castillo][0] += 2
    s.provinces[0] -= 2
    from engine import flow as F
    s.scoring_needed, s.scoring_discs = [0], {0: idx(game, "aragon")}
    before = s.court[0]
    F._run_general_scoring(s)
    assert s.court[0] == before + 2 and s.counts[idx(game, "aragon")][0] == 0


def test_kings_guard_is_taboo_and_adds_the_kings_bonus_at_a_general_scoring_that_follows():
    game = red_turn(165)
    put(game, "red", "aragon", 3)
    put(game, "green", "aragon", 1)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    assert entry_refusal(s, idx(game, "aragon")) == "the King's Guard stands there (taboo just like the King's region)"
    # the round ends; round 1 is not followed by a general scoring: the Guard leaves
    while s.round_index == 0:
        finish_turn(game)
    assert s.markers["kings_guard"] is None


def test_kings_guard_bonus_at_the_general_scoring():
    game = red_turn(165)
    put(game, "red", "aragon", 3)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    # The tokens' lines on their own (a whole general scoring with the King's Guard, through the
    # flow: test_referee.py's King's Guard scenario)
    from engine.rules import king_intrigue as KI
    record = type("R", (), {})()
    record.lines = []
    before = s.scores[0]
    KI._tokens_at_scoring(s, record)
    assert [(ln.area, ln.player, ln.points, ln.kind) for ln in record.lines] == [("aragon", "red", 2, "king_bonus")]
    assert s.scores[0] == before + 2


def test_risk_of_collapse_lets_nothing_more_into_the_castillo():
    game = red_turn(145)
    put(game, "green", "castillo", 2)
    _start(game)  # no choice: done at once
    s = game.state
    assert s.markers["risk_of_collapse"] == s.board.castillo
    assert "castillo" not in game.asked().options["place"]["areas"]
    with pytest.raises(RuleViolation, match="the Castillo is at risk of collapse"):
        game.apply(ev.CaballerosPlaced(player="red", placements={"castillo": 1}))
    assert s.counts[s.board.castillo][seat(game, "green")] == 2  # "already inside ... remain in the Castillo"


def test_mistress_no_kings_bonus_at_a_special_scoring_this_round_home_bonus_as_usual():
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES, king="cataluna")  # a "4" region
    through_setup(game, hands={"red": [75] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": 75, "blue": 180, "green": 60, "yellow": 10})  # green: score the "4" regions
    put(game, "green", "cataluna", 2)
    put(game, "red", "galicia", 4)   # red's home (Grande): the home bonus stays
    finish_turn(game)  # blue
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="red", from_provinces=ask.options["max"]))
    _start(game)
    assert game.state.markers["mistress"] == "red"
    finish_turn(game)  # red places nothing
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="green", from_provinces=ask.options["max"]))
    game.apply(ev.SpecialActionStarted(player="green"))
    lines = game.state.scoring_log[-1].lines
    assert not any(ln.kind == "king_bonus" for ln in lines)
    assert any(ln.kind == "home_bonus" and ln.player == "red" and ln.area == "galicia" for ln in lines)
    assert any(ln.area == "cataluna" and ln.player == "green" and ln.points == 4 for ln in lines)
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    assert s.markers["mistress"] is None  # this round only (no general scoring after round 1)
