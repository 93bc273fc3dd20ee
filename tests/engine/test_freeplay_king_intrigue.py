"""Scoring-only King and Intrigue games (engine/freeplay.py): the board entered with the
expansion's markers is scored exactly as `score_snapshot` scores the same table, and each marker
lasts as the tracked game keeps it (engine/rules/king_intrigue.py, engine/effects/ki_tokens.py)."""

import pytest

from engine.errors import RuleViolation
from engine.events import CastilloCounted, GameSetup, SecretDiscSet, SecretDiscsRevealed
from engine.freeplay import BoardEntered, RoundFinished, SpecialScored, free_apply, free_state
from engine.game import board_for
from engine.snapshot import load_snapshot, score_snapshot
from tests.engine.king_intrigue.table import KING, WITH_MODULES
from tests.engine.king_intrigue.table import setup as base_setup

GRANDES = {"red": "galicia", "blue": "sevilla", "green": "granada", "yellow": "valencia"}
REGIONS = {
    "galicia": {"red": 4, "blue": 1},
    "aragon": {"green": 3, "red": 2},
    "cataluna": {"yellow": 2, "green": 1, "blue": 2},
    "valencia": {"yellow": 3, "red": 1},
    "sevilla": {"blue": 3, "yellow": 3},
    "castilla_la_nueva": {"green": 2, "red": 1},
    "granada": {"green": 2},
    "pais_vasco": {"blue": 2, "red": 1},
}
MOBILE = {"8-4-0": "pais_vasco", "4-0-0": "castilla_la_vieja"}
CASTILLO = {"red": 3, "blue": 2, "green": 1}
DISCS = {"red": "aragon", "blue": KING, "green": "granada", "yellow": "galicia"}
MARKED = dict(double_scoring=["galicia"], alliance=["aragon", "cataluna"], castillo_at="valencia")


def ki_setup(n: int, modules=("players-edition", "special-cards")) -> GameSetup:
    """Both modules (their markers), or the base game alone."""
    return base_setup(n, cards_file=WITH_MODULES, modules=modules) if modules else base_setup(n)


def _game(setup: GameSetup | None = None):
    setup = setup or ki_setup(4)
    state = free_state(setup, board_for(setup))
    free_apply(state, RoundFinished())
    free_apply(state, RoundFinished())  # round 3: a general scoring follows it
    return state


def _entered(**markers) -> BoardEntered:
    return BoardEntered(king=KING, grandes=GRANDES, regions=REGIONS, mobile_scoreboards=MOBILE, **markers)


def _general_scoring(state, discs=DISCS, castillo=CASTILLO) -> None:
    free_apply(state, RoundFinished())
    for pid, region in discs.items():
        free_apply(state, SecretDiscSet(player=pid, region=region))
    free_apply(state, CastilloCounted(counts=castillo))
    free_apply(state, SecretDiscsRevealed())


def _scored_by_snapshot(state, **markers):
    """The same table as `elgrande score --rules king-intrigue` would read it."""
    data = {**state.table.model_dump(), **markers, "castillo": CASTILLO, "secret_discs": DISCS}
    return score_snapshot(load_snapshot(data, state.board), None, state.board)


def test_a_board_with_a_2x_marker_an_alliance_and_the_moved_castillo_scores_as_score_snapshot():
    state = _game()
    free_apply(state, _entered(**MARKED))
    assert (state.table.double_scoring, state.table.alliance, state.table.castillo_at) == (
        ["galicia"],
        ["aragon", "cataluna"],
        "valencia",
    )
    gained, lines, after = _scored_by_snapshot(state)
    _, plain_lines, _ = _scored_by_snapshot(state, double_scoring=[], alliance=[], castillo_at=None)
    _general_scoring(state)
    record = state.scoring_log[-1]
    assert [ln.to_dict() for ln in record.lines] == [ln.to_dict() for ln in lines]
    assert dict(zip(state.players, state.scores)) == after.scores
    assert sum(ln.points for ln in lines) != sum(ln.points for ln in plain_lines)  # the markers count
    reasons = " | ".join(ln.reason for ln in record.lines)
    assert "2x marker on Galicia: its points doubled" in reasons
    assert "Alliance" in reasons
    assert any(ln.area == "castillo" and "Valencia" in ln.reason for ln in record.lines), reasons
    # "After the next general scoring": the 2x marker, the Alliance markers and the Castillo go back
    assert (state.table.double_scoring, state.table.alliance, state.table.castillo_at) == ([], [], None)
    assert state.round == 4 and state.stage == "play"


def test_the_markers_stay_through_a_special_scoring_and_a_round_without_general_scoring():
    setup = ki_setup(4)
    state = free_state(setup, board_for(setup))
    free_apply(state, _entered(**MARKED, reversed=["8-4-0"], bridge="red", bridge_regions=["galicia", "pais_vasco"]))
    free_apply(state, SpecialScored(kind="region:galicia"))
    record = state.scoring_log[-1]
    assert not any("2x" in ln.reason for ln in record.lines)  # "the score is not doubled" in a special scoring
    free_apply(state, RoundFinished())
    table = state.table
    assert (table.double_scoring, table.alliance, table.castillo_at, table.reversed, table.bridge) == (
        ["galicia"],
        ["aragon", "cataluna"],
        "valencia",
        ["8-4-0"],
        "red",
    )


def test_a_reversed_scoreboard_pays_the_fewest_and_stays_after_a_general_scoring():
    state = _game()
    free_apply(state, _entered(reversed=["8-4-0"]))
    free_apply(state, SpecialScored(kind="region:pais_vasco"))  # blue 2, red 1: red has the fewest
    paid = {ln.player: ln.points for ln in state.scoring_log[-1].lines if ln.kind == "place"}
    assert paid == {"red": 8, "blue": 4}
    assert "reversed mobile scoreboard 8-4-0" in state.scoring_log[-1].lines[0].reason
    _general_scoring(state)
    assert state.table.reversed == ["8-4-0"]  # turned back only by another Revolt


def test_the_kings_guard_adds_the_kings_bonus_and_goes_after_the_general_scoring():
    state = _game()
    free_apply(state, _entered(kings_guard="aragon"))
    _, lines, _ = _scored_by_snapshot(state)
    _general_scoring(state)
    record = state.scoring_log[-1]
    assert [ln.to_dict() for ln in record.lines] == [ln.to_dict() for ln in lines]
    guard = [ln for ln in record.lines if ln.area == "aragon" and ln.kind == "king_bonus"]
    assert [(ln.player, ln.points) for ln in guard] == [("green", 2)]  # red's disc there: to the court (taboo)
    red = next(t for t in record.transfers if t["player"] == "red")
    assert red == {
        "player": "red",
        "count": 3,
        "region": "aragon",
        "to_court": True,
        "why": "the King's Guard",
    }  # what the table is told
    assert state.table.regions["aragon"].get("red") == 2 and state.table.kings_guard is None


def test_the_mistress_takes_every_kings_bonus_for_the_round_and_the_general_scoring_after_it():
    state = _game()
    free_apply(state, _entered(kings_guard="aragon", mistress="blue"))
    _, lines, _ = _scored_by_snapshot(state)
    _general_scoring(state)
    record = state.scoring_log[-1]
    assert [ln.to_dict() for ln in record.lines] == [ln.to_dict() for ln in lines]
    assert not any(ln.kind == "king_bonus" for ln in record.lines)
    assert (state.table.kings_guard, state.table.mistress) == (None, None)
    # a round that ends without a general scoring takes them off too
    free_apply(state, _entered(kings_guard="aragon", mistress="blue"))
    free_apply(state, SpecialScored(kind=f"region:{KING}"))  # green 2, red 1: green's points, no bonus
    special = state.scoring_log[-1].lines
    assert [ln.kind for ln in special if ln.player == "green"] == ["place"]
    free_apply(state, RoundFinished())
    assert (state.table.kings_guard, state.table.mistress) == (None, None)


def test_a_disc_on_the_quarantined_region_sends_to_the_court_and_the_marker_goes_after_the_scoring():
    state = _game()
    free_apply(state, _entered(quarantine="aragon"))
    _general_scoring(state)
    red = next(t for t in state.scoring_log[-1].transfers if t["player"] == "red")
    assert red == {"player": "red", "count": 3, "region": "aragon", "to_court": True, "why": "the quarantine marker"}
    assert state.table.regions["aragon"].get("red") == 2
    assert state.table.quarantine is None


def test_a_quarantine_for_the_round_goes_at_the_rounds_end_as_its_card_says():
    setup = ki_setup(4)  # our box: the Quarantine card's `until` is "round"
    state = free_state(setup, board_for(setup))
    free_apply(state, _entered(quarantine="aragon"))
    free_apply(state, RoundFinished())
    assert state.table.quarantine is None
    unread = free_state(base_setup(4, modules=["players-edition"]), board_for(base_setup(4)))  # no card set
    free_apply(unread, _entered(quarantine="aragon"))
    free_apply(unread, RoundFinished())
    assert unread.table.quarantine == "aragon"  # not known: it stays until the general scoring


def test_a_full_limit_table_sends_the_newer_caballeros_to_the_court_and_the_table_is_told():
    """Table for Six: Aragón seats green 3 and red 2; the discs bring red 3 more: 8 for 6 seats, so
    the 2 newest (red's) go back to the court before Aragón is scored. The limit table stays."""
    state = _game()
    free_apply(state, _entered(limit_tables=["aragon"]))
    gained, lines, after = _scored_by_snapshot(state)
    _general_scoring(state)
    assert [ln.to_dict() for ln in state.scoring_log[-1].lines] == [ln.to_dict() for ln in lines]
    assert state.table.regions["aragon"] == {"green": 3, "red": 3} == after.regions["aragon"]
    red = [t for t in state.scoring_log[-1].transfers if t["player"] == "red"]
    assert red == [
        {"player": "red", "count": 1, "region": "aragon", "to_court": False},
        {"player": "red", "count": 2, "region": "aragon", "to_court": True, "why": "the limit table is full"},
    ]
    assert state.table.limit_tables == ["aragon"]


def test_the_king_may_stand_on_a_marked_region_he_came_to_after_it():
    """Markers are never placed in the King's region, but the King may move onto one: "If the King
    is moved to the region where the Castillo is located, it has no effect on the Castillo"."""
    state = _game()
    free_apply(state, _entered(alliance=[KING, "aragon"], castillo_at=KING, double_scoring=[KING]))
    assert (state.table.alliance, state.table.castillo_at) == ([KING, "aragon"], KING)
    gained, lines, _ = _scored_by_snapshot(state)
    _general_scoring(state)
    assert [ln.to_dict() for ln in state.scoring_log[-1].lines] == [ln.to_dict() for ln in lines]


@pytest.mark.parametrize(
    "markers, words",
    [
        (dict(alliance=["aragon"]), "the two Alliance markers lie on two different regions"),
        (dict(bridge="red", bridge_regions=["galicia", "granada"]), "the bridge joins two adjacent regions"),
        (dict(kings_guard="atlantis"), "kings_guard: unknown region 'atlantis'"),
    ],
)
def test_an_impossible_marker_is_refused_naming_it_and_nothing_changes(markers, words):
    state = _game()
    before = state.table
    with pytest.raises(RuleViolation) as refused:
        free_apply(state, _entered(**markers))
    assert "the board as entered is impossible" in str(refused.value) and words in str(refused.value)
    assert state.table is before


def test_other_rule_sets_refuse_the_markers_and_write_their_boards_as_before():
    classic = GameSetup(
        players=["red", "blue", "green"],
        homes={"red": "galicia", "blue": "sevilla", "green": "granada"},
        king=KING,
        start_player="red",
    )
    state = free_state(classic)
    with pytest.raises(RuleViolation, match="only the King and Intrigue rules have 2x markers"):
        free_apply(
            state,
            BoardEntered(
                king=KING, grandes={"red": "galicia", "blue": "sevilla", "green": "granada"}, double_scoring=["aragon"]
            ),
        )
    plain = BoardEntered(king=KING, grandes={"red": "galicia"})
    assert set(plain.model_dump(mode="json")) == {"type", "king", "grandes", "regions", "court", "mobile_scoreboards"}
    old_line = {"type": "board_entered", "king": KING, "grandes": {"red": "galicia"}}  # a log from before
    assert BoardEntered.model_validate(old_line).double_scoring == []


def test_a_marker_of_a_module_the_game_does_not_play_is_refused():
    state = _game(ki_setup(4, modules=()))
    with pytest.raises(
        RuleViolation,
        match="alliance: that marker comes with the Player's Edition module, which this game does not play",
    ):
        free_apply(state, _entered(alliance=["aragon", "cataluna"]))
    free_apply(state, _entered(double_scoring=["aragon", "galicia"]))  # the base game's 2x markers
    assert state.table.double_scoring == ["aragon", "galicia"]
