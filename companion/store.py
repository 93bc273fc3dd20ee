"""Durable game logs: one JSON-lines file per game in the user data folder.

The first line is the header (the table setup); every later line is one record
the table accepted. Each append is written, flushed and fsync'd before the
table acts on it, so a crash, a flat battery or a SIGKILL loses at most the
input being written. A torn last line (the write the crash interrupted) is
ignored with a warning and cut off before the next append; damage anywhere
else is an error, never silently skipped.
"""
from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

log = logging.getLogger("companion.store")

APP_NAME = "elgrande-companion"
DATA_DIR_ENV = "ELGRANDE_DATA_DIR"  # overrides the platform's folder (tests, portable installs)


class LogError(Exception):
    """A game log that cannot be read back; the message names the file and line."""


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def games_dir() -> Path:
    return data_dir() / "games"


@dataclass
class LoadedLog:
    header: dict
    records: list[dict]
    warnings: list[str] = field(default_factory=list)
    good_bytes: int = 0  # length of the file up to the last complete line


def read_log(path: Path) -> LoadedLog:
    data = path.read_bytes()
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: b"" when the file ends cleanly
    warnings = []
    good = len(data) - len(tail)
    if tail:
        warnings.append(f"{path.name}: the last line was cut short (the app stopped while writing); "
                        f"ignored {len(tail)} bytes")
    rows = []
    for number, line in enumerate(lines, start=1):
        try:
            rows.append(json.loads(line))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            if number == len(lines) and not tail:
                # A full-length but garbled last line: also a write the crash interrupted.
                warnings.append(f"{path.name}: the last line is damaged; ignored it ({exc})")
                good -= len(line) + 1
                break
            raise LogError(f"{path}: line {number} is damaged ({exc}); the log cannot be replayed") from None
    if not rows or "header" not in rows[0]:
        raise LogError(f"{path}: the first line must hold the game's header")
    for w in warnings:
        log.warning(w)
    return LoadedLog(header=rows[0]["header"], records=rows[1:], warnings=warnings, good_bytes=good)


class GameLog:
    """An open log, appended to durably."""

    def __init__(self, path: Path, good_bytes: int | None = None):
        self.path = path
        self._file = open(path, "r+b" if path.exists() else "w+b", buffering=0)
        if good_bytes is not None:
            self._file.truncate(good_bytes)  # cut a torn last line before appending after it
        self._file.seek(0, os.SEEK_END)

    @classmethod
    def create(cls, header: dict, folder: Path | None = None, name: str | None = None) -> "GameLog":
        folder = folder or games_dir()
        folder.mkdir(parents=True, exist_ok=True)
        name = name or time.strftime("game-%Y%m%d-%H%M%S") + f"-{os.urandom(2).hex()}.jsonl"
        path = folder / name
        if path.exists():
            raise FileExistsError(f"{path} already exists")
        game_log = cls(path)
        game_log.append({"header": header})
        _fsync_dir(folder)  # the new file's name is durable too
        return game_log

    def append(self, record: dict) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        self._file.write(line)
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class SavedGame:
    path: Path
    header: dict
    finished: bool
    modified: float
    records: int


def saved_games(folder: Path | None = None) -> list[SavedGame]:
    """Every readable saved game, newest first. Unreadable files are skipped with a warning."""
    return list(_saved_newest_first(folder))


def _saved_newest_first(folder: Path | None):
    folder = folder or games_dir()
    paths = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.exists() else []
    for path in paths:  # lazily: the home screen reads only up to the last unfinished game
        try:
            loaded = read_log(path)
        except (LogError, OSError) as exc:
            log.warning("skipping %s: %s", path.name, exc)
            continue
        said = [r.get("t") for r in loaded.records if r.get("t") != "drop"]  # late drops change nothing
        finished = bool(said) and said[-1] == "finished"
        yield SavedGame(path, loaded.header, finished, path.stat().st_mtime, len(loaded.records))


def last_unfinished(folder: Path | None = None) -> SavedGame | None:
    return next((g for g in _saved_newest_first(folder) if not g.finished), None)
