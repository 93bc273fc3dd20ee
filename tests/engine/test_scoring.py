"""Scoring: the rule book's examples, the player-count rules, and properties."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board.build import classic_board
from engine.scoring import gained, regions_by_total, regions_in_group, score_area
from engine.snapshot import load_snapshot, state_from_snapshot

BOOK = ["ramon", "benita", "gabriel", "ricarda"]


def table(regions=None, castillo=None, king="castilla_la_nueva", grandes=None, players=BOOK, mobile=None):
    snap = load_snapshot(
        {
            "players": players,
            "king": king,
            "regions": regions or {},
            "castillo": castillo or {},
            "grandes": grandes or {},
            "mobile_scoreboards": mobile or {},
        }
    )
    return state_from_snapshot(snap)


def points(state, area: str) -> dict[str, int]:
    return {k: v for k, v in gained(state, score_area(state, state.board.area_index[area])).items() if v}


def test_castillo_example_tie_takes_next_place():
    s = table(castillo={"ramon": 2, "benita": 2, "gabriel": 1})
    assert points(s, "castillo") == {"ramon": 3, "benita": 3, "gabriel": 1}


def test_galicia_example_third_place_pays_nothing():
    s = table({"galicia": {"gabriel": 3, "benita": 2, "ramon": 1}})
    lines = score_area(s, s.board.area_index["galicia"])
    assert points(s, "galicia") == {"gabriel": 4, "benita": 2}
    assert [ln.player for ln in lines] == ["gabriel", "benita", "ramon"]
    assert "pays nothing for 3rd" in lines[2].reason


def test_pais_vasco_example_three_tied_then_third_place():
    s = table({"pais_vasco": {"benita": 3, "ramon": 3, "ricarda": 3, "gabriel": 2}})
    assert points(s, "pais_vasco") == {"benita": 3, "ramon": 3, "ricarda": 3, "gabriel": 1}


def test_aragon_example_both_pairs_tied():
    s = table({"aragon": {"gabriel": 3, "ricarda": 3, "benita": 2, "ramon": 2}})
    assert points(s, "aragon") == {"gabriel": 4, "ricarda": 4}
    reasons = [ln.reason for ln in score_area(s, s.board.area_index["aragon"]) if ln.player == "benita"]
    assert "tied for 3rd" in reasons[0] and "no 4th place" in reasons[0]


def test_kings_bonus_example():
    s = table({"cataluna": {"gabriel": 2, "ramon": 1}}, king="cataluna")
    lines = score_area(s, s.board.area_index["cataluna"])
    assert points(s, "cataluna") == {"gabriel": 6, "ramon": 2}
    assert [(ln.player, ln.kind) for ln in lines if ln.kind != "place"] == [("gabriel", "king_bonus")]


def test_home_bonus_example():
    s = table({"granada": {"ramon": 4, "gabriel": 1, "ricarda": 1}}, grandes={"ramon": "granada"})
    assert points(s, "granada") == {"ramon": 8, "gabriel": 1, "ricarda": 1}


def test_no_bonus_on_a_tied_majority():
    s = table({"granada": {"ramon": 2, "gabriel": 2}}, king="granada", grandes={"ramon": "granada"})
    assert points(s, "granada") == {"ramon": 3, "gabriel": 3}


def test_both_bonuses_at_once():
    s = table({"granada": {"ramon": 2}}, king="granada", grandes={"ramon": "granada"})
    assert points(s, "granada") == {"ramon": 10}


def test_two_players_only_first_place_scores():
    s = table({"castilla_la_vieja": {"red": 3, "blue": 1}, "granada": {"red": 2, "blue": 2}}, players=["red", "blue"])
    assert points(s, "castilla_la_vieja") == {"red": 6}
    assert points(s, "granada") == {}


def test_three_players_first_and_second_only():
    s = table({"valencia": {"red": 3, "blue": 2, "green": 1}}, players=["red", "blue", "green"])
    assert points(s, "valencia") == {"red": 5, "blue": 3}
    s = table({"valencia": {"red": 3, "blue": 3, "green": 1}}, players=["red", "blue", "green"])
    assert points(s, "valencia") == {"red": 3, "blue": 3}


def test_mobile_scoreboard_replaces_values_and_groups():
    s = table(
        {"galicia": {"red": 2, "blue": 1}},
        players=["red", "blue", "green"],
        mobile={"8-4-0": "galicia", "4-0-0": "aragon"},
    )
    assert points(s, "galicia") == {"red": 8, "blue": 4}
    fours = {s.board.region_ids[r] for r in regions_in_group(s, "4")}
    assert fours == {"aragon", "cataluna", "sevilla"}  # Galicia is an "8" now, Aragón a "4"
    fives = {s.board.region_ids[r] for r in regions_in_group(s, "5")}
    assert fives == {"pais_vasco", "valencia"}


def test_most_and_least_ignore_empty_regions():
    s = table({"galicia": {"red": 2}, "aragon": {"red": 1, "blue": 3}, "sevilla": {"blue": 2}}, players=["red", "blue"])
    ids = s.board.region_ids
    assert [ids[r] for r in regions_by_total(s, most=True)] == ["aragon"]
    assert [ids[r] for r in regions_by_total(s, most=False)] == ["galicia", "sevilla"]


counts = st.dictionaries(st.sampled_from(["red", "blue", "green", "yellow", "black"]), st.integers(0, 12), max_size=5)


@settings(max_examples=300, deadline=None)
@given(counts, st.sampled_from(list(classic_board().region_ids) + ["castillo"]), st.integers(2, 5))
def test_adding_a_caballero_never_lowers_your_points(row, area, n):
    players = ["red", "blue", "green", "yellow", "black"][:n]
    row = {p: c for p, c in row.items() if p in players}
    for who in players:
        before = table({} if area == "castillo" else {area: row}, row if area == "castillo" else {}, players=players)
        bumped = dict(row, **{who: row.get(who, 0) + 1})
        after = table(
            {} if area == "castillo" else {area: bumped}, bumped if area == "castillo" else {}, players=players
        )
        assert points(after, area).get(who, 0) >= points(before, area).get(who, 0)


@settings(max_examples=300, deadline=None)
@given(counts, st.sampled_from(list(classic_board().region_ids)), st.integers(2, 5))
def test_place_points_follow_the_scoreboard(row, area, n):
    players = ["red", "blue", "green", "yellow", "black"][:n]
    row = {p: c for p, c in row.items() if p in players and c}
    s = table({area: row}, players=players, king="galicia" if area != "galicia" else "sevilla")
    lines = score_area(s, s.board.area_index[area])
    values = s.board.scoreboards[s.board.area_index[area]]
    assert {ln.player for ln in lines} == set(row)  # a line for everyone present, nobody else
    top = max(row.values(), default=0)
    leaders = [p for p, c in row.items() if c == top]
    for ln in lines:
        assert ln.points in (*values, 0, 2)
        if ln.kind == "place" and ln.player in leaders:
            expected = values[0] if len(leaders) == 1 else (values[1] if n > 2 else 0)
            assert ln.points == expected
    if n == 2:
        assert sum(1 for ln in lines if ln.points) <= 1
