"""Every screen at the three tablet shapes (issue 11 item 7) is now the screen catalogue
(catalogue_scenarios.py): test_screen_catalogue.py at 1920x1200 and 800x1280, test_app.py's
launch at 1280x800 (issue 23: one launch per shape). SHAPES stays importable from here for the
test modules that still take it from this one."""

from tests.companion.ui.test_screen_catalogue import SHAPES  # noqa: F401
