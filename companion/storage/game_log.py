"""Durable game logs: one JSON-lines file per game in the games folder (companion.storage.files).

The first line is the header (the table setup, and since issue 31 `started`, the
game's start in Unix time); every later line is one record the table accepted.
Each append is written, flushed and fsync'd before the table acts on it, so a
crash, a flat battery or a SIGKILL loses at most the input being written.

A full disk loses nothing either (issue 31): a write that comes back short (the
disk filled inside it) is written on until the kernel says ENOSPC, and any
failure cuts the file back to its last whole record and leaves the checkpoint
as it was; the input is refused in one line (SaveFailed, storage_trouble) and
the next append, once space returns, follows the last whole record. Records an
input brings about (the Castillo emptied, the game finished) are written with it
in one write (append_many): both or neither.

Format 2 (written since issue 10) chains the lines: each line carries `n`,
its place (0 for the header), and `h`, the first 16 hex digits of
sha256(previous line's h + this line's canonical JSON without h); the
header's "previous" is a fixed tag, and the header line holds `"format": 2`.
So a changed, deleted, duplicated, moved or hand-written line is found at
its line number and never replayed.

A chain cannot show that whole lines were cut from its end. For that each log
has a checkpoint beside it, `<log>.tip`: the n and h of the last record,
rewritten (not fsync'd: it is a witness, not the data) after every append.
A log shorter than its checkpoint was cut. What stays undetectable: a log cut
at a line boundary whose checkpoint was lost or copied with it (for example a
log copied to another device without its .tip); the home screen then shows
the game's round and number of records, so a person can see it. The chain
protects against accidents and hand edits, not against someone who rewrites
the whole chain with this code: a key stored beside the log could not either.

A torn last line (the write a crash interrupted: no newline at its end, or a
full-length garbled line the checkpoint does not vouch for) is ignored with a
warning; the file is copied aside before it is cut off. A torn last line the
checkpoint does vouch for (earlier versions took a short write on a full disk
as done) opens too, up to the record before it, with a warning saying one was lost. Format 1 logs (no
checksums) still open: they are read as they are and upgraded to format 2
(rewritten whole, atomically) when the table next appends to them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.storage.files import (
    SaveFailed,
    display_name,
    fsync_dir,
    games_dir,
    replace_durably,
    unlink_quietly,
    write_all,
)
from companion.words import _, ngettext

log = logging.getLogger("companion.storage.game_log")

FORMAT = 2
CHAIN_TAG = "elgrande-log-2"  # the header's "previous hash"
HASH_CHARS = 16
MAX_LOG_BYTES = 4 * 1024 * 1024  # a 9-round 5-player game is under 100 KB; bounds the time to read one
TIP_SUFFIX = ".tip"
_TIP_WIDTH = 12  # the checkpoint is one fixed-width line, overwritten in place


class LogError(Exception):
    """A game log that cannot be read back; the message names the file and line."""


@dataclass
class Damage:
    """What is wrong with a log, where, and how much of it is intact."""

    what: str  # "line 59 was changed after it was written (its checksum does not match)"
    line: int  # the first damaged line (1 = the header); 0 when the file as a whole is unusable
    kept: int  # intact records before it (the header not counted)
    total: int  # records the file holds, or that its checkpoint says were written
    openable: bool = True  # False when nothing can be opened (no usable header, a newer format)

    def summary(self) -> str:
        if not self.openable:
            return _("{damage}. Nothing of this game can be opened.").format(damage=self.what)
        return _("{damage}. {intact}.").format(damage=self.what, intact=self.intact())

    def intact(self) -> str:
        if self.kept == 0:
            return ngettext(
                "None of its {n} records is intact, only its setup",
                "None of its {n} records is intact, only its setup",
                self.total,
            ).format(n=self.total)
        return ngettext(
            "The first {kept} of {n} records is intact", "The first {kept} of {n} records are intact", self.kept
        ).format(kept=self.kept, n=self.total)


class LogDamaged(LogError):
    def __init__(self, path: Path, damage: Damage):
        super().__init__(f"{path.name}: {damage.summary()}")
        self.path = path
        self.damage = damage


# ---- the chain -----------------------------------------------------------------------


def canonical(obj: Any) -> str:
    """The one spelling of a JSON value that is hashed: keys sorted, ASCII only."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def chain_hash(previous: str, content: dict) -> str:
    return hashlib.sha256(f"{previous}\n{canonical(content)}".encode("ascii")).hexdigest()[:HASH_CHARS]


def chained_line(previous: str, content: dict) -> tuple[bytes, str]:
    """content (with its n) as one line ending in its h. Written in the record's own key
    order: a replay sees the dicts exactly as the table made them."""
    h = chain_hash(previous, content)
    text = json.dumps(content, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return (text[:-1] + f',"h":"{h}"}}\n').encode("ascii"), h


def tip_path(path: Path) -> Path:
    return path.with_name(path.name + TIP_SUFFIX)


def _tip_bytes(n: int, h: str) -> bytes:
    return f"{n:>{_TIP_WIDTH}} {h}\n".encode("ascii")


def read_tip(path: Path) -> tuple[tuple[int, str] | None, str | None]:
    """(n, h) of the checkpoint, or None and why not (None, None: there is none)."""
    try:
        text = tip_path(path).read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, _("the checkpoint beside it cannot be read ({reason})").format(reason=exc.strerror)
    parts = text.decode("ascii", "replace").split()
    if len(parts) == 2 and parts[0].isdigit() and len(parts[1]) == HASH_CHARS:
        return (int(parts[0]), parts[1]), None
    return None, _("the checkpoint beside it is unreadable; it was ignored")


# ---- reading ------------------------------------------------------------------------------


@dataclass
class LoadedLog:
    header: dict | None
    records: list[dict]  # the intact records, without their chain fields
    warnings: list[str] = field(default_factory=list)
    good_bytes: int = 0  # length of the file up to the last intact line
    format: int = FORMAT
    chain: tuple[int, str] = (0, "")  # n and h of the last intact line: appends continue from it
    hashes: list[str] = field(default_factory=list)  # h of each intact line, the header's first (format 2)
    damage: Damage | None = None
    total: int = 0  # complete lines after the header (or the checkpoint's n, if more)


def _not_json(value: str):
    raise ValueError(_("{value} is not a number JSON allows").format(value=value))


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(_("{value} is too large a number").format(value=text[:20]))
    return value


def _parse(line: bytes) -> tuple[Any, str | None]:
    try:
        return json.loads(line.decode("utf-8"), parse_constant=_not_json, parse_float=_finite), None
    except UnicodeDecodeError:
        return None, _("not text (bytes that are not UTF-8)")
    except RecursionError:
        return None, _("JSON nested too deeply")
    except json.JSONDecodeError as exc:
        return None, _("not valid JSON ({reason} at column {column})").format(reason=exc.msg, column=exc.colno)
    except ValueError as exc:  # huge integers or floats, NaN
        return None, _("not valid JSON ({reason})").format(reason=str(exc)[:80])


def _kind_of(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return _("the bare value {value}").format(value=json.dumps(value))
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, str):
        return _("a string")
    return _("a number") if type(value) in (int, float) else _("a value")


def scan_log(path: Path) -> LoadedLog:
    """Read a log as far as it is intact. Never raises: damage is described in `.damage`."""
    name = display_name(path)
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a pipe would block the read; a folder or device is no log
            return _unusable(_("the file is not a regular file (a folder, a pipe or a device named like a log)"))
        size = st.st_size
        if size > MAX_LOG_BYTES:
            return _unusable(
                _("the file is {size} MB, far more than a game log (at most {most} MB are read)").format(
                    size=f"{size / 2**20:.0f}", most=MAX_LOG_BYTES // 2**20
                )
            )
        data = path.read_bytes()
    except OSError as exc:
        return _unusable(_("the file cannot be read ({reason})").format(reason=exc.strerror or exc))
    if not data.strip(b"\x00 \t\r\n"):
        return _unusable(
            _("the file is empty") if not data else _("the file holds no text (only blanks or NUL bytes)"), line=1
        )
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: b"" when the file ends cleanly
    loaded = _read_header(lines[0] if lines else tail, complete=bool(lines))
    if loaded.damage:
        return loaded
    loaded.good_bytes = len(lines[0]) + 1
    loaded.total = len(lines) - 1
    garbled_last = _read_records(loaded, lines)
    if loaded.format != FORMAT and tip_path(path).exists():
        loaded.damage = Damage(
            _(
                "it has no checksums, yet a checkpoint lies beside it: the checksums were "
                "removed, so none of its lines can be trusted"
            ),
            1,
            0,
            loaded.total,
            openable=False,
        )
        return loaded
    tip, tip_trouble = read_tip(path) if loaded.format == FORMAT else (None, None)
    if tip_trouble:
        loaded.warnings.append(tip_trouble)
    if loaded.format == FORMAT and tip is None and tip_trouble is None:
        loaded.warnings.append(_("it has no checkpoint beside it, so lines cut from its end could not be noticed"))
    if garbled_last and tip and tip[0] > len(loaded.records):  # the checkpoint vouches for that line
        number = len(loaded.records) + 2
        loaded.damage = Damage(
            _("line {number} is {trouble}").format(number=number, trouble=garbled_last),
            number,
            len(loaded.records),
            loaded.total,
        )
    if tail and tip and tip[0] == len(loaded.records) + 1 and loaded.damage is None and not garbled_last:
        # The checkpoint vouches for the record being written when the storage filled up or
        # the app stopped (earlier versions took a short write as done): a torn write, not a cut.
        loaded.warnings.append(
            _(
                "its last record was cut short as it was written (the storage was full or the app "
                "stopped), so record {lost} is lost; the game opens up to record {kept}"
            ).format(lost=tip[0], kept=tip[0] - 1)
        )
        tip, tail = None, b""
    _check_tip(loaded, tip)
    if loaded.damage is None:
        if garbled_last:
            loaded.warnings.append(
                _("the last line is damaged ({trouble}); it was ignored as the write a crash interrupted").format(
                    trouble=garbled_last
                )
            )
        if tail:
            loaded.warnings.append(
                ngettext(
                    "the last line was cut short (the app stopped while writing); ignored {n} byte",
                    "the last line was cut short (the app stopped while writing); ignored {n} bytes",
                    len(tail),
                ).format(n=len(tail))
            )
    loaded.warnings = [f"{name}: {w}" for w in loaded.warnings]
    for w in loaded.warnings:
        log.warning(w)
    return loaded


def _unusable(what: str, line: int = 0) -> LoadedLog:
    return LoadedLog(header=None, records=[], damage=Damage(what, line, 0, 0, openable=False))


def _read_header(line: bytes, complete: bool) -> LoadedLog:
    if not complete:
        return _unusable(_("the file was cut inside its first line (the header)"), line=1)
    obj, trouble = _parse(line)
    if trouble:
        return _unusable(_("line 1 (the header) is {trouble}").format(trouble=trouble), line=1)
    if not isinstance(obj, dict) or not isinstance(obj.get("header"), dict):
        held = _kind_of(obj) if not isinstance(obj, dict) else _("an object without a header")
        return _unusable(_("line 1 is not a game's header (it holds {what})").format(what=held), line=1)
    fmt = obj.get("format", 1)
    if fmt == 1 and ("h" in obj or "n" in obj):
        return _unusable(_("line 1 (the header) has a checksum but no format: it was changed"), line=1)
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > FORMAT:
        return _unusable(
            _(
                "it was written by a newer version of the app (log format {format}; "
                "this version reads formats 1 to {newest})"
            ).format(format=fmt, newest=FORMAT),
            line=1,
        )
    if fmt not in (1, FORMAT) or isinstance(fmt, bool):
        return _unusable(
            _("line 1 (the header) names an unknown log format ({format})").format(format=json.dumps(fmt)[:20]),
            line=1,
        )
    chain = (0, "")
    if fmt == FORMAT:
        content = {k: v for k, v in obj.items() if k != "h"}
        h = obj.get("h")
        if obj.get("n") != 0 or not isinstance(h, str) or chain_hash(CHAIN_TAG, content) != h:
            return _unusable(
                _("line 1 (the header) was changed after it was written (its checksum does not match)"), line=1
            )
        chain = (0, h)
    return LoadedLog(header=obj["header"], records=[], format=fmt, chain=chain, hashes=[chain[1]])


def _read_records(loaded: LoadedLog, lines: list[bytes]) -> str | None:
    """Append each intact record; stop at the first damage. Returns why the last
    complete line was ignored when it was garbled as a crash garbles it."""
    last = len(lines)
    for number in range(2, last + 1):
        line = lines[number - 1]
        obj, trouble = _parse(line)
        if trouble and number == last:
            return trouble  # unless the checkpoint vouches for this line (_check_tip)
        problem = trouble and _("line {number} is {trouble}").format(number=number, trouble=trouble)
        problem = problem or _record_problem(loaded, obj, number)
        if problem:
            loaded.damage = Damage(problem, number, len(loaded.records), loaded.total)
            return None
        loaded.records.append({k: v for k, v in obj.items() if k not in ("n", "h")})
        loaded.good_bytes += len(line) + 1
    return None


def _record_problem(loaded: LoadedLog, obj: Any, number: int) -> str | None:
    if not isinstance(obj, dict):
        return _("line {number} is not a record (it holds {what})").format(number=number, what=_kind_of(obj))
    if loaded.format != FORMAT:
        if "h" in obj or "n" in obj:
            return _("line {number} carries a checksum but the header has none (the header was changed)").format(
                number=number
            )
        return None
    expected = len(loaded.records) + 1
    n, h = obj.get("n"), obj.get("h")
    if not isinstance(h, str) or "n" not in obj:
        return _(
            "line {number} has no checksum: it was not written by the app (added by hand or by another program)"
        ).format(number=number)
    content = {k: v for k, v in obj.items() if k != "h"}
    if chain_hash(loaded.chain[1], content) == h and n == expected:
        loaded.chain = (expected, h)
        loaded.hashes.append(h)
        return None
    if isinstance(n, int) and n != expected:
        return _(
            "line {number} holds record {n} where record {expected} belongs: a record was deleted, duplicated or moved"
        ).format(number=number, n=n, expected=expected)
    return _("line {number} was changed after it was written (its checksum does not match)").format(number=number)


def _check_tip(loaded: LoadedLog, tip: tuple[int, str] | None) -> None:
    """The checkpoint tells how many records were written and the last one's hash."""
    if tip is None:
        return
    n, h = tip
    kept = len(loaded.records)
    loaded.total = max(loaded.total, n)
    if loaded.damage:
        loaded.damage.total = loaded.total
        return
    if n > kept:
        if n == kept + 1:
            said = _("the file ends after record {kept} but {n} were written: record {n} is missing (the file was cut)")
        else:
            said = _(
                "the file ends after record {kept} but {n} were written: records {first} to {n} are missing "
                "(the file was cut)"
            )
        loaded.damage = Damage(said.format(kept=kept, n=n, first=kept + 1), kept + 2, kept, n)
    elif loaded.hashes[n] != h:
        loaded.damage = Damage(
            _(
                "its records are not the ones the app wrote (they do not match the checkpoint "
                "beside the log: the file was replaced or rewritten)"
            ),
            0,
            0,
            loaded.total,
            openable=False,
        )


def read_log(path: Path) -> LoadedLog:
    """The whole log; LogDamaged (naming what, where and how much is intact) if it is damaged."""
    loaded = scan_log(path)
    if loaded.damage:
        raise LogDamaged(path, loaded.damage)
    return loaded


# ---- writing ---------------------------------------------------------------------------------


class GameLog:
    """An open log in format 2, appended to durably, its checkpoint kept beside it."""

    def __init__(self, path: Path, good_bytes: int | None = None, chain: tuple[int, str] = (0, "")):
        self.path = path
        self._file = open(path, "r+b" if path.exists() else "w+b", buffering=0)
        self._n, self._h = chain
        if good_bytes is not None:
            self._file.truncate(good_bytes)  # cut a torn last line before appending after it
        self._end = self._file.seek(0, os.SEEK_END)  # the end of the last whole record
        self._torn = False  # a failed write left bytes past _end
        self._tip = os.open(tip_path(path), os.O_RDWR | os.O_CREAT, 0o644)
        if chain[1]:
            self._write_tip()

    @classmethod
    def create(cls, header: dict, folder: Path | None = None, name: str | None = None) -> GameLog:
        folder = folder or games_dir()
        folder.mkdir(parents=True, exist_ok=True)
        name = name or time.strftime("game-%Y%m%d-%H%M%S") + f"-{os.urandom(2).hex()}.jsonl"
        path = folder / name
        if path.exists():
            raise FileExistsError(f"{path} already exists")
        try:
            game_log = cls(path)
        except OSError as exc:  # not even the files could be made
            unlink_quietly(path, tip_path(path))
            raise SaveFailed(exc) from None
        try:
            line, game_log._h = chained_line(CHAIN_TAG, {"header": header, "format": FORMAT, "n": 0})
            write_all(game_log._file.fileno(), line)
            os.fsync(game_log._file.fileno())
            write_all(game_log._tip, _tip_bytes(game_log._n, game_log._h))
            os.fsync(game_log._tip)  # once: the checkpoint exists from the start
            fsync_dir(folder)  # the new files' names are durable too
        except OSError as exc:  # a full disk: no game, and no empty files left behind
            game_log._remove()
            raise SaveFailed(exc) from None
        game_log._end = len(line)
        return game_log

    def _remove(self) -> None:
        self.close()
        unlink_quietly(self.path, tip_path(self.path))

    def append(self, record: dict) -> None:
        self.append_many([record])

    def append_many(self, records: list[dict]) -> None:
        """Records written as one: all of them reach the storage and are synced, or none is
        kept (SaveFailed) and the log and its checkpoint are as they were. A write that comes
        back short (the disk filled up inside it) is finished or refused, never taken as done."""
        n, h, lines = self._n, self._h, []
        for record in records:
            n += 1
            line, h = chained_line(h, {**record, "n": n})
            lines.append(line)
        data = b"".join(lines)
        try:
            self._cut_back()  # what an earlier failed write may have left
            write_all(self._file.fileno(), data)
            os.fsync(self._file.fileno())
        except OSError as exc:
            self._torn = True
            self._cut_back()
            raise SaveFailed(exc) from None
        self._n, self._h = n, h
        self._end += len(data)
        self._write_tip()

    def _cut_back(self) -> None:
        """A failed write must not leave part of a line for the next append to glue onto: the
        file is cut back to its last whole record (freeing space never fails for want of it)."""
        if not self._torn:
            return
        try:
            self._file.truncate(self._end)
            os.fsync(self._file.fileno())
            self._torn = False
        except OSError:
            log.warning(
                "%s: could not cut back a failed write yet; tried again before the next one", display_name(self.path)
            )
        self._file.seek(self._end)

    def _write_tip(self) -> None:
        try:
            os.pwrite(self._tip, _tip_bytes(self._n, self._h), 0)
        except OSError as exc:  # the record is durable; a stale checkpoint only lags behind
            log.warning("%s: checkpoint not updated (%s)", self.path.name, exc.strerror)

    def close(self) -> None:
        self._file.close()
        os.close(self._tip)


def rewrite_log(path: Path, header: dict, records: list[dict]) -> tuple[int, tuple[int, str]]:
    """Replace the log by header + records in format 2, atomically (temp file, fsync,
    rename), then its checkpoint. A crash between the two leaves a checkpoint that is
    missing (a warning) or ahead of the log (reported as cut, to be opened up to there
    again): never one that vouches for what is not there. Returns (good_bytes, chain)."""
    lines, h = [], CHAIN_TAG
    for n, content in enumerate([{"header": header, "format": FORMAT}] + records):
        line, h = chained_line(h, {**content, "n": n})
        lines.append(line)
    data = b"".join(lines)
    chain = (len(records), h)
    replace_durably(path, data)
    replace_durably(tip_path(path), _tip_bytes(*chain))
    return len(data), chain
