"""Tracking started from the board in front of the table in round 4 and a turn played from there;
a correction mid-round, refused first, then confirmed, shown in the history and undone
(correction_scenarios.py). Both are visits of the screen catalogue, so they run at every tablet
shape: at 1280x800 in test_app.py's launch (read here), at 1920x1200 and 800x1280 portrait in
test_screen_catalogue.py (check_catalogue asserts the same there), a screenshot of every step checked."""

import pytest

from tests.companion.ui.test_app import _looks_like_a_screen, table_launch

CATALOGUE = "catalogue_scenarios:catalogue@catalogue"


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    return table_launch(tmp_path_factory)


def test_tracking_starts_from_the_board_in_round_4_and_a_turn_is_played(launch):
    outcome, shots = launch.of(CATALOGUE)
    assert outcome["round"] == 4 and outcome["valencia"] == {"yellow": 5}
    assert not launch.traceback, launch.traceback
    assert outcome["entry_taps"] <= 40  # the whole position of round 4, and two refused taps
    for name in (
        "setup_from_position",
        "position_board",
        "position_score_pad",
        "position_courts",
        "position_castillo",
        "position_start",
        "round_4_power",
        "round_4_after_a_turn",
    ):
        _looks_like_a_screen(shots / f"{name}.png")


def test_a_correction_mid_round_is_confirmed_in_words_kept_in_the_history_and_undone(launch):
    outcome, shots = launch.of(CATALOGUE)
    assert outcome["applied"] == 1 and outcome["corrections"] == 0  # applied, then undone
    assert not launch.traceback, launch.traceback
    for name in (
        "correction_refused",
        "correction_confirm",
        "table_after_correction",
        "history_with_correction",
        "history_correction_reopened",
    ):
        _looks_like_a_screen(shots / f"{name}.png")
