"""Game logs: fsync'd appends, chained lines and the checkpoint beside them, a
torn last line ignored with a warning and cut before the next append (the file
copied aside first), damage elsewhere refused with its line."""

import json
import os
import random

import pytest

from companion.input_errors import InputError
from companion.scripted import fingerprint, play, scripted_setup
from companion.storage.game_log import FORMAT, GameLog, LogDamaged, LogError, read_log, read_tip, scan_log, tip_path
from companion.table.authority import Table


@pytest.fixture(autouse=True)
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


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
    with pytest.raises(LogError, match="line 2 is not valid JSON"):
        read_log(log.path)


def test_each_line_is_chained_to_the_one_before_and_the_checkpoint_follows(folder):
    log = GameLog.create({"setup": {}})
    first = json.loads(log.path.read_bytes().splitlines()[0])
    assert first["format"] == FORMAT and first["n"] == 0 and len(first["h"]) == 16
    for _ in range(3):
        log.append({"t": "undo"})
        last = json.loads(log.path.read_bytes().splitlines()[-1])
        assert read_tip(log.path) == ((last["n"], last["h"]), None)
    lines = [json.loads(x) for x in log.path.read_bytes().splitlines()]
    assert [x["n"] for x in lines] == [0, 1, 2, 3] and len({x["h"] for x in lines}) == 4  # same record, new hash
    assert read_log(log.path).records == [{"t": "undo"}] * 3


def test_a_failed_append_leaves_no_half_line(folder, monkeypatch):
    table = Table.new(scripted_setup("tracking", "short", 3))
    play_some(table, 10)
    before = table.path.read_bytes()
    real = os.fsync

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    from engine.playout import random_event

    with pytest.raises(InputError, match="storage is full: free some space; nothing of this input was kept"):
        table.submit(random_event(random.Random(1), table.asked()))
    monkeypatch.setattr(os, "fsync", real)
    assert table.path.read_bytes() == before
    play_some(table, 5)
    resumed = Table.resume(table.path)
    assert not resumed.warnings and fingerprint(resumed) == fingerprint(table)


def play_some(table, n):
    from companion.scripted import step

    for _ in range(n):
        step(table, 3, drop_rate=0, undo_rate=0)


def test_a_torn_line_is_copied_aside_before_it_is_cut(folder):
    table = Table.new(scripted_setup("tracking", "short", 3))
    play_some(table, 5)
    table.close()
    with open(table.path, "ab") as f:
        f.write(b'{"t":"ev')
    torn = table.path.read_bytes()
    resumed = Table.resume(table.path)
    [aside] = [p for p in table.path.parent.iterdir() if ".damaged-" in p.name and not p.name.endswith(".tip")]
    assert aside.read_bytes() == torn and any(aside.name in w for w in resumed.warnings)
    assert not table.path.read_bytes().endswith(b'{"t":"ev')


def test_a_log_shorter_than_its_checkpoint_was_cut(folder):
    log = GameLog.create({"setup": {}})
    for _ in range(5):
        log.append({"t": "undo"})
    log.close()
    lines = log.path.read_bytes().splitlines(keepends=True)
    log.path.write_bytes(b"".join(lines[:3]))
    with pytest.raises(LogDamaged, match="ends after record 2 but 5 were written: records 3 to 5 are missing") as exc:
        read_log(log.path)
    assert exc.value.damage.kept == 2 and exc.value.damage.line == 4


def test_the_checkpoint_lagging_behind_is_fine(folder):
    """It is not fsync'd: after a power cut it may hold an older record, which is still in the log."""
    log = GameLog.create({"setup": {}})
    log.append({"t": "undo"})
    old_tip = tip_path(log.path).read_bytes()
    log.append({"t": "undo"})
    log.close()
    tip_path(log.path).write_bytes(old_tip)
    loaded = scan_log(log.path)
    assert loaded.damage is None and not loaded.warnings and len(loaded.records) == 2
