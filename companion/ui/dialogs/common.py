"""Small modal steps of the table screen: a private pick behind a "pass the tablet" screen, a
list of choices, a confirmation. (The action cards are turned up in pick_dialogs.RevealCards; the
spinner dialog that was here left two Window bindings per stack each time it opened.)"""

from __future__ import annotations

from collections.abc import Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.ui.platform.shape import dialog_size
from companion.ui.widgets.map_view import PLAYER_RGB

INK = (0.23, 0.16, 0.08, 1)
PAPER = (0.97, 0.94, 0.86, 1)


def _btn(text, on_release, primary=False, **kw) -> Button:
    """Its words wrap at its width; it grows taller (never under its height, nor 48 dp) to fit them."""
    least = max(kw.pop("height", dp(52)), dp(48))
    b = Button(
        text=text,
        background_normal="",
        size_hint_y=None,
        height=least,
        background_color=(0.62, 0.20, 0.12, 1) if primary else (0.84, 0.77, 0.62, 1),
        color=(1, 0.97, 0.9, 1) if primary else INK,
        bold=primary,
        halign="center",
        valign="middle",
        **kw,
    )
    b.bind(
        width=lambda w, v: setattr(w, "text_size", (v - dp(16), None)),
        texture_size=lambda w, v: setattr(w, "height", max(least, v[1] + dp(14))),
    )
    b.bind(on_release=lambda *_: on_release())
    return b


class _Dialog(ModalView):
    def __init__(self, title: str, **kwargs):
        kwargs["size_hint"] = dialog_size(kwargs.get("size_hint", (0.6, 0.8)), kwargs.pop("portrait_hint", None))
        super().__init__(**kwargs)  # the window dimmed by overlay_color; no background image (common.kv)
        self._anim_duration = 0  # open and close at once: a tablet should not make people wait
        self.body = BoxLayout(orientation="vertical", padding=dp(18), spacing=dp(10))
        with self.body.canvas.before:
            from kivy.graphics import Color, Rectangle

            Color(*PAPER)
            self._bg = Rectangle()
        self.body.bind(pos=lambda w, v: setattr(self._bg, "pos", v), size=lambda w, v: setattr(self._bg, "size", v))
        self.title_label = _wrapped(title, bold=True, font_size="22sp", halign="center")
        self.body.add_widget(self.title_label)
        self.message = Label(text="", color=(0.6, 0.08, 0.08, 1), size_hint_y=None, height=dp(40), font_size="14sp")
        self.message.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
        self.add_widget(self.body)


class PrivatePick(_Dialog):
    """Pass the tablet: the choices appear only after the player says it is them."""

    def __init__(self, model, pid: str, options: list[tuple[str, str]], make_event: Callable[[str], dict]):
        name = model.name(pid)
        super().__init__(f"Pass the tablet to {name}", size_hint=(0.7, 0.9))
        self.model, self.pid, self.options, self.make_event = model, pid, options, make_event
        self.hint = _wrapped("Everyone else, please look away.", font_size="18sp", halign="center")
        self.body.add_widget(self.hint)
        self.body.add_widget(Widget())  # the words at the top, the buttons at the bottom
        self.ready = _btn(f"I am {name}: show my choices", self.show, primary=True, height=dp(64))
        self.ready.background_color = (*PLAYER_RGB.get(pid, (0.6, 0.2, 0.1)), 1)
        self.ready.color = INK if pid == "yellow" else (1, 1, 1, 1)
        self.body.add_widget(self.ready)
        self.body.add_widget(_btn("Cancel", self.dismiss))

    def show(self) -> None:
        self.body.clear_widgets()
        self.body.add_widget(
            _wrapped(f"{self.model.name(self.pid)}: your secret choice", bold=True, font_size="22sp", halign="center")
        )
        grid = GridLayout(cols=3, spacing=dp(8))
        for value, label in self.options:
            grid.add_widget(_btn(label, lambda v=value: self.pick(v)))
        self.body.add_widget(grid)
        self.body.add_widget(self.message)
        self.body.add_widget(_btn("Cancel", self.dismiss))

    def pick(self, value: str) -> None:
        if self.model.submit(self.make_event(value)):
            self.dismiss()  # nothing of the choice stays on screen
        else:
            self.message.text = self.model.message


class PrivateQuestion(_Dialog):
    """One player's secret choice on the tablet, as companion.prompts.builder.PrivatePick offers it
    (their Modifier cards dealt: three picks; the one they pass; a card taken back). Only they
    look: the options show at once, one tap picks (several: marked, then Confirm), and nothing
    of the choice stays on screen. Sent as their own input (Table.submit_private)."""

    CHOSEN = (0.45, 0.62, 0.35, 1)
    NORMAL = (0.84, 0.77, 0.62, 1)

    def __init__(self, model, pick):
        name = model.name(pick.player)
        few = len(pick.options) <= 6  # a pass or a card back: a smaller sheet
        super().__init__(
            f"Only {name} looks: {pick.title}",
            size_hint=(0.7, 0.6) if few else (0.8, 0.92),
            portrait_hint=(0.94, 0.5) if few else (0.94, 0.8),
        )
        self.model, self.pick, self.chosen = model, pick, []
        self.body.add_widget(_wrapped(pick.hint, font_size="17sp", halign="center"))
        from kivy.uix.scrollview import ScrollView

        grid = GridLayout(cols=2 if len(pick.options) <= 4 else 3, spacing=dp(8), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.buttons = {}
        for value, label in pick.options:
            self.buttons[value] = _btn(label, lambda v=value: self.tap(v), height=dp(56))
            grid.add_widget(self.buttons[value])
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        self.body.add_widget(scroll)
        self.body.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        close = _btn("Not now", self.dismiss, height=dp(56))
        close.background_color = (*PLAYER_RGB.get(pick.player, (0.8, 0.75, 0.6)), 0.35)
        row.add_widget(close)
        self.confirm = None
        if pick.count > 1:
            self.confirm = _btn("", self.send, primary=True, height=dp(56))
            row.add_widget(self.confirm)
        self.body.add_widget(row)
        self._paint()

    def tap(self, value: str) -> None:
        if self.pick.count == 1:
            return self.send([value])
        if value in self.chosen:
            self.chosen.remove(value)
        elif len(self.chosen) < self.pick.count:
            self.chosen.append(value)
        else:
            self.message.text = f"That is {self.pick.count} already: tap one to take it back first"
            return
        self.message.text = ""
        self._paint()

    def _paint(self) -> None:
        for value, button in self.buttons.items():
            button.background_color = self.CHOSEN if value in self.chosen else self.NORMAL
        if self.confirm is not None:
            n, k = self.pick.count, len(self.chosen)
            self.confirm.text = f"Confirm these {n}" if k == n else f"Confirm ({k} of {n} chosen)"

    def send(self, values=None) -> None:
        from companion.input_errors import InputError

        values = list(self.chosen if values is None else values)
        if len(values) != self.pick.count:
            self.message.text = f"Choose {self.pick.count}, then Confirm ({len(values)} chosen)"
            return
        try:
            self.model.table.submit_private(self.pick.player, values)
        except InputError as exc:
            self.message.text = str(exc)
            return
        self.dismiss()  # nothing of the choice stays on screen


class PrivateNote(_Dialog):
    """Why the table refused one player's card, behind the private screen (the reason is their
    secret: a card left out of their hand); their hand beside it. Nothing stays on screen."""

    def __init__(self, model, pid: str, words: str):
        name = model.name(pid)
        super().__init__(
            f"Only {name} looks: why the card was refused", size_hint=(0.7, 0.6), portrait_hint=(0.94, 0.5)
        )
        self.body.add_widget(_wrapped(words, font_size="18sp", halign="center"))
        try:
            hand = model.table.private(pid).get("power_cards_in_hand") or []
        except Exception:  # the hand is a help here: never let it keep the reason from showing
            hand = []
        if hand:
            self.body.add_widget(
                _wrapped("Your hand: " + ", ".join(str(c) for c in sorted(hand)), font_size="17sp", halign="center")
            )
        self.body.add_widget(BoxLayout())
        done = _btn("Done", self.dismiss, height=dp(56))
        done.background_color = (*PLAYER_RGB.get(pid, (0.8, 0.75, 0.6)), 0.35)
        self.body.add_widget(done)


class ChoiceList(_Dialog):
    def __init__(self, model, title: str, choices):
        super().__init__(title, size_hint=(0.7, 0.9))
        self.model = model
        grid = GridLayout(cols=2, spacing=dp(8))
        for choice in choices:
            grid.add_widget(_btn(choice.label, lambda c=choice: self.pick(c)))
        self.body.add_widget(grid)
        self.body.add_widget(self.message)
        self.body.add_widget(_btn("Cancel", self.dismiss))

    def pick(self, choice) -> None:
        if self.model.submit(dict(choice.event)):
            self.dismiss()
        else:
            self.message.text = self.model.message


class Confirm(_Dialog):
    def __init__(self, question: str, on_yes: Callable[[], None]):
        super().__init__("Are you sure?", size_hint=(0.55, 0.4))
        text = Label(text=question, color=INK, font_size="17sp")
        text.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
        self.body.add_widget(text)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(_btn("No, keep it", self.dismiss))
        row.add_widget(_btn("Yes, undo", lambda: (on_yes(), self.dismiss()), primary=True))
        self.body.add_widget(row)


def _wrapped(text: str, **kw) -> Label:
    label = Label(
        text=text, color=kw.pop("color", INK), size_hint_y=None, halign=kw.pop("halign", "left"), valign="middle", **kw
    )
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(32), v[1] + dp(8))),
    )
    return label


class OutcomeShown(_Dialog):
    """After a reveal or an effect on everyone: who moves what from where to where."""

    def __init__(self, instructions, title: str = "Now move these Caballeros"):
        super().__init__(title, size_hint=(0.8, 0.85))
        self.body.add_widget(_wrapped(instructions.title, bold=True, font_size="18sp"))
        if instructions.discs:
            self.body.add_widget(_wrapped(instructions.discs, font_size="17sp"))
        from kivy.uix.scrollview import ScrollView

        scroll = ScrollView()
        lines = GridLayout(cols=1, size_hint_y=None, spacing=dp(4))
        lines.bind(minimum_height=lines.setter("height"))
        for line in instructions.lines:
            lines.add_widget(_wrapped(line, font_size="20sp"))
        scroll.add_widget(lines)
        self.body.add_widget(scroll)
        self.body.add_widget(_btn("Done", self.dismiss, primary=True, height=dp(56)))


class History(_Dialog):
    """Every past scoring and every revealed choice, to reopen."""

    def __init__(self, items, open_scoring: Callable[[object], None]):
        super().__init__("History", size_hint=(0.8, 0.9))
        from kivy.uix.scrollview import ScrollView

        scroll = ScrollView()
        grid = GridLayout(cols=1, size_hint_y=None, spacing=dp(6))
        grid.bind(minimum_height=grid.setter("height"))
        if not items:
            grid.add_widget(_wrapped("Nothing scored or revealed yet."))
        for kind, thing in reversed(items):  # newest first
            if kind == "scoring":
                label = thing.title if "round" in thing.title else f"Round {thing.round}: {thing.title}"
                button = _btn(label, lambda r=thing: (self.dismiss(), open_scoring(r)))
            else:
                button = _btn(thing.title, lambda o=thing: OutcomeShown(o, "What the table moved").open())
            button.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(16), None)))
            grid.add_widget(button)
        scroll.add_widget(grid)
        self.body.add_widget(scroll)
        self.body.add_widget(_btn("Close", self.dismiss, height=dp(52)))
