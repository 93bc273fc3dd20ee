"""Quick picks of the table screen, each a tap or two: a secret disc picked on the
tablet, the action cards turned up, a question before an entry that would pass in
silence. Plain views: what may be picked comes from companion.prompts."""
from __future__ import annotations

from typing import Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from .map_view import PLAYER_RGB
from .shape import dialog_size

INK = (0.23, 0.16, 0.08, 1)
PAPER = (0.97, 0.94, 0.86, 1)
PRIMARY = (0.62, 0.20, 0.12, 1)
NORMAL = (0.84, 0.77, 0.62, 1)
CHOSEN = (0.45, 0.62, 0.35, 1)


def _label(text: str, **kw) -> Label:
    label = Label(text=text, color=kw.pop("color", INK), size_hint_y=None, halign=kw.pop("halign", "center"),
                  valign="middle", **kw)
    label.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
               texture_size=lambda w, v: setattr(w, "height", max(dp(30), v[1] + dp(6))))
    return label


def _button(text: str, on_release, primary: bool = False, height: float = dp(52), **kw) -> Button:
    """Its words wrap at its width; it grows taller (never under `height`, nor 48 dp) to fit them."""
    least = max(height, dp(48))
    b = Button(text=text, background_normal="", size_hint_y=None, height=least,
               background_color=PRIMARY if primary else NORMAL, color=(1, 0.97, 0.9, 1) if primary else INK,
               bold=primary, halign="center", valign="middle", **kw)
    b.bind(width=lambda w, v: setattr(w, "text_size", (v - dp(12), None)),
           texture_size=lambda w, v: setattr(w, "height", max(least, v[1] + dp(14))))
    b.bind(on_release=lambda *_: on_release())
    return b


class _Sheet(ModalView):
    def __init__(self, title: str, **kwargs):
        kwargs["size_hint"] = dialog_size(kwargs.get("size_hint", (0.8, 0.9)), kwargs.pop("portrait_hint", None))
        super().__init__(**kwargs)  # the window dimmed by overlay_color; no background image (common.kv)
        self._anim_duration = 0
        self.body = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(8))
        with self.body.canvas.before:
            from kivy.graphics import Color, Rectangle
            Color(*PAPER)
            self._bg = Rectangle()
        self.body.bind(pos=lambda w, v: setattr(self._bg, "pos", v), size=lambda w, v: setattr(self._bg, "size", v))
        self.body.add_widget(_label(title, bold=True, font_size="22sp"))
        self.message = _label("", color=(0.6, 0.08, 0.08, 1), font_size="15sp")
        self.add_widget(self.body)


class SecretPick(_Sheet):
    """A player picks their disc on the tablet: one tap opened it, one tap picks. Nothing of
    the pick stays on screen; the regions offered are not secret, the pick is."""

    def __init__(self, model, pid: str, purpose: str, options: list[tuple[str, str]],
                 make_event: Callable[[str], dict]):
        name = model.name(pid)
        super().__init__(f"{name}'s secret disc")
        self.model, self.make_event = model, make_event
        self.body.add_widget(_label(f"Only {name} looks. Choose {purpose}.", font_size="17sp"))
        grid = GridLayout(cols=3, spacing=dp(8), size_hint_y=None, row_default_height=dp(56), row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for value, label in options:
            grid.add_widget(_button(label, lambda v=value: self.pick(v)))
        scroll = ScrollView()
        scroll.add_widget(grid)
        self.body.add_widget(scroll)
        self.body.add_widget(self.message)
        close = _button("Not now", self.dismiss, height=dp(48))
        close.background_color = (*PLAYER_RGB.get(pid, (0.8, 0.75, 0.6)), 0.35)
        self.body.add_widget(close)

    def pick(self, value: str) -> None:
        if self.model.submit(self.make_event(value)):
            self.dismiss()
        else:
            self.message.text = self.model.message


class RevealCards(_Sheet):
    """The action cards turned up: one tap per stack, then Reveal (opened by itself).

    Made once and opened again each round with `offer`: a card's button is made once (`warm`
    makes them a few a frame before the first reveal; making all at once took ~80 ms, a loop
    iteration over 150 ms with its frame); a round only puts the cards still in each stack back
    in their columns."""

    def __init__(self):
        super().__init__("Which action cards were turned up?", size_hint=(0.94, 0.94), portrait_hint=(0.94, 0.94))
        self.model = None
        self.stacks: list[int] = []
        self.chosen: dict[int, str] = {}
        self.buttons: dict[int, dict[str, Button]] = {}   # the cards offered now, by stack
        self._made: dict[tuple[str, str], Button] = {}  # (card, words) -> its button
        self._stack_of: dict[str, int] = {}               # card -> the stack it is offered on now
        self._columns: dict[int, GridLayout] = {}
        self.columns = GridLayout(spacing=dp(8))
        self.body.add_widget(self.columns)
        self.body.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(_button("Not now", self.dismiss, height=dp(56)))
        self.reveal_button = _button("Reveal", self.reveal, primary=True, height=dp(56))
        row.add_widget(self.reveal_button)
        self.body.add_widget(row)

    def offer(self, model, stacks: dict[int, list[tuple[str, str]]]) -> "RevealCards":
        """The cards each stack may show now (as companion.prompts offers them), none picked
        but a stack's only card."""
        self.model = model
        self.stacks = sorted(stacks)
        self.chosen = {s: cards[0][0] for s, cards in stacks.items() if len(cards) == 1}
        if list(self._columns) != self.stacks:
            self._make_columns()
        self.buttons = {}
        for stack in self.stacks:
            column = self._columns[stack]
            for child in list(column.children)[:-1]:  # all but the stack's heading
                column.remove_widget(child)
            self.buttons[stack] = {}
            for cid, label in stacks[stack]:
                self._stack_of[cid] = stack
                button = self.buttons[stack][cid] = self._card_button(cid, label)
                column.add_widget(button)
        for scroll in self.columns.children:
            scroll.scroll_y = 1
        self.message.text = ""
        self._paint()
        return self

    def warm(self, cards: list[tuple[str, str]]) -> None:
        """Make the buttons of these (card, words) now, while nothing else happens."""
        for cid, label in cards:
            self._card_button(cid, label)

    def unmade(self, cards: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [card for card in cards if card not in self._made]

    def _card_button(self, cid: str, label: str) -> Button:
        button = self._made.get((cid, label))
        if button is None:
            button = self._made[(cid, label)] = _button(
                label, lambda c=cid: self.choose(self._stack_of[c], c), height=dp(64), font_size="14sp")
        return button

    def _make_columns(self) -> None:
        self.columns.clear_widgets()
        self.columns.cols = len(self.stacks)
        self._columns = {}
        for stack in self.stacks:
            column = GridLayout(cols=1, spacing=dp(4), size_hint_y=None)
            column.bind(minimum_height=column.setter("height"))
            column.add_widget(_label(f"Stack {stack}", bold=True, font_size="17sp"))
            scroll = ScrollView()
            scroll.add_widget(column)
            self.columns.add_widget(scroll)
            self._columns[stack] = column

    def on_pre_open(self) -> None:
        # Kivy 2.3's ModalView.open binds its centring to `center` and `size` each time and never
        # unbinds: a sheet opened every round would pile them up. The last opening's go first.
        self.funbind("center", self._align_center)
        self.funbind("size", self._align_center)

    def choose(self, stack: int, cid: str) -> None:
        self.chosen[stack] = cid
        self._paint()
        if len(self.chosen) == len(self.stacks):
            self.message.text = ""

    def _paint(self) -> None:
        for stack, buttons in self.buttons.items():
            for cid, b in buttons.items():
                b.background_color = CHOSEN if self.chosen.get(stack) == cid else NORMAL
        missing = [s for s in self.stacks if s not in self.chosen]
        self.reveal_button.text = "Reveal" if not missing else f"Reveal (stack {', '.join(map(str, missing))} to pick)"

    def reveal(self) -> None:
        missing = [s for s in self.stacks if s not in self.chosen]
        if missing:
            self.message.text = f"Tap the card showing on stack {missing[0]}"
            return
        if self.model.submit({"type": "action_cards_revealed", "cards": [self.chosen[s] for s in self.stacks]}):
            self.dismiss()
        else:
            self.message.text = self.model.message


class Ask(_Sheet):
    """A question before an entry that would otherwise pass in silence."""

    def __init__(self, question: str, yes: str, on_yes: Callable[[], None], no: str = "No, go back"):
        super().__init__("Are you sure?", size_hint=(0.6, 0.45))
        self.body.add_widget(_label(question, font_size="18sp"))
        self.body.add_widget(BoxLayout())
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(10))
        row.add_widget(_button(no, self.dismiss, height=dp(56)))
        row.add_widget(_button(yes, lambda: (self.dismiss(), on_yes()), primary=True, height=dp(56)))
        self.body.add_widget(row)
