"""The tablet's screens: name -> screen class, in the order the app adds them to its
ScreenManager (companion.ui.app builds it from this list and no other). A new screen is one
.py + one .kv in this package and one line here; tests/companion/ui/test_screen_registry.py
holds every Screen class of the package to a line here, and the screen catalogue to visiting
each registered screen (so the layout checks cover it)."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen

from companion.ui.screens.board_confirm import BoardScreen
from companion.ui.screens.cards import CardsScreen
from companion.ui.screens.correction import PositionScreen
from companion.ui.screens.end import EndScreen
from companion.ui.screens.home import HomeScreen
from companion.ui.screens.ki_cards import KICardsScreen
from companion.ui.screens.replay import ReplayScreen
from companion.ui.screens.scoring import ScoringScreen
from companion.ui.screens.setup import SetupScreen
from companion.ui.screens.stats import StatsScreen
from companion.ui.screens.table import TableScreen

SCREENS: dict[str, type[Screen]] = {
    "home": HomeScreen,
    "setup": SetupScreen,
    "table": TableScreen,
    "scoring": ScoringScreen,
    "end": EndScreen,
    "position": PositionScreen,
    "board": BoardScreen,
    "cards": CardsScreen,
    "ki_cards": KICardsScreen,
    "replay": ReplayScreen,
    "stats": StatsScreen,
}
