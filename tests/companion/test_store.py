"""Game logs: fsync'd appends, a torn last line ignored with a warning and cut
before the next append, damage elsewhere refused, saved games listed."""
import json
import os

import pytest

from companion.scripted import fingerprint, play, scripted_setup
from companion.store import GameLog, LogError, data_dir, last_unfinished, read_log, saved_games
from companion.table import Table


@pytest.fixture(autouse=True)
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_data_dir_follows_the_override(folder):
    assert data_dir() == folder


def test_every_append_is_synced(monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    log = GameLog.create({"x": 1})
    before = len(synced)
    log.append({"t": "undo"})
    log.append({"t": "undo"})
    assert len(synced) == before + 2


@pytest.mark.parametrize("tail", [b'{"t":"drop","key":["t","b"', b'{"t": "ev', b"\x00\x00\x00"])
def test_a_torn_last_line_is_ignored_and_cut_before_the_next_append(tail):
    table = Table.new(scripted_setup("tracking", "short", 3))
    for _ in range(40):
        from companion.scripted import step
        step(table, 2)
    expected = fingerprint(table)
    path = table.path
    table.close()
    with open(path, "ab") as f:
        f.write(tail)
    resumed = Table.resume(path)
    assert any("cut short" in w for w in resumed.warnings)
    assert fingerprint(resumed) == expected
    play(resumed, 2)
    again = Table.resume(path)  # the next appends did not glue onto the torn bytes
    assert not again.warnings and fingerprint(again) == fingerprint(resumed)


def test_a_garbled_complete_last_line_is_ignored_with_a_warning(folder):
    log = GameLog.create({"setup": {}})
    log.append({"t": "undo"})
    log.close()
    with open(log.path, "ab") as f:
        f.write(b'{"t": "und\n')
    loaded = read_log(log.path)
    assert len(loaded.records) == 1 and "damaged" in loaded.warnings[0]


def test_damage_before_the_last_line_is_an_error_naming_the_line(folder):
    log = GameLog.create({"setup": {}})
    log.append({"t": "undo"})
    log.append({"t": "undo"})
    log.close()
    lines = log.path.read_bytes().split(b"\n")
    lines[1] = b"{garbage"
    log.path.write_bytes(b"\n".join(lines))
    with pytest.raises(LogError, match="line 2 is damaged"):
        read_log(log.path)


def test_saved_games_newest_first_and_the_last_unfinished(folder):
    done = Table.new(scripted_setup("scoring", "short", 3))
    play(done, 1)
    open_game = Table.new(scripted_setup("tracking", "short", 3))
    (folder / "games" / "junk.jsonl").write_text("not json\n")
    games = saved_games()
    assert {g.path for g in games} == {done.path, open_game.path}
    assert last_unfinished().path == open_game.path
    assert [g for g in games if g.path == done.path][0].finished
