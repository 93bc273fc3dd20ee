"""`elgrande games`, `elgrande stats` and `elgrande export` as a user runs them (a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.companion.history.games_fixture import group_folder


def elgrande(*args, data_dir=None):
    import os

    env = {**os.environ, **({"ELGRANDE_DATA_DIR": str(data_dir)} if data_dir else {})}
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=120, env=env
    )


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    return data, group_folder(data / "games")


def test_games_lists_every_game_newest_first(data_dir):
    data, paths = data_dir
    out = elgrande("games", "--json", data_dir=data)
    assert out.returncode == 0, out.stderr
    games = json.loads(out.stdout)
    assert [g["file"] for g in games] == [str(p) for p in paths[::-1]]
    assert [g["finished"] for g in games] == [False, True, True]
    assert games[2]["winners"] and all(len(g["players"]) == n for g, n in zip(games, (3, 4, 4)))
    text = elgrande("games", data_dir=data)
    assert len(text.stdout.splitlines()) == 3 and "not finished" in text.stdout.splitlines()[0]
    assert "won by" in text.stdout.splitlines()[1]


def test_stats_per_player(data_dir):
    data, _ = data_dir
    stats = json.loads(elgrande("stats", "--json", data_dir=data).stdout)
    assert {s["name"] for s in stats} == {"Ana", "Ben", "Cai", "Dee"}
    assert all(s["games"] == 2 and s["rules"] == "classic" for s in stats)  # the unfinished game not counted
    assert sum(s["wins"] for s in stats) >= 2


def test_export_last_writes_each_file(data_dir, tmp_path):
    data, paths = data_dir
    for flag, name in (("--bgstats", "play.bgsplay"), ("--csv", "play.csv"), ("--png", "play.png")):
        out = elgrande("export", "last", flag, str(tmp_path / name), data_dir=data)
        assert out.returncode == 0, out.stderr
        assert paths[1].name in out.stdout
    assert json.loads((tmp_path / "play.bgsplay").read_text())["plays"][0]["playerScores"]
    assert (tmp_path / "play.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    by_path = elgrande("export", str(paths[0]), "--csv", str(tmp_path / "first.csv"), data_dir=data)
    assert by_path.returncode == 0 and (tmp_path / "first.csv").read_text().count("\n") == 5


@pytest.mark.parametrize(
    "args, message",
    [
        (["export", "nowhere.jsonl", "--csv", "x.csv"], "nowhere.jsonl: no such game log"),
        (["export", "UNFINISHED", "--csv", "x.csv"], "is not finished (round"),
        (["export", "last", "--csv", "/no/such/folder/x.csv"], "cannot write"),
    ],
)
def test_export_mistakes_exit_2_with_one_line(data_dir, args, message, tmp_path):
    data, paths = data_dir
    args = [str(paths[2]) if a == "UNFINISHED" else a for a in args]
    out = elgrande(*args, data_dir=data)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr, out.stderr


def test_export_last_without_a_finished_game(tmp_path):
    out = elgrande("export", "last", "--png", str(tmp_path / "x.png"), data_dir=tmp_path)
    assert out.returncode == 2 and "there is no finished game" in out.stderr
    listed = elgrande("games", data_dir=tmp_path)
    assert listed.returncode == 0 and listed.stdout.strip() == "No saved games."


# ---- hostile names (issue 31): a name is text everywhere, and the folder reads regular files only ----

HOSTILE = [
    "[size=200]Ana\x1b[31m",
    '=HYPERLINK("http://example.invalid","x")',
    "-1\x07\r\x00\n",
    "Bo\u202eb\u2067\ud800",
]
LONG = ["W" * 10_000, "@SUM(A1)", "+1", "Dee\x9b2J"]


@pytest.fixture(scope="module")
def hostile_dir(tmp_path_factory):
    """Two finished games with hostile names, a copy of one under a file name holding ESC, a FIFO
    and a link out of the folder, both named like logs."""
    import os
    import shutil

    from companion.storage.game_log import tip_path
    from tests.companion.history.games_fixture import table_game

    data = tmp_path_factory.mktemp("hostile")
    games = data / "games"
    first = table_game(games, 1, HOSTILE).path
    second = table_game(games, 2, LONG).path
    escaped = games / "game-20250101-120000-\x1b[31mred.jsonl"
    shutil.copyfile(first, escaped)
    shutil.copyfile(tip_path(first), tip_path(escaped))
    os.mkfifo(games / "game-x.jsonl")
    outside = tmp_path_factory.mktemp("outside") / "game-y.jsonl"
    shutil.copyfile(first, outside)
    (games / "game-y.jsonl").symlink_to(outside)
    return data, first, escaped, second


def run_bytes(*args, data_dir):
    """The command as a terminal runs it: its bytes, and a timeout (a FIFO read would never end)."""
    import os

    out = subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True,
        timeout=60,
        env={**os.environ, "ELGRANDE_DATA_DIR": str(data_dir)},
    )
    return out.returncode, out.stdout.decode("utf-8"), out.stderr.decode("utf-8")  # strict: no lone surrogate


def test_games_and_stats_print_no_raw_control_and_skip_a_fifo(hostile_dir):
    from tests.companion.hostile_names import raw_control

    data, first, escaped, second = hostile_dir
    for command in ("games", "stats"):
        code, out, err = run_bytes(command, data_dir=data)
        assert code == 0, err
        assert raw_control(out.replace("\n", "")) == [] and raw_control(err.replace("\n", "")) == [], (out, err)
        assert "[size=200]Ana\\x1b[31m" in out and "-1\\x07\\x0d\\x00" in out and "Bo\\u202eb\\u2067\\ud800" in out
        assert "W" * 10_000 in out and "Dee\\x9b2J" in out
        assert "skipped game-x.jsonl in the games folder: not a regular file (a FIFO)" in err
        assert "skipped game-y.jsonl in the games folder: a link to a file outside the folder" in err
    code, out, _ = run_bytes("games", data_dir=data)
    assert len(out.splitlines()) == 3 and "[game-20250101-120000-\\x1b[31mred.jsonl]" in out  # one line a game


def test_games_and_stats_json_print_no_raw_control_and_keep_every_name(hostile_dir):
    from tests.companion.hostile_names import raw_control

    data, first, escaped, second = hostile_dir
    code, out, err = run_bytes("games", "--json", data_dir=data)
    assert code == 0 and raw_control(out.rstrip("\n")) == [], err
    games = json.loads(out)
    assert sorted(g["file"] for g in games) == sorted(str(p) for p in (first, escaped, second))  # no FIFO, no link
    assert all(sorted(p["name"] for p in g["players"]) in (sorted(HOSTILE), sorted(LONG)) for g in games)
    code, out, err = run_bytes("stats", "--json", data_dir=data)
    assert code == 0 and raw_control(out.rstrip("\n")) == [], err
    assert {s["name"] for s in json.loads(out)} == {n.strip() for n in HOSTILE + LONG}


def test_export_writes_names_as_text_and_says_a_file_name_as_text(hostile_dir, tmp_path):
    import csv

    from tests.companion.hostile_names import raw_control

    data, first, escaped, second = hostile_dir
    code, out, err = run_bytes("export", str(escaped), "--csv", str(tmp_path / "play.csv"), data_dir=data)
    assert code == 0, err
    assert out == f"game-20250101-120000-\\x1b[31mred.jsonl written to {tmp_path / 'play.csv'}\n"
    with open(tmp_path / "play.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    written = [n.replace("\ud800", "\\ud800") for n in HOSTILE]  # a lone surrogate: no UTF-8 file holds it
    assert sorted(r["name"] for r in rows) == sorted("'" + n if n[0] in "=-" else n for n in written)
    assert all(r["objectid"] == "93" and r["score"].isdigit() for r in rows)  # numbers stay numbers
    code, out, err = run_bytes("export", "nowhere\x1b[2J\u202e.jsonl", "--csv", str(tmp_path / "x.csv"), data_dir=data)
    assert code == 2 and raw_control(err.rstrip("\n")) == []
    assert err == "elgrande export: nowhere\\x1b[2J\\u202e.jsonl: no such game log\n"
