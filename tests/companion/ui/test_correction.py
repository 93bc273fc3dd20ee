"""The real app under Xvfb, driven by synthetic touches (app_driver.py,
correction_scenarios.py): tracking started from the board in front of the table
in round 4 and a turn played from there; a correction mid-round, refused first,
then confirmed, shown in the history and undone. Each at 1280x800 and at
800x1280 portrait, with a screenshot of every step checked."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageStat
from .xvfb import XVFB_DEPTH

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
SHOTS_ENV = "ELGRANDE_SHOTS"  # keep the screenshots there (a look by a person)
SHAPES = {"landscape": (1280, 800), "portrait": (800, 1280)}


@pytest.fixture(autouse=True)
def _needs_xvfb():
    assert shutil.which("xvfb-run"), "xvfb-run missing: run scripts/setup.sh as root (it installs xvfb)"


def _drive(scenario: str, shape: str, tmp_path: Path) -> tuple[dict, Path]:
    name = scenario if shape == "landscape" else f"{scenario}_portrait"
    shots = Path(os.environ.get(SHOTS_ENV, tmp_path / "shots")) / name
    shots.mkdir(parents=True, exist_ok=True)
    result = tmp_path / "result.json"
    width, height = SHAPES[shape]
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    run = subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {width}x{height}x{XVFB_DEPTH}", sys.executable,
                          str(HERE / "app_driver.py"), f"correction_scenarios:{name}", str(shots), str(result)],
                         env=env, capture_output=True, text=True, timeout=240)
    assert result.exists(), f"the app did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    outcome = json.loads(result.read_text())
    assert outcome["status"] == "ok", outcome.get("trace") or outcome
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr, run.stderr[-4000:]
    return outcome, shots


def _looks_like_a_screen(path: Path, shape: str) -> None:
    image = Image.open(path).convert("RGB")
    assert image.size == SHAPES[shape], f"{path.name}: {image.size}"
    assert max(ImageStat.Stat(image).stddev) > 8, f"{path.name} is (nearly) one flat colour"


@pytest.mark.parametrize("shape", ["landscape", "portrait"])
def test_tracking_starts_from_the_board_in_round_4_and_a_turn_is_played(shape, tmp_path):
    outcome, shots = _drive("start_from_position_in_round_4", shape, tmp_path)
    assert outcome["round"] == 4 and outcome["valencia"] == {"yellow": 5}
    assert outcome["entry_taps"] <= 40  # the whole position of round 4, and two refused taps
    for name in ("setup_from_position", "position_board", "position_score_pad", "position_courts",
                 "position_castillo", "position_start", "round_4_power", "round_4_after_a_turn"):
        _looks_like_a_screen(shots / f"{name}.png", shape)


@pytest.mark.parametrize("shape", ["landscape", "portrait"])
def test_a_correction_mid_round_is_confirmed_in_words_kept_in_the_history_and_undone(shape, tmp_path):
    outcome, shots = _drive("correction_mid_round_and_undo", shape, tmp_path)
    assert outcome["applied"] == 1 and outcome["corrections"] == 0  # applied, then undone
    for name in ("correction_refused", "correction_confirm", "table_after_correction", "history_with_correction",
                 "history_correction_reopened"):
        _looks_like_a_screen(shots / f"{name}.png", shape)
