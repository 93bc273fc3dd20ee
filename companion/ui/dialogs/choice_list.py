"""The dialog ChoiceList (its layout: choice_list.kv)."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout

from companion.ui.dialogs.dialog import Dialog, dialog_button


class ChoiceList(Dialog):
    def __init__(self, model, title: str, choices):
        super().__init__(title, size_hint=(0.7, 0.9))
        self.model = model
        grid = GridLayout(cols=2, spacing=dp(8))
        for choice in choices:
            grid.add_widget(dialog_button(choice.label, lambda c=choice: self.pick(c)))
        self.body.add_widget(grid)
        self.body.add_widget(self.message)
        self.body.add_widget(dialog_button("Cancel", self.dismiss))

    def pick(self, choice) -> None:
        if self.model.submit(dict(choice.event)):
            self.dismiss()
        else:
            self.message.text = self.model.message
