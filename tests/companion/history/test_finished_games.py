"""A finished game is read-only: opened again (from home, the command line), it shows the final
table, and nothing of it can be changed. Every input is refused in one line, a late tower drop is
taken from the tower and changes nothing, and no path appends to its log. Its date is the game's
start, everywhere (before issue 31 a Drop on a finished game moved its date to today and made it
the game `elgrande export last` exported)."""

from __future__ import annotations

import os
import time

import pytest

from companion.history.records import game_records, last_finished
from companion.input_errors import InputError
from companion.scripted import SIM_BOOT, SIM_TOWER, fingerprint, play, scripted_setup
from companion.table.authority import GAME_OVER, Table
from companion.table.game_check import check_game
from firmware_bridge.adapter import TowerDrop

STARTED = 1_700_000_000  # 14 Nov 2023, 22:13 UTC


@pytest.fixture
def finished(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    table = Table.new(scripted_setup("tracking", "short", 3), started=STARTED)
    play(table, 9)
    assert table.over
    path = table.path
    table.close()
    old = time.time() - 3600
    os.utime(path, (old, old))  # the game ended an hour ago
    return path


def _files(path):
    return path.read_bytes(), path.stat().st_mtime, path.with_name(path.name + ".tip").read_bytes()


def test_every_input_to_a_finished_game_is_refused_in_one_line(finished):
    table = Table.resume(finished)
    before, shown = _files(finished), fingerprint(table)
    assert table.read_only == GAME_OVER and table.public().read_only == GAME_OVER
    assert table.public().undo is None  # the Undo button is greyed, and says why when tapped
    attempts = [
        lambda: table.undo(confirm=True),
        lambda: table.submit({"type": "secret_disc_set", "player": "red", "region": "galicia"}),
        lambda: table.submit_many([{"type": "secret_disc_set", "player": "red", "region": "galicia"}]),
        lambda: table.assign_drop("x", "red"),
        lambda: table.dismiss_drop("x"),
        lambda: table.keep_drop("x"),
    ]
    for attempt in attempts:
        with pytest.raises(InputError) as refused:
            attempt()
        assert str(refused.value) == GAME_OVER
    table.tower_drop(
        TowerDrop(tower=SIM_TOWER, boot=SIM_BOOT, seq=99_999, colour="red", uncertain=False, best="red")
    )  # taken from the tower: it is not offered again
    table.open_castillo()  # its counts may be looked at
    table.start_tower_count()
    assert fingerprint(table) == shown
    table.close()
    assert _files(finished) == before, "something was appended to a finished game's log"


def test_a_finished_game_keeps_its_start_as_its_date(finished):
    Table.resume(finished).close()  # opened and closed again
    check = check_game(finished)
    assert check.finished and check.started == STARTED
    [record] = game_records(finished.parent)
    assert record.started.timestamp() == STARTED and record.duration_min > 0
    assert last_finished(finished.parent).path == finished


def test_the_table_that_just_finished_can_still_take_its_last_input_back(tmp_path, monkeypatch):
    """Read-only is for a finished game opened again: at the table that just played its last
    scoring, a mistake in it can still be undone."""
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    table = Table.new(scripted_setup("tracking", "short", 3))
    play(table, 9)
    assert table.over and table.read_only is None and table.public().undo
    table.undo(confirm=True)
    assert not table.over
