"""The 130 card (engine/effects/double_scoring.py): "The double scoring only occurs during the
next general scoring. If a special scoring occurs in the region before the next general
scoring, the score is not doubled. After the next general scoring, return the Region card and
the 2x marker to the supply."

Cards: King and Intrigue "Double scoring" (ki_130)."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.scoring import score_area
from tests.engine.king_intrigue.table import (
    KING,
    _points,
    _reveal_discs,
    _start,
    _to_general_scoring,
    finish_turn,
    idx,
    new_game,
    put,
    red_turn,
)


def _doubles(state):
    return {m: state.markers[m] for m in ("double_1", "double_2")}


def _mark(game, region):
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "choose_region" and ask.options["purpose"] == "double_scoring"
    assert KING not in ask.options["regions"]
    game.apply(ev.RegionChosen(player="red", region=region))


def test_the_marked_region_scores_twice_at_the_next_general_scoring_then_the_marker_returns():
    game = new_game(4)
    red_turn(game, 130)
    game.apply(ev.SpecialActionStarted(player="red"))
    with pytest.raises(RuleViolation, match="it is the King's region"):
        game.apply(ev.RegionChosen(player="red", region=KING))
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    assert _doubles(game.state) == {"double_1": idx(game, "aragon"), "double_2": None}
    put(game, "red", "aragon", 3)
    put(game, "blue", "aragon", 1)
    single = {ln.player: ln.points for ln in score_area(game.state, idx(game, "aragon")) if ln.points}
    assert single == {"red": 5, "blue": 4}  # Aragón 5/4/1
    s = game.state
    while s.stage != "scoring_discs":  # to the end of round 3
        if s.stage == "power":
            pid = game.asked().players[0]
            game.apply(ev.PowerCardPlayed(player=pid, card=game.asked().options["cards"][0]))
        else:
            finish_turn(game)
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="galicia"))
    before = list(s.scores)
    aragon = {ln.player: ln.points for ln in score_area(s, idx(game, "aragon")) if ln.points}
    game.apply(ev.SecretDiscsRevealed())
    record = s.scoring_log[-1]
    doubled = [ln for ln in record.lines if ln.area == "aragon" and "2x marker" in ln.reason]
    assert {ln.player: ln.points for ln in doubled} == aragon
    gained = {pid: s.scores[p] - before[p] for p, pid in enumerate(s.players)}
    assert sum(gained.values()) == sum(ln.points for ln in record.lines)
    assert _doubles(s) == {"double_1": None, "double_2": None}


def test_a_special_scoring_before_it_is_not_doubled():
    game = new_game(4)
    red_turn(game, 130)
    _mark(game, "castilla_la_vieja")
    put(game, "blue", "castilla_la_vieja", 2)
    game.apply(ev.CaballerosPlaced(player="red", placements={}))
    while game.state.round == 1:
        finish_turn(game)  # green, yellow
    # Round 2: blue plays the 110 (all "6-7" regions scored) with a Caballero card.
    game.apply(ev.PowerCardPlayed(player="yellow", card=20))
    game.apply(ev.PowerCardPlayed(player="red", card=120))
    game.apply(ev.PowerCardPlayed(player="blue", card=110))
    game.apply(ev.PowerCardPlayed(player="green", card=40))
    finish_turn(game)  # red: the King's Card
    game.apply(ev.CourtReplenished(player="blue", from_provinces=3))
    game.apply(ev.SpecialActionStarted(player="blue"))
    record = game.state.scoring_log[-1]
    lines = [ln for ln in record.lines if ln.area == "castilla_la_vieja" and ln.points]
    assert lines and not any("2x" in ln.reason for ln in lines)
    assert game.state.markers["double_1"] == idx(game, "castilla_la_vieja")  # still waiting for the general scoring


def _powers(game, values):
    while game.state.stage == "power":
        pid = game.asked().players[0]
        game.apply(ev.PowerCardPlayed(player=pid, card=values[pid]))


def test_two_markers_at_most_and_never_twice_on_one_region():
    game = new_game(4)
    red_turn(game, 130)
    _mark(game, "aragon")
    while game.state.round == 1:
        finish_turn(game)
    _powers(game, {"yellow": 20, "red": 120, "blue": 180, "green": 130})  # green: 130 with a Caballero card
    finish_turn(game)  # blue
    game.apply(ev.CourtReplenished(player="green", from_provinces=2))
    game.apply(ev.SpecialActionStarted(player="green"))
    assert "aragon" not in game.asked().options["regions"]
    with pytest.raises(RuleViolation, match="Aragón already has a 2x marker"):
        game.apply(ev.RegionChosen(player="green", region="aragon"))
    game.apply(ev.RegionChosen(player="green", region="galicia"))
    assert _doubles(game.state) == {"double_1": idx(game, "aragon"), "double_2": idx(game, "galicia")}
    while game.state.round == 2:
        finish_turn(game)
    _powers(game, {"yellow": 130, "red": 110, "blue": 160, "green": 120})  # yellow: 130, no marker left
    finish_turn(game)  # blue
    game.apply(ev.CourtReplenished(player="yellow", from_provinces=2))
    game.apply(ev.SpecialActionStarted(player="yellow"))
    assert game.state.turn.special_done and game.state.stage == "turn"
    assert _doubles(game.state) == {"double_1": idx(game, "aragon"), "double_2": idx(game, "galicia")}


def test_the_bridges_point_is_not_the_regions_score_and_is_not_doubled():
    """Bridge Construction: "1 point per general scoring" is the bridge's, whatever region its
    line names; a 2x marker doubles the region's places and bonuses only."""
    from engine.rules.king_intrigue.general_scoring import double_lines
    from engine.scoring import ScoreLine

    game = new_game(4)
    game.state.markers["double_1"] = idx(game, "galicia")
    lines = [
        ScoreLine("galicia", "red", 4, "place", 1, "1st place"),
        ScoreLine("galicia", "red", 1, "bridge", None, "the bridge between Galicia and País Vasco"),
    ]
    assert [(ln.kind, ln.points) for ln in double_lines(game.state, lines)] == [("place", 4)]


def test_130_the_double_scoring_marker_waits_through_a_general_scoring_only_once():
    """ "After the next general scoring, return the Region card and the 2x marker to the supply."
    -- the scoring after that is single."""
    game = new_game(4)
    red_turn(game, 130)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="galicia"))
    s = game.state
    assert idx(game, "galicia") in {s.markers["double_1"], s.markers["double_2"]}
    _to_general_scoring(game)
    record = _reveal_discs(game)
    galicia = _points(record.lines, "galicia")
    assert galicia.get("red") == 2 * (4 + 2)  # red alone in its home: 1st (4) + home bonus (2), doubled
    assert s.markers["double_1"] is None and s.markers["double_2"] is None
