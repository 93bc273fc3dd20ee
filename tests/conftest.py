"""How `pytest -n 4` shares the tests out between its workers (pytest_xdist_make_scheduler).

Each test file goes to one worker, as --dist loadfile does (a module's fixtures, such as a broker,
start once), except that the files reading one app launch (tests/companion/ui/test_app.py's
Launch.once) go to one worker together: split, the second worker would wait idle on the launch's
lock while the first runs it. And the app launches go out first, the longest first: one of them
handed out last would keep its worker busy long after the other has finished. (pytest-xdist's
own --dist loadgroup cannot do this with pytest 9: it marks a group in a node id pytest 9 no
longer reads.)"""

from __future__ import annotations

import os

# The suite reads English unless a test chooses a language (a German machine's LANG would
# otherwise turn every English assertion red); the app and the command line it starts inherit it.
os.environ["ELGRANDE_LANG"] = "en"

UI = "tests/companion/ui/"

# The launches, longest first (issue 23's figures, in docs/testing.md), and the files reading each.
LAUNCH_GROUPS = {
    "launch-table": ("test_app.py", "test_reuse.py", "test_android_manners.py", "test_correction.py"),
    "launch-catalogue-1920x1200": ("test_screen_catalogue.py",),
    "launch-catalogue-800x1280": ("test_screen_catalogue_portrait.py",),
    "launch-ki": ("test_app_king_intrigue.py", "test_app_ki_scoring.py"),
    "launch-rules": ("test_rules_setup.py", "test_board_facts_app.py", "test_tower_panel_colours.py"),
    "launch-night": ("test_perf_loop.py", "test_game_night.py", "test_damaged_home.py"),
    "launch-whole-game": ("test_whole_game.py",),
    "launch-2023": ("test_app_2023.py",),
}
GROUP_OF_FILE = {UI + name: group for group, names in LAUNCH_GROUPS.items() for name in names}
RANK = {group: rank for rank, group in enumerate(LAUNCH_GROUPS)}


def launch_group(nodeid: str) -> str:
    """The unit of work a test belongs to: its launch's group, else its file."""
    path = nodeid.split("::")[0]
    return GROUP_OF_FILE.get(path, path)


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: RANK.get(launch_group(item.nodeid), len(RANK)))


def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class LaunchScheduling(LoadScopeScheduling):
        """--dist loadfile, with each launch's files as one unit."""

        def _split_scope(self, nodeid: str) -> str:
            return launch_group(nodeid)

    return LaunchScheduling(config, log)
