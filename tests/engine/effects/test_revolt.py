"""Revolt (Special cards; engine/effects/revolt.py): "When reversed, the 8/4/0 mobile scoreboard
becomes a 0/4/8 scoreboard, meaning that the player with the fewest Caballeros (at least one)
scores 8 points. The player with the second fewest Caballeros scores 4 points." -- "When a
player moves a reversed scoreboard, it remains reversed.\""""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import (
    ALL,
    BOTH,
    KING,
    WITH_MODULES,
    _module_turn,
    _points,
    _reveal_discs,
    _start,
    _to_general_scoring,
    finish_turn,
    idx,
    new_game,
    play_powers,
    put,
    red_turn,
    through_setup,
)


def _revolt_scoring(scoreboard, area, counts, reversed_=True):
    """A general scoring with `scoreboard` on `area`, reversed, and these counts there."""
    game = _module_turn(
        125, discs={p: "galicia" for p in FOUR}, others={"red": 125, "blue": 180, "green": 40, "yellow": 10}
    )
    s = game.state
    s.mobile[scoreboard] = idx(game, area)
    s.markers[f"reversed_{scoreboard}"] = reversed_
    for pid, n in counts.items():
        put(game, pid, area, n)
    game.apply(ev.CaballerosPlaced(player="red", placements={}))
    game.apply(ev.SpecialActionSkipped(player="red"))
    _to_general_scoring(game)
    return game, _reveal_discs(game, region="galicia")


def _turn():
    game = new_game(4, modules=["special-cards"], cards_file=WITH_MODULES)
    through_setup(
        game,
        discs={p: "aragon" for p in ("red", "blue", "green", "yellow")},
        hands={"red": [125] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]},
    )
    play_powers(game, {"red": 125, "blue": 170, "green": 40, "yellow": 10})
    finish_turn(game)  # blue
    game.apply(ev.CourtReplenished(player="red", from_provinces=2))
    return game


def test_the_fewest_score_first_on_a_reversed_scoreboard_and_it_stays_reversed():
    game = _turn()
    s = game.state
    s.mobile["8-4-0"] = idx(game, "aragon")
    s.mobile["4-0-0"] = idx(game, KING)
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "turn_scoreboard" and ask.options["scoreboards"] == ["8-4-0"]  # 4-0-0: the King's region
    with pytest.raises(RuleViolation, match="may not be changed"):
        game.apply(ev.ScoreboardTurned(player="red", scoreboard="4-0-0"))
    game.apply(ev.ScoreboardTurned(player="red", scoreboard="8-4-0"))
    assert s.markers["reversed_8-4-0"] is True
    put(game, "red", "aragon", 3)  # red 4: the most, 4th
    put(game, "blue", "aragon", 1)  # blue 2: 3rd
    # green and yellow 1 each: tied for the fewest, they take the 2nd place's 4 each.
    s.grandes[0] = idx(game, "aragon")  # red's Grande: the home bonus stays with the majority
    while s.stage != "scoring_discs":
        if s.stage == "power":
            game.apply(ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][0]))
        else:
            finish_turn(game)
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="cataluna"))
    game.apply(ev.SecretDiscsRevealed())
    lines = [ln for ln in s.scoring_log[-1].lines if ln.area == "aragon"]
    assert s.mobile["8-4-0"] == idx(game, "aragon") and s.counts[idx(game, "aragon")] == [4, 2, 1, 1]
    assert {(ln.player, ln.points, ln.kind) for ln in lines} == {
        ("green", 4, "place"),
        ("yellow", 4, "place"),
        ("blue", 0, "place"),
        ("red", 0, "place"),
        ("red", 2, "home_bonus"),
    }
    assert s.markers["reversed_8-4-0"] is True  # still reversed after the scoring


def test_a_second_revolt_turns_it_back():
    game = _turn()
    game.state.markers["reversed_4-0-0"] = True
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().options["reversed"] == ["4-0-0"]
    game.apply(ev.ScoreboardTurned(player="red", scoreboard="4-0-0"))
    assert game.state.markers["reversed_4-0-0"] is None


# --- "When reversed, the 8/4/0 mobile scoreboard becomes a 0/4/8 scoreboard": in an Alliance and under
# a relocated Castillo too (an independent referee's case: 4 players, the 8-4-0 on Valencia turned by
# Revolt, the Alliance on Valencia and Granada, blue 3 in Valencia, blue and green 1 each in Granada).
# The README's reading holds there as everywhere: ranked from the fewest (at least one), bonuses with
# the majority.

FOUR = ("red", "blue", "green", "yellow")
REFEREE_ALLIANCE = {"valencia": {"blue": 3}, "granada": {"blue": 1, "green": 1}}


def _general_scoring_with(markers: dict, counts: dict):
    """A tracked 4-player game at its first general scoring, with these markers (region ids) and
    exactly these counts in the areas named (the homes' set-up Caballeros back to the provinces):
    every turn passes, every disc on Galicia."""
    game = new_game(4, modules=["players-edition", "special-cards"], cards_file=WITH_MODULES)
    red_turn(game, 125, discs={p: "galicia" for p in FOUR})
    s = game.state
    s.mobile["8-4-0"] = idx(game, "valencia")
    s.markers["reversed_8-4-0"] = True
    s.markers.update({m: idx(game, area) for m, area in markers.items()})
    for area, row in counts.items():
        for q, pid in enumerate(FOUR):
            put(game, pid, area, row.get(pid, 0) - s.counts[idx(game, area)][q])
    while s.stage != "scoring_discs":
        if s.stage == "power":
            game.apply(ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][0]))
        else:
            finish_turn(game)
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="galicia"))
    game.apply(ev.SecretDiscsRevealed())
    return game, s.scoring_log[-1].lines


def test_when_reversed_the_8_4_0_becomes_0_4_8_in_an_alliance_too():
    """ "When reversed, the 8/4/0 mobile scoreboard becomes a 0/4/8 scoreboard, meaning that the
    player with the fewest Caballeros (at least one) scores 8 points." -- the Alliance: "the player
    with the most Caballeros scores first place points according to the scoreboards of both regions"
    (Valencia's, reversed, pays the combined counts from the fewest)"""
    game, lines = _general_scoring_with({"alliance_1": "valencia", "alliance_2": "granada"}, REFEREE_ALLIANCE)
    assert _points(lines, "valencia") == {"green": 8, "blue": 4}  # blue 4 combined, green 1: green fewest
    assert _points(lines, "granada") == {"blue": 6, "green": 3}  # Granada's own 6/3/1, from the most
    assert any("reversed 8-4-0" in ln.reason for ln in lines if ln.area == "valencia")


def test_when_reversed_the_alliances_bonuses_stay_with_the_majority():
    """ "a reversed scoreboard ranks from the fewest (at least one) and the bonuses stay with the
    majority" (README): green's home, Granada, in the Alliance; green the combined majority"""
    game, lines = _general_scoring_with(
        {"alliance_1": "valencia", "alliance_2": "granada"},
        {"valencia": {"green": 3}, "granada": {"blue": 1, "green": 1}},
    )
    assert _points(lines, "valencia") == {"blue": 8, "green": 4 + 2}  # the home bonus, once, to green
    assert [ln.player for ln in lines if ln.kind == "home_bonus" and ln.area in ("valencia", "granada")] == ["green"]


def test_when_reversed_the_relocated_castillo_on_it_scores_from_the_fewest():
    """ "When reversed, the 8/4/0 mobile scoreboard becomes a 0/4/8 scoreboard" -- Relocate: "score the
    Castillo according to the scoreboard in the region it occupies" (the Castillo on Valencia, where
    the reversed 8-4-0 lies)"""
    game, lines = _general_scoring_with({"castillo_at": "valencia"}, {"castillo": {"red": 3, "blue": 1}})
    assert _points(lines, "castillo") == {"blue": 8, "red": 4}


def _snapshot(**markers):
    from engine.snapshot import load_snapshot

    return load_snapshot(
        {
            "rules": "king-intrigue",
            "players": list(FOUR),
            "king": KING,
            "regions": {"valencia": {"blue": 3}, "granada": {"blue": 1, "green": 1}},
            "castillo": {"red": 3, "blue": 1},
            "secret_discs": {"red": "galicia", "blue": "galicia"},
            "mobile_scoreboards": {"8-4-0": "valencia", "4-0-0": "aragon"},
            "reversed": ["8-4-0"],
            **markers,
        }
    )


def test_when_reversed_a_scoring_only_snapshot_pays_the_alliance_from_the_fewest():
    """ "When reversed, the 8/4/0 mobile scoreboard becomes a 0/4/8 scoreboard" (`elgrande score
    --rules king-intrigue`, the referee's Alliance case)"""
    from engine.board.load import load_board
    from engine.snapshot import score_snapshot

    _, lines, _ = score_snapshot(_snapshot(alliance=["valencia", "granada"]), None, load_board("king-intrigue", 4))
    assert _points(lines, "valencia") == {"green": 8, "blue": 4}
    assert _points(lines, "granada") == {"blue": 6, "green": 3}


def test_when_reversed_a_scoring_only_snapshot_pays_the_relocated_castillo_from_the_fewest():
    """ "When reversed, the 8/4/0 mobile scoreboard becomes a 0/4/8 scoreboard" (`elgrande score
    --rules king-intrigue`, the Castillo relocated onto Valencia)"""
    from engine.board.load import load_board
    from engine.snapshot import score_snapshot

    _, lines, _ = score_snapshot(_snapshot(castillo_at="valencia"), None, load_board("king-intrigue", 4))
    assert _points(lines, "castillo") == {"blue": 8, "red": 4}


def test_revolt_at_least_one_caballero_to_be_fewest():
    """ "the player with the fewest Caballeros (at least one) scores 8 points. The player with
    the second fewest Caballeros scores 4 points." (players without a Caballero there rank
    nowhere)"""
    game, record = _revolt_scoring("8-4-0", "cataluna", {"red": 3, "blue": 1})
    got = _points(record.lines, "cataluna", "place")
    assert game.state.counts[idx(game, "cataluna")] == [3, 1, 0, 0]
    assert got.get("blue") == 8 and got.get("red") == 4
    assert not got.get("green") and not got.get("yellow")


def test_revolt_the_reversed_4_0_0_pays_the_fewest():
    """ "The same applies to the 4/0/0 mobile scoreboard." (reversed: the fewest, at least one,
    score its 4)"""
    game, record = _revolt_scoring("4-0-0", "cataluna", {"red": 3, "blue": 2, "green": 1})
    got = _points(record.lines, "cataluna", "place")
    assert got.get("green") == 4 and not got.get("red") and not got.get("blue")


def test_revolt_a_reversed_scoreboard_moved_remains_reversed():
    """ "When a player moves a reversed scoreboard, it remains reversed." (moved by the 90)"""
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES)
    red_turn(game, 90)
    s = game.state
    s.mobile["8-4-0"] = idx(game, "aragon")
    s.markers["reversed_8-4-0"] = True
    game.apply(ev.SpecialActionStarted(player="red"))
    while s.stage == "veto_window":
        game.apply(ev.VetoWaived(player=game.asked().players[0]))
    game.apply(ev.MobileScoreboardPlaced(player="red", scoreboard="8-4-0", area="galicia"))
    assert s.mobile["8-4-0"] == idx(game, "galicia") and s.markers["reversed_8-4-0"] is True


def test_revolt_a_reversed_scoreboard_also_reverses_a_special_scoring():
    """ "When reversed, the 8/4/0 mobile scoreboard becomes a 0/4/8 scoreboard, meaning that the
    player with the fewest Caballeros (at least one) scores 8 points." (the 150's special
    scoring of the region it lies on)"""
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES)
    red_turn(game, 150)
    s = game.state
    s.mobile["8-4-0"] = idx(game, "cataluna")
    s.markers["reversed_8-4-0"] = True
    put(game, "blue", "cataluna", 3)
    put(game, "green", "cataluna", 1)
    put(game, "yellow", "cataluna", 2)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="cataluna"))
    got = _points(s.scoring_log[-1].lines, "cataluna", "place")
    assert got == {"green": 8, "yellow": 4, "blue": 0}
