"""Each seat's phone answers in the order the player made them, whatever order they arrive in.

Wi-Fi at a table drops and comes back: a page resends over a new socket or over HTTP, two frames
overtake each other, a frame is delivered twice. So the phone page numbers its answers (discs and
2023 private choices), one sequence per seat that only goes up: `seq`. The server keeps, per seat,
the last sequence it accepted and refuses an answer whose sequence is not above it, before it
touches the table or the log ("already have a newer choice").

The accepted sequence is written with the answer in the game's log (the record's `phone_seq`), so
a tablet restarted mid-question knows it too: it is the highest one in the log's records, undone
ones included (a frame that an undo took back must not come back either). An answer identical to
the one in force is accepted without writing anything; its sequence is kept in memory only (also
when the same game is opened again from home), which is enough: a socket does not outlive the
server, so no frame from before a restart arrives after it.

A page from before sequences (no `seq`) is still served: its answers count as sequence 0, taken
as they come while the seat has no numbered answer, refused once it has one (the numbered page is
newer).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable
from typing import Any

from companion.table.log import SIMULTANEOUS
from companion.words import N_, _

UNNUMBERED = 0  # the sequence of an answer from a page that does not number them
SEQ_KEY = "phone_seq"  # where a record keeps its answer's sequence
MAX_SEQ = 2**53 - 1  # the largest integer a phone's JavaScript counts exactly

STALE = N_("This phone already has a newer choice: this older (or repeated) one was ignored.")
STALE_UNNUMBERED = N_(
    "This phone already has a newer choice, and this page is out of date: reload it (its choice was ignored)."
)


class Stale(Exception):
    """An answer older than (or as old as) the seat's last accepted one."""

    def __init__(self, message: str, last: int):
        super().__init__(message)
        self.message, self.last = message, last


def last_sequences(records: Iterable[dict]) -> dict[str, int]:
    """Per player, the highest answer sequence in a log's records (read from disk: anything
    that is not a whole non-negative number is ignored)."""
    last: dict[str, int] = {}
    for record in records:
        seq = record.get(SEQ_KEY)
        if record.get("t") != "event" or not _is_seq(seq) or not isinstance(record.get("e"), dict):
            continue
        player = record["e"].get("player")
        if isinstance(player, str) and seq > last.get(player, UNNUMBERED):
            last[player] = seq
    return last


def _is_seq(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEQ


class SeatOrder:
    """The last accepted sequence per seat, for the game served now (thread-safe). `table` names
    the game: another game starts from its own log; the same game's file opened again keeps the
    numbers accepted so far."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._table: weakref.ref | None = None  # weakly: a finished game's table is freed at once
        self._path: str | None = None  # its log's file (None: a table without one)
        self._last: dict[str, int] = {}

    def _for(self, table) -> dict[str, int]:
        """The numbers for `table`'s game, read from its log the first time it is asked about
        (called under the table's lock: its records are read)."""
        if self._table is not None and self._table() is table:
            return self._last
        path = str(table.path) if getattr(table, "path", None) is not None else None
        logged = last_sequences(table.records)
        if path is None or path != self._path:
            self._last = logged
        else:  # the same game resumed: what was accepted without a record still counts
            self._last = {p: max(n, self._last.get(p, UNNUMBERED)) for p, n in {**self._last, **logged}.items()}
        self._table, self._path = weakref.ref(table), path
        return self._last

    def last(self, table, pid: str) -> int:
        with self._lock:
            return self._for(table).get(pid, UNNUMBERED)

    def check(self, table, pid: str, seq: int | None) -> None:
        """Raises Stale unless `seq` is newer than the seat's last accepted answer (an unnumbered
        answer is taken only while the seat has no numbered one)."""
        with self._lock:
            last = self._for(table).get(pid, UNNUMBERED)
        if seq is None:
            if last > UNNUMBERED:
                raise Stale(_(STALE_UNNUMBERED), last)
        elif seq <= last:
            raise Stale(_(STALE), last)

    def accept(self, table, pid: str, seq: int | None) -> None:
        """The answer numbered `seq` is in force (written, or identical to what was)."""
        if seq is None:
            return
        with self._lock:
            last = self._for(table)
            last[pid] = max(seq, last.get(pid, UNNUMBERED))


def answer_in_force(table, event) -> bool:
    """Whether `event`, a player's simultaneous private answer, is already that player's answer
    to the open question: the latest such record, looking back no further than the input that
    opened the question (when unsure, False: the answer is then written again, as before)."""
    wanted = dict(event) if isinstance(event, dict) else event.model_dump(mode="json")
    kind, player = wanted.get("type"), wanted.get("player")
    if kind == "secret_disc_set":  # the disc pending now (a count of the Castillo may follow the picks)
        return table.private(player).get("secret_disc") == wanted.get("region")
    if kind not in SIMULTANEOUS:
        return False
    if isinstance(event, dict):  # as the table would write it (defaults filled in)
        try:
            wanted = table.game.parse(event).model_dump(mode="json")
        except ValueError:  # pydantic's ValidationError: the table refuses it, it is not in force
            return False
    for record in reversed(table.effective):
        if record["t"] != "event":
            continue
        e = record["e"]
        if e.get("type") not in SIMULTANEOUS:
            return False
        if e.get("type") == kind and e.get("player") == player:
            return e == wanted
    return False
