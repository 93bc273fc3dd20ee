"""The tablet's settings: the day or the evening theme (a dim room), kept for the next start.
A choice recolours every screen at once; a refused write says so in one line and keeps the theme
as it was. Its layout is settings.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import StringProperty

from companion.look.tokens import THEME_NAMES
from companion.storage.files import SaveFailed
from companion.storage.settings import save_setting
from companion.ui.dialogs.sheet import Sheet
from companion.ui.theme import THEME, use

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

THEME_WORDS = {
    "day": "Day: dark words on the board's paper",
    "evening": "Evening: light words on deep brown, for a dim room",
}


class Settings(Sheet):
    """Day or evening; the one in use is marked in words ('in use'), not by colour alone."""

    theme = StringProperty("")
    trouble = StringProperty("")  # a refused write, in one line

    def __init__(self):
        super().__init__("Settings", theme=THEME.name, size_hint=(0.7, 0.6))

    def words(self, name: str, theme: str) -> str:
        return THEME_WORDS[name] + ("   (in use)" if name == theme else "")

    def choose(self, name: str) -> None:
        if name not in THEME_NAMES:
            return
        try:
            save_setting("theme", name)
        except SaveFailed as exc:
            self.trouble = exc.words("the theme")
            return
        use(THEME, name)
        self.theme, self.trouble = name, ""
