"""The plot's line-end labels: apart, and inside the plot where there is room (issue 33)."""

from __future__ import annotations

from companion.ui.widgets.step_plot import spread


def test_line_ends_that_meet_are_moved_apart_in_their_order():
    placed = spread([100, 101, 50], gap=20, low=0, high=500)
    assert placed[2] == 50 and placed[0] == 100 and placed[1] == 120


def test_line_ends_at_the_top_stack_down_from_it():
    placed = spread([200, 199, 198, 197], gap=20, low=0, high=200)
    assert max(placed) <= 200 and min(placed) >= 0
    ordered = sorted(placed)
    assert all(b - a >= 20 for a, b in zip(ordered, ordered[1:]))
    assert placed[0] > placed[1] > placed[2] > placed[3]  # the highest score stays on top
