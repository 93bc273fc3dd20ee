"""companion.plays.bgg: BoardGameGeek's play fields filled where the app knows them: the location,
the owner's BGG user name on the owner's row, new for a first game, the colour's printed name;
the rest as BGG reads "not known"."""

from __future__ import annotations

import csv
import io

import pytest

from companion.history.export import bgg_csv
from companion.history.records import read_record
from companion.plays.bgg import BGG_FIELDS, bgg_rows
from companion.plays.owner import save_plays_setting
from tests.companion.plays.plays_fixture import finished_game

MARCH, JULY = 1743291000, 1751670900


@pytest.fixture
def games(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "games"
    return finished_game(folder, ["Ana", "Ben"], MARCH), finished_game(folder, ["Ana", "Cy", "Ben"], JULY, seed=3)


def test_nothing_set_leaves_location_and_username_empty(games):
    rows = bgg_rows(read_record(games[1]))
    assert {r["location"] for r in rows} == {""} and {r["username"] for r in rows} == {""}
    assert [r["color"] for r in rows] == ["Red", "Yellow", "Green"]
    assert [r["new"] for r in rows] == [0, 1, 0]  # Cy's first game; Ana and Ben played in March
    assert {r["rating"] for r in rows} == {0} and {r["incomplete"] for r in rows} == {0}


def test_the_location_and_the_owners_username_are_filled(games):
    save_plays_setting("location", "Club Alcázar")
    save_plays_setting("owner", "Ben", known=["Ana", "Ben", "Cy"])
    save_plays_setting("bgg_username", "ben_plays")
    text = bgg_csv(read_record(games[1]))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == list(BGG_FIELDS)
    assert {r["location"] for r in rows} == {"Club Alcázar"}
    assert [(r["name"], r["username"]) for r in rows] == [("Ana", ""), ("Cy", ""), ("Ben", "ben_plays")]
    assert {r["length"] for r in rows} == {"95"} and {r["objectid"] for r in rows} == {"93"}
