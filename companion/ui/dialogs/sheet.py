"""The frame of the table's quick picks (companion/ui/dialogs/*.py sheets): paper, a title,
a line for what went wrong, the buttons at its foot (sheet.kv's SheetBody, SheetTitle, SheetMessage,
SheetRow); each sheet lays them out in its own .kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.ui.platform.shape import dialog_size
from companion.ui.widgets.common import paint  # noqa: F401  (the dialogs' toggles: paint(b, "chosen"))

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class Sheet(ModalView):
    """A sheet: its layout in its own .kv (a SheetBody, its SheetTitle first, its SheetMessage
    where it says what went wrong); its behaviour in its .py."""

    title = StringProperty("")
    body = ObjectProperty(None)  # the sheet's SheetBody
    message = ObjectProperty(None)  # its SheetMessage, if it has one

    def __init__(self, title: str, **kwargs):
        kwargs["size_hint"] = dialog_size(kwargs.get("size_hint", (0.8, 0.9)), kwargs.pop("portrait_hint", None))
        super().__init__(title=title, **kwargs)  # the window dimmed by overlay_color; no background image (sheet.kv)
        self._anim_duration = 0
