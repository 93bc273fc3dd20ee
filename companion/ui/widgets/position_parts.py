"""The position screen's buttons and labels (companion/ui/screens/correction.py): buttons whose
words wrap and grow them (never under 48 dp), a player's colour as a button or a chip, labels
that wrap. No rule here."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from companion.look.players import PLAYER_RGB
from companion.ui.widgets.common import hyphen_breaks

INK = (0.23, 0.16, 0.08, 1)
PAPER = (0.97, 0.94, 0.86, 1)
STYLES = {
    "primary": ((0.62, 0.20, 0.12, 1), (1, 0.97, 0.9, 1)),
    "normal": ((0.84, 0.77, 0.62, 1), INK),
    "quiet": ((0.90, 0.86, 0.78, 1), (0.35, 0.28, 0.2, 1)),
    "on": ((0.35, 0.22, 0.12, 1), (1, 0.96, 0.86, 1)),
}
TAP = dp(52)  # every touch target here is at least 48 dp


def button(text: str, on_release: Callable[[], None], style: str = "normal", key: str = "", **kwargs) -> Button:
    """`key` names what the button does ("power:red:13"): the tests find it by that."""
    background, colour = STYLES[style]
    kwargs.setdefault("size_hint_y", None)
    kwargs.setdefault("height", TAP)
    b = Button(
        text=text,
        background_normal="",
        background_color=background,
        color=colour,
        bold=style in ("primary", "on"),
        halign="center",
        valign="middle",
        **kwargs,
    )
    b.bind(size=lambda inst, size: setattr(inst, "text_size", (size[0] - dp(8), None)))
    if kwargs["height"] == TAP:  # words on more lines (a long name): the button grows, never cuts them
        b.bind(texture_size=lambda inst, ts: setattr(inst, "height", max(TAP, ts[1] + dp(12))))
    b.bind(on_release=lambda *_: on_release())
    b.key = key
    return b


def player_button(pid: str, text: str, on_release, chosen: bool, **kwargs) -> Button:
    """A player's colour: full and bold when chosen, pale with dark words when not."""
    b = button(text, on_release, **kwargs)
    b.background_color = (*PLAYER_RGB.get(pid, (0.5, 0.5, 0.5)), 1 if chosen else 0.45)
    b.color = INK if pid == "yellow" or not chosen else (1, 1, 1, 1)
    b.bold = chosen
    b.bind(text_size=lambda inst, v, words=text: setattr(inst, "text", hyphen_breaks(words, inst)))  # a long name
    return b


def name_chip(pid: str, text: str, **kwargs) -> Label:
    """A player's name on their colour: not a button, nothing happens on a tap."""
    label = Label(
        text=text, color=INK if pid == "yellow" else (1, 1, 1, 1), bold=True, halign="center", valign="middle", **kwargs
    )
    from kivy.graphics import Color, Rectangle

    with label.canvas.before:
        Color(*PLAYER_RGB.get(pid, (0.5, 0.5, 0.5)))
        rect = Rectangle()
    label.bind(pos=lambda w, v: setattr(rect, "pos", v), size=lambda w, v: setattr(rect, "size", v))
    label.bind(size=lambda w, v: setattr(w, "text_size", (v[0] - dp(6), None)))
    return label


def wrapped_text(text: str, **kwargs) -> Label:
    """A label that wraps at its width and grows to fit (never cut mid-word)."""
    kwargs.setdefault("color", INK)
    label = Label(text=text, size_hint_y=None, halign="left", valign="middle", **kwargs)
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(28), v[1] + dp(6))),
    )
    return label


def grid(cols: int, **kwargs) -> GridLayout:
    grid = GridLayout(cols=cols, spacing=dp(6), size_hint_y=None, **kwargs)
    grid.bind(minimum_height=grid.setter("height"))
    return grid
