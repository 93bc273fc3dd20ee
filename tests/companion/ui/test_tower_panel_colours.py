"""The tower panel of a 2023 table in the real app under Xvfb (tower_colour_scenarios.py)."""
import json
import os
import subprocess
import sys
from pathlib import Path

from .test_app import HERE, ROOT, XVFB, _looks_like_a_screen


def test_the_tablet_teaches_the_tower_the_games_colours_and_says_so(tmp_path):
    shots = Path(os.environ.get("ELGRANDE_SHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    result = tmp_path / "result.json"
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT),
           "ELGRANDE_PHONE_PORT": "0"}
    run = subprocess.run(XVFB + [sys.executable, str(HERE / "app_driver.py"),
                                 "tower_colour_scenarios:calibrate_a_2023_table", str(shots), str(result)],
                         env=env, capture_output=True, text=True, timeout=240)
    assert result.exists(), f"the app did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    outcome = json.loads(result.read_text())
    assert outcome["status"] == "ok", outcome.get("trace") or outcome
    for name in ("teach_2023_offer", "tower_panel_2023_before", "teach_2023_throwing", "teach_2023_done", "tower_panel_2023_calibrated"):
        _looks_like_a_screen(shots / f"{name}.png")
    # the figure: from the start's offer, 2 taps (Teach the tower these colours, Back to the game) and
    # 5 cubes per colour the tower did not know (purple, the dummy's white; blue kept)
    assert (outcome["teach_taps"], outcome["teach_throws"]) == (2, 10), outcome
    print(f"teaching the tower purple and white: {outcome['teach_taps']} taps, "
          f"{outcome['teach_throws']} throws")
