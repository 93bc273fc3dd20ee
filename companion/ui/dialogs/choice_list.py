"""A list of choices the prompt offers (which special scoring), one tap each. Its layout is
choice_list.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

from companion.ui.dialogs.dialog import Dialog, dialog_button

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ChoiceList(Dialog):
    def __init__(self, model, title: str, choices):
        super().__init__(title, size_hint=(0.7, 0.9))
        self.model = model
        for choice in choices:
            self.ids.choices.add_widget(dialog_button(choice.label, lambda c=choice: self.pick(c)))

    def pick(self, choice) -> None:
        if self.model.submit(dict(choice.event)):
            self.dismiss()
        else:
            self.message.text = self.model.message
