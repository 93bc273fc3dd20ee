"""The player records' table: one over every rule set, one per rule set, sortable by any column."""

from collections import Counter

from companion.history.records import SOURCES, GameRecord, PlayerResult
from companion.history.records_table import ALL, COLUMNS, next_sort, record_tables, sort_rows


def _player(colour, name, score, winner=False, castillo=0, special=0):
    points = dict.fromkeys(SOURCES, 0)
    points.update(castillo=castillo, special=special, king=2, regions=score - castillo - special - 2)
    return PlayerResult(colour, name, score, winner, 1, False, points)


def _game(rules, *players, finished=True, damaged=""):
    return GameRecord(None, None, None, rules, [], "", "", list(players), finished, 9, 9, damaged)


GAMES = [
    _game("classic", _player("red", "Ana", 90, True, castillo=10), _player("blue", "Bo", 70, special=8)),
    _game("classic", _player("red", "Ana", 60), _player("green", "Bo", 80, True)),
    _game("2023", _player("yellow", "Ana", 50, True), _player("green", "Bo", 50, True)),
    _game("2023", _player("red", "Ana", 99, True), _player("green", "Bo", 1), finished=False),
    _game("2023", _player("red", "Ana", 99, True), _player("green", "Bo", 1), damaged="cut"),
]


def test_all_rule_sets_come_first_then_each_rule_set_played_over_finished_intact_games():
    tables = record_tables(GAMES)
    assert [(t.rules, t.title, t.games) for t in tables] == [
        (ALL, "All rule sets", 3),
        ("classic", "Classic (1995)", 2),
        ("2023", "2023 edition", 1),
    ]
    every = {r.name: r for r in tables[0].rows}
    assert (every["Ana"].games, every["Ana"].wins, every["Ana"].best, every["Ana"].shared_wins) == (3, 2, 90, 1)
    assert (every["Bo"].games, every["Bo"].wins, every["Bo"].cell("mean")) == (3, 2, "66.7")
    classic = {r.name: r for r in tables[1].rows}
    assert (classic["Ana"].games, classic["Ana"].wins, classic["Ana"].mean) == (2, 1, 75.0)


def test_points_are_grouped_by_source_and_add_up_to_the_scores():
    ana = next(r for r in record_tables(GAMES)[0].rows if r.name == "Ana")
    assert ana.points == Counter(regions=190, castillo=10, special=0, other=0)
    bo = next(r for r in record_tables(GAMES)[1].rows if r.name == "Bo")
    assert (bo.points["special"], sum(bo.points.values())) == (8, 150)
    assert {key for key, _ in COLUMNS} >= set(ana.points)


def test_a_player_wears_the_colour_they_played_most():
    rows = {r.name: r for r in record_tables(GAMES)[0].rows}
    assert (rows["Ana"].colour, rows["Bo"].colour) == ("red", "green")


def test_a_heading_sorts_by_its_column_and_again_reverses():
    rows = record_tables(GAMES)[0].rows
    assert [r.name for r in sort_rows(rows, "best", True)] == ["Ana", "Bo"]
    assert [r.name for r in sort_rows(rows, "best", False)] == ["Bo", "Ana"]
    assert [r.name for r in sort_rows(rows, "wins", True)] == ["Ana", "Bo"]  # a tie: by name
    assert next_sort(("wins", True), "best") == ("best", True)
    assert next_sort(("best", True), "best") == ("best", False)
    assert next_sort(("best", True), "name") == ("name", False)
