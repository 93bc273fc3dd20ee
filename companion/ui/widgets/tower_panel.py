"""The tower panel: connection state, firmware, last drop, drops waiting for a
person (uncertain colour, or thrown outside a placement), calibration, and
whether the tower's own count agrees with the table's (companion.tower.connection words it)."""

from __future__ import annotations

import time
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.stacklayout import StackLayout

from companion.look.players import PLAYER_RGB
from companion.tower.connection import calibration_lines, totals_lines
from companion.ui.widgets.teach_panel import colour_word
from companion.words import N_, _
from companion.words.link_words import link_words, security_words

# The tower link's states in words (the bar and this panel say them).
LINK_STATES = {
    "connected": N_("connected"),
    "resyncing": N_("resyncing"),
    "connecting": N_("connecting"),
    "disconnected": N_("disconnected"),
    "incompatible": N_("incompatible"),
    "none": N_("none"),
    "not started": N_("not started"),
}
# The link's kind, as "Connection (...)" names it
LINK_KINDS = {"simulated": N_("simulated"), "serial": N_("USB serial"), "mqtt": N_("MQTT"), "none": N_("no tower")}
Builder.load_file(str(Path(__file__).with_suffix(".kv")))

WHY = {
    "uncertain": N_("Drop number {number}: colour not sure. Whose was it?"),
    "flagged": N_("Drop number {number}: thrown outside a placement. Whose was it?"),
}
WHY_GUESS = {
    "uncertain": N_("Drop number {number}: colour not sure, looks {colour}. Whose was it?"),
    "flagged": N_("Drop number {number}: thrown outside a placement, looks {colour}. Whose was it?"),
}


def security_lines(security) -> list[str]:
    """What the panel says about how private the link is (LinkSecurity as a dict)."""
    if not security or security.get("local"):
        return []
    if security.get("warning"):
        return [
            _('Warning: this link is {warning}. See hardware/README.md, "A locked-down broker".').format(
                warning=security_words(bool(security.get("encrypted")), bool(security.get("authenticated")))
            )
        ]
    return [_("Link: encrypted (TLS) and signed in with a user name.")]


def _answer(text: str, background, colour, on_release) -> Button:
    """An answer to a drop: as wide as its words (at least 96 dp), 48 dp tall."""
    b = Button(
        text=text,
        background_normal="",
        background_color=background,
        color=colour,
        size_hint=(None, None),
        height=dp(48),
        width=dp(96),
    )
    b.bind(texture_size=lambda w, size: setattr(w, "width", max(dp(96), size[0] + dp(24))))
    b.bind(on_release=lambda *_: on_release())
    return b


def _wrapped(text: str) -> Label:
    label = Label(text=text, font_size="15sp", size_hint_y=None, halign="left", valign="middle")
    label.bind(
        width=lambda w, v: setattr(w, "text_size", (v, None)),
        texture_size=lambda w, v: setattr(w, "height", max(dp(28), v[1] + dp(6))),
    )
    return label


class TowerPanel(ModalView):
    model = ObjectProperty(None)
    status_text = StringProperty("")
    totals_text = StringProperty("")
    totals_fault = BooleanProperty(False)
    waiting = BooleanProperty(False)

    def on_kv_post(self, base_widget) -> None:
        self.model.bind(public=self._refresh, tower=self._refresh)
        self._refresh()

    def on_dismiss(self) -> None:
        self.model.unbind(public=self._refresh, tower=self._refresh)

    def _refresh(self, *args) -> None:
        s = self.model.tower or {}
        kind = self.model.table.setup.tower.kind if self.model.table else "none"
        kind = _(LINK_KINDS[kind]) if kind in LINK_KINDS else kind
        state = s.get("state", "not started")
        state = _(LINK_STATES[state]) if state in LINK_STATES else state
        lines = [
            _("Connection ({kind}): {state} since {time}").format(
                kind=kind, state=state, time=time.strftime("%H:%M:%S", time.localtime(s["since"]))
            )
            if s.get("since")
            else _("Connection ({kind}): {state}").format(kind=kind, state=state)
        ]
        if s.get("message"):
            lines.append(_("Why: {why}").format(why=link_words(s["message"])))
        lines += security_lines(s.get("security"))
        if s.get("last_fault") and s.get("last_fault") != s.get("message"):
            at = time.strftime("%H:%M:%S", time.localtime(s["last_fault_at"])) if s.get("last_fault_at") else ""
            fault = link_words(s["last_fault"])
            lines.append(
                _("Last fault at {time}: {fault}").format(time=at, fault=fault)
                if at
                else _("Last fault: {fault}").format(fault=fault)
            )
        if s.get("tower"):
            lines.append(
                _("Tower {tower}, firmware {fw}, protocol {proto}, boot {boot}").format(
                    tower=s["tower"], fw=s.get("fw"), proto=s.get("proto"), boot=s.get("boot")
                )
            )
        last = s.get("last_drop")
        if last:
            lines.append(
                _("Last drop: number {number} (colour not sure)").format(number=last["seq"])
                if last.get("uncertain")
                else _("Last drop: number {number}").format(number=last["seq"])
            )
        table = self.model.table
        if table and kind != "none":
            lines += calibration_lines(s, table.setup, table.names)
        self.status_text = "\n".join(lines)
        check = table.totals_check() if table and table.setup.tower.kind != "none" else None
        self.totals_fault = bool(check and check["fault"])
        self.totals_text = "\n".join(totals_lines(check, table.names)) if check else ""
        self._drops()

    def _drops(self) -> None:
        box = self.ids.drops
        box.clear_widgets()
        waiting = self.model.public.get("drops_waiting", [])
        self.waiting = bool(waiting)
        for drop in waiting:
            number = str(drop["id"]).rpartition(":")[2]  # "<tower boot>:<n>": the tower's own number n
            status = drop["status"]
            words = (
                _(WHY_GUESS[status]).format(number=number, colour=colour_word(drop["best"]))
                if drop.get("best")
                else _(WHY[status]).format(number=number)
            )
            box.add_widget(_wrapped(words))
            row = StackLayout(size_hint_y=None, spacing=dp(6))  # as many rows as the names need
            row.bind(minimum_height=row.setter("height"))
            for pid in self.model.table.players:
                row.add_widget(
                    _answer(
                        self.model.name(pid),
                        (*PLAYER_RGB[pid], 1),
                        (0.1, 0.1, 0.1, 1) if pid == "yellow" else (1, 1, 1, 1),
                        lambda d=drop["id"], p=pid: self.model.answer_drop(d, p),
                    )
                )
            if drop["status"] == "flagged":
                row.add_widget(
                    _answer(
                        _("Keep as is"),
                        (0.84, 0.77, 0.62, 1),
                        (0.23, 0.16, 0.08, 1),
                        lambda d=drop["id"]: self.model.answer_drop(d, "keep"),
                    )
                )
            row.add_widget(
                _answer(
                    _("Not a Caballero"),
                    (0.90, 0.86, 0.78, 1),
                    (0.23, 0.16, 0.08, 1),
                    lambda d=drop["id"]: self.model.answer_drop(d, "dismiss"),
                )
            )
            box.add_widget(row)

    def calibrate(self) -> None:
        """The teaching screen, over this panel: it starts at once when a colour is missing."""
        from companion.ui.widgets.teach_panel import TeachPanel

        panel = TeachPanel(model=self.model)
        panel.open()
        panel.start()
