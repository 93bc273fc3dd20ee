"""The dialog SecretPick (its layout: secret_pick.kv)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion.ui.dialogs.sheet import Sheet
from companion.ui.widgets.common import sheet_button, sheet_label
from companion.ui.widgets.map_view import PLAYER_RGB


class SecretPick(Sheet):
    """A player picks their disc on the tablet: one tap opened it, one tap picks. Nothing of
    the pick stays on screen; the regions offered are not secret, the pick is."""

    def __init__(
        self, model, pid: str, purpose: str, options: list[tuple[str, str]], make_event: Callable[[str], dict]
    ):
        name = model.name(pid)
        super().__init__(f"{name}'s secret disc")
        self.model, self.make_event = model, make_event
        self.body.add_widget(sheet_label(f"Only {name} looks. Choose {purpose}.", font_size="17sp"))
        grid = GridLayout(cols=3, spacing=dp(8), size_hint_y=None, row_default_height=dp(56), row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for value, label in options:
            grid.add_widget(sheet_button(label, lambda v=value: self.pick(v)))
        scroll = ScrollView()
        scroll.add_widget(grid)
        self.body.add_widget(scroll)
        self.body.add_widget(self.message)
        close = sheet_button("Not now", self.dismiss, height=dp(48))
        close.background_color = (*PLAYER_RGB.get(pid, (0.8, 0.75, 0.6)), 0.35)
        self.body.add_widget(close)

    def pick(self, value: str) -> None:
        if self.model.submit(self.make_event(value)):
            self.dismiss()
        else:
            self.message.text = self.model.message
