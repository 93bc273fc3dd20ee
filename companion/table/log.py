"""The game's log: every accepted input as a record, written durably before it is acted on,
and replayed to rebuild the table.

The log holds one record per accepted input (RECORD_KINDS); undo appends an "undo" record, so
the file is only ever appended to. Replaying the records rebuilds exactly the same table: same
state, same hidden tallies. A log read back from disk is untrusted data: a record the live
table could not have written, or one that does not replay, is damage (a message, never a
traceback).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from companion.input_errors import InputError, StorageRefused
from companion.storage.files import SaveFailed
from companion.storage.game_log import FORMAT, Damage, GameLog, LoadedLog, rewrite_log
from companion.storage.games_folder import copy_aside
from companion.table.castillo import DROP_STATUSES
from companion.table.undo_words import PRIVATE_CHOICES
from companion.words import _
from engine.errors import RuleViolation

RECORD_KINDS = ("event", "drop", "assign", "dismiss", "keep", "emptied", "undo", "finished", "opened", "tower_totals")
CONSEQUENCES = ("emptied", "finished")  # records an input writes after itself; undone with it
UNDOABLE = ("event", "assign", "dismiss", "keep")
# Choices several players make at once, in private: one made meanwhile leaves the question open.
SIMULTANEOUS = ("secret_disc_set", "modifiers_dealt", "modifier_passed", "power_cards_chosen")


class TableLog:
    """A game's records (undo markers included), those in force after the undos, and the file
    they are appended to (None: a log-less table, replayed in memory).

    `apply` puts one record in force on the table's parts; `restart` sets them as at the game's
    start. The table holds the lock around every call."""

    def __init__(self, file: GameLog | None, apply: Callable[[dict], None], restart: Callable[[], None]):
        self.file = file
        # The table's own methods, held weakly: no reference cycle, so a table nobody uses any more
        # is freed at once, without waiting for the garbage collector (a game night switches many).
        self._apply_ref = weakref.WeakMethod(apply)
        self._restart_ref = weakref.WeakMethod(restart)
        self.records: list[dict] = []  # every record, undo markers included
        self.effective: list[dict] = []  # what is in force after the undos
        self.again: set[str] = set()  # players whose private choice an undo took back
        self.held: list[dict] = []  # in force, not yet on disk (see hold)
        self.closed: str | None = None  # why nothing may be appended any more (None: open)

    @property
    def path(self) -> Path | None:
        return self.file.path if self.file else None

    def close(self) -> None:
        if self.file:
            self.file.close()

    # ---- writing: durably first, then in memory ----------------------------------------------

    def write(self, *records: dict) -> None:
        """Records to disk as one: all of them, or none (the input is refused in one line).
        Records held for want of space (`hold`) go first. A closed log (a finished game opened
        again) takes nothing: the input is refused with the reason."""
        self.ensure_open()
        if self.file:
            try:
                self.file.append_many(self.held + list(records))
            except SaveFailed as exc:
                raise StorageRefused(str(exc)) from None
        self.held = []

    def ensure_open(self) -> None:
        """Every input asks first: a closed log takes none, and the input is refused with the reason."""
        if self.closed:
            raise InputError(_(self.closed))

    def hold(self, records: list[dict]) -> str | None:
        """Records that follow from the log alone (an input's second record a crash cut off) put
        in force; written now, or, on a full disk, with the next input. A restart before then
        derives them again. Returns what could not be saved yet, or None."""
        trouble = None
        try:
            self.write(*records)
        except InputError as exc:
            self.held = self.held + records
            trouble = str(exc)
        for record in records:
            self.records.append(record)
            self.effective.append(record)
            self._apply_ref()(record)
        return trouble

    def commit(self, record: dict) -> None:
        """Durably first, then in memory: what is acted on is always on disk."""
        self.write(record)
        self.records.append(record)
        self.effective.append(record)
        self._apply_ref()(record)

    def persist(self, record: dict, consequences: Callable[[], list[dict]] = list) -> None:
        """For an event already applied (the engine checks before it changes anything), written
        with the records it brings about (`consequences()`, read off the table after it: the
        Castillo emptied, the game finished) in one write: a full disk keeps none of them."""
        after = consequences()
        try:
            self.write(record, *after)
        except InputError:
            self.rebuild(self.records)  # forget the applied event: it is not on disk
            raise
        note_input(self.again, record)
        self.records.append(record)
        self.effective.append(record)
        for consequence in after:
            self.records.append(consequence)
            self.effective.append(consequence)
            self._apply_ref()(consequence)

    def undo(self) -> None:
        """An undo marker: the last undoable record, and what it brought about, taken back."""
        self.write({"t": "undo"})
        self.rebuild(self.records + [{"t": "undo"}])

    # ---- replaying ------------------------------------------------------------------------------

    def rebuild(self, records: list[dict]) -> None:
        """Apply records from scratch: undo markers take back the last undoable record."""
        effective: list[dict] = []
        again: set[str] = set()
        for record in records:
            if record["t"] == "undo":
                for i in range(len(effective) - 1, -1, -1):
                    if effective[i]["t"] in UNDOABLE:
                        note_undone(again, effective[i])
                        del effective[i]
                        # What it brought about goes with it: the emptying after a general
                        # scoring's reveal, "finished". Drops and openings stay: they happened.
                        effective[i:] = [r for r in effective[i:] if r["t"] not in CONSEQUENCES]
                        break
            else:
                note_input(again, record)
                effective.append(record)
        self.records, self.effective, self.again = [], [], set()
        self._restart_ref()()
        apply = self._apply_ref()
        for record in effective:
            apply(record)
        self.records = list(records)
        self.effective = effective
        self.again = again

    def replay(self, records: list[dict], players: tuple[str, ...]) -> tuple[int, str] | None:
        """Rebuild from a log's records. On the first record that cannot be replayed,
        returns (its index, why) with the table as it was before it."""
        try:
            for record in records:
                check_record(record, players)
            self.rebuild(records)
            return None
        except Exception:  # the log is data from disk: any failure is damage, found below
            pass
        self.rebuild([])
        for i, record in enumerate(records):
            try:
                check_record(record, players)
                if record["t"] == "undo":
                    self.rebuild(self.records + [record])
                else:
                    note_input(self.again, record)
                    self.records.append(record)
                    self.effective.append(record)
                    self._apply_ref()(record)
            except Exception as exc:
                self.rebuild(records[:i])  # replayed just now: cannot fail
                return i, why(exc)
        return None  # every record alone replays: the first attempt failed on nothing real

    # ---- reading what is in force -----------------------------------------------------------------

    def last_undoable(self) -> dict | None:
        return next((r for r in reversed(self.effective) if r["t"] in UNDOABLE), None)

    def opened_since(self, record: dict) -> bool:
        """Whether the Castillo was opened after `record` (everyone has seen its counts)."""
        after = self.effective[
            next(i for i in range(len(self.effective) - 1, -1, -1) if self.effective[i] is record) + 1 :
        ]
        return any(r["t"] == "opened" for r in after)

    def last_is(self, kind: str) -> bool:
        return bool(self.effective) and self.effective[-1]["t"] == kind

    def questions_opened(self) -> int:
        """Inputs that moved the game on (a simultaneous private choice leaves the question open)."""
        return sum(1 for r in self.effective if r["t"] == "event" and r["e"]["type"] not in SIMULTANEOUS)

    # ---- opening a saved game's file --------------------------------------------------------------

    def open(self, path: Path, loaded: LoadedLog) -> list[str]:
        """Append after the intact records: a torn tail is copied aside, then cut; a format 1 log
        is upgraded (rewritten whole, atomically) to the chained format. Returns the warnings."""
        warnings = list(loaded.warnings)
        torn = _size(path) > loaded.good_bytes
        if torn:
            aside = copy_aside(path)
            warnings.append(_("{file}: the file as it was is kept as {aside}").format(file=path.name, aside=aside.name))
        if loaded.format != FORMAT:
            good_bytes, chain = rewrite_log(path, loaded.header, loaded.records)
            self.file = GameLog(path, good_bytes, chain)
        else:
            self.file = GameLog(path, loaded.good_bytes if torn else None, loaded.chain)
        return warnings

    def open_intact(self, path: Path, loaded: LoadedLog, damage: Damage) -> str:
        """A damaged file cut to its intact records, after copying it aside as it was. Returns
        the warning that says so."""
        kept = loaded.records[: damage.kept]
        aside = copy_aside(path)
        good_bytes, chain = rewrite_log(path, loaded.header, kept)
        self.file = GameLog(path, good_bytes, chain)
        return _("{file}: opened up to record {kept}; the file as it was is kept as {aside}").format(
            file=path.name, kept=damage.kept, aside=aside.name
        )


def note_undone(again: set[str], record: dict) -> None:
    """An undo took `record` back: a private choice's player must choose again; anything else
    changes the question, and whoever was to choose again is asked anew."""
    e = record.get("e") or {}
    if record["t"] != "event":
        return
    if e.get("type") not in SIMULTANEOUS:
        again.clear()
    if e.get("type") in PRIVATE_CHOICES:
        again.add(e.get("player"))


def note_input(again: set[str], record: dict) -> None:
    """A record accepted: a player's private choice made again; any other input moves the game on."""
    if record["t"] != "event" or not again:
        return
    e = record["e"]
    if e.get("type") in SIMULTANEOUS:
        again.discard(e.get("player"))
    else:
        again.clear()


# ---- reading logs back: damage is a message, never a traceback ----------------------------------


def check_record(record: dict, players: tuple[str, ...]) -> None:
    """What the live table would have written; anything else is damage (ValueError)."""
    kind = record.get("t")
    if kind not in RECORD_KINDS:
        raise ValueError(f"unknown record kind {str(kind)[:40]!r}")
    if kind == "event" and not isinstance(record.get("e"), dict):
        raise ValueError("an event record without its event")
    if kind == "drop":
        _check_key(record.get("key"))
        est = record.get("est")
        if not (_is_int(est) and 1 <= est <= 10) or record.get("status") not in DROP_STATUSES:
            raise ValueError("a tower drop with an impossible count or status")
        if not all(record.get(k) is None or isinstance(record.get(k), str) for k in ("colour", "best")):
            raise ValueError("a tower drop whose colour is not a colour name")
    if kind in ("assign", "keep", "dismiss"):
        _check_key(record.get("drop"))
    if kind == "assign":
        count = record.get("count")
        if record.get("player") not in players or not (_is_int(count) and 0 <= count <= 10):
            raise ValueError(
                f"a drop given to {str(record.get('player'))[:20]!r} x {str(count)[:8]} "
                f"(players: {', '.join(players)}; 0 to 10 cubes)"
            )
    if kind == "opened" and record.get("what") != "castillo":
        raise ValueError("an opening of something other than the Castillo")
    if kind == "emptied" and not isinstance(record.get("token"), str):
        raise ValueError("an emptying without its token")
    if kind == "tower_totals":
        for side in ("tower_count", "table_count"):
            count = record.get(side)
            if not (
                isinstance(count, dict)
                and isinstance(count.get("counts"), dict)
                and _is_int(count.get("drops"))
                and all(isinstance(c, str) and _is_int(n) for c, n in count["counts"].items())
            ):
                raise ValueError(f"a tower totals record whose {side} is not a count per colour")


def _check_key(key: Any) -> None:
    if not (
        isinstance(key, list)
        and len(key) == 3
        and isinstance(key[0], str)
        and isinstance(key[1], str)
        and _is_int(key[2])
    ):
        raise ValueError("a tower drop's id is not tower, boot and sequence number")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def why(exc: Exception) -> str:
    """An exception from replaying untrusted data, as words."""
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        text = f"{where}: {err['msg']}" if where else err["msg"]
        return text if len(text) <= 160 else text[:157] + "..."
    if isinstance(exc, KeyError):
        return f"it names {str(exc.args[0] if exc.args else exc)[:60]}, which is not in the game"
    if isinstance(exc, (RuleViolation, ValueError, InputError)):
        return str(exc)[:300]
    return f"{type(exc).__name__}: {str(exc)[:200]}"


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
