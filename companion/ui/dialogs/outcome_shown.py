"""The dialog OutcomeShown (its layout: outcome_shown.kv)."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout

from companion.ui.dialogs.dialog import Dialog, dialog_button, wrapped_label


class OutcomeShown(Dialog):
    """After a reveal or an effect on everyone: who moves what from where to where."""

    def __init__(self, instructions, title: str = "Now move these Caballeros"):
        super().__init__(title, size_hint=(0.8, 0.85))
        self.body.add_widget(wrapped_label(instructions.title, bold=True, font_size="18sp"))
        if instructions.discs:
            self.body.add_widget(wrapped_label(instructions.discs, font_size="17sp"))
        from kivy.uix.scrollview import ScrollView

        scroll = ScrollView()
        lines = GridLayout(cols=1, size_hint_y=None, spacing=dp(4))
        lines.bind(minimum_height=lines.setter("height"))
        for line in instructions.lines:
            lines.add_widget(wrapped_label(line, font_size="20sp"))
        scroll.add_widget(lines)
        self.body.add_widget(scroll)
        self.body.add_widget(dialog_button("Done", self.dismiss, primary=True, height=dp(56)))
