"""Pass the tablet: a player's secret choice, its options shown only once they say it is them.
Its layout is private_pick.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout

from companion.look.players import PLAYER_RGB
from companion.ui.dialogs.dialog import INK, Dialog, dialog_button, wrapped_label
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class PrivatePick(Dialog):
    """Pass the tablet: the choices appear only after the player says it is them."""

    ready_words = StringProperty("")

    def __init__(self, model, pid: str, options: list[tuple[str, str]], make_event: Callable[[str], dict]):
        name = model.name(pid)
        super().__init__(
            _("Pass the tablet to {name}").format(name=name),
            ready_words=_("I am {name}: show my choices").format(name=name),
            size_hint=(0.7, 0.9),
        )
        self.model, self.pid, self.options, self.make_event = model, pid, options, make_event
        self.hint, self.ready = self.ids.hint, self.ids.ready
        self.ready.background_color = (*PLAYER_RGB.get(pid, (0.6, 0.2, 0.1)), 1)
        self.ready.color = INK if pid == "yellow" else (1, 1, 1, 1)

    def show(self) -> None:
        self.body.clear_widgets()
        self.body.add_widget(
            wrapped_label(
                _("{name}: your secret choice").format(name=self.model.name(self.pid)),
                bold=True,
                font_size="22sp",
                halign="center",
            )
        )
        grid = GridLayout(cols=3, spacing=dp(8))
        for value, label in self.options:
            grid.add_widget(dialog_button(label, lambda v=value: self.pick(v)))
        self.body.add_widget(grid)
        self.message = Factory.DialogMessage()  # dialog.kv's line for a refusal
        self.body.add_widget(self.message)
        self.body.add_widget(dialog_button(_("Cancel"), self.dismiss))

    def pick(self, value: str) -> None:
        if self.model.submit(self.make_event(value)):
            self.dismiss()  # nothing of the choice stays on screen
        else:
            self.message.text = self.model.message
