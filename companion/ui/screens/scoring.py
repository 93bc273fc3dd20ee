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

from companion.history.scoring_words import scoring_title
from companion.ui.widgets.common import ChoiceButton, Pool, dress, styled_button
from companion.ui.widgets.player_mark import PlayerMark
from companion.words import _, ngettext
from companion.words.scoring_reasons import reason_words

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

# The rows of these pages are made once and shown again with new words (pools): making a
# scoring's rows anew cost ~50-130 ms an input on the tablet's CPU drawing, and their garbage
# made Python's collector stall the loop later.


class _Chip(PlayerMark):
    """A player's mark at the start of a row (its shape and initial, never colour alone)."""

    def __init__(self, **kwargs):
        super().__init__(size_hint_x=None, width=dp(26), **kwargs)

    def show(self, pid: str) -> None:
        self.colour = pid


def _fitted(label: Label) -> Label:
    """Its words wrap at its width (never cut)."""
    label.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
    return label


class _LineRow(BoxLayout):
    """A line of a scoring: the player's colour, what they earned and why, the points."""

    def __init__(self):
        super().__init__(size_hint_y=None, height=dp(40), spacing=dp(10))
        self.chip = _Chip()
        self.words = _fitted(Label(font_size="16sp", halign="left", valign="middle"))
        self.words.bind(texture_size=lambda w, v: setattr(self, "height", max(dp(40), v[1] + dp(8))))  # wraps
        self.points = Label(bold=True, font_size="20sp", size_hint_x=None, width=dp(70))
        for widget in (self.chip, self.words, self.points):
            self.add_widget(widget)

    def show(self, pid: str, text: str, points: str) -> _LineRow:
        self.chip.show(pid)
        self.words.text, self.points.text = text, points
        return self


class _CountRow(BoxLayout):
    """A colour's count in the lifted Castillo: its name, the tower's count, - count +."""

    def __init__(self, step):
        super().__init__(size_hint_y=None, height=dp(54), spacing=dp(10))
        self.pid = ""
        self.chip = _Chip()
        self.who = _fitted(Label(font_size="19sp", halign="left", valign="middle"))
        self.note = _fitted(Label(markup=True, halign="center", valign="middle"))
        self.count = Label(bold=True, font_size="26sp", size_hint_x=None, width=dp(60))
        minus = styled_button("-", lambda: step(self.pid, -1), "quiet", height=dp(48), size_hint_x=None, width=dp(56))
        plus = styled_button("+", lambda: step(self.pid, +1), "quiet", height=dp(48), size_hint_x=None, width=dp(56))
        for widget in (self.chip, self.who, self.note, minus, self.count, plus):
            self.add_widget(widget)

    def show(self, pid: str, name: str, note: str, differs: bool, count: int) -> _CountRow:
        self.pid = pid
        self.chip.show(pid)
        self.who.text, self.note.text, self.count.text = name, note, str(count)
        self.note.font_size = "16sp" if differs else "14sp"  # worth a look: said plainly, not in small grey text
        self.note.color = (0.65, 0.1, 0.05, 1) if differs else (0.35, 0.28, 0.2, 1)
        return self


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
        self._line_rows = Pool(_LineRow)
        self._count_rows = Pool(lambda: _CountRow(self._step))
        self._bar_buttons: dict[str, ChoiceButton] = {}  # by their words: a page turn re-renders none

    def _clear(self):
        """The page emptied; its rows go back to their pools."""
        self.ids.body.clear_widgets()
        self.ids.buttons.clear_widgets()
        self._line_rows.release()
        self._count_rows.release()
        return self.ids.body

    def _bar(self, text: str, on_release, style: str) -> None:
        button = self._bar_buttons.get(text)
        if button is None:
            button = self._bar_buttons[text] = ChoiceButton()
        self.ids.buttons.add_widget(dress(button, text, on_release, style))

    # ---- the Castillo opened -------------------------------------------------------------

    def open_castillo(self) -> None:
        tallies = self.model.open_castillo()
        recorded = self.model.recorded_castillo()
        no_tower = self.model.table.setup.tower.kind == "none"
        self.counts = dict(recorded if (no_tower and recorded) else tallies)
        dummy = self.model.table.dummy
        # The 2-player dummy's Caballeros a player moved in: counted too (the tower never knows white)
        self.seats = list(self.model.table.players) + ([dummy] if dummy and (recorded or {}).get(dummy) else [])
        if len(self.seats) > len(self.model.table.players):
            self.counts[dummy] = recorded[dummy]
            tallies = {**tallies, dummy: recorded[dummy]}
        self.baseline = {pid: self.counts.get(pid, 0) for pid in self.seats}
        self.by_hand = set(self.model.table.setup.by_hand()) if not no_tower else set()
        self.recorded = recorded
        self.tower_counts = tallies
        self.record = None
        self.heading = _("The Castillo is lifted")
        self.subheading = _(
            "Count the Caballeros of each colour. Does the physical count match the tower's? "
            "Correct any colour that differs; the table's count wins."
        )
        self.message = ""
        self._draw_castillo()

    def _draw_castillo(self) -> None:
        body = self._clear()
        for pid in self.seats:
            tower, entered = self.tower_counts.get(pid, 0), (self.recorded or {}).get(pid, 0)
            differs = self.recorded is not None and entered != tower
            # Translators: [b]...[/b] is bold; keep the tags around the first word
            check = _("[b]check:[/b] tower {tower}, turns entered {entered}")
            note = check.format(tower=tower, entered=entered) if differs else _("tower {n}").format(n=tower)
            if pid in self.by_hand:  # the tower does not know this colour: the turns entered say it
                note, differs = _("not counted by the tower; turns entered {n}").format(n=entered), False
            body.add_widget(
                self._count_rows.take().show(pid, self.model.name(pid), note, differs, self.counts.get(pid, 0))
            )
        corrected = {pid: self.counts.get(pid, 0) for pid in self.seats} != self.baseline
        ask = self.model.ask()
        stays = ask.options.get("castillo_stays")  # Rebellion: scored, nothing leaves, no disc
        scores = ask.kind in ("turn_action", "lift_castillo") or stays
        words = {
            (True, True): _("Use these counts: score the Castillo"),
            (True, False): _("Use these counts: reveal the discs"),
            (False, True): _("Counts match: score the Castillo"),
            (False, False): _("Counts match: reveal the discs"),
        }[(corrected, bool(scores))]
        self._bar(_("Back to the table"), self._back, "quiet")
        self._bar(words, self._reveal, "primary")

    def _step(self, pid: str, delta: int) -> None:
        if self.counts.get(pid, 0) + delta < 0:
            self.message = _("{who}: 0 counted already, nothing to take off").format(who=self.model.name(pid))
            return
        self.counts[pid] = self.counts.get(pid, 0) + delta
        self.message = ""
        self._draw_castillo()

    def on_leave(self, *args) -> None:
        self.record = None

    def _reveal(self) -> None:
        counted = {pid: self.counts.get(pid, 0) for pid in self.seats}
        lifting = self.model.ask().kind == "lift_castillo"  # the Castillo card: the count scores it
        if not self.model.submit({"type": "castillo_counted", "counts": counted}):
            self.message = self.model.message
            return
        if lifting:
            return  # scored: the model reports it, show_scoring() takes over
        ask = self.model.ask()
        if ask.kind == "reveal_secret_discs" and not self.model.submit({"type": "secret_discs_revealed"}):
            self.message = self.model.message
        elif ask.kind == "turn_action":  # a game saved before rules revision 3: counted, then announced
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
        record, body = self.record, self._clear()
        self.heading = scoring_title(record.title)
        if self.page == 0:
            self.subheading = _("Points gained; then each region, step by step.")
            gained = {pid: 0 for pid in self.model.table.players}
            for line in record.lines:
                gained[line.player] = gained.get(line.player, 0) + line.points
            for pid, pts in sorted(gained.items(), key=lambda kv: -kv[1]):
                body.add_widget(self._row(pid, f"{self.model.name(pid)}", f"+{pts}"))
            for t in record.transfers:
                body.add_widget(self._row(t["player"], self._transfer_words(t), ""))
        else:
            area = self.areas[self.page - 1]
            self.subheading = _("{area}  ({page} of {pages})").format(
                area=self.model.area_name(area), page=self.page, pages=len(self.areas)
            )
            for line in record.lines:
                if line.area == area:
                    body.add_widget(
                        self._row(
                            line.player,
                            f"{self.model.name(line.player)}: {reason_words(line.reason)}",
                            f"{line.points:+d}",
                        )
                    )
        if self.page > 0:
            self._bar(_("Back"), lambda: self._turn(-1), "quiet")
        if self.page < len(self.areas):
            self._bar(_("Next region"), lambda: self._turn(+1), "primary")
        self._bar(_("Done: back to the table"), self._done, "normal")

    def _transfer_words(self, t: dict) -> str:
        """ "Ana: 2 from the Castillo to Sevilla" / "... back to the court (why)"."""
        who, n = self.model.name(t["player"]), t["count"]
        if t["to_court"]:
            why = t.get("why") or _("the King's region")  # saved games' transfers name no reason
            return ngettext(
                "{who}: {n} from the Castillo back to the court ({why})",
                "{who}: {n} from the Castillo back to the court ({why})",
                n,
            ).format(who=who, n=n, why=why)
        return ngettext("{who}: {n} from the Castillo to {area}", "{who}: {n} from the Castillo to {area}", n).format(
            who=who, n=n, area=self.model.area_name(t["region"])
        )

    def _row(self, pid: str, text: str, points: str) -> _LineRow:
        return self._line_rows.take().show(pid, text, points)

    def _turn(self, delta: int) -> None:
        self.page = max(0, min(len(self.areas), self.page + delta))
        self._draw_page()

    def _done(self) -> None:
        self.manager.current = "end" if self.model.ask().kind == "game_over" else "table"
