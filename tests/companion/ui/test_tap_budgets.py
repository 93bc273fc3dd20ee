"""Issue 11's tap budgets, counted on the real app under Xvfb (tap_scenarios.py)."""
from .test_app import _drive, _looks_like_a_screen


def test_a_tracked_round_stays_within_its_tap_budgets(tmp_path):
    outcome, shots = _drive("tap_scenarios:tap_budget_round", tmp_path)
    budget = outcome["budget"]
    assert budget["reveal five cards"] <= 6
    assert budget["power cards, per player"] == 1
    assert budget["ordinary turn (Red: replenish, card, 3 placed, Grande)"] <= 6
    assert budget["general scoring, discs from phones"] <= 4
    assert budget["general scoring, per player picking on the tablet"] <= 2
    for name in ("budget_placing", "budget_secret_pick", "budget_general_summary"):
        _looks_like_a_screen(shots / f"{name}.png")
