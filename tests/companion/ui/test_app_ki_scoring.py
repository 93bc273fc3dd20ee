"""King and Intrigue in scoring-only mode in the real app under Xvfb (ki_scoring_scenarios.py, driven
by app_driver.py): chosen on New game with "Scoring only", the board entered by taps with a 2x marker
and the Alliance, the general scoring itemised with lines naming them and equal to what the engine
scores from the saved log; the marker buttons fit (48 dp, no overlap, no cut words). It runs in
King and Intrigue's one launch at 1280x800 (test_app_king_intrigue.py's), the marker buttons at
1920x1200 and 800x1280 in the screen catalogue (catalogue_2023_ki.py)."""

import json
from pathlib import Path

import pytest

from companion.table.authority import Table
from companion.words import _, names
from engine.snapshot import load_snapshot, score_snapshot
from tests.companion.ui.checks_2023_ki import ki_markers_entered_by_taps
from tests.companion.ui.test_app import _looks_like_a_screen
from tests.companion.ui.test_app_2023 import launched, part
from tests.companion.ui.test_app_king_intrigue import LANG_ENV, LAUNCH, in_french  # noqa: F401 (its words' language)
from tests.companion.ui.words_match import said


@pytest.fixture(scope="module")
def launch_ki(tmp_path_factory):
    return launched(tmp_path_factory, *LAUNCH, env=LANG_ENV)


def test_a_ki_scoring_only_game_scores_the_2x_marker_and_the_alliance_entered_by_taps(launch_ki):
    outcome, shots = part(launch_ki, "ki_scoring_only_game")
    (shots / "outcome.json").write_text(json.dumps(outcome, indent=1))
    ki_markers_entered_by_taps(outcome)
    assert outcome["markers_saved"] == {"double_1": "galicia", "alliance_1": "aragon", "alliance_2": "cataluna"}
    # the itemised lines on the scoring screen name the markers
    galicia = outcome["pages"][names.place("Galicia")]
    doubled = said("2x marker on {area}: its points doubled", area=names.place("Galicia"))
    assert any(doubled in row for row in galicia), galicia
    aragon = outcome["pages"][names.place("Aragón")]
    assert any(names.card("Alliance") in row or _("Alliance") in row for row in aragon), aragon
    # ... and are what the engine scores for the same board (the saved log replayed, scored as a snapshot)
    table = Table.resume(Path(outcome["log"]))
    entered = next(r["e"] for r in table.records if r["t"] == "event" and r["e"]["type"] == "board_entered")
    data = {
        "rules": "king-intrigue",
        "players": ["red", "yellow", "green"],
        "king": "castilla_la_nueva",
        "secret_discs": {"red": "valencia", "yellow": "valencia", "green": "valencia"},
        "scores": {"red": 0, "yellow": 0, "green": 0},
        **{k: v for k, v in entered.items() if k not in ("type", "court")},
    }
    gained, lines, _ = score_snapshot(load_snapshot(data, table.board), None, table.board)
    assert outcome["lines"] == [ln.to_dict() for ln in lines]
    assert outcome["scores"] == gained
    assert outcome["markers_after"] == {}  # the 2x marker and the Alliance go after the general scoring
    for name in ("ki_scoring_board_entry", "ki_scoring_table", "ki_scoring_summary", "ki_scoring_galicia"):
        _looks_like_a_screen(shots / f"{name}.png")
