"""Small widgets the rule screens build their panels from (Your board, Your cards): buttons
whose words wrap and grow them (never under 48 dp), labels that wrap, steppers, a question.
No rule here: the screens get every value and message from companion.table_rules."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.textinput import TextInput

from companion.ui.platform.shape import dialog_size
from companion.words import _

INK = (0.23, 0.16, 0.08, 1)
PAPER = (0.97, 0.94, 0.86, 1)
WARN = (0.6, 0.08, 0.08, 1)
STYLES = {
    "primary": ((0.62, 0.20, 0.12, 1), (1, 0.97, 0.9, 1)),
    "normal": ((0.84, 0.77, 0.62, 1), INK),
    "quiet": ((0.90, 0.86, 0.78, 1), (0.35, 0.28, 0.2, 1)),
    "on": ((0.35, 0.22, 0.12, 1), (1, 0.96, 0.86, 1)),
}
TAP = dp(52)  # every touch target is at least 48 dp
STATUS_RGB = {
    "known": (0.16, 0.45, 0.2, 1),
    "inferred": (0.55, 0.38, 0.05, 1),
    "missing": WARN,
    "yours": (0.16, 0.3, 0.6, 1),
}


def button(text: str, on_release: Callable[[], None], style: str = "normal", key: str = "", **kwargs) -> Button:
    """Its words wrap at its width and it grows to fit them. `key` says what it does (tests find it)."""
    background, colour = STYLES[style]
    least = max(kwargs.pop("height", TAP), dp(48))
    kwargs.setdefault("size_hint_y", None)
    b = Button(
        text=text,
        background_normal="",
        background_color=background,
        color=colour,
        height=least,
        bold=style in ("primary", "on"),
        halign="center",
        valign="middle",
        **kwargs,
    )
    b.bind(width=lambda w, v: setattr(w, "text_size", (max(1, v - dp(12)), None)))
    if kwargs.get("size_hint_y") is None:
        b.bind(texture_size=lambda w, v: setattr(w, "height", max(least, v[1] + dp(14))))
    b.bind(on_release=lambda *_: on_release())
    b.key = key
    return b


def text(words: str, **kwargs) -> Label:
    """A label that wraps at its width and grows to fit (never cut mid-word)."""
    kwargs.setdefault("color", INK)
    kwargs.setdefault("halign", "left")
    label = Label(text=words, size_hint_y=None, valign="middle", **kwargs)
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(24), v[1] + dp(6))),
    )
    return label


def grid(cols: int, **kwargs) -> GridLayout:
    kwargs.setdefault("spacing", dp(6))
    g = GridLayout(cols=cols, size_hint_y=None, **kwargs)
    g.bind(minimum_height=g.setter("height"))
    return g


def stepper(caption: str, shown: str, on_step: Callable[[int], None], key: str) -> BoxLayout:
    """caption [−] value [+]: the value is what `shown` says (a number, or "not set")."""
    row = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(6))
    label = Label(text=caption, color=INK, halign="left", valign="middle")
    label.bind(size=lambda w, v: setattr(w, "text_size", (v[0], None)))
    row.add_widget(label)
    row.add_widget(button("−", lambda: on_step(-1), key=f"{key}:-1", size_hint=(None, None), width=TAP))
    value = Label(text=shown, color=INK, bold=True, size_hint_x=None, width=dp(96), halign="center", valign="middle")
    value.bind(size=lambda w, v: setattr(w, "text_size", (v[0], None)))
    row.add_widget(value)
    row.add_widget(button("+", lambda: on_step(1), key=f"{key}:+1", size_hint=(None, None), width=TAP))
    # a long caption (a parameter's meaning) takes the lines it needs
    label.bind(texture_size=lambda w, v: setattr(row, "height", max(TAP, v[1] + dp(8))))
    return row


def filter_box(buttons: GridLayout, hint: str = "", keep: tuple[str, ...] = ()) -> TextInput:
    """A box over a grid of buttons (a long list: Power Shift's 30 abilities): the letters typed
    keep the buttons whose words hold them (`keep`: the buttons' keys always kept, "No ability");
    none left: a line says so. Made once the grid is filled."""
    every = list(reversed(buttons.children))
    hint = hint or _("Type a few letters to narrow the list")
    field = TextInput(hint_text=hint, multiline=False, size_hint_y=None, height=TAP, font_size="17sp")

    def narrow(_field, typed: str) -> None:
        typed = typed.strip().lower()
        buttons.clear_widgets()
        shown = [b for b in every if not typed or typed in b.text.lower() or getattr(b, "key", "") in keep]
        for b in shown:
            buttons.add_widget(b)
        if len(shown) <= len([b for b in every if getattr(b, "key", "") in keep]):
            buttons.add_widget(text(_('Nothing has "{typed}": try fewer letters').format(typed=typed)))

    field.bind(text=narrow)
    field.narrow = narrow
    return field


class Ask(ModalView):
    """A question with two answers; the second is what was asked for."""

    def __init__(self, title: str, question: str, no: str, yes: str, on_yes: Callable[[], None]):
        super().__init__(size_hint=dialog_size((0.55, 0.45)), auto_dismiss=False)
        self._anim_duration = 0
        body = BoxLayout(orientation="vertical", padding=dp(18), spacing=dp(10))
        from kivy.graphics import Color, Rectangle

        with body.canvas.before:
            Color(*PAPER)
            bg = Rectangle()
        body.bind(pos=lambda w, v: setattr(bg, "pos", v), size=lambda w, v: setattr(bg, "size", v))
        body.add_widget(text(title, bold=True, font_size="22sp", halign="center"))
        body.add_widget(text(question, font_size="17sp"))
        body.add_widget(BoxLayout())
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(button(no, self.dismiss, size_hint_y=1))
        row.add_widget(button(yes, lambda: (self.dismiss(), on_yes()), "primary", size_hint_y=1))
        body.add_widget(row)
        self.add_widget(body)
