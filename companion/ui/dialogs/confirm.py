"""Are you sure? before an undo that takes back more than the last tap (the table's question).
Its layout is confirm.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import StringProperty

from companion.ui.dialogs.dialog import Dialog
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class Confirm(Dialog):
    question = StringProperty("")

    def __init__(self, question: str, on_yes: Callable[[], None]):
        super().__init__(_("Are you sure?"), question=question, size_hint=(0.55, 0.4))
        self._then = on_yes

    def answer_yes(self) -> None:
        self._then()
        self.dismiss()
