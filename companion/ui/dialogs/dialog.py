"""The frame of the table's small modal steps (companion/ui/dialogs/*.py dialogs): paper, a
title, a line for what went wrong (dialog.kv's DialogBody, DialogTitle, DialogMessage,
DialogButton); its buttons and wrapped words made in Python. Each dialog lays them out in its own .kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.ui.platform.shape import dialog_size
from companion.ui.theme import THEME
from companion.ui.widgets.common import sheet_button

INK = (0.23, 0.16, 0.08, 1)


def dialog_button(text, on_release, primary=False, **kw) -> Button:
    """A sheet's button (companion.ui.widgets.common.sheet_button) with a dialog's wider margin."""
    return sheet_button(text, on_release, primary, height=kw.pop("height", dp(52)), margin=dp(16), **kw)


def wrapped_label(text: str, **kw) -> Label:
    """Words wrapped at the label's width (left unless told), as tall as their lines."""
    label = Label(
        text=text,
        color=kw.pop("color", THEME.ink),
        size_hint_y=None,
        halign=kw.pop("halign", "left"),
        valign="middle",
        **kw,
    )
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(32), v[1] + dp(8))),
    )
    return label


Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class Dialog(ModalView):
    """A small step: its layout in its own .kv (a DialogBody, its DialogTitle first, a
    DialogMessage where it says what went wrong); its behaviour in its .py."""

    title = StringProperty("")
    body = ObjectProperty(None)  # the dialog's DialogBody
    message = ObjectProperty(None)  # its DialogMessage, if it has one

    def __init__(self, title: str, **kwargs):
        kwargs["size_hint"] = dialog_size(kwargs.get("size_hint", (0.6, 0.8)), kwargs.pop("portrait_hint", None))
        super().__init__(title=title, **kwargs)  # the window dimmed by overlay_color; no background image (dialog.kv)
        self._anim_duration = 0  # open and close at once: a tablet should not make people wait
