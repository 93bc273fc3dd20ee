"""One player's secret choice on the tablet as companion.prompts offers it (Modifier cards
dealt or passed, a card taken back): one tap, or several then Confirm. Its layout is private_question.kv."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty

from companion.look.players import PLAYER_RGB
from companion.ui.dialogs.dialog import Dialog, dialog_button
from companion.ui.widgets.common import paint
from companion.words import _

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class PrivateQuestion(Dialog):
    """One player's secret choice on the tablet, as companion.prompts.builder.PrivatePick offers it
    (their Modifier cards dealt: three picks; the one they pass; a card taken back). Only they
    look: the options show at once, one tap picks (several: marked, then Confirm), and nothing
    of the choice stays on screen. Sent as their own input (Table.submit_private)."""

    hint = StringProperty("")
    close_rgba = ListProperty([0.8, 0.75, 0.6, 0.35])  # Not now in the player's colour

    def __init__(self, model, pick):
        name = model.name(pick.player)
        few = len(pick.options) <= 6  # a pass or a card back: a smaller sheet
        super().__init__(
            _("Only {name} looks: {title}").format(name=name, title=pick.title),
            hint=pick.hint,
            close_rgba=[*PLAYER_RGB.get(pick.player, (0.8, 0.75, 0.6)), 0.35],
            size_hint=(0.7, 0.6) if few else (0.8, 0.92),
            portrait_hint=(0.94, 0.5) if few else (0.94, 0.8),
        )
        self.model, self.pick, self.chosen = model, pick, []
        grid = self.ids.options
        grid.cols = 2 if len(pick.options) <= 4 else 3
        self.buttons = {}
        for value, label in pick.options:
            self.buttons[value] = dialog_button(label, lambda v=value: self.tap(v), height=dp(56))
            grid.add_widget(self.buttons[value])
        self.confirm = None
        if pick.count > 1:
            self.confirm = dialog_button("", self.send, primary=True, height=dp(56))
            self.ids.row.add_widget(self.confirm)
        self._paint()

    def tap(self, value: str) -> None:
        if self.pick.count == 1:
            return self.send([value])
        if value in self.chosen:
            self.chosen.remove(value)
        elif len(self.chosen) < self.pick.count:
            self.chosen.append(value)
        else:
            self.message.text = _("That is {n} already: tap one to take it back first").format(n=self.pick.count)
            return
        self.message.text = ""
        self._paint()

    def _paint(self) -> None:
        for value, button in self.buttons.items():
            paint(button, "chosen" if value in self.chosen else "normal")
        if self.confirm is not None:
            n, k = self.pick.count, len(self.chosen)
            self.confirm.text = (
                _("Confirm these {n}").format(n=n) if k == n else _("Confirm ({k} of {n} chosen)").format(k=k, n=n)
            )

    def send(self, values=None) -> None:
        from companion.input_errors import InputError

        values = list(self.chosen if values is None else values)
        if len(values) != self.pick.count:
            self.message.text = _("Choose {n}, then Confirm ({k} chosen)").format(n=self.pick.count, k=len(values))
            return
        try:
            self.model.table.submit_private(self.pick.player, values)
        except InputError as exc:
            self.message.text = str(exc)
            return
        self.dismiss()  # nothing of the choice stays on screen
