""" "Is this Ana's phone?": one Yes or No per phone that joined, shown on its own as soon as a
phone joins (the phone sees nothing private until then). The questions come from the phone
server (`PhoneServer.confirmations()`); this only draws them and sends back the answer."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.look.players import PLAYER_RGB
from companion.safe_text import for_markup
from companion.ui.dialogs.dialog import Dialog, dialog_button
from companion.words import _, ngettext

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

ROW = dp(64)


def seat_rgba(pid: str) -> tuple:
    """The seat's colour, readable on paper (yellow is darkened)."""
    return (*PLAYER_RGB[pid], 1) if pid != "yellow" else (0.6, 0.45, 0, 1)


class PhoneCheck(Dialog):
    _open = None  # the one on screen, if any

    @classmethod
    def watch(cls, model) -> None:
        """Offer the question whenever the seats change (a phone joined, was answered or left);
        once a model (a table screen made again in another language watches it already)."""
        if getattr(model, "_phone_check_watched", False):
            return
        model._phone_check_watched = True
        model.bind(phone_seats=lambda *_: cls.offer(model))

    @classmethod
    def offer(cls, model) -> None:
        checks = model.phones.confirmations() if model.phones else []
        shown = cls._open
        if shown is not None:
            shown.show(checks)
        elif checks:
            cls._open = cls(model)
            cls._open.show(checks)
            cls._open.open()

    def __init__(self, model):
        super().__init__(_("A phone joined"), size_hint=(0.66, None), pos_hint={"top": 0.97}, auto_dismiss=False)
        self.model = model
        self.rows = self.ids.rows

    def show(self, checks: list[dict]) -> None:
        if not checks:
            self.dismiss()
            return
        self.title = ngettext("A phone joined", "{n} phones joined", len(checks)).format(n=len(checks))
        self.rows.clear_widgets()
        for check in checks:
            self.rows.add_widget(self._row(check))
        self.rows.height = len(checks) * ROW + (len(checks) - 1) * dp(8)
        self.height = self.rows.height + dp(44) + dp(18) * 2 + dp(10)

    def _row(self, check: dict) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(10))
        question, detail = for_markup(check["question"]), for_markup(check["detail"])  # names, a phone's words
        text = Label(
            text=f"[b]{question}[/b]\n[size=14sp]{detail}[/size]",
            markup=True,
            color=seat_rgba(check["seat"]),
            halign="left",
            valign="middle",
        )
        text.bind(size=lambda w, v: setattr(w, "text_size", v))
        row.add_widget(text)
        row.add_widget(
            dialog_button(
                _("Yes"),
                lambda c=check: self.answer(c, True),
                primary=True,
                size_hint_x=None,
                width=dp(110),
                height=ROW,
            )
        )
        row.add_widget(
            dialog_button(_("No"), lambda c=check: self.answer(c, False), size_hint_x=None, width=dp(90), height=ROW)
        )
        return row

    def answer(self, check: dict, yes: bool) -> None:
        phones = self.model.phones
        if phones is not None:
            if yes:
                phones.confirm(check["seat"], check["phone"])
            else:
                phones.reject(check["seat"], check["phone"])
        self.show(phones.confirmations() if phones else [])

    def on_dismiss(self) -> None:
        if PhoneCheck._open is self:
            PhoneCheck._open = None
