"""Back, pause/resume and the screen kept on, in the real app under Xvfb
(android_scenarios.py through app_driver.py): the same code runs on Android."""
import json
import os
import subprocess
import sys

from .test_app import HERE, ROOT, XVFB, _looks_like_a_screen


def test_back_pause_resume_and_keep_awake_in_the_real_app(tmp_path):
    shots = tmp_path / "shots"
    shots.mkdir()
    result = tmp_path / "result.json"
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT),
           "ELGRANDE_PHONE_PORT": "0"}
    run = subprocess.run(XVFB + [sys.executable, str(HERE / "app_driver.py"),
                                 "android_scenarios:back_pause_resume_keep_awake", str(shots), str(result)],
                         env=env, capture_output=True, text=True, timeout=120)
    assert result.exists(), f"the app did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    outcome = json.loads(result.read_text())
    assert outcome["status"] == "ok", outcome.get("trace") or outcome
    assert outcome["quit_by_back"] and outcome["phones_status_after_resume"] == 200
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    for name in ("back_on_home", "back_in_game"):
        _looks_like_a_screen(shots / f"{name}.png")
