"""The tower panel of a 2023 table in the real app under Xvfb (tower_colour_scenarios.py, a
scenario of test_app.py's rules launch)."""

import pytest

from tests.companion.ui.test_app import _looks_like_a_screen, rules_launches


@pytest.fixture(scope="module")
def launches(tmp_path_factory):
    return rules_launches(tmp_path_factory)


def test_the_tablet_teaches_the_tower_the_games_colours_and_says_so(launches):
    outcome, shots = launches[0].of("tower_colour_scenarios:calibrate_a_2023_table@tower")
    for name in (
        "teach_2023_offer",
        "tower_panel_2023_before",
        "teach_2023_throwing",
        "teach_2023_done",
        "tower_panel_2023_calibrated",
    ):
        _looks_like_a_screen(shots / f"{name}.png")
    # the figure: from the start's offer, 2 taps (Teach the tower these colours, Back to the game) and
    # 5 cubes per colour the tower did not know (purple, the dummy's white; blue kept)
    assert (outcome["teach_taps"], outcome["teach_throws"]) == (2, 10), outcome
    print(f"teaching the tower purple and white: {outcome['teach_taps']} taps, {outcome['teach_throws']} throws")
