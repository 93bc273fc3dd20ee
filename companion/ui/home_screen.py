"""Start: resume the last unfinished game, or set up a new one."""
from __future__ import annotations

import time
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..store import LogError
from ..table import InputError

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class HomeScreen(Screen):
    model = ObjectProperty(None)
    resume_text = StringProperty("")
    message = StringProperty("")
    _saved = None

    def on_pre_enter(self, *args) -> None:
        self._saved = self.model.last_unfinished()
        if self._saved:
            game = self._saved.header["setup"]["game"]
            names = ", ".join(game.get("names", {}).get(p) or p.title() for p in game["players"])
            when = time.strftime("%d %b %H:%M", time.localtime(self._saved.modified))
            self.resume_text = f"Resume the game of {when} ({names})"
        else:
            self.resume_text = ""

    def resume(self) -> None:
        if not self._saved:
            return
        try:
            self.model.resume(self._saved.path)
        except (LogError, InputError, OSError) as exc:
            self.message = f"Cannot resume {self._saved.path.name}: {exc}"
            return
        self.manager.current = "table"
