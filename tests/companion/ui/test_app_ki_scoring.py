"""King and Intrigue in scoring-only mode in the real app under Xvfb (ki_scoring_scenarios.py, driven
by app_driver.py): chosen on New game with "Scoring only", the board entered by taps with a 2x marker
and the Alliance, the general scoring itemised with lines naming them and equal to what the engine
scores from the saved log; the marker buttons fit (48 dp, no overlap, no cut words) at 1280x800,
1920x1200 and 800x1280."""
import json
from pathlib import Path

import pytest

from companion.table import Table
from engine.snapshot import load_snapshot, score_snapshot

from .test_app import _drive, _looks_like_a_screen

TOOLS = {"2x marker", "Alliance", "Castillo moved", "Quarantine", "Bridge", "King's Guard",
         "Place the 8-4-0 scoreboard", "Place the 4-0-0 scoreboard", "8-4-0 scoreboard: as printed",
         "4-0-0 scoreboard: as printed", "Mistress: nobody"}


def _entered_by_taps(outcome) -> None:
    assert outcome["setup"] == {"rules": "king-intrigue", "mode": "scoring",
                                "modules": ["players-edition", "special-cards"]}
    assert TOOLS <= set(outcome["tools"]), outcome["tools"]
    assert outcome["refused"] == ("Both Alliance markers lie already (on Aragón and Cataluña): tap one to take it "
                                  "off first")
    assert outcome["markers_drawn"] == ["2x on galicia", "Alliance on aragon", "Alliance on cataluna"]
    problems = {k: v for k, v in outcome["problems"].items() if v}
    assert not problems, problems


def test_a_ki_scoring_only_game_scores_the_2x_marker_and_the_alliance_entered_by_taps(tmp_path):
    outcome, shots = _drive("ki_scoring_scenarios:ki_scoring_only_game", tmp_path)
    (shots / "outcome.json").write_text(json.dumps(outcome, indent=1))
    _entered_by_taps(outcome)
    assert outcome["markers_saved"] == {"double_1": "galicia", "alliance_1": "aragon", "alliance_2": "cataluna"}
    # the itemised lines on the scoring screen name the markers
    galicia = outcome["pages"]["Galicia"]
    assert any("2x marker on Galicia: its points doubled" in row for row in galicia), galicia
    assert any("Alliance" in row for row in outcome["pages"]["Aragón"]), outcome["pages"]["Aragón"]
    # ... and are what the engine scores for the same board (the saved log replayed, scored as a snapshot)
    table = Table.resume(Path(outcome["log"]))
    entered = next(r["e"] for r in table.records if r["t"] == "event" and r["e"]["type"] == "board_entered")
    data = {"rules": "king-intrigue", "players": ["red", "yellow", "green"], "king": "castilla_la_nueva",
            "secret_discs": {"red": "valencia", "yellow": "valencia", "green": "valencia"},
            "scores": {"red": 0, "yellow": 0, "green": 0},
            **{k: v for k, v in entered.items() if k not in ("type", "court")}}
    gained, lines, _ = score_snapshot(load_snapshot(data, table.board), None, table.board)
    assert outcome["lines"] == [ln.to_dict() for ln in lines]
    assert outcome["scores"] == gained
    assert outcome["markers_after"] == {}   # the 2x marker and the Alliance go after the general scoring
    for name in ("ki_scoring_board_entry", "ki_scoring_table", "ki_scoring_summary", "ki_scoring_galicia"):
        _looks_like_a_screen(shots / f"{name}.png")


@pytest.mark.parametrize("window", ["1920x1200", "800x1280"])
def test_the_marker_buttons_fit_other_tablet_shapes(window, tmp_path):
    outcome, shots = _drive("ki_scoring_scenarios:ki_board_entry_shape", tmp_path, window)
    _entered_by_taps(outcome)
    _looks_like_a_screen(shots / "ki_scoring_board_entry.png", tuple(map(int, window.split("x"))))
