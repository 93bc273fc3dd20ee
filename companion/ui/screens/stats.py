"""Each player's record as a table: "All rule sets" first, then one per rule set played; a row per
player (their usual colour with its initial), games, wins (a shared victory counts for each), mean
and best score, and where the points came from. A tap on a heading sorts by it, again reverses.
The numbers are companion.history.records_table's; this screen only draws them."""

from __future__ import annotations

from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.history.records import SOURCE_NAMES, SOURCES, cached_records, rules_label, statistics
from companion.history.records_table import COLUMNS, SOURCE_GROUPS, RecordRow, record_tables, sort_rows
from companion.history.records_table import next_sort as next_sort_of
from companion.look.players import look_of
from companion.safe_text import for_markup
from companion.ui.screens.screen_words import RULES_SHOWN
from companion.words import N_, _, names, ngettext

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PLAYER_WEIGHT = 2.4  # the player column against each number column
NARROW_DP = 1100  # narrower than this (portrait): the points' sources go to the row's detail line
MAIN_COLUMNS = COLUMNS[:5]  # player, games, wins, mean, best
ABOUT_RECORDS = N_(
    "Finished games on this tablet; a shared victory counts as a win for each. Regions: the regions' scorings"
    " with the King's and the Grande's bonuses. Tap a heading to sort, a player for where their points came from."
)
NO_RECORDS = N_("No finished game yet: each player's record appears after the first.")
SOURCE_WORDS = {
    "regions": N_("the regions"),
    "castillo": N_("the Castillo"),
    "special": N_("special scorings"),
    "other": N_("cards and other"),
}

# The table's headings and the points' sources in the table's language (the numbers' module keeps
# its English words for the exports and the log)
HEADINGS = {
    "name": N_("Player"),
    "games": N_("Games"),
    "wins": N_("Wins"),
    "mean": N_("Mean"),
    "best": N_("Best"),
    "regions": N_("Regions"),
    "castillo": N_("Castillo"),
    "special": N_("Special"),
    "other": N_("Cards, other"),
}
SOURCES_SHOWN = {
    "regions": N_("Regions"),
    "castillo": N_("Castillo"),
    "king": N_("King's bonus"),
    "grande": N_("Grande's bonus"),
    "special": N_("Special scorings"),
    "other": N_("Other (cards, entered scores)"),
}


def table_title(table) -> str:
    """A tab's words: "All rule sets", or the rule set by its printed name."""
    if table.rules == "all":
        return _("All rule sets")
    return names.rule_set(RULES_SHOWN[table.rules]) if table.rules in RULES_SHOWN else table.title


def stats_text(stats) -> str:
    """Every record in words (markup), for what reads the records as text."""
    if not stats:
        return _(NO_RECORDS)
    out, rules = [], None
    for s in stats:
        if s.rules != rules:
            rules = s.rules
            label = names.rule_set(RULES_SHOWN[rules]) if rules in RULES_SHOWN else rules_label(rules)
            out.append(f"\n[b][size=20sp]{for_markup(label)}[/size][/b]")
        sources = ", ".join(
            f"{_(SOURCES_SHOWN.get(k, SOURCE_NAMES[k]))} {s.by_source.get(k, 0)}"
            for k in SOURCES
            if s.by_source.get(k, 0)
        )
        games = ngettext("{n} game", "{n} games", s.games).format(n=s.games)
        won = (
            ngettext("{n} won ({shared} shared)", "{n} won ({shared} shared)", s.wins).format(
                n=s.wins, shared=s.shared_wins
            )
            if s.shared_wins
            else ngettext("{n} won", "{n} won", s.wins).format(n=s.wins)
        )
        line = _("{name}: {games}, {won}, mean {mean}, best {best}").format(
            name=f"[b]{for_markup(s.name)}[/b]", games=games, won=won, mean=f"{s.mean:.1f}", best=s.best
        )
        out.append(line + "\n    " + _("points from: {sources}").format(sources=sources))
    return "\n".join(out).strip()


class RecordLine(ButtonBehavior, BoxLayout):
    """One player's row: their colour's chip with its initial (or a neutral one), then the cells."""

    rgb = ListProperty([0.6, 0.6, 0.6, 1])
    initial = StringProperty("")
    initial_rgb = ListProperty([1, 1, 1, 1])
    name = StringProperty("")
    odd = BooleanProperty(False)


def points_words(row: RecordRow) -> str:
    """The row's detail line: where the points came from, in words."""
    points = ", ".join(f"{_(SOURCE_WORDS[k])} {row.points.get(k, 0)}" for k in SOURCE_GROUPS)
    if row.shared_wins:
        return ngettext(
            "{name}: points from {points}, {n} of the wins shared.",
            "{name}: points from {points}, {n} of the wins shared.",
            row.shared_wins,
        ).format(name=for_markup(row.name), points=points, n=row.shared_wins)
    return _("{name}: points from {points}.").format(name=for_markup(row.name), points=points)


def record_line(row: RecordRow, odd: bool, columns=COLUMNS) -> RecordLine:
    look = look_of(row.colour) if row.colour else None
    line = RecordLine(
        rgb=[*look.rgb, 1] if look else [0.6, 0.6, 0.6, 1],
        initial=look.initial if look else "",
        initial_rgb=[0.1, 0.08, 0.05, 1] if look and look.dark_figures else [1, 1, 1, 1],
        name=for_markup(row.name),
        odd=odd,
    )
    for key, _heading in columns[1:]:
        line.add_widget(Factory.RecordCell(text=row.cell(key)))
    return line


class StatsScreen(Screen):
    model = ObjectProperty(None)
    text = StringProperty("")  # every record in words (stats_text)
    empty = BooleanProperty(True)
    sort = ListProperty(["wins", True])  # column, largest first
    shown = StringProperty("all")  # the rule set whose table is shown
    caption = StringProperty("")
    narrow = BooleanProperty(False)  # portrait: the main columns, the sources in a row's detail
    opened = StringProperty("")  # the row whose detail line is open (a name)
    _tables: list = []

    def on_size(self, *args) -> None:
        narrow = self.width < dp(NARROW_DP)
        if narrow != self.narrow:
            self.narrow = narrow
            if self._tables:
                self.draw()

    def open_row(self, name: str) -> None:
        """A row tapped: its detail line (the points' sources, the shared wins) opens; again closes."""
        self.opened = "" if self.opened == name else name
        self.draw()

    def on_pre_enter(self, *args) -> None:
        records = cached_records()
        self.text = stats_text(statistics(records))
        self._tables = record_tables(records)
        self.empty = not self._tables[0].rows
        self.caption = _(NO_RECORDS) if self.empty else _(ABOUT_RECORDS)
        if self.shown not in {t.rules for t in self._tables}:
            self.shown = "all"
        self._draw_tabs()
        self.draw()

    def _draw_tabs(self) -> None:
        tabs = self.ids.tabs
        tabs.clear_widgets()
        for table in self._tables if len(self._tables) > 2 else self._tables[:1]:
            tab = Factory.RulesTab(text=table_title(table), state="down" if table.rules == self.shown else "normal")
            tab.bind(on_release=lambda _, r=table.rules: self.show_rules(r))
            tabs.add_widget(tab)

    def show_rules(self, rules: str) -> None:
        self.shown = rules
        for tab, table in zip(reversed(self.ids.tabs.children), self._tables):
            tab.state = "down" if table.rules == rules else "normal"
        self.draw()

    def sort_by(self, column: str) -> None:
        self.sort = list(next_sort_of((self.sort[0], self.sort[1]), column))
        self.draw()

    def draw(self) -> None:
        heads, body = self.ids.heads, self.ids.rows
        heads.clear_widgets()
        body.clear_widgets()
        column, descending = self.sort
        columns = MAIN_COLUMNS if self.narrow else COLUMNS
        if column not in dict(columns):
            column, descending = self.sort = ["wins", True]
        for key, words in columns:
            # the sorted column's arrow (Roboto has no triangles; Kivy's DejaVu Sans has)
            mark = f" [font=DejaVuSans]{'▼' if descending else '▲'}[/font]" if key == column else ""
            head = Factory.RecordHeading(
                text=_(HEADINGS.get(key, words)) + mark, size_hint_x=PLAYER_WEIGHT if key == "name" else 1
            )
            head.bind(on_release=lambda _, k=key: self.sort_by(k))
            heads.add_widget(head)
        table = next((t for t in self._tables if t.rules == self.shown), None)
        if table is None:
            return
        for i, row in enumerate(sort_rows(table.rows, column, descending)):
            line = record_line(row, i % 2 == 1, columns)
            line.bind(on_release=lambda _, n=row.name: self.open_row(n))
            body.add_widget(line)
            if row.name == self.opened:
                body.add_widget(Factory.RecordDetail(text=points_words(row)))
