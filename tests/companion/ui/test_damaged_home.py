"""The app starts on a games folder full of damaged logs (every kind of the
damaged-logs figure, a directory, a dangling link, a 6 MB file...): it shows the
home screen listing each of them with what is wrong, never exits; a game is
kept aside and another opened up to its last intact record by touch."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageStat

from companion.table import check_game
from tests.companion.test_damaged_logs import DAMAGE, fill_with_damaged_logs, make_reference
from .xvfb import XVFB_DEPTH

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
XVFB = ["xvfb-run", "-a", "-s", f"-screen 0 1280x800x{XVFB_DEPTH}"]
SHOTS_ENV = "ELGRANDE_SHOTS"


def _looks_like_a_screen(path: Path) -> None:
    image = Image.open(path).convert("RGB")
    assert image.size == (1280, 800), f"{path.name}: {image.size}"
    assert max(ImageStat.Stat(image).stddev) > 8, f"{path.name} is (nearly) one flat colour"


def _damaged_folder(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    assert shutil.which("xvfb-run"), "xvfb-run missing: run scripts/setup.sh as root (it installs xvfb)"
    data = tmp_path / "data"
    ref = make_reference(tmp_path / "reference")
    return data, fill_with_damaged_logs(ref, data / "games")


def _shots(tmp_path: Path) -> Path:
    shots = Path(os.environ.get(SHOTS_ENV, tmp_path / "shots")) / "damaged_logs"
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def test_the_app_starts_on_a_folder_full_of_damaged_logs(tmp_path):
    data, made = _damaged_folder(tmp_path)
    picture = _shots(tmp_path) / "app_start_damaged_logs.png"
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(data)}
    run = subprocess.run(XVFB + [sys.executable, "-m", "companion.cli", "app", "--screenshot", str(picture),
                                 "--exit-after", "3"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=90)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    _looks_like_a_screen(picture)
    assert len(made) == len(DAMAGE) >= 20


def test_damaged_games_are_listed_kept_aside_and_opened_up_to_the_damage(tmp_path):
    data, made = _damaged_folder(tmp_path)
    keep, opened = made["header line 5"].name, made["record deleted"].name
    expected = check_game(made["record deleted"])
    shots, result = _shots(tmp_path), tmp_path / "result.json"
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)}
    run = subprocess.run(XVFB + [sys.executable, str(HERE / "damaged_home_driver.py"), str(shots), str(result),
                                 keep, opened], env=env, capture_output=True, text=True, timeout=120)
    assert result.exists(), f"the app did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    outcome = json.loads(result.read_text())
    assert outcome["status"] == "ok", outcome.get("trace") or outcome
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr[-3000:]
    assert outcome["rows"] == outcome["logs"] == len(DAMAGE)
    statuses = outcome["statuses"]
    damaged = [s for s in statuses.values() if s.startswith("Damaged: ")]
    assert outcome["damaged_rows"] == len(damaged) >= 20
    header_5 = next(s for t, s in statuses.items() if f"[{keep}]" in t)
    assert header_5 == "Damaged: line 1 is not a game's header (it holds a number). Nothing of this game can be " \
                       "opened; keep it aside."
    assert outcome["kept_aside"] and all(".damaged-" in n for n in outcome["kept_aside"])
    assert outcome["open_label"] == f"Open up to record {expected.damage.kept}"
    assert outcome["opened_records"] == expected.damage.kept
    assert outcome["opened_message"] == f"Opened up to record {expected.damage.kept}; the damaged file is kept aside"
    for name in ("home_damaged_logs", "home_after_keep_aside", "table_opened_up_to_the_damage"):
        _looks_like_a_screen(shots / f"{name}.png")
