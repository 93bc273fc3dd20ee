"""The dialog Ask (its layout: ask.kv)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.ui.dialogs.sheet import Sheet
from companion.ui.widgets.common import sheet_button, sheet_label


class Ask(Sheet):
    """A question before an entry that would otherwise pass in silence."""

    def __init__(self, question: str, yes: str, on_yes: Callable[[], None], no: str = "No, go back"):
        super().__init__("Are you sure?", size_hint=(0.6, 0.45))
        self.body.add_widget(sheet_label(question, font_size="18sp"))
        self.body.add_widget(BoxLayout())
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(sheet_button(no, self.dismiss, height=dp(56)))
        row.add_widget(sheet_button(yes, lambda: (self.dismiss(), on_yes()), primary=True, height=dp(56)))
        self.body.add_widget(row)
