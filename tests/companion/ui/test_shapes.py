"""Every screen at the three tablet shapes (issue 11 item 7): 1280x800 and 1920x1200 landscape,
800x1280 portrait. The real app under Xvfb at that size (shape_scenarios.py) checks each
screen as it is shown (layout_checks.py): touch targets of at least 48 dp, no interactive
widgets overlapping or off the window, no text cut or broken mid-word, no mark on the map
covering another. The pictures are kept with ELGRANDE_SHOTS=DIR (DIR/shapes_WxH/*.png)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from .test_app import HERE, ROOT, SHOTS_ENV
from .xvfb import XVFB_DEPTH

SHAPES = ((1280, 800), (1920, 1200), (800, 1280))


@pytest.mark.parametrize("width,height", SHAPES, ids=[f"{w}x{h}" for w, h in SHAPES])
def test_every_screen_fits_the_tablet(width, height, tmp_path):
    shots = Path(os.environ.get(SHOTS_ENV, tmp_path / "shots")) / f"shapes_{width}x{height}"
    shots.mkdir(parents=True, exist_ok=True)
    result = tmp_path / "result.json"
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT),
           "ELGRANDE_WINDOW": f"{width}x{height}"}
    xvfb = ["xvfb-run", "-a", "-s", f"-screen 0 {width}x{height}x{XVFB_DEPTH}"]
    run = subprocess.run(xvfb + [sys.executable, str(HERE / "app_driver.py"), "shape_scenarios:every_screen",
                                 str(shots), str(result)], env=env, capture_output=True, text=True, timeout=180)
    assert result.exists(), f"the app did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    outcome = json.loads(result.read_text())
    assert outcome["status"] == "ok", outcome.get("trace") or outcome
    problems = {screen: found for screen, found in outcome["problems"].items() if found}
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
    assert len(outcome["screens"]) >= 18
    # issue 26, at the end of the same launch: the finished game replayed, the records, the demo
    assert {"home_recent_games", "replay_end", "replay_middle", "player_records", "demo_game",
            "setup_known_players"} <= set(outcome["screens"])
    assert outcome["turning_step"] > 0 and outcome["demo_step"] == 2
    assert "Bartholomew-Maximilian" in outcome["stats_text"] and "Bo" in outcome["known_players"]
    assert len(outcome["seated"]) == 1 and "already plays" in outcome["seated_again"]
    # The side panel's smallest words grow with the window: 14 sp, 21 px at 1920x1200
    scale = min(max(width, height) / 1280, min(width, height) / 800)
    assert outcome["side_text_px"] >= 14 * max(1.0, scale) - 0.5, outcome["side_text_px"]
    for name in outcome["screens"]:
        image = Image.open(shots / f"{name}.png").convert("RGB")
        assert image.size == (width, height), f"{name}.png: {image.size}"
        assert max(ImageStat.Stat(image).stddev) > 8, f"{name}.png is (nearly) one flat colour"
