"""Phones: a QR code per seat (its one-time join URL, for a few minutes), who has joined and
is connected, "Is this Ana's phone?" for a phone that joined, and a new code for a seat whose
code expired or whose phone is lost or changed hands. Phones stay joined from one game to the
next; a phone of an earlier game whose player has no seat now picks one on its own screen, and
is listed here until it does (or the tablet forgets it)."""

from __future__ import annotations

import io
from pathlib import Path

import qrcode
from kivy.core.image import Image as CoreImage
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.look.tokens import TYPE_SCALE
from companion.ui.widgets.common import styled_button
from companion.ui.widgets.phone_check import seat_rgba
from companion.words import _, ngettext

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

CAPTION = f"{TYPE_SCALE['caption']}sp"  # the panel's smallest words (the address, a code's minutes)


def qr_texture(text: str):
    picture = qrcode.make(text, box_size=8, border=2)
    data = io.BytesIO()
    picture.save(data)  # PNG with Pillow and with pypng alike (pypng refuses a format argument)
    data.seek(0)
    return CoreImage(data, ext="png").texture


def _fitted(label: Label) -> Label:
    """Centred, wrapped at its width, as tall as its lines."""
    label.size_hint_y, label.halign = None, "center"
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", v[1] + dp(4)),
    )
    return label


class PhonesPanel(ModalView):
    model = ObjectProperty(None)
    intro = StringProperty("")

    def on_kv_post(self, base_widget) -> None:
        self.model.bind(phone_seats=self._refresh, phone_lobby=self._refresh)
        self._refresh()

    def on_dismiss(self) -> None:
        self.model.unbind(phone_seats=self._refresh, phone_lobby=self._refresh)

    def _refresh(self, *args) -> None:
        server = self.model.phones
        grid = self.ids.seats
        grid.clear_widgets()
        if server is None:
            self.intro = self.model.phone_error or _("The phone server is not running.")
            return
        self.intro = _(
            "Each player scans their seat's code (or opens the address) on a phone on the same "
            "network: {address}. A code works once, for a few minutes; the tablet then "
            "asks whether the phone is that player's. The phone keeps its seat after a reload or a "
            "dropped Wi-Fi, and from one game to the next: it goes to its player's seat (same name, "
            "or same colour when nobody is named). Nobody's pick is shown anywhere before the reveal."
        ).format(address=server.base_url())
        for pid, seat in self.model.phone_seats.items():
            grid.add_widget(self._seat(server, pid, seat))
        for phone in self.model.phone_lobby:
            grid.add_widget(self._waiting(phone))

    def _waiting(self, phone: dict) -> BoxLayout:
        """A phone of an earlier game without a seat: it picks one on its own screen."""
        box = BoxLayout(orientation="vertical", spacing=dp(4))
        words = (
            _(
                "{name}'s phone from an earlier game ({device}, connected): "
                "it shows the free seats; its player taps theirs."
            )
            if phone["connected"]
            else _(
                "{name}'s phone from an earlier game ({device}, not connected now): "
                "it shows the free seats; its player taps theirs."
            )
        )
        box.add_widget(self._wrapped(words.format(name=phone["was"], device=phone["device"])))
        box.add_widget(
            styled_button(_("Forget this phone"), lambda n=phone["phone"]: self._forget(n), "quiet", height=dp(44))
        )
        return box

    def _forget(self, phone: int) -> None:
        self.model.phones.forget(phone)
        self._refresh()

    def _seat(self, server, pid: str, seat: dict) -> BoxLayout:
        box = BoxLayout(orientation="vertical", spacing=dp(4))
        box.add_widget(_fitted(Label(text=self.model.name(pid), bold=True, font_size="18sp", color=seat_rgba(pid))))
        url = server.seat_url(pid)
        check = next((c for c in server.confirmations() if c["seat"] == pid), None)
        if url:
            box.add_widget(Image(texture=qr_texture(url), fit_mode="contain"))
            # two lines: the server, then the seat's code
            box.add_widget(_fitted(Label(text=url.replace("/join/", "/join/\n", 1), font_size=CAPTION)))
            minutes = max(1, round((seat.get("expires_in") or 0) / 60))
            box.add_widget(
                _fitted(
                    Label(
                        text=ngettext(
                            "Works once, for about {n} more minute", "Works once, for about {n} more minutes", minutes
                        ).format(n=minutes),
                        font_size=CAPTION,
                    )
                )
            )
        elif check:
            box.add_widget(self._wrapped(f"{check['question']}\n{check['detail']}"))
            row = BoxLayout(size_hint_y=None, height=dp(48), spacing=dp(6))
            row.add_widget(styled_button(_("Yes"), lambda c=check: self._answer(c, True), "primary", height=dp(44)))
            row.add_widget(styled_button(_("No"), lambda c=check: self._answer(c, False), "quiet", height=dp(44)))
            box.add_widget(row)
            return box
        elif seat.get("code") == "expired":
            box.add_widget(
                self._wrapped(_("This code has expired: make a new one when the player is ready to scan it."))
            )
            box.add_widget(styled_button(_("New code"), lambda p=pid: self._revoke(p), "primary", height=dp(44)))
            return box
        else:
            box.add_widget(
                self._wrapped(_("Phone connected") if seat.get("connected") else _("Phone joined, not connected now"))
            )
            phone = server.seats.phone(pid)
            if phone is not None and phone.was:
                box.add_widget(
                    _fitted(
                        Label(text=_("(kept from an earlier game: {name})").format(name=phone.was), font_size=CAPTION)
                    )
                )
        box.add_widget(
            styled_button(
                _("New code (this phone loses the seat)") if not url else _("New code"),
                lambda p=pid: self._revoke(p),
                "quiet",
                height=dp(40),
            )
        )
        return box

    @staticmethod
    def _wrapped(text: str) -> Label:
        label = Label(text=text, font_size="15sp", halign="center", valign="middle")
        label.bind(size=lambda w, v: setattr(w, "text_size", v))
        return label

    def _answer(self, check: dict, yes: bool) -> None:
        if yes:
            self.model.phones.confirm(check["seat"], check["phone"])
        else:
            self.model.phones.reject(check["seat"], check["phone"])
        self._refresh()

    def _revoke(self, pid: str) -> None:
        self.model.phones.revoke(pid)
        self._refresh()
