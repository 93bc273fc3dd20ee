"""A full disk loses nothing: on a real small file system (a tmpfs mounted for the test, which
fills up exactly like a tablet's storage: the write that crosses the last free page comes back
short, the next one says ENOSPC), every input is kept whole or refused whole in one line, the
game goes on once space returns without a restart, and resumes after one with every input the
table acknowledged. The companion.storage.game_log docstring says how a log is written."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
from pathlib import Path

import pytest

from companion.input_errors import InputError
from companion.scripted import SIM_BOOT, SIM_TOWER, fingerprint, scripted_setup, step
from companion.storage.game_log import read_tip, scan_log
from companion.table.authority import Table
from firmware_bridge.adapter import TowerDrop

FULL = "The tablet's storage is full: free some space; nothing of this input was kept"
DISK_KB = 512


class SmallDisk:
    """A tmpfs of DISK_KB with a filler file that leaves `free` bytes."""

    def __init__(self, root: Path):
        self.root = root
        self.filler = root / "filler"

    def fill(self, leave: int) -> None:
        self.free_all()
        st = os.statvfs(self.root)
        size = st.f_bavail * st.f_frsize - leave
        with open(self.filler, "wb") as f:
            f.write(b"\0" * max(size, 0))

    def free_all(self) -> None:
        self.filler.unlink(missing_ok=True)

    def available(self) -> int:
        st = os.statvfs(self.root)
        return st.f_bavail * st.f_frsize


@pytest.fixture
def disk(tmp_path, monkeypatch):
    root = tmp_path / "disk"
    root.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_KB}k", "tmpfs", str(root)], capture_output=True, text=True
    )
    assert done.returncode == 0, f"these tests mount a small tmpfs (as root): {done.stderr.strip()}"
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(root / "data"))
    try:
        yield SmallDisk(root)
    finally:
        subprocess.run(["umount", "-l", str(root)], check=False)


def _attempt(table: Table, seed: int) -> str:
    """One scripted input: "kept", "refused" (the storage message) or "over"."""
    try:
        return "kept" if step(table, seed) else "over"
    except AssertionError as exc:  # the script's own wrapping of a refused move
        assert FULL in str(exc), exc
        return "refused"
    except InputError as exc:
        assert str(exc) == FULL, exc
        return "refused"


@pytest.mark.parametrize("free_kb", [4, 12, 40])
def test_the_storage_fills_mid_game_and_nothing_acknowledged_is_lost(disk, free_kb):
    table = Table.new(scripted_setup("tracking", "full", 5))  # about 49 KB when played to its end
    for _ in range(3):
        assert _attempt(table, 5) == "kept"
    disk.fill(free_kb * 1024)
    refused = 0
    for _ in range(2000):
        outcome = _attempt(table, 5)
        if outcome == "refused":
            refused += 1
            log = table.path.read_bytes()
            assert log.endswith(b"\n"), "a refused input left part of a line in the log"
            assert read_tip(table.path)[0][0] == len(table.records), "the checkpoint vouches for a refused input"
            if refused == 3:
                break
    assert refused == 3, "the disk never filled up"
    disk.free_all()  # space returns: the game goes on, no restart
    for _ in range(40):
        if _attempt(table, 5) == "over":
            break
    acknowledged = fingerprint(table)
    records = list(table.records)
    table.close()
    resumed = Table.resume(table.path)
    assert resumed.records == records and fingerprint(resumed) == acknowledged
    assert not resumed.warnings


@contextlib.contextmanager
def file_size_limit(limit: int):
    """The kernel's own limit on a file's size (RLIMIT_FSIZE), to the byte: a write that crosses it
    comes back short and the next fails (EFBIG), as on a disk that fills inside a write."""
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        signal.signal(signal.SIGXFSZ, handler)


def test_a_general_scoring_reveal_and_the_castillo_emptied_are_kept_together(tmp_path, monkeypatch):
    """The reveal writes the Castillo's emptying with it: a write that stops between the two
    keeps neither (before issue 31 the reveal was kept and the emptying lost)."""
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "a"))
    table = Table.new(scripted_setup("tracking", "short", 3), nonce="same")
    twin = Table.new(scripted_setup("tracking", "short", 3), folder=tmp_path / "b", nonce="same")
    while True:
        if table.asked().kind == "reveal_secret_discs":
            size = table.path.stat().st_size
            assert step(twin, 7)  # the twin shows how long the reveal's line is
            event_line = len(twin.path.read_bytes()) - size
            if twin.records[-1]["t"] == "emptied":
                event_line = len(twin.path.read_bytes().splitlines(keepends=True)[-2])
                before = fingerprint(table), table.path.read_bytes()
                with file_size_limit(size + event_line + 10), pytest.raises(InputError, match="nothing of it"):
                    table.submit(twin.records[-2]["e"])
                assert (fingerprint(table), table.path.read_bytes()) == before
                assert step(table, 7)
                break
            assert step(table, 7)
            continue
        assert step(table, 7) and step(twin, 7)
    assert [r["t"] for r in table.records[-2:]] == ["event", "emptied"] and table.records == twin.records
    table.close()
    resumed = Table.resume(table.path)
    assert fingerprint(resumed) == fingerprint(table) and not resumed.warnings


def test_a_tower_drop_the_storage_cannot_keep_is_refused_to_be_offered_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    table = Table.new(scripted_setup("tracking", "short", 3))
    for _ in range(10):
        _attempt(table, 3)
    drop = TowerDrop(tower=SIM_TOWER, boot=SIM_BOOT, seq=1000, colour="red", uncertain=False, best="red")
    total, before = table.drops_total, table.path.read_bytes()
    with file_size_limit(table.path.stat().st_size + 20), pytest.raises(InputError, match="nothing of it") as refused:
        table.tower_drop(drop)
    assert getattr(refused.value, "keep_offering", False), "the link would skip it after five tries"
    assert table.drops_total == total and table.path.read_bytes() == before
    table.tower_drop(drop)  # the link offers it again
    assert table.drops_total == total + 1


def test_a_new_game_on_a_full_disk_is_one_line_and_leaves_no_file(disk):
    Table.new(scripted_setup("tracking", "short", 3)).close()  # the games folder exists
    games = Path(os.environ["ELGRANDE_DATA_DIR"]) / "games"
    before = sorted(p.name for p in games.iterdir())
    disk.fill(0)
    with pytest.raises(InputError) as refused:
        Table.new(scripted_setup("tracking", "short", 3))
    assert str(refused.value) == FULL and "/" not in str(refused.value)
    assert sorted(p.name for p in games.iterdir()) == before


def test_a_log_an_earlier_version_left_torn_opens_up_to_its_last_whole_record(disk, tmp_path):
    """Before issue 31 a short write was taken as done: the checkpoint vouched for a record the
    log holds only the start of. Such a log opens (with a warning), it is not refused."""
    table = Table.new(scripted_setup("tracking", "short", 3))
    for _ in range(20):
        _attempt(table, 4)
    expected_records = list(table.records[:-1])
    table.close()
    data = table.path.read_bytes()
    table.path.write_bytes(data[:-40])  # the last record's line torn, its checkpoint left as it was
    assert scan_log(table.path).damage is None
    resumed = Table.resume(table.path)
    assert resumed.records == expected_records
    assert any("cut short as it was written" in w for w in resumed.warnings)
    assert read_tip(table.path)[0][0] == len(expected_records)  # the checkpoint follows the log again


def test_a_rules_file_on_a_full_disk_is_kept_as_it_was(disk):
    """Your cards and Your board are written whole (a new file renamed over the old) or not at all."""
    from companion.table_rules.storage import RuleFileError, read_json, rules_folder, write_json

    path = rules_folder() / "cards-test.json"
    write_json(path, {"cards": ["old"]})
    disk.fill(0)
    with pytest.raises(RuleFileError) as refused:
        write_json(path, {"cards": ["x" * 100 for _ in range(200)]})
    assert str(refused.value) == "The tablet's storage is full: free some space; nothing of this entry was kept"
    assert read_json(path) == {"cards": ["old"]} and [p.name for p in path.parent.iterdir()] == [path.name]
