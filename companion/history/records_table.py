"""The player records as a table (issue 33): one table over every rule set, then one per rule set
played; a row per player with their usual colour, games, wins, mean and best score and where the
points came from. Sorting by any column is here too, so the screen only draws. Pure."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.history.people_words import printed_rules
from companion.history.records import GameRecord
from companion.words import N_, _

ALL = "all"  # the table over every rule set
# The points' sources as the table groups them: the regions' scorings (with the King's and the
# Grande's bonuses), the Castillo, the special scorings, and the rest (cards, scores entered).
SOURCE_GROUPS = {
    "regions": ("regions", "king", "grande"),
    "castillo": ("castillo",),
    "special": ("special",),
    "other": ("other",),
}
# (key, heading) of each column, in order (marked for the catalogue: heading() translates)
COLUMNS = (
    ("name", N_("Player")),
    ("games", N_("Games")),
    ("wins", N_("Wins")),
    ("mean", N_("Mean")),
    ("best", N_("Best")),
    ("regions", N_("Regions")),
    ("castillo", N_("Castillo")),
    ("special", N_("Special")),
    ("other", N_("Cards, other")),
)
_HEADINGS = dict(COLUMNS)


def heading(column: str) -> str:
    """A column's heading in the table's language."""
    return _(_HEADINGS[column])


@dataclass
class RecordRow:
    name: str
    colour: str = ""  # the colour they played most ("" when none is known)
    games: int = 0
    wins: int = 0  # a shared win counts for each
    shared_wins: int = 0
    total: int = 0
    best: int = 0
    points: Counter = field(default_factory=Counter)  # by SOURCE_GROUPS key
    colours: Counter = field(default_factory=Counter)

    @property
    def mean(self) -> float:
        return self.total / self.games if self.games else 0.0

    def value(self, column: str):
        if column == "name":
            return self.name.casefold()
        if column in SOURCE_GROUPS:
            return self.points.get(column, 0)
        return getattr(self, column)

    def cell(self, column: str) -> str:
        """The cell's words: the mean with one decimal, the rest as whole numbers."""
        if column == "name":
            return self.name
        if column == "mean":
            return f"{self.mean:.1f}"
        return str(self.value(column))


@dataclass(frozen=True)
class RecordTable:
    rules: str  # ALL or a rule set's id
    title: str  # "All rule sets", or the rule set's printed name
    rows: list[RecordRow]
    games: int  # finished games counted


def _add(row: RecordRow, record: GameRecord, player) -> None:
    row.games += 1
    row.wins += player.winner
    row.shared_wins += player.winner and len(record.winners) > 1
    row.total += player.score
    row.best = max(row.best, player.score)
    for group, sources in SOURCE_GROUPS.items():
        row.points[group] += sum(player.by_source.get(s, 0) for s in sources)
    row.colours[player.id] += 1


def record_tables(records: Iterable[GameRecord]) -> list[RecordTable]:
    """ "All rule sets" first, then each rule set played (most games first), over the finished
    intact games; rows sorted by wins, then mean score."""
    finished = [r for r in records if r.finished and not r.damaged]
    tables = []
    by_rules: dict[str, list[GameRecord]] = defaultdict(list)
    for record in finished:
        by_rules[record.rules].append(record)
    groups = [(ALL, _("All rule sets"), finished)]
    groups += [
        (rules, printed_rules(rules), games)
        for rules, games in sorted(by_rules.items(), key=lambda item: (-len(item[1]), item[0]))
    ]
    for rules, title, games in groups:
        rows: dict[str, RecordRow] = {}
        for record in games:
            for player in record.players:
                name = player.name.strip()
                _add(rows.setdefault(name.casefold(), RecordRow(name)), record, player)
        for row in rows.values():
            row.colour = min(row.colours, key=lambda c: (-row.colours[c], c)) if row.colours else ""
        tables.append(RecordTable(rules, title, sort_rows(list(rows.values()), "wins", True), len(games)))
    return tables


def sort_rows(rows: list[RecordRow], column: str, descending: bool) -> list[RecordRow]:
    """By one column; ties by name (A first), whatever the direction."""
    by_name = sorted(rows, key=lambda r: r.name.casefold())
    return sorted(by_name, key=lambda r: r.value(column), reverse=descending)


def next_sort(current: tuple[str, bool], tapped: str) -> tuple[str, bool]:
    """A heading tapped: sorted by it (numbers largest first, names A first); again: reversed."""
    column, descending = current
    if tapped == column:
        return column, not descending
    return tapped, tapped != "name"
