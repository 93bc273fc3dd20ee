"""companion.plays.play_code on a virtual display (play_code_worker.py): a finished game's BG Stats
code is drawn with its line, large enough to scan; an unfinished game shows no code and says why;
the code's own view closes; Settings offers Back up and Restore."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.plays.bgstats import data_of
from tests.companion.plays.plays_fixture import NAMES5, finished_game
from tests.companion.ui.xvfb import virtual_display

HERE = Path(__file__).parent
ROOT = HERE.parents[2]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plays-ui")
    games = folder / "games"
    finished_game(games, NAMES5, 1751670900)
    finished_game(games, NAMES5[:3], 1751670900 + 86_400, finish=False)
    result = folder / "drawn.json"
    with virtual_display(1280, 800) as display:
        env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT), "ELGRANDE_DATA_DIR": str(folder / "data")}
        env.pop("XAUTHORITY", None)
        run = subprocess.run(
            [sys.executable, str(HERE / "play_code_worker.py"), str(games), str(result)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
    assert result.exists(), f"the worker did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    return json.loads(result.read_text())


def test_a_finished_game_shows_its_code_and_what_it_is_for(drawn):
    assert drawn["shown"] is True
    assert drawn["words"] == "Scan with a phone to log this play in BG Stats"
    texture, picture = drawn["texture"], drawn["picture"]
    assert texture and texture[0] == texture[1] >= 133  # every module of a version 29 code at least a pixel
    assert picture[0] == picture[1] >= 240 and drawn["height"] > picture[1]
    assert data_of(drawn["link"])["players"][4]["name"] == "Eve"


def test_an_unfinished_game_shows_no_code_and_says_why(drawn):
    assert drawn["unfinished_shown"] is False and drawn["unfinished_opacity"] == 0
    # for people: "this game", never the log's file name (the command line names the file)
    assert drawn["unfinished_words"].startswith("This game is not finished (round ")
    assert ".jsonl" not in drawn["unfinished_words"]


def test_the_codes_view_closes_and_settings_offers_back_up_and_restore(drawn):
    assert drawn["view_buttons"] == ["Close"]
    assert {"Back up", "Restore", "Done"} <= set(drawn["settings_buttons"])
    assert drawn["screens_loaded"] is True
