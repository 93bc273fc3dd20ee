"""The app starts on a games folder full of damaged logs (every kind of the
damaged-logs figure, a directory, a dangling link, a 6 MB file...): it shows the
home screen listing each of them with what is wrong, never exits; a game is
kept aside and another opened up to its last intact record by touch
(damaged_home_driver.py, a scenario of test_app.py's night launch)."""

import json
import sys

import pytest

from tests.companion.storage.test_damaged_logs import DAMAGE, fill_with_damaged_logs, make_reference
from tests.companion.ui.damaged_home_driver import NAMES_FILE
from tests.companion.ui.test_app import _launch, _looks_like_a_screen, _shots, night_launch

DAMAGED = "damaged_home_driver:damaged_home@damaged"


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    return night_launch(tmp_path_factory)


def test_the_app_starts_on_a_folder_full_of_damaged_logs_screenshots_and_exits(tmp_path):
    # `elgrande app --screenshot --exit-after` (test_app.py's test_app_screenshot_and_exit), here on
    # the damaged folder: a picture of the first screen, exit 0, no traceback
    data = tmp_path / "data"
    made = fill_with_damaged_logs(make_reference(tmp_path / "reference"), data / "games")
    picture = _shots("damaged_logs", tmp_path) / "app_start_damaged_logs.png"
    run = _launch(
        [sys.executable, "-m", "companion.cli", "app", "--screenshot", str(picture), "--exit-after", "3"],
        data,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    _looks_like_a_screen(picture)
    assert len(made) == len(DAMAGE) >= 20


def test_damaged_games_are_listed_kept_aside_and_opened_up_to_the_damage(launch):
    outcome, shots = launch.of(DAMAGED)
    names = json.loads((launch.data_of(DAMAGED) / NAMES_FILE).read_text())
    keep, kept = names["keep"], names["open_kept"]
    assert names["made"] == names["kinds"] == len(DAMAGE)
    assert not launch.traceback, launch.traceback
    assert outcome["rows"] == outcome["logs"] == len(DAMAGE)
    statuses = outcome["statuses"]
    damaged = [s for s in statuses.values() if s.startswith("Damaged: ")]
    assert outcome["damaged_rows"] == len(damaged) >= 20
    header_5 = next(s for t, s in statuses.items() if f"[{keep}]" in t)
    assert (
        header_5 == "Damaged: line 1 is not a game's header (it holds a number). Nothing of this game can be "
        "opened; keep it aside."
    )
    assert outcome["kept_aside"] and all(".damaged-" in n for n in outcome["kept_aside"])
    assert outcome["open_label"] == f"Open up to record {kept}"
    assert outcome["opened_records"] == kept
    assert outcome["opened_message"] == f"Opened up to record {kept}; the damaged file is kept aside"
    for name in ("home_damaged_logs", "home_after_keep_aside", "table_opened_up_to_the_damage"):
        _looks_like_a_screen(shots / f"{name}.png")
