"""The position screen's small dialogs (companion/ui/screens/correction.py): a yes-or-no before
something entered is dropped, a number pad for a score or a count, and the correction's
confirmation saying what changes."""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from companion.ui.widgets.position_parts import INK, PAPER, TAP, button, grid, wrapped_text
from companion.words import N_, _

PAD_WORDS = {"Clear": N_("Clear"), "Delete": N_("Delete")}  # the pad's keys in words (key ids stay)


class PadModal(ModalView):
    def __init__(self, title: str, **kwargs):
        super().__init__(background_color=(0, 0, 0, 0.6), **kwargs)
        self._anim_duration = 0
        self.body = BoxLayout(orientation="vertical", padding=dp(18), spacing=dp(10))
        from kivy.graphics import Color, Rectangle

        with self.body.canvas.before:
            Color(*PAPER)
            bg = Rectangle()
        self.body.bind(pos=lambda w, v: setattr(bg, "pos", v), size=lambda w, v: setattr(bg, "size", v))
        self.body.add_widget(wrapped_text(title, bold=True, font_size="22sp"))
        self.add_widget(self.body)


class DropAsk(PadModal):
    """A yes-or-no question before something entered is dropped."""

    def __init__(self, question: str, yes: str, no: str, on_yes: Callable[[], None]):
        super().__init__(question, size_hint=(0.7, None), height=dp(230))
        row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(10))
        row.add_widget(button(no, self.dismiss, "normal", size_hint_y=1))
        row.add_widget(button(yes, lambda: (self.dismiss(), on_yes()), "primary", size_hint_y=1))
        self.body.add_widget(row)


class NumberPad(PadModal):
    """A score typed on big keys (no keyboard pops up over the board)."""

    def __init__(self, title: str, value: int, on_done: Callable[[int], bool]):
        super().__init__(title, size_hint=(None, None), size=(dp(360), dp(520)))
        self.digits = str(value)
        self.on_done = on_done
        self.shown = Label(text=self.digits, font_size="34sp", bold=True, color=INK, size_hint_y=None, height=dp(56))
        self.body.add_widget(self.shown)
        keys = GridLayout(cols=3, spacing=dp(6))
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Clear", "0", "Delete"):
            keys.add_widget(
                button(
                    PAD_WORDS.get(key) and _(PAD_WORDS[key]) or key,
                    lambda k=key: self.key(k),
                    "quiet" if len(key) > 1 else "normal",
                    key=f"pad:{key}",
                    size_hint_y=1,
                )
            )
        self.body.add_widget(keys)
        row = BoxLayout(size_hint_y=None, height=TAP, spacing=dp(8))
        row.add_widget(button(_("Cancel"), self.dismiss, "quiet"))
        row.add_widget(button(_("OK"), self.done, "primary", key="pad:OK"))
        self.body.add_widget(row)

    def key(self, key: str) -> None:
        if key == "Clear":
            self.digits = ""
        elif key == "Delete":
            self.digits = self.digits[:-1]
        elif len(self.digits) < 3:  # scores stay under 1,000
            self.digits = (self.digits + key).lstrip("0") or "0"
        self.shown.text = self.digits or "0"

    def done(self) -> None:
        self.on_done(int(self.digits or "0"))
        self.dismiss()


class CorrectionConfirm(PadModal):
    """Change the board to this? Everyone reads what changes before it does."""

    def __init__(self, changes: list[str], on_yes: Callable[[str], None]):
        from kivy.core.window import Window

        height = min(Window.height * 0.9, dp(250) + dp(40) * len(changes))  # as tall as the changes need
        super().__init__(
            _("Change the board to this? Everyone can see what changes"), size_hint=(0.86, None), height=height
        )
        self.on_yes = on_yes
        scroll = ScrollView(do_scroll_x=False)
        lines = grid(1)
        for line in changes:
            lines.add_widget(wrapped_text(line, font_size="19sp"))
        scroll.add_widget(lines)
        self.body.add_widget(scroll)
        self.reason = TextInput(
            hint_text=_("What was wrong? (optional, kept in the history)"),
            multiline=False,
            size_hint_y=None,
            height=TAP,
            font_size="17sp",
        )
        self.body.add_widget(self.reason)
        row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(10))
        row.add_widget(button(_("No, go back"), self.dismiss, "normal", size_hint_y=1))
        row.add_widget(button(_("Yes, change the board"), self.yes, "primary", size_hint_y=1))
        self.body.add_widget(row)

    def yes(self) -> None:
        self.dismiss()
        self.on_yes(self.reason.text)
