"""Crash drill: the table process is killed with SIGKILL at 20 random points of
a scripted game; each restart resumes exactly the same state and hidden tallies
as an uninterrupted run had after the same records, and the finished log is
byte for byte the uninterrupted run's."""
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.scripted import fingerprint, play, scripted_setup
from companion.store import saved_games
from companion.table import Table

ROOT = Path(__file__).parents[2]


def _reference(tmp_path, monkeypatch, seed, mode):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "reference"))
    table = Table.new(scripted_setup(mode, "short", 4), nonce=f"drill{seed}")
    play(table, seed)
    table.close()
    return table


def _rebuilt(reference: Table, records: list) -> dict:
    table = Table(reference.setup, None)
    table.nonce = reference.nonce
    table._rebuild(records)
    return fingerprint(table)


def _line(runs: subprocess.Popen, starting: str) -> str:
    """The worker's next line that starts with `starting` (skipping the killed run's last lines)."""
    while line := runs.stdout.readline():
        if line.startswith(starting):
            return line
    raise AssertionError(f"the drill's worker ended (exit {runs.wait(60)}) while a line '{starting}...' was awaited")


@pytest.mark.parametrize("mode,seed", [("tracking", 11), ("scoring", 12)])
def test_sigkill_at_20_random_points_resumes_the_same_table(tmp_path, monkeypatch, mode, seed):
    reference = _reference(tmp_path, monkeypatch, seed, mode)
    total = len(reference.records)
    rng = random.Random(seed)
    points = sorted(rng.sample(range(1, total - 1), 20))
    data = tmp_path / "drill"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # One process imports once and forks each run: every run is still a process of its own,
    # killed with SIGKILL mid-game, without paying the interpreter's start-up 20 times.
    runs = subprocess.Popen([sys.executable, "-m", "tests.companion.crash_worker", "--forks", str(data), str(seed),
                             mode], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    kills = 0
    try:
        for point in points:
            runs.stdin.write(f"run {min(point + 2, total - 1)}\n")   # killed a moment after `point`, never at the end
            runs.stdin.flush()
            pid = int(_line(runs, "pid ").split()[1])
            while not ((line := _line(runs, "")).strip().isdigit() and int(line) >= point):
                assert line.strip() != "finished", f"the run ended before record {point}"
            os.kill(pid, signal.SIGKILL)
            assert _line(runs, "ended ").split()[1] == str(signal.SIGKILL), "the run was not the one killed"
            kills += 1
            [saved] = saved_games(data / "games")
            resumed = Table.resume(saved.path)
            held = len(resumed.records)
            assert point <= held <= total
            assert resumed.records == reference.records[:held], "the log differs from the uninterrupted run's"
            assert fingerprint(resumed) == _rebuilt(reference, reference.records[:held])
            resumed.close()
    finally:
        runs.stdin.close()
        runs.wait(timeout=60)
        runs.stdout.close()
    assert kills == 20
    done = subprocess.run([sys.executable, "-m", "tests.companion.crash_worker", str(data), str(seed), mode],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [saved] = saved_games(data / "games")
    assert saved.finished
    assert saved.path.read_bytes() == reference.path.read_bytes()
