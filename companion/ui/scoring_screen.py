"""Scorings, step by step: the Castillo opened with the tower's counts and a
"does the physical count match?" check, then the transfers, then region by
region with the points and the reason for each."""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from .map_view import PLAYER_RGB
from .table_screen import _button

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def _chip(pid: str) -> Label:
    chip = Label(text="", size_hint_x=None, width=dp(26))
    from kivy.graphics import Color, Rectangle
    with chip.canvas.before:
        Color(*PLAYER_RGB.get(pid, (0.5, 0.5, 0.5)))
        rect = Rectangle()
    chip.bind(pos=lambda w, v: setattr(rect, "pos", (v[0], v[1] + dp(6))),
              size=lambda w, v: setattr(rect, "size", (v[0], v[1] - dp(12))))
    return chip


def _fitted(label: Label) -> Label:
    """Its words wrap at its width (never cut)."""
    label.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
    return label


class ScoringScreen(Screen):
    model = ObjectProperty(None)
    heading = StringProperty("")
    subheading = StringProperty("")
    message = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.counts: dict[str, int] = {}
        self.record = None
        self.page = 0

    # ---- the Castillo opened -------------------------------------------------------------

    def open_castillo(self) -> None:
        tallies = self.model.open_castillo()
        recorded = self.model.recorded_castillo()
        no_tower = self.model.table.setup.tower.kind == "none"
        self.counts = dict(recorded if (no_tower and recorded) else tallies)
        self.baseline = {pid: self.counts.get(pid, 0) for pid in self.model.table.players}
        self.recorded = recorded
        self.tower_counts = tallies
        self.record = None
        self.heading = "The Castillo is lifted"
        self.subheading = ("Count the Caballeros of each colour. Does the physical count match the tower's? "
                           "Correct any colour that differs; the table's count wins.")
        self.message = ""
        self._draw_castillo()

    def _draw_castillo(self) -> None:
        body = self.ids.body
        body.clear_widgets()
        for pid in self.model.table.players:
            row = BoxLayout(size_hint_y=None, height=dp(54), spacing=dp(10))
            row.add_widget(_chip(pid))
            row.add_widget(_fitted(Label(text=self.model.name(pid), font_size="19sp", halign="left", valign="middle")))
            note = f"tower {self.tower_counts.get(pid, 0)}"
            differs = self.recorded is not None and self.recorded.get(pid, 0) != self.tower_counts.get(pid, 0)
            if differs:  # worth a look: said plainly, not in small grey text
                note = f"[b]check:[/b] tower {self.tower_counts.get(pid, 0)}, turns entered {self.recorded.get(pid, 0)}"
            row.add_widget(_fitted(Label(text=note, font_size="16sp" if differs else "14sp", markup=True,
                                         halign="center", valign="middle",
                                         color=(0.65, 0.1, 0.05, 1) if differs else (0.35, 0.28, 0.2, 1))))
            row.add_widget(_button("-", lambda p=pid: self._step(p, -1), "quiet", height=dp(48), size_hint_x=None,
                                   width=dp(56)))
            row.add_widget(Label(text=str(self.counts.get(pid, 0)), bold=True, font_size="26sp", size_hint_x=None,
                                 width=dp(60)))
            row.add_widget(_button("+", lambda p=pid: self._step(p, +1), "quiet", height=dp(48), size_hint_x=None,
                                   width=dp(56)))
            body.add_widget(row)
        buttons = self.ids.buttons
        buttons.clear_widgets()
        buttons.add_widget(_button("Back to the table", self._back, "quiet"))
        corrected = {pid: self.counts.get(pid, 0) for pid in self.model.table.players} != self.baseline
        then = "score the Castillo" if self.model.ask().kind == "turn_action" else "reveal the discs"
        buttons.add_widget(_button(f"Use these counts: {then}" if corrected else f"Counts match: {then}",
                                   self._reveal, "primary"))

    def _step(self, pid: str, delta: int) -> None:
        self.counts[pid] = max(0, self.counts.get(pid, 0) + delta)
        self._draw_castillo()

    def on_leave(self, *args) -> None:
        self.record = None

    def _reveal(self) -> None:
        counted = {pid: self.counts.get(pid, 0) for pid in self.model.table.players}
        if not self.model.submit({"type": "castillo_counted", "counts": counted}):
            self.message = self.model.message
            return
        ask = self.model.ask()
        if ask.kind == "reveal_secret_discs" and not self.model.submit({"type": "secret_discs_revealed"}):
            self.message = self.model.message
        elif ask.kind == "turn_action":  # the Castillo card, counted: now its special action
            if not self.model.submit({"type": "special_action_started", "player": ask.players[0]}):
                self.message = self.model.message
            if self.model.ask().kind == "veto":
                self._back()  # a Veto holder is asked on the table first
        # the model reports the scoring: show_scoring() takes over

    def _back(self) -> None:
        self.manager.current = "table"

    # ---- a scoring, itemised ---------------------------------------------------------------------

    def show_scoring(self, record) -> None:
        self.record, self.page = record, 0
        self.areas = []
        for line in record.lines:
            if line.area not in self.areas:
                self.areas.append(line.area)
        self.message = ""
        self._draw_page()

    def _draw_page(self) -> None:
        record, body = self.record, self.ids.body
        body.clear_widgets()
        self.heading = record.title
        if self.page == 0:
            self.subheading = "Points gained; then each region, step by step."
            gained = {pid: 0 for pid in self.model.table.players}
            for line in record.lines:
                gained[line.player] = gained.get(line.player, 0) + line.points
            for pid, pts in sorted(gained.items(), key=lambda kv: -kv[1]):
                body.add_widget(self._row(pid, f"{self.model.name(pid)}", f"+{pts}"))
            for t in record.transfers:
                where = "back to the court (the King's region)" if t["to_court"] else self.model.area_name(t["region"])
                body.add_widget(self._row(t["player"], f"{self.model.name(t['player'])}: {t['count']} from the "
                                          f"Castillo to {where}", ""))
        else:
            area = self.areas[self.page - 1]
            self.subheading = f"{self.model.area_name(area)}  ({self.page} of {len(self.areas)})"
            for line in record.lines:
                if line.area == area:
                    body.add_widget(self._row(line.player, f"{self.model.name(line.player)}: {line.reason}",
                                              f"{line.points:+d}"))
        buttons = self.ids.buttons
        buttons.clear_widgets()
        if self.page > 0:
            buttons.add_widget(_button("Back", lambda: self._turn(-1), "quiet"))
        if self.page < len(self.areas):
            buttons.add_widget(_button("Next region", lambda: self._turn(+1), "primary"))
        buttons.add_widget(_button("Done: back to the table", self._done, "normal"))

    def _row(self, pid: str, text: str, points: str) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=dp(40), spacing=dp(10))
        row.add_widget(_chip(pid))
        label = _fitted(Label(text=text, font_size="16sp", halign="left", valign="middle"))
        label.bind(texture_size=lambda w, v: setattr(row, "height", max(dp(40), v[1] + dp(8))))  # a long reason wraps
        row.add_widget(label)
        row.add_widget(Label(text=points, bold=True, font_size="20sp", size_hint_x=None, width=dp(70)))
        return row

    def _turn(self, delta: int) -> None:
        self.page = max(0, min(len(self.areas), self.page + delta))
        self._draw_page()

    def _done(self) -> None:
        self.manager.current = "end" if self.model.ask().kind == "game_over" else "table"
