"""Every game remembered: what each saved game came to, a replay of it step by step from the
engine's public views, the players the table knows, and each player's record.

A game is its setup plus its events (engine.game); a saved game is its setup plus the records
the table accepted (companion.storage.game_log). A replay re-applies the effective records (the undos taken
out) to a fresh, log-less table and keeps the public view after each event: exactly what the
tablet showed at that moment, so nothing hidden appears before its moment (the Castillo's
content before it was opened, a secret disc before the reveal, a hand ever).

Nothing here writes a file or needs a display.
"""

from __future__ import annotations

import logging
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from companion.history.people_words import printed_rules, spoken_date
from companion.storage.files import display_name
from companion.storage.game_log import scan_log
from companion.storage.games_folder import log_paths, modified
from companion.table.undo_words import step_words
from companion.words import N_, _
from engine.board.model import CASTILLO
from engine.events import Event, GameSetup
from engine.flow import apply_event
from engine.game import start_state
from engine.views import public_view

log = logging.getLogger("companion.history.records")

# The log's name holds when the game began (store.GameLog.create): game-YYYYmmdd-HHMMSS-xxxx.jsonl
_STARTED = re.compile(r"game-(\d{8})-(\d{6})")
# Where a scoring line's points came from (statistics): a special scoring counts as one source.
SOURCES = ("regions", "castillo", "king", "grande", "special", "other")
SOURCE_NAMES = {  # marked for the catalogue: source_name() gives them in the table's language
    "regions": N_("Regions"),
    "castillo": N_("Castillo"),
    "king": N_("King's bonus"),
    "grande": N_("Grande's bonus"),
    "special": N_("Special scorings"),
    "other": N_("Other (cards, entered scores)"),
}
# The same, as a phrase inside a sentence ("most from the regions (40)").
SOURCE_PHRASES = {
    "regions": N_("most from regions ({points})"),
    "castillo": N_("most from castillo ({points})"),
    "king": N_("most from king's bonus ({points})"),
    "grande": N_("most from grande's bonus ({points})"),
    "special": N_("most from special scorings ({points})"),
    "other": N_("most from other (cards, entered scores) ({points})"),
}


def source_name(source: str) -> str:
    """Where points came from, in the table's language ("Regions", "Regionen")."""
    return _(SOURCE_NAMES[source])


def rules_label(rules: str, modules: Iterable[str] = ()) -> str:
    """The rule set and its modules by their printed names (companion.history.people_words)."""
    return printed_rules(rules, modules)


def line_source(scoring_title: str, line: dict) -> str:
    """The statistics' source of one itemised scoring line."""
    if not scoring_title.startswith("General scoring"):
        return "special"
    kind = line.get("kind")
    if kind == "king_bonus":
        return "king"
    if kind == "home_bonus":
        return "grande"
    if kind == "place":
        return "castillo" if line.get("area") == CASTILLO else "regions"
    return "other"


@dataclass(frozen=True)
class PlayerResult:
    id: str  # the Caballero colour
    name: str
    score: int
    winner: bool
    seat: int  # 1-based, in the setup's order
    start_player: bool
    by_source: dict[str, int]


@dataclass
class GameRecord:
    """A saved game as lists, statistics and exports see it."""

    path: Path | None
    started: datetime | None
    last_write: datetime | None
    rules: str
    modules: list[str]
    variant: str
    mode: str
    players: list[PlayerResult]
    finished: bool
    round: int
    rounds: int
    damaged: str = ""  # what is wrong, when the log cannot be read to its end

    @property
    def winners(self) -> list[PlayerResult]:
        return [p for p in self.players if p.winner]

    @property
    def rules_label(self) -> str:
        return rules_label(self.rules, self.modules)

    @property
    def duration_min(self) -> int | None:
        """From the log's creation to its last write; None when either is unknown."""
        if not (self.started and self.last_write) or self.last_write < self.started:
            return None
        return round((self.last_write - self.started).total_seconds() / 60)

    @property
    def name(self) -> str:
        return display_name(self.path) if self.path else _("in memory")

    def to_json(self) -> dict:
        return {
            "file": str(self.path) if self.path else None,
            "date": self.started.isoformat(sep=" ", timespec="minutes") if self.started else None,
            "rules": self.rules,
            "modules": self.modules,
            "variant": self.variant,
            "mode": self.mode,
            "finished": self.finished,
            "round": self.round,
            "rounds": self.rounds,
            "duration_min": self.duration_min,
            "players": [
                {"colour": p.id, "name": p.name, "score": p.score, "winner": p.winner, "points_by_source": p.by_source}
                for p in self.players
            ],
            "winners": [p.name for p in self.winners],
            **({"damaged": self.damaged} if self.damaged else {}),
        }


def started_at(path: Path | None, header_started: float | None = None) -> datetime | None:
    """When the game began, in local time: the header's `started` (written since issue 31), else
    the time in the log's file name (local time when it was made). Never the last write: a
    game's date does not move when its file is touched."""
    if header_started is not None:
        return datetime.fromtimestamp(header_started)
    match = _STARTED.search(path.name) if path else None
    if not match:
        return None
    try:
        return datetime.strptime("".join(match.groups()), "%Y%m%d%H%M%S")
    except ValueError:
        return None


def _load_table(path: Path):
    """A log-less table replayed from the log, and what is wrong with it ("" when nothing)."""
    from companion.table.authority import load_saved  # the table's own reading: damage is a message, never a traceback

    loaded = scan_log(path)
    table, damage = load_saved(path, loaded)
    return table, (damage.summary() if damage else "")


def record_of_table(table, path: Path | None = None, damaged: str = "") -> GameRecord:
    game = table.public().game
    setup = table.setup.game
    by_source = _points_by_source(game.get("scorings", []))
    winners = set(game.get("winners", []))
    finished = table.over
    players = [
        PlayerResult(
            id=p["id"],
            name=p["name"],
            score=p["score"],
            winner=finished and p["id"] in winners,
            seat=i + 1,
            start_player=p["id"] == setup.start_player,
            by_source=_with_other(by_source.get(p["id"], {}), p["score"]),
        )
        for i, p in enumerate(p for p in game["players"] if p["id"] != setup.dummy)
    ]
    last = datetime.fromtimestamp(modified(path)) if path and modified(path) else None
    return GameRecord(
        path=path,
        started=started_at(path, table.started),
        last_write=last,
        rules=setup.rules,
        modules=list(setup.modules),
        variant=setup.variant,
        mode=table.mode,
        players=players,
        finished=finished,
        round=game.get("round", 0),
        rounds=len(game.get("rounds", [])),
        damaged=damaged,
    )


def _points_by_source(scorings: list[dict]) -> dict[str, Counter]:
    totals: dict[str, Counter] = defaultdict(Counter)
    for scoring in scorings:
        for line in scoring["lines"]:
            totals[line["player"]][line_source(scoring["title"], line)] += line["points"]
    return totals


def _with_other(points: Counter, score: int) -> dict[str, int]:
    """Every source, and what no scoring line explains (cards' points, scores entered) as other."""
    shown = {s: points.get(s, 0) for s in SOURCES}
    shown["other"] += score - sum(shown.values())
    return shown


def read_record(path: Path) -> GameRecord:
    """What one saved game came to. Never raises: a log that cannot be read is a record with
    no players and `damaged` saying why; a damaged one, what its intact records hold."""
    try:
        table, damaged = _load_table(path)
    except Exception as exc:  # data from disk: any failure is damage, never a traceback
        log.warning("reading %s failed: %s", path, exc)
        table, damaged = None, _("it could not be read ({error})").format(error=type(exc).__name__)
    if table is None:
        return GameRecord(
            path=path,
            started=started_at(path),
            last_write=None,
            rules="?",
            modules=[],
            variant="?",
            mode="?",
            players=[],
            finished=False,
            round=0,
            rounds=0,
            damaged=damaged or _("it holds no game"),
        )
    return record_of_table(table, path, damaged)


def game_records(folder: Path | None = None) -> list[GameRecord]:
    """Every game in the games folder, newest first."""
    return [read_record(path) for path in log_paths(folder)]


def last_finished(folder: Path | None = None) -> GameRecord | None:
    """The most recently finished intact game (by its log's last write)."""
    for path in log_paths(folder):
        record = read_record(path)
        if record.finished and not record.damaged:
            return record
    return None


# ---- players the table knows -----------------------------------------------------------------


@dataclass(frozen=True)
class KnownPlayer:
    name: str
    colour: str  # the colour they played most often (the latest on a tie)
    games: int


def known_players(records: Iterable[GameRecord]) -> list[KnownPlayer]:
    """Everyone who played, by name, most games first, with their usual colour. Default names
    (a colour's own name: "Red") are not people and are left out."""
    colours: dict[str, Counter] = defaultdict(Counter)
    latest: dict[str, dict[str, int]] = defaultdict(dict)  # colour -> its newest game's rank
    spelling: dict[str, str] = {}
    for rank, record in enumerate(records):  # newest first
        for p in record.players:
            key = p.name.strip().casefold()
            if not key or key == p.id.casefold() or key.startswith("the dummy"):
                continue
            spelling.setdefault(key, p.name.strip())
            colours[key][p.id] += 1
            latest[key].setdefault(p.id, rank)
    known = [
        KnownPlayer(spelling[k], min(c, key=lambda col: (-c[col], latest[k][col])), sum(c.values()))
        for k, c in colours.items()
    ]
    return sorted(known, key=lambda k: (-k.games, k.name.casefold()))


# ---- statistics ---------------------------------------------------------------------------------


@dataclass
class PlayerStats:
    name: str
    rules: str
    games: int = 0
    wins: int = 0  # a shared victory is a win for each (the rules: "they all share in the victory")
    shared_wins: int = 0  # of those, shared
    total: int = 0
    best: int = 0
    by_source: Counter = field(default_factory=Counter)

    @property
    def mean(self) -> float:
        return self.total / self.games if self.games else 0.0

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "rules": self.rules,
            "games": self.games,
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "mean_score": round(self.mean, 1),
            "best_score": self.best,
            "points_by_source": {s: self.by_source.get(s, 0) for s in SOURCES},
        }


def statistics(records: Iterable[GameRecord]) -> list[PlayerStats]:
    """Per player (by name) and rule system, over the finished intact games."""
    table: dict[tuple[str, str], PlayerStats] = {}
    for record in records:
        if not record.finished or record.damaged:
            continue
        shared = len(record.winners) > 1
        for p in record.players:
            key = (p.name.strip().casefold(), record.rules)
            stats = table.setdefault(key, PlayerStats(p.name.strip(), record.rules))
            stats.games += 1
            stats.wins += p.winner
            stats.shared_wins += p.winner and shared
            stats.total += p.score
            stats.best = max(stats.best, p.score)
            stats.by_source.update(p.by_source)
    return sorted(table.values(), key=lambda s: (s.rules, -s.wins, -s.mean, s.name.casefold()))


# ---- the replay -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    number: int  # 0: the setup, before any event
    round: int  # the round the step belongs to: the scoring after round 3 ends round 3, it is not round 4's
    what: str  # the input, in the words the table saw it
    view: dict  # the public game view after it (engine.views / the scoring-only view)
    kind: str = ""  # the input's type (an event's), whatever language `what` is in

    @property
    def scores(self) -> dict[str, int]:
        return {p["id"]: p["score"] for p in self.view["players"]}


@dataclass(frozen=True)
class TurningPoint:
    step: int
    round: int
    title: str  # the scoring that caused it
    swing: int  # the largest gain minus the smallest, among the players
    gains: dict[str, int]
    lead_before: list[str]
    lead_after: list[str]
    best_areas: list[tuple[str, int]] = field(default_factory=list)  # the top gainer's largest lines, by area

    def words(self, names: dict[str, str], area_name=lambda a: a) -> str:
        from companion.history.people_words import and_list
        from companion.history.scoring_words import scoring_title

        gained = ", ".join(f"{names.get(p, p)} {g:+d}" for p, g in sorted(self.gains.items(), key=lambda x: -x[1]))
        if self.best_areas:
            top = max(self.gains, key=self.gains.get)
            areas = ", ".join(f"{area_name(a)} {pts:+d}" for a, pts in self.best_areas)
            gained = f"{gained} ({names.get(top, top)}: {areas})"
        said = _("Round {round}, {scoring}: {gains}").format(
            round=self.round, scoring=scoring_title(self.title), gains=gained
        )
        if set(self.lead_after) != set(self.lead_before):
            leaders = and_list(names.get(p, p) for p in self.lead_after)
            said = _("{turning_point}; the lead passes to {who}").format(turning_point=said, who=leaders)
        return said

    def headline(self, names: dict[str, str]) -> str:
        """One short line for its button: the round, the kind of scoring, the top gain, a new lead."""
        from companion.history.people_words import and_list

        general = self.title.startswith("General scoring")
        top = max(self.gains, key=self.gains.get)
        gain = f"{names.get(top, top)} {self.gains[top]:+d}"
        if set(self.lead_after) != set(self.lead_before):
            leaders = and_list(names.get(p, p) for p in self.lead_after)
            said = (
                _("Round {round}, general scoring: {gain}, {who} ahead")
                if general
                else _("Round {round}, special scoring: {gain}, {who} ahead")
            )
            return said.format(round=self.round, gain=gain, who=leaders)
        said = _("Round {round}, general scoring: {gain}") if general else _("Round {round}, special scoring: {gain}")
        return said.format(round=self.round, gain=gain)


class Replay:
    """A game's public views, one per effective input, with the setup first."""

    demo = False  # the scripted demo game (demo_replay): its steps are taught (step_story.lesson)

    def __init__(self, steps: list[Step], names: dict[str, str], players: list[str], rules: str = "classic"):
        self.steps = steps
        self.names = names
        self.players = players  # scoring players (the dummy left out)
        self.rules = rules

    def __len__(self) -> int:
        return len(self.steps)

    def round_starts(self) -> list[int]:
        """The first step of each round, for jumping round by round."""
        starts, seen = [], None
        for step in self.steps:
            if step.round != seen:
                starts.append(step.number)
                seen = step.round
        return starts

    def score_steps(self) -> dict[str, list[tuple[int, int]]]:
        """(step, score) wherever a score changed, per player, from 0 at the setup: a staircase."""
        if getattr(self, "_score_steps", None) is None:
            self._score_steps = self._staircase()
        return self._score_steps

    def _staircase(self) -> dict[str, list[tuple[int, int]]]:
        history = {p: [(0, self.steps[0].scores.get(p, 0))] for p in self.players}
        for step in self.steps[1:]:
            for p, pts in history.items():
                score = step.scores.get(p, 0)
                if score != pts[-1][1]:
                    pts.append((step.number, score))
        return history

    def turning_points(self, count: int = 3) -> list[TurningPoint]:
        """The steps whose scorings moved the scores apart the most, largest first."""
        found = []
        for before, after in zip(self.steps, self.steps[1:]):
            scorings = after.view.get("scorings", [])
            if len(scorings) == len(before.view.get("scorings", [])):
                continue
            gains = {p: after.scores.get(p, 0) - before.scores.get(p, 0) for p in self.players}
            swing = max(gains.values()) - min(gains.values())
            if swing <= 0:
                continue
            top = max(gains, key=gains.get)
            found.append(
                TurningPoint(
                    after.number,
                    scorings[-1]["round"],
                    scorings[-1]["title"],
                    swing,
                    gains,
                    _leaders(before.scores, self.players),
                    _leaders(after.scores, self.players),
                    _best_areas(scorings[-1]["lines"], top),
                )
            )
        return sorted(found, key=lambda t: (-t.swing, t.step))[:count]


def _best_areas(lines: list[dict], player: str, count: int = 2) -> list[tuple[str, int]]:
    by_area: Counter = Counter()
    for line in lines:
        if line["player"] == player:
            by_area[line["area"]] += line["points"]
    return [(a, pts) for a, pts in by_area.most_common(count) if pts > 0]


def _leaders(scores: dict[str, int], players: list[str]) -> list[str]:
    top = max(scores.get(p, 0) for p in players)
    return [p for p in players if scores.get(p, 0) == top]


def replay_events(setup: GameSetup, events: Iterable[Event], board=None) -> Replay:
    """The replay of an engine game (setup + events: a golden log, engine.game's JSON lines)."""
    state = start_state(setup, board)
    names = dict(state.names)
    steps = [Step(0, state.round, _("the setup"), public_view(state).model_dump(mode="json"))]
    for number, event in enumerate(events, start=1):
        played_in = state.round  # an event ending a round moves the round on: it belongs to the one it ends
        apply_event(state, event)
        steps.append(
            Step(
                number,
                played_in,
                step_words(event.model_dump(mode="json"), names),
                public_view(state).model_dump(mode="json"),
                event.type,
            )
        )
    return Replay(steps, names, list(setup.players), setup.rules)


def replay_table(source) -> Replay:
    """The replay of a table's game (a Table, live or read back): its effective records applied
    one by one to a fresh log-less table, the public view kept after each event."""
    from companion.table.authority import Table

    fresh = Table(source.setup, None)
    names = dict(fresh.names)
    steps = [Step(0, fresh.public().game.get("round", 0), _("the setup"), fresh.public().game)]
    played_in = steps[0].round
    for record in source.effective:
        fresh.apply_record(record)
        if record["t"] == "event":
            view = fresh.public().game
            steps.append(Step(len(steps), played_in, step_words(record["e"], names), view, record["e"].get("type", "")))
            played_in = view.get("round", 0)  # an event ending a round belongs to the round it ends
    return Replay(steps, names, list(source.setup.game.players), source.setup.game.rules)


def replay_log(path: Path) -> Replay:
    """The replay of a saved game; a damaged one up to its last intact record. Raises
    ValueError (one line) when nothing of it can be read."""
    table, damaged = _load_table(path)
    if table is None:
        raise ValueError(f"{display_name(path)}: {damaged}")
    return replay_table(table)


def demo_replay(seed: int = 7) -> Replay:
    """A short scripted 4-player game, in memory: for someone without a board or a group."""
    from companion.scripted import play, scripted_setup
    from companion.table.authority import Table

    table = Table(scripted_setup(variant="short"), None)
    play(table, seed)
    replay = replay_table(table)
    replay.demo = True
    return replay


def when(record: GameRecord) -> str:
    """The day the game began, as people say it (the last write only for a log too old to say)."""
    return spoken_date(record.started or record.last_write)


_cache: dict[Path, tuple[tuple, GameRecord]] = {}


def _signature(path: Path) -> tuple:
    from companion.storage.game_log import tip_path

    sig = []
    for p in (path, tip_path(path)):
        try:
            st = p.stat()
            sig.append((st.st_mtime_ns, st.st_size))
        except OSError:
            sig.append(None)
    return tuple(sig)


def cached_records(folder: Path | None = None) -> list[GameRecord]:
    """game_records, each log read again only when its files changed (the home screen and the
    new-game screen ask often)."""
    records = []
    for path in log_paths(folder):
        key = _signature(path)
        hit = _cache.get(path)
        if hit is None or hit[0] != key:
            hit = _cache[path] = (key, read_record(path))
        records.append(hit[1])
    return records
