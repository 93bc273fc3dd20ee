"""The dialog Confirm (its layout: confirm.kv)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.ui.dialogs.dialog import INK, Dialog, dialog_button


class Confirm(Dialog):
    def __init__(self, question: str, on_yes: Callable[[], None]):
        super().__init__("Are you sure?", size_hint=(0.55, 0.4))
        text = Label(text=question, color=INK, font_size="17sp")
        text.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
        self.body.add_widget(text)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(dialog_button("No, keep it", self.dismiss))
        row.add_widget(dialog_button("Yes, undo", lambda: (on_yes(), self.dismiss()), primary=True))
        self.body.add_widget(row)
