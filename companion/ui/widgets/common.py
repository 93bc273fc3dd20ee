"""Widgets several screens use: a choice button in the table's styles, and widgets made once
and handed out again (issue 11, speed at the table).

Making a Kivy widget costs about a millisecond and a half here (Mesa draws on the CPU), and
every widget thrown away leaves a few hundred objects in reference cycles that Python's
collector must later walk. A prompt's choices or a scoring's lines change every input, the
widgets showing them need not: a pool hands out the same widgets again with new words,
colours and taps, and makes one only when more are shown at once than ever before.
No rule here: the screens say what a button says and does."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.ui.theme import THEME

# A button's style: its fill and its words, as tokens of the theme in use (companion/ui/theme.py).
STYLE_TOKENS = {
    "primary": ("accent", "accent_ink"),
    "normal": ("button", "ink"),
    "quiet": ("button_quiet", "ink_muted"),
    "chosen": ("chosen", "chosen_ink"),
}
_PAINTED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # button -> its style


def paint(button: Button, style: str) -> Button:
    """The button in `style`'s colours of the theme in use; painted again when the theme changes."""
    fill, words = STYLE_TOKENS[style]
    button.background_color = getattr(THEME, fill)
    button.color = getattr(THEME, words)
    _PAINTED[button] = style
    return button


def _repaint(*_) -> None:
    for button, style in list(_PAINTED.items()):
        paint(button, style)


THEME.bind(name=_repaint)  # `use` sets the name last: after the .kv rules took the new tokens


def styled_button(text: str, on_release, style: str = "normal", height: float = dp(48), **kwargs) -> Button:
    """A choice: at least `height` (and 48 dp) tall, taller when its words wrap onto more lines."""
    least = max(height, dp(48))
    b = Button(
        text=text,
        size_hint_y=None,
        height=least,
        background_normal="",
        bold=style == "primary",
        halign="center",
        valign="middle",
        **kwargs,
    )
    paint(b, style)
    b.bind(
        width=lambda inst, w: setattr(inst, "text_size", (w - dp(10), None)),
        texture_size=lambda inst, size: setattr(inst, "height", max(least, size[1] + dp(14))),
    )
    b.bind(on_release=lambda *_: on_release())
    return b


class SaysWhy:
    """A button that, greyed out (disabled), still answers a tap: `why_not()` says why it cannot
    be chosen, in one line (Kivy gives a disabled widget no touch of its own)."""

    why_not = ObjectProperty(None, allownone=True)

    def on_touch_down(self, touch):
        if (
            self.disabled
            and self.why_not is not None
            and self.opacity
            and self.collide_point(*touch.pos)
            and not touch.is_mouse_scrolling
        ):
            self.why_not()
            return True
        return super().on_touch_down(touch)


class SaysWhyButton(SaysWhy, Button):
    """A Button that says why when it is greyed out and tapped (the bar's Undo, say)."""


class ChoiceButton(SaysWhy, Button):
    """A choice whose words, colours and tap are set each time it is handed out. At least
    `least` tall, taller when its words wrap onto more lines."""

    least = NumericProperty(dp(48))
    wrap_margin = NumericProperty(dp(10))
    tap_action = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs):
        kwargs.setdefault("size_hint_y", None)
        super().__init__(background_normal="", halign="center", valign="middle", **kwargs)
        self.bind(width=self._wrap, wrap_margin=self._wrap, texture_size=self._fit, least=self._fit)

    def _wrap(self, *_) -> None:
        self.text_size = (self.width - self.wrap_margin, None)

    def _fit(self, *_) -> None:
        self.height = max(self.least, self.texture_size[1] + dp(14))

    def on_release(self) -> None:
        if self.tap_action is not None:
            self.tap_action()


class SheetButton(ChoiceButton):
    """A dialog's button in its .kv (what sheet_button makes in Python): `primary` styles it, its
    tap is the .kv's on_release; at least `least` tall (48 dp and more), taller when its words wrap."""

    primary = BooleanProperty(False)

    def __init__(self, **kwargs):
        kwargs.setdefault("least", dp(52))
        kwargs.setdefault("wrap_margin", dp(12))
        super().__init__(**kwargs)
        self._style()
        self._fit()
        self.bind(primary=self._style)

    def _style(self, *_) -> None:
        paint(self, "primary" if self.primary else "normal")
        self.bold = self.primary


def sheet_button(
    text: str, on_release, primary: bool = False, height: float = dp(52), margin: float = dp(12), **kw
) -> Button:
    """A sheet's or a dialog's button: its words wrap at its width less `margin`; it grows taller
    (never under `height`, nor 48 dp) to fit them."""
    least = max(height, dp(48))
    b = Button(
        text=text,
        background_normal="",
        size_hint_y=None,
        height=least,
        bold=primary,
        halign="center",
        valign="middle",
        **kw,
    )
    paint(b, "primary" if primary else "normal")
    b.bind(
        width=lambda w, v: setattr(w, "text_size", (v - margin, None)),
        texture_size=lambda w, v: setattr(w, "height", max(least, v[1] + dp(14))),
    )
    b.bind(on_release=lambda *_: on_release())
    return b


def sheet_label(text: str, **kw) -> Label:
    """A sheet's words: centred (unless told), wrapped at its width, as tall as its lines."""
    label = Label(
        text=text,
        color=kw.pop("color", THEME.ink),
        size_hint_y=None,
        halign=kw.pop("halign", "center"),
        valign="middle",
        **kw,
    )
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(30), v[1] + dp(6))),
    )
    return label


def dress(
    button: ChoiceButton,
    text: str,
    on_release,
    style: str = "normal",
    height: float = dp(48),
    disabled: bool = False,
    why_not=None,
) -> ChoiceButton:
    """A pooled button made to look and act like `styled_button(text, on_release, style, height)`;
    greyed out (`disabled`), a tap on it calls `why_not` (which says why)."""
    button.text, button.tap_action, button.disabled = text, on_release, disabled
    button.why_not = why_not if disabled else None
    paint(button, style)
    button.bold = style == "primary"
    button.least = max(height, dp(48))
    return button


class WrappedLabel(Label):
    """Words that wrap at the label's width; as tall as they are (never under `least`)."""

    least = NumericProperty(0)
    extra = NumericProperty(dp(6))

    def __init__(self, **kwargs):
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("valign", "middle")
        super().__init__(**kwargs)
        self.bind(width=self._wrap, texture_size=self._fit, least=self._fit)

    def _wrap(self, *_) -> None:
        self.text_size = (self.width, None)

    def _fit(self, *_) -> None:
        self.height = max(self.least, self.texture_size[1] + self.extra)


class Pool:
    """Widgets of one kind, handed out in turn: `take()` the next one (made when none is
    left), `release()` them all when the view they filled is cleared."""

    def __init__(self, make: Callable[[], object]):
        self._make = make
        self._widgets: list = []
        self._used = 0

    def take(self):
        if self._used == len(self._widgets):
            self._widgets.append(self._make())
        widget = self._widgets[self._used]
        self._used += 1
        if widget.parent is not None:
            widget.parent.remove_widget(widget)
        return widget

    def release(self) -> None:
        self._used = 0

    def __len__(self) -> int:
        return len(self._widgets)


def hyphen_breaks(name: str, label: Label) -> str:
    """`name` as `label` can show it at its width: a word too wide for one line ("Bartholomew-
    Maximilian" in portrait) goes on lines of its own, broken after its hyphens; the label
    wraps at spaces by itself. Kivy would cut such a word anywhere, mid-syllable."""
    from kivy.core.text import Label as CoreLabel

    width = label.text_size[0] or label.width

    def wide(words: str) -> bool:
        core = CoreLabel(text=words, font_name=label.font_name, font_size=label.font_size, bold=label.bold)
        core.refresh()
        return core.content_width > width

    out = []
    for word in name.split(" "):
        if "-" not in word or not wide(word):
            out.append(word)
            continue
        lines, pieces = [], [p + "-" for p in word.split("-")[:-1]] + [word.rsplit("-", 1)[1]]
        for piece in pieces:
            if lines and not wide(lines[-1] + piece):
                lines[-1] += piece
            else:
                lines.append(piece)
        out.append("\n".join(lines))
    return " ".join(out)
