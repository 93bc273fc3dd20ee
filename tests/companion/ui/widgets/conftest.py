"""The demo's teacher and its key to the pieces, drawn once for the tests of both (piece_key_worker.py
on a virtual display of its own). With ELGRANDE_SHOTS set, the pictures stay in its demo_teacher/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.companion.ui.xvfb import virtual_display

HERE = Path(__file__).parent
ROOT = HERE.parents[3]


@pytest.fixture(scope="session")
def teacher_drawn(tmp_path_factory):
    folder = tmp_path_factory.mktemp("teacher")
    result = folder / "drawn.json"
    shots = os.environ.get("ELGRANDE_SHOTS")
    pictures = Path(shots) / "demo_teacher" if shots else folder / "pictures"
    with virtual_display(1280, 1000) as display:
        env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT), "ELGRANDE_DATA_DIR": str(folder / "data")}
        env.pop("XAUTHORITY", None)
        run = subprocess.run(
            [sys.executable, str(HERE / "piece_key_worker.py"), str(result), str(pictures)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
    assert result.exists(), f"the worker did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    return {**json.loads(result.read_text()), "pictures": sorted(p.name for p in pictures.glob("*.png"))}
