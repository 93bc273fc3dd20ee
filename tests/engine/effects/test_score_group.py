"""The "score_group" effect: the special action of "Special Scoring", "Fiesta", "Outposts",
"Special scoring".

Cards: classic (1995) "Special Scoring" (score_4_regions, score_5_regions, score_6_7_regions);
2023 edition "Fiesta" (fiesta); 2023 edition "Outposts" (outposts); King and Intrigue "Special
scoring" (ki_60, ki_100, ki_110).

classic 1995: "Score all of the "4" regions. All regions with a scoreboard having a top score of
4 are scored. [...] The Mobile Scoreboards may change the regions that can be scored."

classic 1995: "Score all of the "6" and "7" regions. All regions with a scoreboard having a top
score of 6 and 7 are scored."

2023: "Score all regions specified on the card, following all normal rules (see p.8). [...]
Unless stated otherwise, you're not allowed to score the Castillo, since it is not a region.
[...] As long as a region (or the Castillo) has a Scoring tile, use its values for scoring."

2023: "Example "Outposts": Score all 4-point regions. Score all regions that give 4 points for
1st place."

2023: "You choose the "Fiesta" Action card. It's Special action scores all 5-point regions
(Aragón, Navarra and Valencia)."

King and Intrigue: "The 60, 100, 110, 120, 150, and 170 cards trigger a special scoring and are
identical to those Action cards found in the base game (stacks 3 and 4, pages 11-12)." Which
scoring each is, is not published: the table enters it from its cards; the tests' table (and the
engine's self-play stand-in) enter 60, 100, 110: score_group ("4", "5", "6-7"); 120:
score_castillo; 150: score_chosen_region; 170: score_first_only."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.scoring import regions_in_group
from tests.engine.effects.book2023 import _table
from tests.engine.effects.classic import start
from tests.engine.effects.game2023 import clear, count, idx, refused, start_special
from tests.engine.effects.game2023 import new_game as new_game_2023
from tests.engine.effects.game2023 import put as put_2023
from tests.engine.effects.game2023 import turn_with as turn_with_2023
from tests.engine.effects.referee2023 import _last_scoring, _points, _to_turn
from tests.engine.helpers import new_game, put, score, turn_with
from tests.engine.king_intrigue.table import new_game as ki_game
from tests.engine.king_intrigue.table import red_turn


@pytest.mark.parametrize(
    "card,scored",
    [
        ("score_4_regions", {"galicia", "sevilla"}),
        ("score_5_regions", {"aragon", "valencia"}),
        ("score_6_7_regions", {"granada"}),
    ],
)
def test_special_scoring_of_a_value_group(card, scored):
    g = new_game()
    for region in ("valencia", "granada"):
        put(g, "green", region, 1)
    pid = turn_with(g, card)
    start(g, pid)
    record = g.state.scoring_log[-1]
    assert {ln.area for ln in record.lines} == scored


def test_special_scoring_group_follows_mobile_scoreboards():
    g = new_game()
    g.state.mobile["4-0-0"] = g.board.area_index["aragon"]
    g.state.mobile["8-4-0"] = g.board.area_index["galicia"]
    pid = turn_with(g, "score_4_regions")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"aragon", "sevilla"}
    assert score(g, "blue") == 4 + 2  # the 4-0-0 in Aragón, and Blue's home bonus


def test_a_scoring_card_scores_as_the_tables_card_says():
    game = ki_game(4)
    red_turn(game, 100)  # the table's 100: all "5" regions
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.state.scoring_log[-1].title.startswith('Special scoring (all "5" regions)')


def test_outposts_on_a_side_whose_scoreboards_nobody_entered_is_refused_naming_the_fact():
    g = new_game_2023(players=["purple", "blue", "green"], board_file=None)
    pid = turn_with_2023(g, "outposts")
    assert "scoreboard" in g.asked().options["special"]["refused"]
    msg = refused(g, ev.SpecialActionStarted(player=pid), "board-fact-missing")
    assert "board file: regions[galicia].scoreboard" in msg
    g.apply(ev.SpecialActionSkipped(player=pid))


def test_fiesta_with_the_king_by_the_castillo_scores_the_regions_only():
    g = new_game_2023()
    g.state.king = g.state.board.castillo  # arranged: after Rebellion
    pid = turn_with_2023(g, "fiesta")
    clear(g)
    put_2023(g, "blue", "aragon", 2)
    put_2023(g, "blue", "castillo", 2)
    start_special(g, pid)
    lines = g.state.scoring_log[-1].lines
    assert {line.area for line in lines} == {"aragon"} and sum(line.points for line in lines) == 5 + 2  # Blue's home
    assert count(g, "blue", "castillo") == 2  # nothing leaves the Castillo


def test_example_2_fiesta_special_action_not_performed_then_place_3():
    """ "It's Special action scores all 5-point regions (Aragón, Navarra and Valencia). Since this
    would give more points to other players, you decide not to perform the Special action.
    After that, you may place up to 3 Caballeros ... You place 1 in Aragón and 2 in Toledo."
    (The King: in Castilla, next to both.)"""
    g = _table()
    assert [g.board.region_ids[r] for r in regions_in_group(g.state, "5")] == ["navarra", "aragon", "valencia"]
    pid = turn_with_2023(g, "fiesta", place=False)
    before = list(g.state.scores)
    g.apply(ev.SpecialActionSkipped(player=pid))
    assert g.asked().options["place"]["card_allows"] == 3
    g.apply(ev.CaballerosPlaced(player=pid, placements={"aragon": 1, "toledo": 2}))
    assert g.state.scores == before and count(g, pid, "aragon") == 1 and count(g, pid, "toledo") == 2
    assert g.state.discard_pile == ["fiesta"]  # "Place your used Action card face up on the discard pile"


def test_outposts_example_score_all_4_point_regions_with_scoring_tiles():
    """ "Score all regions that give 4 points for 1st place. In this case, these are Sevilla,
    Cataluña, and Toledo, since a Scoring tile was placed in Toledo. You don't score Galicia,
    because it also has a Scoring tile." (The tiles: this table's, 4-0-0 and 8-4-0.)"""
    g = _table(king="aragon")
    g.state.mobile.update(tile_a=idx(g, "toledo"), tile_b=idx(g, "galicia"))  # laid by two Enactments before
    assert [g.board.region_ids[r] for r in regions_in_group(g.state, "4")] == ["cataluna", "toledo", "sevilla"]
    pid = turn_with_2023(g, "outposts")
    clear(g)
    for area in ("galicia", "cataluna", "toledo", "sevilla"):
        put_2023(g, "blue", area, 1)
    start_special(g, pid)
    lines = g.state.scoring_log[-1].lines
    assert {line.area for line in lines} == {"cataluna", "toledo", "sevilla"}
    assert [line.points for line in lines if line.area == "toledo"] == [4]  # the tile's, not the printed 7


def test_score_regions_never_the_castillo_unless_stated():
    """ "Note: Unless stated otherwise, you're not allowed to score the Castillo, since it is not a
    region." (Outposts scores the "4" regions: a 4/0/0 Scoring tile on the Castillo does not make
    it one)"""
    g = new_game_2023()
    clear(g)
    g.state.mobile["tile_a"] = g.board.castillo  # 4/0/0: a "4" board, but not a region
    put_2023(g, "blue", "castillo", 3)
    put_2023(g, "green", "sevilla", 1)
    pid = _to_turn(g, "outposts")
    start_special(g, pid)
    assert {ln.area for ln in _last_scoring(g)} == {"sevilla"}


def test_outposts_example_with_scoring_tiles():
    """ "Score all regions that give 4 points for 1st place. In this case, these are Sevilla,
    Cataluña, and Toledo, since a Scoring tile was placed in Toledo. You don't score Galicia,
    because it also has a Scoring tile." """
    g = new_game_2023(king="valencia")
    clear(g)
    g.state.mobile["tile_a"] = g.board.area_index["toledo"]  # 4/0/0
    g.state.mobile["tile_b"] = g.board.area_index["galicia"]  # 8/4/0
    for r in ("sevilla", "cataluna", "toledo", "galicia"):
        put_2023(g, "blue", r, 1)
    pid = _to_turn(g, "outposts")
    start_special(g, pid)
    assert sorted({ln.area for ln in _last_scoring(g)}) == ["cataluna", "sevilla", "toledo"]


@pytest.mark.parametrize("value,group", [(60, '"4"'), (110, '"6-7"')])
def test_king_and_intrigue_60_and_110_score_the_group_the_tables_card_says(value, group):
    """King and Intrigue's 60 and 110 (Special scoring), entered by the table as "Score all of
    the "4" regions" and "Score all of the "6" and "7" regions"."""
    game = ki_game(4)
    red_turn(game, value)
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.state.scoring_log[-1].title.startswith(f"Special scoring (all {group} regions)")


def test_a_tile_valued_4_on_the_castillo_does_not_make_outposts_score_it():
    """ "Note: Unless stated otherwise, you're not allowed to score the Castillo, since it is not a
    region." — even with a Scoring tile showing 4 there ("Score all regions that give 4 points
    for 1st place")."""
    g = new_game_2023(king="granada")
    clear(g)
    g.state.mobile["tile_a"] = g.board.castillo
    put_2023(g, "blue", "castillo", 2)
    put_2023(g, "green", "sevilla", 1)
    pid = _to_turn(g, "outposts")
    start_special(g, pid)
    lines = _last_scoring(g)
    assert "castillo" not in {ln.area for ln in lines}
    assert _points(lines) == {"green": 4 + 2}  # Sevilla is Green's home: 4 + the Grande's 2
