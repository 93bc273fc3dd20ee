"""The screen catalogue at 800x1280 portrait (test_screen_catalogue.py says what it checks), in the
evening theme (the other shapes run in the day theme): a file of its own, so the two other shapes'
launches can run side by side on the suite's two cores."""

import pytest

from tests.companion.ui.test_screen_catalogue import OTHER_SHAPES, run_catalogue


@pytest.mark.parametrize("width,height", [(800, 1280)], ids=["800x1280"])
def test_every_screen_fits_the_tablet(width, height, tmp_path):
    assert (width, height) in OTHER_SHAPES
    run_catalogue(width, height, tmp_path, theme="evening")
