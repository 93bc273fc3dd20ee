"""The games folder: saved games listed newest first (damaged ones apart), nothing but logs read,
a damaged log kept aside or copied aside without deleting anything."""

import os
import socket

import pytest

from companion.scripted import play, scripted_setup
from companion.storage.game_log import GameLog, scan_log, tip_path
from companion.storage.games_folder import copy_aside, keep_aside, last_unfinished, log_paths, saved_games
from companion.table.authority import Table


@pytest.fixture(autouse=True)
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_saved_games_newest_first_and_the_last_unfinished(folder):
    done = Table.new(scripted_setup("scoring", "short", 3))
    play(done, 1)
    open_game = Table.new(scripted_setup("tracking", "short", 3))
    (folder / "games" / "junk.jsonl").write_text("not json\n")
    games = saved_games()
    assert {g.path for g in games} == {done.path, open_game.path}
    assert last_unfinished().path == open_game.path
    assert [g for g in games if g.path == done.path][0].finished


def test_keep_aside_and_copy_aside_delete_nothing(folder):
    log = GameLog.create({"setup": {}})
    log.append({"t": "undo"})
    log.close()
    data, tip = log.path.read_bytes(), tip_path(log.path).read_bytes()
    copy = copy_aside(log.path)
    assert copy.read_bytes() == data and tip_path(copy).read_bytes() == tip and log.path.exists()
    moved = keep_aside(log.path)
    assert moved != copy and moved.read_bytes() == data and tip_path(moved).read_bytes() == tip
    assert not log.path.exists() and not tip_path(log.path).exists()
    assert log_paths() == []  # kept aside: no longer a *.jsonl, so no longer listed


def test_saved_games_skip_damaged_logs_that_log_paths_still_list(folder):
    good = Table.new(scripted_setup("tracking", "short", 3))
    games = folder / "games"
    for name, data in (("a.jsonl", b"[1]\n"), ("b.jsonl", b""), ("c.jsonl", b"\x00" * 100)):
        (games / name).write_bytes(data)
    (games / "d.jsonl").mkdir()
    (games / "e.jsonl").symlink_to(games / "missing")
    assert [g.path for g in saved_games()] == [good.path]
    assert {p.name for p in log_paths()} == {good.path.name, "a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl", "e.jsonl"}
    for path in log_paths():
        assert (scan_log(path).damage is None) == (path == good.path)


def test_the_games_folder_lists_no_fifo_socket_or_link_out_of_it(folder, tmp_path_factory, caplog):
    """Reading a FIFO named like a log waits for a writer forever, a link to a device reads without
    end: skipped with a logged line, found by lstat/stat alone (this test would hang otherwise).
    A folder, a dangling link and a link to a log in the folder stay listed as before."""

    good = Table.new(scripted_setup("tracking", "short", 3))
    games = folder / "games"
    os.mkfifo(games / "game-x.jsonl")
    outside = tmp_path_factory.mktemp("elsewhere") / "game-out.jsonl"
    outside.write_bytes(good.path.read_bytes())
    (games / "out.jsonl").symlink_to(outside)
    (games / "null.jsonl").symlink_to("/dev/null")
    (games / "up.jsonl").symlink_to(os.path.join("..", "games", "..", "..", outside.parent.name, outside.name))
    (games / "same.jsonl").symlink_to(good.path.name)  # a link inside the folder: a log
    (games / "gone.jsonl").symlink_to(games / "missing")
    (games / "d.jsonl").mkdir()
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(games / "sock.jsonl"))
        with caplog.at_level("WARNING", logger="companion.storage.games_folder"):
            listed = {p.name for p in log_paths()}
    assert listed == {good.path.name, "same.jsonl", "gone.jsonl", "d.jsonl"}
    said = sorted(r.getMessage() for r in caplog.records)
    assert said == [
        "skipped game-x.jsonl in the games folder: not a regular file (a FIFO)",
        "skipped null.jsonl in the games folder: a link to a file outside the folder",
        "skipped out.jsonl in the games folder: a link to a file outside the folder",
        "skipped sock.jsonl in the games folder: not a regular file (a socket)",
        "skipped up.jsonl in the games folder: a link to a file outside the folder",
    ]
    assert {g.path.name for g in saved_games()} == {good.path.name, "same.jsonl"}  # the good log, twice
