"""companion.plays.bgstats: the BG Stats play, its file and its push link. The link's JSON fields,
the date in UTC (across midnight, and across a change of summer time), the same sourcePlayId
however often and wherever the game is exported, the owner as BG Stats' "me", the location, a
first game's newPlayer, and a 5-player link a QR code holds."""

from __future__ import annotations

import json
import os
import shutil
import time
from datetime import datetime

import pytest

from companion.cli import main
from companion.history.records import read_record
from companion.plays import bgstats
from companion.plays.owner import PlaysSettingRefused, save_plays_setting
from companion.plays.qr import qr_code, qr_png
from tests.companion.plays.plays_fixture import NAMES5, finished_game

# Saturday 29 March 2025, 23:30 UTC: Sunday 00:30 in Berlin (CET), the night summer time begins
LATE_MARCH = 1743291000
# Friday 4 July 2025, 23:15 UTC: Saturday 01:15 in Berlin (CEST)
LATE_JULY = 1751670900


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def berlin(monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture(scope="module")
def five(tmp_path_factory):
    """A finished 5-player game, and a later one of three of them."""
    folder = tmp_path_factory.mktemp("games")
    first = finished_game(folder, NAMES5, LATE_MARCH, minutes=95)
    later = finished_game(folder, ["Ana", "Ben", "Zoë"], LATE_JULY, minutes=70, seed=2)
    return first, later


def test_the_link_carries_the_play_as_bg_stats_reads_it(five, data):
    record = read_record(five[0])
    link = bgstats.push_link(record)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B%22sourceName%22")
    play = bgstats.data_of(link)
    assert play["sourceName"] == "El Grande Companion"
    assert play["sourcePlayId"] == bgstats.stable_id(bgstats.header_of(five[0]))
    assert play["playDate"] == "2025-03-29 23:30:00" and play["durationMin"] == 95
    assert play["board"] == "Classic (1995)" and "location" not in play
    assert play["game"] == {
        "name": "El Grande",
        "sourceGameId": "el-grande",
        "bggId": 93,
        "highestWins": True,
        "noPoints": False,
    }
    assert [p["name"] for p in play["players"]] == NAMES5
    assert [p["role"] for p in play["players"]] == ["Red", "Yellow", "Green", "Blue", "Black"]
    assert [p["score"] for p in play["players"]] == [p.score for p in record.players]
    assert [p["winner"] for p in play["players"]] == [p.winner for p in record.players]  # every player says it
    top = max(p.score for p in record.players)
    assert {p["rank"] for p in play["players"] if p["score"] == top} == {1}
    assert [p["startPlayer"] for p in play["players"]] == [True, False, False, False, False]
    assert all(p["newPlayer"] for p in play["players"])  # everyone's first game on this tablet
    assert len({p["sourcePlayerId"] for p in play["players"]}) == 5


def test_the_date_is_utc_across_midnight_and_summer_time(five, data, berlin):
    for path, utc, local in (
        (five[0], "2025-03-29 23:30:00", "2025-03-30 00:30"),  # Berlin already on Sunday, UTC still Saturday
        (five[1], "2025-07-04 23:15:00", "2025-07-05 01:15"),  # summer time: two hours apart
    ):
        record = read_record(path)
        assert record.started.strftime("%Y-%m-%d %H:%M") == local  # the screens: this tablet's time
        assert bgstats.data_of(bgstats.push_link(record))["playDate"] == utc
        assert bgstats.bgstats(record)["plays"][0]["playDate"] == utc


def test_an_old_log_without_a_start_takes_its_file_names_local_time_as_utc(tmp_path, data, berlin):
    source = finished_game(tmp_path / "new", NAMES5[:3], LATE_JULY)
    lines = source.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    del header["header"]["started"]
    from companion.storage.game_log import rewrite_log, scan_log

    old = tmp_path / "old" / "game-20250330-033000-abcd.jsonl"  # 03:30 CEST, just after the clocks went on
    old.parent.mkdir()
    rewrite_log(old, header["header"], scan_log(source).records)
    assert bgstats.play_date(read_record(old)) == "2025-03-30 01:30:00"


def test_the_same_game_is_the_same_play_however_often_and_wherever_it_is_exported(five, data, tmp_path):
    first = bgstats.data_of(bgstats.push_link(read_record(five[0])))["sourcePlayId"]
    again = bgstats.data_of(bgstats.push_link(read_record(five[0])))["sourcePlayId"]
    moved = tmp_path / "elsewhere" / "renamed.jsonl"
    moved.parent.mkdir()
    shutil.copy(five[0], moved)
    there = bgstats.data_of(bgstats.push_link(read_record(moved)))["sourcePlayId"]
    assert first == again == there
    assert (
        bgstats.bgstats(read_record(moved))["plays"][0]["uuid"]
        == bgstats.bgstats(read_record(five[0]))["plays"][0]["uuid"]
    )
    assert bgstats.data_of(bgstats.push_link(read_record(five[1])))["sourcePlayId"] != first


def test_the_file_names_the_owner_or_the_table_as_me(five, data):
    doc = bgstats.bgstats(read_record(five[1]))
    [play] = bgstats.read_bgstats(doc)
    assert play["me"] == "Table" and len(doc["players"]) == 4  # nobody chosen: the table itself
    with pytest.raises(PlaysSettingRefused, match="has not played on this tablet"):
        save_plays_setting("owner", "Nobody", known=["Ana", "Ben"])
    save_plays_setting("owner", "ben", known=["Ana", "Ben"])  # spelled as the table knows them
    doc = bgstats.bgstats(read_record(five[1]))
    [play] = bgstats.read_bgstats(doc)
    assert play["me"] == "Ben" and len(doc["players"]) == 3
    assert doc["userInfo"]["meRefId"] == next(p["id"] for p in doc["players"] if p["name"] == "Ben")
    assert play["board"] == "Classic (1995)"
    scores = doc["plays"][0]["playerScores"]
    assert [s["role"] for s in scores] == ["Red", "Yellow", "Green"]
    # Ana and Ben played the March game: only Zoë is new
    assert [s["newPlayer"] for s in scores] == [False, False, True]


def test_the_location_is_the_tablets_or_the_clubs(five, data):
    assert bgstats.location({}) == ""
    save_plays_setting("location", "  Café   Central ")
    record = read_record(five[0])
    play = bgstats.data_of(bgstats.push_link(record))
    assert play["location"] == "Café Central"
    [read] = bgstats.read_bgstats(bgstats.bgstats(record))
    assert read["location"] == "Café Central"
    assert bgstats.location({"club": {"club": "tuesday-club"}}) == "tuesday-club"
    assert bgstats.location({"club": {"club": "club"}}) == "Café Central"  # the default name is no venue


def test_the_rule_set_and_modules_go_in_board():
    assert bgstats.board_name("2023", ["new-regency", "power-shift"]) == "2023 edition + New Regency + Power Shift"
    assert bgstats.board_name("king-intrigue", []) == "King and Intrigue"


def test_a_5_player_link_fits_a_qr_code(five, data):
    save_plays_setting("location", "The back room of the Golden Lion, Hauptstraße 12")
    link = bgstats.push_link(read_record(five[0]))
    code = qr_code(link)
    assert code is not None and code.version <= 40
    print(f"5-player push link: {len(link)} characters, QR version {code.version} (at most 40)")
    assert len(link) < 2953  # a version 40 code at error correction L holds 2953 bytes
    png = qr_png(link)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert qr_code("x" * 3000) is None  # a link no QR code holds: none, never a broken one


def test_a_link_for_an_unfinished_game_is_one_line_and_exit_2(tmp_path, data, capsys):
    path = finished_game(tmp_path, NAMES5[:3], LATE_JULY, finish=False)
    assert main(["export", str(path), "--bgstats-link"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "is not finished (round" in err and "a play is logged once it is over" in err


def test_the_command_prints_the_link_of_the_last_game(five, data, capsys, monkeypatch):
    games = data / "games"
    games.mkdir(parents=True)
    shutil.copy(five[0], games / five[0].name)
    assert main(["export", "last", "--bgstats-link"]) == 0
    out = capsys.readouterr().out.strip()
    assert "\n" not in out and bgstats.data_of(out)["playDate"] == "2025-03-29 23:30:00"


def test_the_refusal_speaks_german(tmp_path, data):
    from companion.words import use_language

    path = finished_game(tmp_path, NAMES5[:3], LATE_JULY, finish=False)
    use_language("de")
    try:
        with pytest.raises(bgstats.ExportError) as refused:
            bgstats.push_link(read_record(path))
    finally:
        use_language("en")
    assert "ist nicht zu Ende (Runde" in str(refused.value) and path.name in str(refused.value)


def test_a_log_stays_the_same_whatever_the_language(tmp_path, data):
    """A game's link depends on its log, never on the language it is exported in."""
    from companion.words import use_language

    path = finished_game(tmp_path, NAMES5[:2], LATE_JULY)
    record = read_record(path)
    english = bgstats.push_link(record)
    use_language("fr")
    try:
        french = bgstats.push_link(record)
    finally:
        use_language("en")
    assert french == english
    assert datetime.fromtimestamp(LATE_JULY).year == 2025 and os.path.getsize(path) > 0
