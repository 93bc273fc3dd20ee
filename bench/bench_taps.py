"""Tap budgets counted on the real app under Xvfb: a tracked classic round (issue 11) and a
4-player 2023 game with Power Shift to the end of its first general scoring (issue 13).

Run: .venv/bin/python bench/bench_taps.py      (about 80 s; starts its own xvfb-run)

The app is driven by synthetic touches (tests/companion/ui/tap_scenarios.py) and
every tap on the tablet is logged with what the game asked at that moment.
Taps are deterministic, so there is no baseline to compare against: the figures
are compared with the budgets the issues set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI_TESTS = ROOT / "tests" / "companion" / "ui"
BUDGETS = {
    "reveal five cards": 6,
    "power cards, per player": 1,
    "ordinary turn (Red: replenish, card, 3 placed, Grande)": 6,
    "general scoring, discs from phones": 4,
    "general scoring, per player picking on the tablet": 2,
}


def _run(scenario: str, tmp: str) -> dict:
    result = Path(tmp) / f"{scenario.split(':')[1]}.json"
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(Path(tmp) / scenario), "PYTHONPATH": str(ROOT)}
    subprocess.run(
        [
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1280x800x24",
            sys.executable,
            str(UI_TESTS / "app_driver.py"),
            scenario,
            tmp,
            str(result),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
    )
    return json.loads(result.read_text())


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from tests.companion.ui.test_tap_budgets_2023 import BUDGETS as BUDGETS_2023
    from tests.companion.ui.test_tap_budgets_2023 import figures

    with tempfile.TemporaryDirectory() as tmp:
        classic = _run("tap_scenarios:tap_budget_round", tmp)
        edition = _run("tap_scenarios:tap_budget_power_shift_2023", tmp)
    for outcome in (classic, edition):
        if outcome["status"] != "ok":
            print(outcome.get("trace") or outcome)
            return 1
    print("Classic, a tracked 3-player round")
    print(f"{'step':62} {'taps':>5} {'budget':>7}")
    for step, taps in classic["budget"].items():
        budget = BUDGETS.get(step)
        print(f"{step:62} {taps:>5g} {budget if budget is not None else '':>7}")
    print("taps by what was asked:", classic["taps_by_phase"])
    print()
    print("2023 edition, 4 players with Power Shift, rounds 1-3 (every private choice on the tablet)")
    print(f"{'step':62} {'times':>5} {'max':>4} {'budget':>7}")
    for step, taps in figures(edition["steps"]).items():
        budget = BUDGETS_2023.get(step, "")
        print(f"{step:62} {len(taps):>5} {max(taps, default=0):>4} {budget:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
