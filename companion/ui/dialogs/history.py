"""The dialog History (its layout: history.kv)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout

from companion.ui.dialogs.dialog import Dialog, dialog_button, wrapped_label
from companion.ui.dialogs.outcome_shown import OutcomeShown


class History(Dialog):
    """Every past scoring and every revealed choice, to reopen."""

    def __init__(self, items, open_scoring: Callable[[object], None]):
        super().__init__("History", size_hint=(0.8, 0.9))
        from kivy.uix.scrollview import ScrollView

        scroll = ScrollView()
        grid = GridLayout(cols=1, size_hint_y=None, spacing=dp(6))
        grid.bind(minimum_height=grid.setter("height"))
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
        scroll.add_widget(grid)
        self.body.add_widget(scroll)
        self.body.add_widget(dialog_button("Close", self.dismiss, height=dp(52)))
