"""A player's secret disc picked on the tablet: the regions offered, one tap picks, nothing of
the pick stays on screen. Its layout is secret_pick.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ListProperty, StringProperty

from companion.look.players import PLAYER_RGB
from companion.ui.dialogs.sheet import Sheet
from companion.ui.widgets.common import sheet_button
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class SecretPick(Sheet):
    """A player picks their disc on the tablet: one tap opened it, one tap picks. Nothing of
    the pick stays on screen; the regions offered are not secret, the pick is."""

    intro = StringProperty("")
    close_rgba = ListProperty([0.8, 0.75, 0.6, 0.35])  # Not now in the player's colour

    def __init__(
        self, model, pid: str, purpose: str, options: list[tuple[str, str]], make_event: Callable[[str], dict]
    ):
        name = model.name(pid)
        close = [*PLAYER_RGB.get(pid, (0.8, 0.75, 0.6)), 0.35]
        super().__init__(
            _("{name}'s secret disc").format(name=name),
            intro=_("Only {name} looks. Choose {purpose}.").format(name=name, purpose=purpose),
            close_rgba=close,
        )
        self.model, self.make_event = model, make_event
        for value, label in options:
            self.ids.options.add_widget(sheet_button(label, lambda v=value: self.pick(v)))

    def pick(self, value: str) -> None:
        if self.model.submit(self.make_event(value)):
            self.dismiss()
        else:
            self.message.text = self.model.message
