"""Every past scoring and every revealed choice, newest first, to reopen. Its layout is
history.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp

from companion.ui.dialogs.dialog import Dialog, dialog_button, wrapped_label
from companion.ui.dialogs.outcome_shown import OutcomeShown

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class History(Dialog):
    """Every past scoring and every revealed choice, to reopen."""

    def __init__(self, items, open_scoring: Callable[[object], None]):
        super().__init__("History", size_hint=(0.8, 0.9))
        grid = self.ids.entries
        if not items:
            grid.add_widget(wrapped_label("Nothing scored or revealed yet."))
        for kind, thing in reversed(items):  # newest first
            if kind == "scoring":
                label = thing.title if "round" in thing.title else f"Round {thing.round}: {thing.title}"
                button = dialog_button(label, lambda r=thing: (self.dismiss(), open_scoring(r)))
            else:
                button = dialog_button(thing.title, lambda o=thing: OutcomeShown(o, "What the table moved").open())
            button.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(16), None)))
            grid.add_widget(button)
