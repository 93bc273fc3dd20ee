"""After a reveal or an effect on everyone: who moves what from where to where. Its layout is
outcome_shown.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import StringProperty

from companion.ui.dialogs.dialog import Dialog, wrapped_label
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class OutcomeShown(Dialog):
    """After a reveal or an effect on everyone: who moves what from where to where."""

    heading = StringProperty("")

    def __init__(self, instructions, title: str = ""):
        super().__init__(title or _("Now move these Caballeros"), heading=instructions.title, size_hint=(0.8, 0.85))
        if instructions.discs:  # under the heading, above the lines and Done
            self.body.add_widget(wrapped_label(instructions.discs, font_size="17sp"), index=2)
        for line in instructions.lines:
            self.ids.lines.add_widget(wrapped_label(line, font_size="20sp"))
