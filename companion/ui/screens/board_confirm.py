"""Your board: the 2023 board the companion will use, for the table to confirm or correct.

Shown by itself the first time a 2023 game starts on a side of the board, and from the home
and new-game screens at any time. A fact nobody has entered (France's neighbours for New
Regency, the 2-3 side's scoreboards) is entered here before the game, or, with "Start now",
at the step that first needs it (companion.entry.facts, on the table screen). The map shows
each area's scoreboard (a "?"
where it is not known) and, for the chosen region, lines to the regions it borders; the
panel says for each fact whether it is known (the rule book), inferred, missing or the
table's own, and takes corrections: a scoreboard by steppers, a border by tapping regions,
the Scoring tiles by steppers. A thin view of companion.table_rules.board_file.BoardDraft, which checks
every entry like a board file and refuses a wrong one with its one-line message.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.graphics import Color, InstructionGroup, Line
from kivy.lang import Builder
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.look.tokens import TYPE_SCALE
from companion.safe_text import for_markup
from companion.table_rules.board_file import BoardDraft
from companion.table_rules.storage import RuleFileError
from companion.ui.widgets.map_view import MapView
from companion.ui.widgets.rule_widgets import STATUS_RGB, Ask, button, grid, stepper, text
from companion.words import N_, _, names, ngettext
from companion.words.file_refusals import refusal_words
from companion.words.sources import source_words
from engine.board.model import CASTILLO

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

OTHER_SIDE = {"4-5": "2-3", "2-3": "4-5"}
SECTIONS = (("scoreboards", N_("Scoreboards")), ("borders", N_("Borders")), ("tiles", N_("Scoring tiles")))
PLACES = (N_("1st place"), N_("2nd place"), N_("3rd place"))
# How sure a fact is, in words (the board file's statuses)
STATUS_SHOWN = {
    "known": N_("known (the rule book)"),
    "inferred": N_("inferred"),
    "missing": N_("missing"),
    "yours": N_("yours (from your board)"),
}
NOTE_SP = f"{TYPE_SCALE['caption']}sp"  # a fact's source: the smallest words, still read at arm's length


def _counted(status: str, n: int) -> str:
    """ "12 known", "3 missing": how many facts have a status."""
    words = {
        "known": ngettext("{n} known", "{n} known", n),
        "inferred": ngettext("{n} inferred", "{n} inferred", n),
        "missing": ngettext("{n} missing", "{n} missing", n),
        "yours": ngettext("{n} yours", "{n} yours", n),
    }
    return words.get(status, "{n} " + status).format(n=n)


MOST_POINTS = 20  # the steppers' top: no scoreboard of either edition comes near it


class BoardMap(MapView):
    """The map, every area tappable, with lines from the chosen area to the regions it borders."""

    links = ListProperty([])  # region ids the selected area borders

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._links = InstructionGroup()
        self.canvas.after.add(self._links)
        for prop in ("links", "selected", "pos", "size", "board"):
            self.bind(**{prop: self._draw_links})

    def _draw_links(self, *args) -> None:
        self._links.clear()
        if not self.selected or not self.links or self.width <= 1:
            return
        x0, y0 = self.area_centre(self.selected)
        self._links.add(Color(0.16, 0.3, 0.6, 0.85))
        for area in self.links:
            x1, y1 = self.area_centre(area)
            self._links.add(Line(points=[x0, y0, x1, y1], width=2.2))


class BoardScreen(Screen):
    model = ObjectProperty(None)
    title = StringProperty("")
    hint = StringProperty("")
    message = StringProperty("")
    confirm_text = StringProperty("")
    back_text = StringProperty("Back")
    other_side_text = StringProperty("")  # from home or the new game: the other side of the board

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.draft: BoardDraft | None = None
        self.section = "scoreboards"
        self.selected = ""
        self.pending: list[int] = []  # the chosen scoreboard's numbers being entered
        self.tiles: dict[str, list[int]] = {}
        self.modules: tuple[str, ...] = ()
        self.back_to = "home"
        self.then: Callable[[], None] | None = None

    # ---- opening --------------------------------------------------------------------

    def open_side(self, side: str, back_to: str = "home", modules=(), then: Callable[[], None] | None = None) -> None:
        """The side's board as the companion will use it. `then`: a new game waiting for the
        board to be confirmed (started after Confirm)."""
        self.back_to, self.modules, self.then = back_to, tuple(modules), then
        self.message = ""
        try:
            self.draft = BoardDraft.load(side)
        except RuleFileError as exc:  # a damaged file: shown as shipped, the table confirms again
            self.draft = BoardDraft(side)
            self.message = _(
                "Your saved board could not be read ({why}); it is shown as shipped: confirm to replace it"
            ).format(why=exc)
        self.section, self.selected, self.pending = "scoreboards", "", []
        self.tiles = {f.area: list(f.value or (0, 0, 0)) for f in self.draft.facts() if f.kind == "tile"}
        self.title = _("Your board: the {side} player side").format(side=side)
        self.confirm_text = _("Confirm and start the game") if then else _("Confirm: this is our board")
        self.back_text = _("Back to the new game") if then else _("Back")
        self.other_side_text = "" if then else _("The {side} side").format(side=OTHER_SIDE[side])
        self.manager.current = self.name
        self._show()
        self.ids.scroll.scroll_y = 1

    # ---- drawing ----------------------------------------------------------------------

    def _show(self) -> None:
        draft = self.draft
        m = self.ids.map
        m.board = draft.board
        m.public = {}
        b = draft.board
        if self.section == "scoreboards":
            m.tappable = list(b.region_ids) + [CASTILLO]
        elif self.section == "borders":
            m.tappable = list(b.region_ids) + list(b.space_ids)
        else:
            m.tappable = []
        m.selected = self.selected if self.section != "tiles" else ""
        m.scoreboards = {self.selected: tuple(self.pending)} if self.section == "scoreboards" and self.selected else {}
        links = [f for f in draft.area_facts(self.selected) if f.kind == "neighbours"] if self.selected else []
        m.links = list(links[0].value or ()) if links and self.section == "borders" else []
        self.hint = self._hint()
        bar = self.ids.sections
        bar.clear_widgets()
        for key, words in SECTIONS:
            bar.add_widget(
                button(
                    _(words),
                    lambda k=key: self.show_section(k),
                    "on" if key == self.section else "quiet",
                    key=f"section:{key}",
                    size_hint_y=1,
                )
            )
        box = self.ids.controls
        box.clear_widgets()
        pages = {"scoreboards": self._page_scoreboards, "borders": self._page_borders, "tiles": self._page_tiles}
        pages[self.section](box)
        self._summary(box)

    def _hint(self) -> str:
        counts = self.draft.counts()
        said = ", ".join(_counted(s, n) for s, n in counts.items() if n)
        needed = self.draft.needed(self.modules)
        check = _("Check each fact against your board ({counts}); tap to correct, then confirm.").format(counts=said)
        if needed:
            return _("Still to enter before the game: {facts}.").format(facts=_listed(needed)) + " " + check
        return check

    def _status(self, fact) -> str:
        return f"[color={_hex(STATUS_RGB[fact.status])}]{_status_words(fact.status)}[/color]"

    def _area(self, area: str) -> str:
        """An area of the board by its printed name in the table's language."""
        return names.place(self.draft.names.get(area, area), self.draft.board.rules)

    def _fact_label(self, path: str) -> str | None:
        """A fact of the board by its name ("Galicia's scoreboard"), for a refusal naming its path."""
        return next((f.label for f in self.draft.facts() if f.path == path), None)

    def _source_line(self, fact):
        """Where a fact comes from, or why it is missing, in the table's language."""
        note = source_words(fact.source, rules=self.draft.board.rules)
        return text(note, font_size=NOTE_SP, color=(0.4, 0.32, 0.22, 1))

    def _fact_line(self, fact):
        words = for_markup(fact.words(self.draft.names))  # names the table typed: never a tag
        return text(f"[b]{for_markup(fact.label)}[/b]: {words} - {self._status(fact)}", markup=True)

    def _page_scoreboards(self, box) -> None:
        if not self.selected:
            box.add_widget(text(_("Tap a region or the Castillo on the map (or below) to check its scoreboard.")))
        else:
            fact = next(f for f in self.draft.area_facts(self.selected) if f.kind == "scoreboard")
            box.add_widget(self._fact_line(fact))
            box.add_widget(self._source_line(fact))
            for i, place in enumerate(PLACES[:3]):
                box.add_widget(
                    stepper(_(place), str(self.pending[i]), lambda d, i=i: self._step(i, d), key=f"place:{i + 1}")
                )
            values = "·".join(map(str, self.pending))
            box.add_widget(
                button(
                    _("Set {area}'s scoreboard to {values}").format(area=self._area(self.selected), values=values),
                    self.set_scoreboard,
                    "primary",
                    key="set_scoreboard",
                )
            )
        box.add_widget(text(_("Every scoreboard:"), bold=True))
        rows = grid(1)
        for fact in self.draft.facts():
            if fact.kind == "scoreboard":
                rows.add_widget(self._fact_button(fact))
        box.add_widget(rows)

    def _page_borders(self, box) -> None:
        if not self.selected:
            box.add_widget(
                text(
                    _(
                        "Tap a region (or France or Portugal) on the map, then each region it borders "
                        "to add or remove that border."
                    )
                )
            )
        else:
            fact = next(f for f in self.draft.area_facts(self.selected) if f.kind == "neighbours")
            box.add_widget(self._fact_line(fact))
            box.add_widget(self._source_line(fact))
            box.add_widget(
                text(
                    _("Tap a region to add or remove its border with {area}; tap {area} again when done.").format(
                        area=self._area(self.selected)
                    )
                )
            )
            box.add_widget(button(_("Done with this one"), lambda: self.choose(""), "quiet", key="deselect"))
        box.add_widget(text(_("Every border:"), bold=True))
        rows = grid(1)
        for fact in self.draft.facts():
            if fact.kind == "neighbours":
                rows.add_widget(self._fact_button(fact))
        box.add_widget(rows)

    def _page_tiles(self, box) -> None:
        box.add_widget(
            text(
                _(
                    "The two Scoring tiles (Enactment puts one on a region): the same tiles on both "
                    "sides of the board. Enter them now, or when a card needs them."
                )
            )
        )
        for fact in self.draft.facts():
            if fact.kind != "tile":
                continue
            box.add_widget(self._fact_line(fact))
            values = self.tiles[fact.area]
            for i, place in enumerate(PLACES):
                box.add_widget(
                    stepper(
                        _(place),
                        str(values[i]),
                        lambda d, t=fact.area, i=i: self._step_tile(t, i, d),
                        key=f"{fact.area}:{i + 1}",
                    )
                )
            box.add_widget(
                button(
                    _("Set {tile} to {values}").format(tile=fact.label, values="·".join(map(str, values))),
                    lambda t=fact.area: self.set_tile(t),
                    "primary",
                    key=f"set:{fact.area}",
                )
            )

    def _fact_button(self, fact):
        chosen = fact.area == self.selected
        return button(
            f"{fact.label}: {fact.words(self.draft.names)} - {_status_words(fact.status)}",
            lambda a=fact.area: self.choose(a),
            "on" if chosen else "normal",
            key=f"fact:{fact.path}",
        )

    def _summary(self, box) -> None:
        missing = [f for f in self.draft.facts() if f.status == "missing"]
        if missing:
            box.add_widget(
                text(
                    _("Missing (the rule book does not print them): {facts}").format(facts=_listed(missing)),
                    color=STATUS_RGB["missing"],
                )
            )
        if self.then and self.draft.needed(self.modules):
            box.add_widget(
                button(_("Start now: ask for them when the game needs them"), self.start_later, key="start_later")
            )

    def start_later(self) -> None:
        """The game starts with the board as it is; each missing fact is asked at the step that
        first needs it (the table screen), then kept here."""
        self.confirm(later=True)

    # ---- taps -------------------------------------------------------------------------

    def show_section(self, key: str) -> None:
        self.section, self.selected, self.pending, self.message = key, "", [], ""
        self._show()
        self.ids.scroll.scroll_y = 1

    def choose(self, area: str) -> None:
        """An area picked (on the map or in the list): its facts to check; "" lets go."""
        self.selected = area
        self.message = ""
        if area and self.section == "scoreboards":
            fact = next(f for f in self.draft.area_facts(area) if f.kind == "scoreboard")
            self.pending = list(fact.value or (0, 0, 0))
        self._show()

    def map_closed(self, area: str) -> None:
        """A tap on an area this page has nothing to check for: why, in one line."""
        b = self.draft.board
        name = _("The Castillo") if area == CASTILLO else names.area(b, b.area_index[area])
        if self.section == "tiles":
            self.message = _("{area}: the Scoring tiles' values are entered beside the map, not on it").format(
                area=name
            )
        elif area == CASTILLO:
            self.message = _("The Castillo borders no region: it has no borders to check")
        else:
            self.message = _("{area} is not a region: it has no scoreboard (only the King stands there)").format(
                area=name
            )

    def map_tapped(self, area: str) -> None:
        border = self.section == "borders" and self.selected and area != self.selected
        if border and area in self.draft.board.region_ids:
            self._call(self.draft.toggle_neighbour, self.selected, area)
            return
        self.choose("" if area == self.selected else area)

    def _step(self, place: int, delta: int) -> None:
        self.pending[place] = max(0, min(MOST_POINTS, self.pending[place] + delta))
        self._show()

    def _step_tile(self, tile: str, place: int, delta: int) -> None:
        values = self.tiles[tile]
        values[place] = max(0, min(MOST_POINTS, values[place] + delta))
        self._show()

    def set_scoreboard(self) -> None:
        self._call(self.draft.set_scoreboard, self.selected, list(self.pending))

    def set_tile(self, tile: str) -> None:
        self._call(self.draft.set_tile, tile, list(self.tiles[tile]))

    def _call(self, edit, *args) -> bool:
        """An edit of the draft; a refusal is shown and nothing changes. Each accepted edit is saved
        only when the table confirms (Back leaves the file as it was)."""
        try:
            edit(*args)
        except RuleFileError as exc:
            self.message = refusal_words(str(exc), self._fact_label)
            self._show()
            return False
        self.message = ""
        self._show()
        return True

    def confirm(self, later: bool = False) -> None:
        """Confirmed and saved. A game waiting for the board needs every fact it needs (unless the
        table chose to enter them `later`, when first needed); opened from the home or new-game
        screen, what was entered is saved even while some are still missing."""
        try:
            try:
                self.draft.confirm(self.modules, later=later)
            except RuleFileError as exc:
                if self.then:
                    self.message = refusal_words(str(exc), self._fact_label)
                    self._show()
                    return
                self.draft.save()
                self.message = _("Saved what you entered. {why}").format(why=refusal_words(str(exc), self._fact_label))
                self._show()
                return
            self.draft.save()
        except OSError as exc:
            self.message = _("Your board could not be saved: {why}").format(why=exc.strerror or exc)
            return
        then, self.then = self.then, None
        if then:
            then()
        else:
            self.manager.current = self.back_to

    def show_other_side(self) -> None:
        """The board's other side (nothing unconfirmed on this one is kept)."""
        self.open_side(OTHER_SIDE[self.draft.side], self.back_to, self.modules)

    def back(self) -> None:
        """Leaves without saving what was not confirmed."""
        self.then = None
        self.manager.current = self.back_to

    def reset(self) -> None:
        Ask(
            _("Reset your board?"),
            _(
                "Your entries for the {side} side go, and the board is shown as "
                "shipped (the rule book's facts and the inferred ones). The next 2023 game on this side shows it "
                "again to confirm."
            ).format(side=self.draft.side),
            _("No, keep it"),
            _("Yes, reset"),
            self._reset,
        ).open()

    def _reset(self) -> None:
        try:
            self.draft.reset()
        except OSError as exc:
            self.message = _("Your board could not be reset: {why}").format(why=exc.strerror or exc)
            return
        self.message = _("Reset: the board as shipped")
        self.selected, self.pending = "", []
        self.tiles = {f.area: list(f.value or (0, 0, 0)) for f in self.draft.facts() if f.kind == "tile"}
        self._show()


def _listed(facts) -> str:
    """Facts named for the table; every scoreboard of a side at once is said so."""
    boards = [f for f in facts if f.kind == "scoreboard"]
    rest = [f.label for f in facts if f.kind != "scoreboard"]
    if len(boards) > 2:
        every = ngettext(
            "{n} scoreboard (every one of this side)", "{n} scoreboards (every one of this side)", len(boards)
        ).format(n=len(boards))
        return ", ".join([every] + rest)
    return ", ".join([f.label for f in boards] + rest)


def _status_words(status: str) -> str:
    return _(STATUS_SHOWN[status]) if status in STATUS_SHOWN else status


def _hex(rgba) -> str:
    return "".join(f"{round(c * 255):02x}" for c in rgba[:3])
