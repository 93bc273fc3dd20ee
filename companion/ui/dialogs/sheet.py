"""The frame of the table's quick picks (companion/ui/dialogs/*.py sheets): paper, a title,
a line for what went wrong. Its layout is sheet.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.modalview import ModalView

from companion.ui.platform.shape import dialog_size
from companion.ui.widgets.common import STYLE_RGBA, sheet_label

PRIMARY, NORMAL = STYLE_RGBA["primary"], STYLE_RGBA["normal"]
CHOSEN = (0.45, 0.62, 0.35, 1)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class Sheet(ModalView):
    """A sheet: its title first in its body; `message` is placed by each sheet where it goes."""

    body = ObjectProperty(None)  # sheet.kv's box: paper, padded

    def __init__(self, title: str, **kwargs):
        kwargs["size_hint"] = dialog_size(kwargs.get("size_hint", (0.8, 0.9)), kwargs.pop("portrait_hint", None))
        super().__init__(**kwargs)  # the window dimmed by overlay_color; no background image (sheet.kv)
        self._anim_duration = 0
        self.body.add_widget(sheet_label(title, bold=True, font_size="22sp"))
        self.message = sheet_label("", color=(0.6, 0.08, 0.08, 1), font_size="15sp")
