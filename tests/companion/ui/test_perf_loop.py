"""The app's loop sleeps between frames (issue 11): the Castillo's pulse is a few timed steps,
none while the map is off screen, and no animation keeps the clock awake (perf_loop_driver.py,
the first scenario of test_app.py's night launch: the real app under Xvfb)."""

import pytest

from tests.companion.ui.test_app import night_launch

MAX_FPS = 30
# Kivy paces frames a little faster than maxfps (it wakes 0.8 of its resolution early); a loop
# that spins runs hundreds to tens of thousands of iterations a second.
ITERATIONS_CAP = 2.5 * MAX_FPS


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    return night_launch(tmp_path_factory)


def _pulses(glow: list[float]) -> list[list[float]]:
    """The glow's values, one list per pulse (each starts at 1.0)."""
    out: list[list[float]] = []
    for value in glow:
        if value == 1.0 or not out:
            out.append([])
        out[-1].append(value)
    return out


def test_pulses_and_animations_never_spin_the_loop(launch):
    figures, _ = launch.of("perf_loop_driver:loop_figures@perf")
    for phase in ("shown", "hidden", "animation"):
        assert figures[phase]["iterations_per_s"] <= ITERATIONS_CAP, (phase, figures[phase])
    shown, hidden = figures["shown"], figures["hidden"]
    # Shown: each pulse glows and fades in a few steps (not one per frame) back to nothing.
    pulses = _pulses(shown["glow"])
    assert len(pulses) >= 3, shown["glow"]
    # Kivy runs an interval callback up to one clock resolution early, so a pulse may take a few
    # more steps than planned; one value a frame would be 18 to 24 (30 fps, paced up to ~40).
    for steps in pulses:
        assert 3 <= len(steps) <= 1.5 * figures["pulse_steps"] + 2, pulses
    assert pulses[-1][-1] == 0.0 and not shown["pulse_left_running"], pulses
    # Hidden: nobody sees the map, so nothing animates.
    assert set(hidden["glow"]) <= {0.0} and not hidden["pulse_left_running"], hidden
    # A scroll view whose content keeps changing keeps one binding on its bar colour (Kivy 2.3
    # added one per change: about 120 a game on the table's side panel).
    scroll = figures["scroll_view"]
    assert scroll["bar_color_bindings"] + scroll["bar_inactive_color_bindings"] <= 2, scroll
