"""A game night in the real app under Xvfb: the phone server lives for the app, a phone in
Chromium stays joined into the next game, and the tower panel shows a disagreement between the
tower's own count and the table's (night_scenarios.py, in test_app.py's night launch)."""

from pathlib import Path

import pytest

from tests.companion.ui.test_app import _looks_like_a_screen, night_launch


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    return night_launch(tmp_path_factory)


def test_phones_stay_joined_for_the_next_game_and_the_tower_panel_shows_a_count_mismatch(launch):
    assert Path("/usr/bin/chromium").exists(), "chromium missing: run scripts/setup.sh as root (it installs it)"
    outcome, shots = launch.of("night_scenarios:phones_stay_joined_for_the_next_game@night")
    assert outcome["same_server"]
    assert "disagree" in outcome["panel"]
    assert outcome["records"].count("tower_totals") == 1 and outcome["records"][0] == "emptied"
    for name in ("night_phones_panel", "night_tower_panel_mismatch"):
        _looks_like_a_screen(shots / f"{name}.png")
    for name in ("night_phone_game_1", "night_phone_game_2"):
        assert (shots / f"{name}.png").stat().st_size > 10_000
