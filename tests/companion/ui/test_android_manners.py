"""Back, pause/resume and the screen kept on, in the real app under Xvfb
(android_scenarios.py, a scenario of test_app.py's 1280x800 launch): the same code runs on Android."""

import pytest

from tests.companion.ui.test_app import _looks_like_a_screen, table_launch


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    return table_launch(tmp_path_factory)


def test_back_pause_resume_and_keep_awake_in_the_real_app(launch):
    outcome, shots = launch.of("android_scenarios:back_pause_resume_keep_awake@android")
    assert outcome["quit_by_back"] and outcome["phones_status_after_resume"] == 200
    assert not launch.traceback, launch.traceback
    for name in ("back_on_home", "back_in_game"):
        _looks_like_a_screen(shots / f"{name}.png")
