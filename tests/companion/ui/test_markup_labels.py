"""A player called `[size=200]Ana Bel` (17 characters, within the setup's 22) is just a name on
every markup label: the replay's Turning points, standings and scoring lines, the home screen's
players, the statistics, the phone check and the table's score row. Each label is drawn by Kivy
(markup_worker.py, on a virtual display of its own, without running the app) for the same game
with plain names and with hostile ones: no line of it is much taller than the plain game's, and the
names' own characters are what it shows (control characters as escapes). Before issue 31 the
Turning points label read the name as a tag: its lines hundreds of pixels high."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.companion.history.games_fixture import table_game
from tests.companion.ui.xvfb import virtual_display

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
PLAIN = ["Ana Bel", "Ben", "Cai", "Dee"]
HOSTILE = ["[size=200]Ana Bel", "&bl;Ben\x1b", '=HYPERLINK("x")', "Bo\u202eb\x07"]
LABELS = ("turning", "standings", "scoring", "home", "stats", "phone_check", "name_cell")


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    games = {
        kind: {"file": table_game(folder, 1, names).path.name, "names": names}
        for kind, names in (("plain", PLAIN), ("hostile", HOSTILE))
    }
    (folder / "names.json").write_text(json.dumps(games))
    result = folder / "drawn.json"
    with virtual_display(1280, 800) as display:
        env = {**os.environ, "DISPLAY": display, "PYTHONPATH": str(ROOT), "ELGRANDE_DATA_DIR": str(folder / "data")}
        env.pop("XAUTHORITY", None)
        run = subprocess.run(
            [sys.executable, str(HERE / "markup_worker.py"), str(folder), str(result)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
    assert result.exists(), f"the worker did not finish:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    return json.loads(result.read_text())


@pytest.mark.parametrize("label", LABELS)
def test_no_line_is_taller_than_with_plain_names(drawn, label):
    plain, hostile = drawn["plain"][label], drawn["hostile"][label]
    assert plain["tallest_line"] > 0 and hostile["lines"] > 0
    assert hostile["tallest_line"] <= 1.5 * plain["tallest_line"], (label, hostile, plain)  # [size=200]: > 10x
    assert hostile["height"] <= 3 * plain["height"], (label, hostile["height"], plain["height"])


# Each label's names as Kivy drew them (the standings line is shortened with "..." at this width).
SHOWN = {
    "turning": HOSTILE[1:2],  # the turning points name who scored most and who led: here Ben
    "home": HOSTILE,
    "stats": HOSTILE,
    "standings": HOSTILE[:2],
    "phone_check": HOSTILE[:1],
    "name_cell": HOSTILE[:1],
}


@pytest.mark.parametrize("label", SHOWN)
def test_the_names_characters_are_what_it_shows(drawn, label):
    from companion.safe_text import for_terminal

    shown = drawn["hostile"][label]["text"].replace("\n", " ")
    for name in SHOWN[label]:
        assert for_terminal(name) in shown, (label, name, shown[:400])
    assert "\x1b" not in shown and "\u202e" not in shown and "\x07" not in shown


def test_the_turning_points_label_stays_a_few_lines(drawn):
    turning = drawn["hostile"]["turning"]
    assert turning["height"] < 400 and turning["tallest_line"] < 40, turning  # a [size=200] line: over 200 px


def test_the_setup_keeps_no_control_character_a_paste_brings(drawn):
    # markup stays (it is text, shown as such everywhere); controls and bidi marks go; 22 characters at most
    assert drawn["name_typed"] == "[size=200]Ana[31m Bel "
