"""Tap budgets of a tracked round (issue 11), counted on the real app under Xvfb.

Run: .venv/bin/python bench/bench_taps.py      (about 15 s; starts its own xvfb-run)

The app is driven by synthetic touches (tests/companion/ui/tap_scenarios.py) and
every tap on the tablet is logged with what the game asked at that moment.
Taps are deterministic, so there is no baseline to compare against: the figures
are compared with the budgets the issue sets.
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
BUDGETS = {"reveal five cards": 6, "power cards, per player": 1,
           "ordinary turn (Red: replenish, card, 3 placed, Grande)": 6,
           "general scoring, discs from phones": 4, "general scoring, per player picking on the tablet": 2}


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "result.json"
        env = {**os.environ, "ELGRANDE_DATA_DIR": str(Path(tmp) / "data"), "PYTHONPATH": str(ROOT)}
        subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable,
                        str(UI_TESTS / "app_driver.py"), "tap_scenarios:tap_budget_round", tmp, str(result)],
                       env=env, capture_output=True, text=True, timeout=300)
        outcome = json.loads(result.read_text())
    if outcome["status"] != "ok":
        print(outcome.get("trace") or outcome)
        return 1
    print(f"{'step':62} {'taps':>5} {'budget':>7}")
    for step, taps in outcome["budget"].items():
        budget = BUDGETS.get(step)
        print(f"{step:62} {taps:>5g} {budget if budget is not None else '':>7}")
    print("taps by what was asked:", outcome["taps_by_phase"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
