"""Taps over a whole tracked game (issue 11, item 11), counted on the real app under Xvfb.

Run: .venv/bin/python bench/bench_whole_game.py      (about 1 to 2 minutes; starts its own xvfb-run)

Plays tests/companion/ui/whole_game_scenarios.py:whole_game_by_taps (9 rounds, 4 players,
every classic card kind, an undo in each phase, a correction) and prints, per kind of step,
how many there were and the max and median taps, beside the issue's budget. Taps are
deterministic, so there is no baseline to compare against: the figures are compared with
the budgets. Taps spent on the game's deliberate detours (undos, the correction) are
counted apart, as are those spent working round an app fault the run noticed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI_TESTS = ROOT / "tests" / "companion" / "ui"
BUDGETS = {
    "ordinary turn": "6",
    "power": "1",
    "power phase (all players)": "4",
    "reveal": "6",
    "general scoring": "4 + 2 a tablet picker = 12",
}


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "result.json"
        env = {**os.environ, "ELGRANDE_DATA_DIR": str(Path(tmp) / "data"), "PYTHONPATH": str(ROOT)}
        started = time.perf_counter()
        subprocess.run(
            [
                "xvfb-run",
                "-a",
                "-s",
                "-screen 0 1280x800x24",
                sys.executable,
                str(UI_TESTS / "app_driver.py"),
                "whole_game_scenarios:whole_game_by_taps",
                tmp,
                str(result),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        seconds = time.perf_counter() - started
        outcome = json.loads(result.read_text()) if result.exists() else {"status": "did not finish"}
    if outcome["status"] != "ok":
        print(outcome.get("trace") or outcome)
        return 1
    print(
        f"whole game: {seconds:.0f} s wall, {outcome['taps_total']} taps, winners {outcome['winners']}, "
        f"scores {outcome['scores']}"
    )
    print(f"{'step':28} {'count':>6} {'max':>5} {'median':>7}  budget")
    for kind, f in outcome["figures"].items():
        print(f"{kind:28} {f['count']:>6} {f['max']:>5} {f['median']:>7g}  {BUDGETS.get(kind, '')}")
    print("undone:", "; ".join(u["undone"] + (" (asked first)" if u["confirmed"] else "") for u in outcome["undos"]))
    if outcome["app_faults_worked_round"]:
        print("app faults worked round:", "; ".join(outcome["app_faults_worked_round"]))
    print("taps by what was asked:", outcome["taps_by_phase"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
