"""A saved game (or the demo game) looked back at, told on the map: the map as large as the screen
allows, each step in one sentence (companion.history.step_story) with the areas it changed lit on
the map and named, the scores at that step, the scores over the game (the shared StepPlot), the
turning points one tap each, and the latest scoring's lines. Every step is the engine's public view
at that moment (companion.history.records): nothing hidden appears before its reveal. A thin view:
the replay model decides everything shown.

A step redraws only what it changes: the map's pieces (the map's own caches keep the board), the
plot's cursor, the words; the plot itself is drawn once per game and size."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from companion.history.records import GameRecord, Replay
from companion.history.scoring_words import scoring_title
from companion.history.step_changes import step_changes
from companion.history.step_story import story
from companion.safe_text import for_markup
from companion.ui.theme import THEME
from companion.ui.widgets.demo_teacher import DemoTeacher  # noqa: F401  (the .kv's)
from companion.ui.widgets.map_view import board_of
from companion.ui.widgets.step_plot import StepPlot  # noqa: F401  (the .kv's)
from companion.words import _
from companion.words import names as printed
from companion.words.scoring_reasons import reason_words

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ReplayScreen(Screen):
    model = ObjectProperty(None)
    title = StringProperty("")
    where = StringProperty("")  # "Step 45 of 172, round 3"
    said = StringProperty("")  # the step in one sentence
    changed = StringProperty("")  # "On the map: Sevilla, Granada" (the lit areas, named)
    scoring_text = StringProperty("")  # markup: the latest scoring shown, line by line
    standings = StringProperty("")  # markup: the scores at this step
    turning = ListProperty([])  # the turning points' headlines, one button each
    step = NumericProperty(0)
    last = NumericProperty(0)
    landscape = BooleanProperty(True)
    demo = BooleanProperty(False)
    can_export = BooleanProperty(False)  # a finished saved game: written for BG Stats, BGG, a picture
    folder = StringProperty("")
    folder_name = StringProperty("")  # the folder by its short name
    export_message = StringProperty("")
    replay: Replay | None = None
    record: GameRecord | None = None
    back_to = "home"

    def on_kv_post(self, *args):
        self._place_parts()
        THEME.bind(background=self._page)

    def on_pre_enter(self, *args):
        self._page()

    def _page(self, *args) -> None:
        """The page's colour is the window's clear colour (the screen draws no page of its own)."""
        from kivy.core.window import Window

        Window.clearcolor = tuple(THEME.background)

    def on_size(self, *args):
        self.landscape = self.width >= self.height

    def on_landscape(self, *args):
        self._place_parts()

    def _place_parts(self) -> None:
        """Landscape: the map the whole height beside a side column that starts with the step's
        card, the export row in the header. Portrait: the card under the header, the map under it,
        the export row at the foot."""
        ids = self.ids
        if "story_card" not in ids:
            return
        card, exports, lines = ids.story_card, ids.exports, ids.scoring_scroll
        for part in (card, exports, lines):
            if part.parent is not None:
                part.parent.remove_widget(part)
        if self.landscape:
            ids.side.add_widget(card, index=len(ids.side.children))
            ids.header.add_widget(exports)
            ids.lower.add_widget(lines)  # under the plot
        else:
            ids.top_slot.add_widget(card)
            ids.foot_slot.add_widget(exports)
            ids.tp_column.add_widget(lines)  # under the turning points, beside the plot

    def on_folder(self, *args):
        self.folder_name = Path(self.folder).expanduser().name or self.folder

    def open_replay(
        self,
        replay: Replay,
        title: str,
        back_to: str = "home",
        record: GameRecord | None = None,
        demo: bool = False,
    ) -> None:
        self.replay, self.title, self.back_to, self.record, self.demo = replay, title, back_to, record, demo
        self.can_export = bool(record and record.finished and not record.damaged)
        self.folder = self.folder or _default_folder()
        self.export_message = ""
        self.last = len(replay) - 1
        board = board_of(replay.steps[0].view)
        self._area_name = lambda a: printed.area(board, board.area_index[a]) if a in board.area_index else a
        self.ids.plot.replay = replay
        points = replay.turning_points(3)
        self._turning = [tp.step for tp in points]
        self.turning = [tp.headline(replay.names) for tp in points]
        self._turning_buttons()
        self.step = -1
        self.show(self.last if record is not None and record.finished else 0)

    def _turning_buttons(self) -> None:
        """One button per turning point listed (none: a line saying there is none yet)."""
        box = self.ids.turning_box
        box.clear_widgets()
        for index, words in enumerate(self.turning):
            button = Button(
                text=f"{index + 1}. {for_markup(words)}",
                markup=True,
                font_size="15sp",
                size_hint_y=None,
                height=dp(52),
                halign="left",
                valign="middle",
            )
            # the words wrap where narrow; the button grows with them (once, when the game opens)
            button.bind(
                width=lambda b, width: setattr(b, "text_size", (width - dp(20), None)),
                texture_size=lambda b, size: setattr(b, "height", max(dp(52), size[1] + dp(12))),
            )
            button.bind(on_release=lambda _b, i=index: self.turning_point(i))
            box.add_widget(button)

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
        if the_map.board is None or the_map.board.rules != (view.get("rules") or "classic"):
            the_map.board = board_of(view)  # once per game: the map keeps its drawing of the board
        lit = step_changes(self.replay, number)
        the_map.tappable = lit
        the_map.public = view
        self.ids.plot.step = number
        self.where = _("Step {step} of {last}, round {round}").format(step=number, last=self.last, round=step.round)
        self.said = story(self.replay, number)
        lit_names = ", ".join(self._area_name(a) for a in lit)
        self.changed = _("On the map: {areas}").format(areas=lit_names) if lit else ""
        self.standings = self._standings(step)
        self.scoring_text = self._scoring(view)
        self.ids.teacher.show(self.replay, number, self.demo)

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
            return _("No scoring yet.")
        latest = scorings[-1]
        names = self.replay.names
        title = _("{scoring} (round {round})").format(
            scoring=f"[b]{for_markup(scoring_title(latest['title']))}[/b]", round=latest["round"]
        )
        lines = [title]
        for line in latest["lines"]:
            if not line["points"]:
                continue
            lines.append(
                f"{for_markup(self._area_name(line['area']))}: {for_markup(names.get(line['player'], line['player']))} "
                f"{line['points']:+d}  {for_markup(reason_words(line['reason'], names))}"
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

    # ---- writing the game out ---------------------------------------------------------------

    def choose_folder(self) -> None:
        from companion.ui.dialogs.folder_picker import FolderPicker

        FolderPicker(Path(self.folder).expanduser(), self._folder_chosen).open()

    def _folder_chosen(self, folder: Path) -> None:
        self.folder = str(folder)
        self.export_message = ""

    def export(self, kind: str) -> None:
        """The game written into the folder chosen; on Android also offered to the share sheet."""
        from companion.history import export
        from companion.ui.platform import android

        try:
            path = export.export_game(self.record, kind, Path(self.folder).expanduser(), self.replay)
        except export.ExportError as exc:
            self.export_message = exc.said
            return
        shared = android.share_file(str(path), export.KINDS[kind][1], _("Log the play"))
        said = {
            ("bgstats", False): _("The BG Stats file is in {folder}"),
            ("csv", False): _("The BGG table is in {folder}"),
            ("png", False): _("The picture is in {folder}"),
            ("bgstats", True): _("The BG Stats file is in {folder} (and offered to share)"),
            ("csv", True): _("The BGG table is in {folder} (and offered to share)"),
            ("png", True): _("The picture is in {folder} (and offered to share)"),
        }[(kind, shared != "none")]
        self.export_message = said.format(folder=self.folder_name)

    def back(self) -> None:
        self.manager.current = self.back_to


def _default_folder() -> str:
    from companion.history import export
    from companion.storage.files import data_dir
    from companion.ui.platform import android

    if android.on_android():  # the app's own storage; the share sheet takes it further
        return str(data_dir() / "exports")
    return str(export.default_folder())
