"""The table screen reuses its widgets (issue 11: no loop iteration over 150 ms; measured by
bench/bench_app.py): inputs after the first of their kind make no widget, the action-cards sheet
is made (a few buttons a frame) before the first game and reopened with only the cards still
offered, and the app's startup objects are
frozen out of the cycle collector's full passes (reuse_scenarios.py, the real app under Xvfb:
the first scenario of test_app.py's 1280x800 launch)."""

import pytest

from tests.companion.ui.test_app import table_launch


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    return table_launch(tmp_path_factory)


def test_inputs_reuse_the_side_panel_and_the_action_cards_sheet(launch):
    facts, _ = launch.of("reuse_scenarios:widgets_made_once")
    # Kivy, the screens and the modules: well over 100,000 objects no full collection walks again
    assert facts["frozen_at_start"] > 100_000, facts["frozen_at_start"]
    assert facts["card_buttons_made_in_game"] == [], facts["card_buttons_made_in_game"]  # made before it
    assert facts["made_by_power_cards"] == [], facts["made_by_power_cards"]
    assert facts["made_by_reopening_the_sheet"] == [], facts["made_by_reopening_the_sheet"]
    assert facts["same_sheet"] and facts["same_card_buttons"]
    before, after = facts["sheet_bindings"]
    assert after == before, facts["sheet_bindings"]  # opening it again piles up no bindings on it
    assert facts["cards_shown"] == facts["cards_offered"]
    # reopened fresh: nothing picked but a stack's only card
    assert facts["picked_after_reopening"] == facts["single_card_stacks"]
    assert not facts["gone_card_shown"] and facts["back_in_its_column"]
