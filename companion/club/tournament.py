"""A tournament across games: players, seating, results and standings; saved in a journal.

Standings (documented in the README):
- tournament points by rank at the table: 1st 6, 2nd 4, 3rd 2, 4th 1, 5th 0; players with equal
  final scores share the better rank and both get its points (El Grande's shared victory);
- then the total of game scores;
- then the tiebreak: more first places, then the name (alphabetically, so the order is stable).

Seating: tables of 4 where possible, else 3 or 5 (El Grande seats 2 to 5; 3 is the least a table here takes).
The first round is random (the seed is saved); later rounds seat by standings with the fewest rematches
(companion.club.seating).

Byes: when the tables given cannot seat every player (at most 5 a table), the players left over sit the round
out with a bye: the lowest ranked who have had no bye yet (in round 1, the last of the random order). A bye is
worth BYE_POINTS tournament points (what 3rd place earns: about an average finish) and no game score; it is
not a game played and never a first place.

A player who leaves is withdrawn: not seated from the next round on, still in the standings with the games
played (marked withdrawn); the organiser can bring them back.

An event: each tournament file is one event with its own random id (its first record), so a new file is a new
event and nothing of another one (a retained state left on the broker) counts.

A result counts only when it fits (Tournament.take_result): the game carries this event's id and a round's id
(the seating it was started under: topics.Seated, not learnt after play began), the table is seated in that
round, its players are exactly the ones seated there (case and spaces ignored), and that table has no result
for that round yet. Anything else is refused with its reason and listed for the organiser (`refused`), never
counted in silence; the organiser may enter a refused game's scores by hand (a correction), checked against
the seating the same way. A result is taken once per (table id, game id): the retained state of a finished
game may arrive again (a reconnect, a restart of the board), it is counted once.

A result that came by a way its table may not post (through another hall's bridge: `refuse`) is listed too,
with the hall it came through; it names no table's game, so it cannot be entered by hand, and it never stands
in the way of the table's own result.

The journal is append-only JSON lines, each written, flushed and fsync'd before the change is acted on; a torn
last line (a crash mid-write) is skipped with a warning.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import random
import threading
import time
from pathlib import Path
from typing import Any

from companion.club.errors import Reason, TournamentError, not_seated
from companion.club.seating import clashes, in_order, met_over, seat_by_standings
from companion.safe_text import for_csv
from companion.words import N_

log = logging.getLogger("companion.club.tournament")

POINTS = {1: 6, 2: 4, 3: 2, 4: 1, 5: 0}
BYE_POINTS = 2
MAX_PLAYERS = 2000  # a large convention: 500 tables of 4
MAX_NAME = 40
MAX_SCORE = 1000
# Why a finished game is not counted (Reason: the organiser page says it in its own language).
MISFITS = {
    "scores": N_("its scores are not whole numbers from 0 to {max} with a name each"),
    "no seating": N_("the game carries no seating of this event (it started before the table had the board's seating)"),
    "before any round": N_("the game was started before any round was seated"),
    "unknown round": N_("the game names round {n} with a seating this tournament never made"),
    "late": N_(
        "the game had begun before the table learnt round {n}'s seating (a resumed game or a "
        "lost link): enter its scores by hand if it is that round's game"
    ),
    "not seated": N_("{table} is not seated in round {n}"),
    "other players": N_("its players ({players}) are not the ones seated at {table} in round {n} ({seated})"),
    "done": N_("{table} already has its round {n} result (game {game})"),
}
MAX_REFUSED = 500  # refused results kept for the organiser (the oldest go first)
SCORES = N_('a correction gives every player\'s final score: {{"name": score, ...}} with scores from 0 to {n}')


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def table_sizes(n: int) -> list[int]:
    """Tables of 4 where possible, else 3 or 5."""
    if n < 3:
        raise TournamentError(N_("{n} players: a table needs at least 3 (register more players)"), n=n)
    if n in (3, 5):
        return [n]
    fours, rest = divmod(n, 4)
    if rest == 0:
        return [4] * fours
    if rest == 1:
        return [4] * (fours - 1) + [5]
    if rest == 2:
        return [4] * (fours - 2) + [5, 5] if fours >= 2 else [3, 3]
    return [4] * fours + [3]


def ranked(standings: list[dict]) -> list[dict]:
    """name, score, rank (equal scores share the better rank), best first."""
    ordered = sorted(standings, key=lambda s: -int(s["score"]))
    out: list[dict] = []
    for i, s in enumerate(ordered):
        rank = i + 1 if i == 0 or s["score"] != ordered[i - 1]["score"] else out[-1]["rank"]
        out.append({"name": str(s["name"]), "score": int(s["score"]), "rank": rank})
    return out


def _fair_score(score: Any) -> bool:
    return isinstance(score, int) and not isinstance(score, bool) and 0 <= score <= MAX_SCORE


def _as_shown(standings: list[dict]) -> list[dict]:
    """A refused result as the organiser sees it: ranked if its scores are fair, else as sent (in one line)."""
    if all(_fair_score(s.get("score")) and isinstance(s.get("name"), str) for s in standings):
        return ranked(standings)
    return [
        {"name": one_name(str(s.get("name"))), "score": one_name(str(s.get("score")))[:20], "rank": "?"}
        for s in standings
    ]


def one_name(text: str) -> str:
    return " ".join(str(text).split())[:MAX_NAME]


class Journal:
    """Append-only JSON lines with fsync."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.warnings: list[str] = []

    def read(self) -> list[dict]:
        if not self.path.exists():
            return []
        records = []
        data = self.path.read_bytes()
        lines = data.split(b"\n")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if not isinstance(record, dict) or "t" not in record:
                    raise ValueError("not a record")
            except ValueError:
                last = number == len(lines) or (number == len(lines) - 1 and not lines[-1])
                if last and not data.endswith(b"\n"):
                    self.warnings.append(f"{self.path}: line {number} was cut by a crash mid-write; skipped")
                    with open(self.path, "r+b") as f:  # cut it, so the next append starts a clean line
                        f.truncate(len(data) - len(line))
                        os.fsync(f.fileno())
                    break
                words = N_(
                    "{path}: line {number} is not a tournament record; the journal was edited by hand or damaged"
                )
                raise TournamentError(words, path=self.path, number=number) from None
            records.append(record)
        return records

    def append(self, record: dict) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        with open(self.path, "ab") as f:
            f.write(line.encode())
            f.flush()
            os.fsync(f.fileno())


class Tournament:
    """Thread-safe: the board's MQTT thread hands results in, the web server reads and acts."""

    def __init__(self, journal: Journal | None = None):
        self._lock = threading.RLock()
        self.journal = journal
        self.players: list[str] = []
        self.rounds: list[dict] = []  # {"n", "tables": {table_id: [names]}, "seed"}
        self.results: dict[str, dict] = {}  # "table/game" -> {"table", "game", "round", "standings", "void"}
        self.refused: dict[str, dict] = {}  # "table/game" -> {"table", "game", "round", "reason", "standings"}
        self.withdrawn: set[str] = set()  # _key(name) of players no longer seated
        self.event = ""
        if journal is not None:
            for record in journal.read():
                self._apply(record)
        if not self.event:  # a new file (or one from before events): a fresh event, its first record
            self._commit({"t": "event", "id": os.urandom(8).hex()})

    # ---- changes: checked, journalled, then applied -----------------------------------

    def _commit(self, record: dict) -> None:
        record = {**record, "at": round(time.time(), 3)}
        if self.journal is not None:
            self.journal.append(record)
        self._apply(record)

    def _apply(self, r: dict) -> None:
        kind = r["t"]
        if kind == "event":
            self.event = self.event or r["id"]
        elif kind == "register":
            self.players.append(r["name"])
        elif kind == "round":
            self.rounds.append(
                {
                    "n": r["n"],
                    "tables": r["tables"],
                    "seed": r.get("seed"),
                    "id": r.get("id") or f"round-{r['n']}",
                    "at": r.get("at", 0.0),
                    "byes": r.get("byes", []),
                }
            )
        elif kind == "result":
            self.results[f"{r['table']}/{r['game']}"] = {
                "table": r["table"],
                "game": r["game"],
                "round": r["round"],
                "standings": ranked(r["standings"]),
                "void": False,
            }
        elif kind == "withdraw":
            (self.withdrawn.discard if r.get("back") else self.withdrawn.add)(_key(r["name"]))
        elif kind == "correct":
            res = self.results[f"{r['table']}/{r['game']}"]
            if r.get("void"):
                res["void"] = True
            else:
                res["standings"], res["void"] = ranked(r["standings"]), False

    def register(self, name: Any) -> str:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            words = N_("player name {name}: give 1 to {n} printable characters")
            raise TournamentError(words, name=repr(str(name)[:60]), n=MAX_NAME)
        name = " ".join(name.split())
        with self._lock:
            if _key(name) in {_key(p) for p in self.players}:
                raise TournamentError(
                    N_("{name} is already registered (names must differ, ignoring case)"), name=repr(name)
                )
            if len(self.players) >= MAX_PLAYERS:
                raise TournamentError(N_("the tournament has {n} players, the most it takes"), n=MAX_PLAYERS)
            self._commit({"t": "register", "name": name})
        return name

    def withdraw(self, name: Any, back: bool = False) -> dict:
        """A player leaves (not seated from the next round on), or comes back."""
        if not isinstance(name, str) or not name.strip():
            raise TournamentError(N_('name the player: {{"name": "Ann"}} (and "back": true to seat them again)'))
        with self._lock:
            player = next((p for p in self.players if _key(p) == _key(name)), None)
            if player is None:
                raise TournamentError(N_("{name} is not registered"), name=repr(one_name(name)))
            if (_key(player) in self.withdrawn) != back:
                words = N_("{name} is already playing") if back else N_("{name} is already withdrawn")
                raise TournamentError(words, name=player)
            self._commit({"t": "withdraw", "name": player, "back": bool(back)})
            return {"name": player, "withdrawn": not back}

    @property
    def active_players(self) -> list[str]:
        return [p for p in self.players if _key(p) not in self.withdrawn]

    def seat_round(self, table_ids: list[str], seed: int | None = None) -> dict:
        """Seats the next round at the given tables; returns the round."""
        with self._lock:
            if self.rounds and not self.round_complete(self.rounds[-1]["n"]):
                words = N_("round {n} is not finished: {tables} still playing (or correct their results)")
                raise TournamentError(words, n=self.rounds[-1]["n"], tables=", ".join(self.waiting_tables()))
            playing = self.active_players
            if len(set(table_ids)) != len(table_ids):
                raise TournamentError(N_("a table id is given twice"))
            if not table_ids:
                raise TournamentError(N_("give at least one table to seat"))
            seats = self._seats_for(len(playing), len(table_ids))
            sizes = table_sizes(seats)
            if not self.rounds:
                seed = random.randrange(2**31) if seed is None else seed
                order = list(playing)
                random.Random(seed).shuffle(order)
                order, byes = self._without_byes(order, len(playing) - seats)
                groups = in_order(order, sizes)
            else:
                ranked_free = [row["name"] for row in self.standings() if not row["withdrawn"]]
                ranked_free, byes = self._without_byes(ranked_free, len(playing) - seats)
                groups = seat_by_standings(sizes, ranked_free, self.met())
            n = len(self.rounds) + 1
            self._commit(
                {
                    "t": "round",
                    "n": n,
                    "id": os.urandom(6).hex(),
                    "tables": dict(zip(table_ids, groups)),
                    "seed": seed,
                    "byes": byes,
                }
            )
            return self.rounds[-1]

    @staticmethod
    def _seats_for(players: int, tables: int) -> int:
        """How many players the tables seat (tables of 3 to 5, 4 where possible): all if they can."""
        for seated in range(players, 2, -1):
            if len(table_sizes(seated)) <= tables:
                return seated
        raise TournamentError(N_("{n} players: a table needs at least 3 (register more players)"), n=players)

    def _without_byes(self, order: list[str], count: int) -> tuple[list[str], list[str]]:
        """Takes `count` byes from the end of `order` (the lowest ranked), first those who have had none."""
        had = {p for r in self.rounds for p in r.get("byes", [])}
        byes = [p for p in reversed(order) if p not in had][:count]
        byes += [p for p in reversed(order) if p not in byes][: count - len(byes)]
        return [p for p in order if p not in byes], sorted(byes, key=order.index)

    def seating(self) -> dict:
        """The board's retained seating message (topics.SeatingMessage): the latest round."""
        with self._lock:
            last = self.rounds[-1] if self.rounds else None
            return {
                "event": self.event,
                "round": last["n"] if last else 0,
                "round_id": last["id"] if last else "",
                "at": last["at"] if last else 0.0,
                "tables": dict(last["tables"]) if last else {},
            }

    def met(self) -> dict[str, set[str]]:
        """Who has sat with whom, over the rounds seated."""
        return met_over(self.rounds)

    def rematches(self, rnd: dict) -> int:
        """Pairs at a round's tables that had met in an earlier round."""
        met = met_over([r for r in self.rounds if r["n"] < rnd["n"]])
        return sum(clashes(names, met) for names in rnd["tables"].values())

    def take_result(self, table: str, game: str, standings: list[dict], seated: dict | None) -> str | None:
        """A finished game's final standings (name, score) and the seating it carries (event,
        round, round_id, late). Returns None when counted (or counted before: the same game
        again), else the reason it is refused (kept in `refused` for the organiser)."""
        key = f"{table}/{game}"
        with self._lock:
            if key in self.results:
                return None
            reason, rnd = self._misfit(table, standings, seated)
            if reason:
                if key not in self.refused and len(self.refused) >= MAX_REFUSED:
                    self.refused.pop(next(iter(self.refused)))
                self.refused[key] = {
                    "table": table,
                    "game": game,
                    "round": rnd["n"] if rnd else None,
                    "reason": reason,
                    "why": reason.as_json(),
                    "standings": _as_shown(standings),
                }
                return reason
            self.refused.pop(key, None)
            self._commit(
                {
                    "t": "result",
                    "table": table,
                    "game": game,
                    "round": rnd["n"],
                    "standings": [{"name": s["name"], "score": int(s["score"])} for s in standings],
                }
            )
            return None

    def refuse(
        self, table: str, game: str, reason: str, standings: list[dict], via: str, round_no: int | None = None
    ) -> bool:
        """A finished game the board may not take from where it came (`via`: the hall whose bridge
        carried it), kept for the organiser beside the refused results; the table's own result is
        unaffected (its key differs). True if it was not listed yet."""
        key = f"{table}/{game} via {via}"
        reason = Reason.of(reason)
        with self._lock:
            new = key not in self.refused
            if new and len(self.refused) >= MAX_REFUSED:
                self.refused.pop(next(iter(self.refused)))
            self.refused[key] = {
                "table": table,
                "game": game,
                "round": round_no,
                "reason": reason,
                "why": reason.as_json(),
                "standings": _as_shown(standings),
                "via": via,
            }
            return new

    def _misfit(self, table: str, standings: list[dict], seated: dict | None) -> tuple[Reason, dict | None]:
        """Why a result does not fit this event's seating (empty if it fits), and the round it names."""
        if not standings or not all(isinstance(s.get("name"), str) and _fair_score(s.get("score")) for s in standings):
            return Reason(MISFITS["scores"], max=MAX_SCORE), None
        if not seated or seated.get("event") != self.event:
            return Reason(MISFITS["no seating"]), None
        rnd = next(
            (r for r in self.rounds if r["n"] == seated.get("round") and r["id"] == seated.get("round_id")), None
        )
        if rnd is None:
            if not seated.get("round"):
                return Reason(MISFITS["before any round"]), None
            return Reason(MISFITS["unknown round"], n=seated.get("round")), None
        if seated.get("late"):
            return Reason(MISFITS["late"], n=rnd["n"]), rnd
        seats = rnd["tables"].get(table)
        if seats is None:
            return Reason(MISFITS["not seated"], table=table, n=rnd["n"]), rnd
        named = [s["name"] for s in standings]
        if sorted(_key(n) for n in named) != sorted(_key(p) for p in seats):
            players = ", ".join(one_name(n) for n in named)
            seated_there = ", ".join(seats)
            return Reason(MISFITS["other players"], players=players, table=table, n=rnd["n"], seated=seated_there), rnd
        done = next(
            (r for r in self.results.values() if r["table"] == table and r["round"] == rnd["n"] and not r["void"]), None
        )
        if done:
            return Reason(MISFITS["done"], table=table, n=rnd["n"], game=done["game"]), rnd
        return Reason(), rnd

    def correct(self, table: str, game: str, scores: dict[str, int] | None = None, void: bool = False) -> dict:
        key = f"{table}/{game}"
        with self._lock:
            if key not in self.results and key in self.refused and not void:
                return self._enter_refused(key, scores)
            if key not in self.results:
                via = next(
                    (r for r in self.refused.values() if r.get("via") and r["table"] == table and r["game"] == game),
                    None,
                )
                if via:
                    words = N_(
                        "game {game} at {table} came through {hall}'s bridge, which may not post {table}'s "
                        "results: it cannot be entered; enter {table}'s own game (Correct with its table and game)"
                    )
                    raise TournamentError(words, game=game, table=table, hall=via["via"])
                words = N_("no result of game {game} at table {table} to correct")
                raise TournamentError(words, game=repr(game), table=repr(table))
            if void:
                self._commit({"t": "correct", "table": table, "game": game, "void": True})
            else:
                if (
                    not isinstance(scores, dict)
                    or not scores
                    or not all(
                        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SCORE
                        for k, v in scores.items()
                    )
                ):
                    raise TournamentError(SCORES, n=MAX_SCORE)
                self._check_seated(self.results[key], scores)
                self._commit(
                    {
                        "t": "correct",
                        "table": table,
                        "game": game,
                        "standings": [{"name": k, "score": v} for k, v in scores.items()],
                    }
                )
            return self.results[key]

    def _enter_refused(self, key: str, scores: Any) -> dict:
        """The organiser's scores for a refused game: counted in the round it named, checked
        against that round's seating like any result."""
        refused = self.refused[key]
        if refused["round"] is None:
            words = N_("game {game} at {table} names no round of this tournament ({reason}): it cannot be entered")
            raise TournamentError(words, game=refused["game"], table=refused["table"], reason=refused["reason"])
        if (
            not isinstance(scores, dict)
            or not scores
            or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SCORE
                for k, v in scores.items()
            )
        ):
            raise TournamentError(SCORES, n=MAX_SCORE)
        self._check_seated(refused, scores)
        if any(
            r["table"] == refused["table"] and r["round"] == refused["round"] and not r["void"]
            for r in self.results.values()
        ):
            words = N_("{table} already has its round {n} result: void it first")
            raise TournamentError(words, table=refused["table"], n=refused["round"])
        del self.refused[key]
        self._commit(
            {
                "t": "result",
                "table": refused["table"],
                "game": refused["game"],
                "round": refused["round"],
                "standings": [{"name": k, "score": v} for k, v in scores.items()],
            }
        )
        return self.results[key]

    def _check_seated(self, result: dict, scores: dict[str, int]) -> None:
        """A correction names exactly the players seated at that table in that round: a name left
        out would drop their game from the standings in silence."""
        rnd = next((r for r in self.rounds if r["n"] == result["round"]), None)
        seated = (rnd or {}).get("tables", {}).get(result["table"], [])
        given = {_key(name) for name in scores}
        missing = [p for p in seated if _key(p) not in given]
        strangers = [name for name in scores if _key(name) not in {_key(p) for p in seated}]
        if missing or strangers:
            raise not_seated(result["table"], result["round"], seated, missing, strangers)

    # ---- reading ------------------------------------------------------------------------

    def round_complete(self, n: int) -> bool:
        return not self.waiting_tables(n)

    def waiting_tables(self, n: int | None = None) -> list[str]:
        with self._lock:
            if not self.rounds:
                return []
            rnd = self.rounds[(n or self.rounds[-1]["n"]) - 1]
            done = {r["table"] for r in self.results.values() if r["round"] == rnd["n"] and not r["void"]}
            return [t for t in rnd["tables"] if t not in done]

    def standings(self) -> list[dict]:
        with self._lock:
            rows = {
                _key(p): {
                    "name": p,
                    "points": 0,
                    "score": 0,
                    "games": 0,
                    "wins": 0,
                    "byes": 0,
                    "withdrawn": _key(p) in self.withdrawn,
                }
                for p in self.players
            }
            for rnd in self.rounds:
                for p in rnd.get("byes", []):
                    rows[_key(p)]["byes"] += 1
                    rows[_key(p)]["points"] += BYE_POINTS
            for res in self.results.values():
                if res["void"]:
                    continue
                for s in res["standings"]:
                    row = rows.get(_key(s["name"]))
                    if row is None:
                        continue  # a name the table used that is not registered: shown in the result
                    row["points"] += POINTS.get(s["rank"], 0)
                    row["score"] += s["score"]
                    row["games"] += 1
                    row["wins"] += s["rank"] == 1
            ordered = sorted(rows.values(), key=lambda r: (-r["points"], -r["score"], -r["wins"], r["name"].casefold()))
            for i, row in enumerate(ordered):
                row["place"] = i + 1
            return ordered

    def csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["place", "name", "tournament points", "total score", "games", "first places", "withdrawn", "byes"])
        for r in self.standings():
            w.writerow(
                [
                    r["place"],
                    for_csv(r["name"]),
                    r["points"],
                    r["score"],
                    r["games"],
                    r["wins"],
                    "yes" if r["withdrawn"] else "",
                    r["byes"],
                ]
            )
        return out.getvalue()

    def snapshot(self) -> dict:
        with self._lock:
            known = {_key(p) for p in self.players}
            results = [
                {**r, "unregistered": [s["name"] for s in r["standings"] if _key(s["name"]) not in known]}
                for r in sorted(self.results.values(), key=lambda r: (r["round"], r["table"]))
            ]
            return {
                "players": list(self.players),
                "withdrawn": [p for p in self.players if _key(p) in self.withdrawn],
                "rounds": [dict(r) for r in self.rounds],
                "results": results,
                "standings": self.standings(),
                "waiting": self.waiting_tables(),
                "refused": list(self.refused.values()),
                "event": self.event,
                "points": POINTS,
                "bye_points": BYE_POINTS,
            }
