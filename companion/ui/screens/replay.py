"""A saved game (or the demo game) looked back at: the map as it stood at each step, the
scorings' itemised lines as they were shown, the scores as a staircase (points arrive at
scorings) and the turning points. Every step is the engine's public view at that moment
(companion.history.records): nothing hidden appears before its reveal. A thin view: the replay model
decides everything shown."""

from __future__ import annotations

from pathlib import Path

from kivy.graphics import Color, Line, Rectangle
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.history.records import GameRecord, Replay
from companion.look.players import PLAYER_RGB
from companion.safe_text import for_markup
from companion.ui.widgets.map_view import INK, _text, board_of

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class StepPlot(Widget):
    """Each player's score over the steps, flat until a scoring; a cursor at the step shown."""

    replay = ObjectProperty(None, allownone=True)
    step = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.canvas.after:  # the cursor: moving it redraws nothing else
            self._cursor_colour = Color(*INK, 0)
            self._cursor = Line(points=[0, 0, 0, 0], width=dp(1))
        self._x_of = None

    def on_replay(self, *args):
        self.draw()

    def on_step(self, *args):
        self._place_cursor()

    def on_size(self, *args):
        self.draw()

    def on_pos(self, *args):
        self.draw()

    def _place_cursor(self) -> None:
        if self._x_of is None:
            self._cursor_colour.a = 0
            return
        x = self._x_of(self.step)
        self._cursor.points = [x, self.y + dp(24), x, self.top - dp(10)]
        self._cursor_colour.a = 1

    def draw(self) -> None:
        self.canvas.clear()
        self._x_of = None
        replay = self.replay
        if replay is None or self.width < dp(80) or self.height < dp(60):
            self._place_cursor()
            return
        history = replay.score_steps()
        left, bottom = self.x + dp(40), self.y + dp(24)
        width, height = self.width - dp(52), self.height - dp(34)
        last = max(1, len(replay) - 1)
        top = max((s for pts in history.values() for _, s in pts), default=1) or 1
        x_of = self._x_of = lambda n: left + width * n / last
        y_of = lambda s: bottom + height * s / top
        with self.canvas:
            Color(1, 1, 1, 0.6)
            Rectangle(pos=(left, bottom), size=(width, height))
            for n in replay.round_starts():
                tex = _text(str(replay.steps[n].round), int(sp(12)))
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(x_of(n) - tex.width / 2, bottom - dp(20)), size=tex.size)
            for s in (0, top):
                tex = _text(str(s), int(sp(12)))
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(left - tex.width - dp(4), y_of(s) - tex.height / 2), size=tex.size)
            for pid, pts in history.items():
                points = []
                for (n, s), nxt in zip(pts, pts[1:] + [(last, None)]):
                    points += [x_of(n), y_of(s), x_of(nxt[0]), y_of(s)]
                Color(*PLAYER_RGB.get(pid, (0.5, 0.5, 0.5)))
                Line(points=points, width=dp(1.4))
        self._place_cursor()


class ReplayScreen(Screen):
    model = ObjectProperty(None)
    title = StringProperty("")
    where = StringProperty("")  # "Step 45 of 172 - round 3: Ana's Caballeros placed"
    scoring_text = StringProperty("")  # markup: the latest scoring shown, line by line
    turning_text = StringProperty("")
    standings = StringProperty("")  # markup: the scores at this step
    step = NumericProperty(0)
    last = NumericProperty(0)
    landscape = BooleanProperty(True)
    can_export = BooleanProperty(False)  # a finished saved game: written for BG Stats, BGG, a picture
    folder = StringProperty("")
    export_message = StringProperty("")
    replay: Replay | None = None
    record: GameRecord | None = None
    back_to = "home"

    def on_size(self, *args):
        self.landscape = self.width >= self.height

    def open_replay(self, replay: Replay, title: str, back_to: str = "home", record: GameRecord | None = None) -> None:
        self.replay, self.title, self.back_to, self.record = replay, title, back_to, record
        self.can_export = bool(record and record.finished and not record.damaged)
        self.folder = self.folder or _default_folder()
        self.export_message = ""
        self.last = len(replay) - 1
        self.ids.plot.replay = replay
        points = replay.turning_points(3)
        self._turning = [tp.step for tp in points]
        board = board_of(replay.steps[0].view)
        area = lambda a: board.area_name(board.area_index[a]) if a in board.area_index else a
        self.turning_text = (
            "\n".join(
                f"{i}. {for_markup(tp.words(replay.names, area))}"  # shown under markup
                for i, tp in enumerate(points, start=1)
            )
            or "No scoring yet."
        )
        self.step = -1
        self.show(self.last if record is not None and record.finished else 0)

    def show(self, number: int) -> None:
        """The game as it stood after step `number` (0: the setup)."""
        if self.replay is None:
            return
        number = max(0, min(int(number), self.last))
        if number == self.step:
            return
        self.step = number
        step = self.replay.steps[number]
        view = step.view
        the_map = self.ids.map
        the_map.board = board_of(view)
        the_map.public = view
        self.ids.plot.step = number
        self.where = f"Step {number} of {self.last}  -  round {step.round}: {step.what}"
        self.standings = self._standings(step)
        self.scoring_text = self._scoring(view)

    def _standings(self, step) -> str:
        from companion.ui.screens.home import _hex

        names = self.replay.names
        ranked = sorted(self.replay.players, key=lambda p: -step.scores.get(p, 0))
        return "   ".join(
            f"[color={_hex(p)}][b]{for_markup(names.get(p, p))}[/b][/color] {step.scores.get(p, 0)}" for p in ranked
        )

    def _scoring(self, view: dict) -> str:
        scorings = view.get("scorings", [])
        if not scorings:
            return "No scoring yet."
        latest = scorings[-1]
        board = board_of(view)
        names = self.replay.names
        lines = [f"[b]{for_markup(latest['title'])}[/b] (round {latest['round']})"]
        for line in latest["lines"]:
            if not line["points"]:
                continue
            area = board.area_name(board.area_index[line["area"]]) if line["area"] in board.area_index else line["area"]
            lines.append(
                f"{for_markup(area)}: {for_markup(names.get(line['player'], line['player']))} "
                f"{line['points']:+d}  {for_markup(line['reason'])}"
            )
        return "\n".join(lines)

    # ---- moving through the game ----------------------------------------------------------

    def step_by(self, delta: int) -> None:
        self.show(self.step + delta)

    def round_by(self, delta: int) -> None:
        starts = self.replay.round_starts() if self.replay else [0]
        if delta > 0:
            self.show(next((n for n in starts if n > self.step), self.last))
        else:
            self.show(next((n for n in reversed(starts) if n < self.step), 0))

    def turning_point(self, index: int) -> None:
        if index < len(getattr(self, "_turning", [])):
            self.show(self._turning[index])

    def export(self, kind: str) -> None:
        """The game written into the folder shown; on Android also offered to the share sheet."""
        from companion.history import export
        from companion.ui.platform import android

        try:
            path = export.export_game(self.record, kind, Path(self.folder).expanduser(), self.replay)
        except export.ExportError as exc:
            self.export_message = str(exc)
            return
        shared = android.share_file(str(path), export.KINDS[kind][1], "Log the play")
        self.export_message = f"Written: {path}" + ("" if shared == "none" else " (and offered to share)")

    def back(self) -> None:
        self.manager.current = self.back_to


def _default_folder() -> str:
    from companion.history import export
    from companion.storage.files import data_dir
    from companion.ui.platform import android

    if android.on_android():  # the app's own storage; the share sheet takes it further
        return str(data_dir() / "exports")
    return str(export.default_folder())
