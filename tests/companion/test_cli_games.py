"""`elgrande games`, `elgrande stats` and `elgrande export` as a user runs them (a subprocess)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.companion.games_fixture import group_folder


def elgrande(*args, data_dir=None):
    import os

    env = {**os.environ, **({"ELGRANDE_DATA_DIR": str(data_dir)} if data_dir else {})}
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True,
                          timeout=120, env=env)


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


@pytest.mark.parametrize("args, message", [
    (["export", "nowhere.jsonl", "--csv", "x.csv"], "nowhere.jsonl: no such game log"),
    (["export", "UNFINISHED", "--csv", "x.csv"], "is not finished (round"),
    (["export", "last", "--csv", "/no/such/folder/x.csv"], "cannot write"),
])
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
