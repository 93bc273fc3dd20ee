"""The games folder: every saved game's log in it, newest first, and a damaged log kept aside
(copied before anything is cut from it, or renamed out of the list), never deleted.

Listing never opens a file that is no log (a FIFO would wait forever) and never raises: what
cannot be read is listed, and the home screen says what is wrong with it
(companion.table.game_check).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from companion.storage.files import SaveFailed, display_name, fsync_dir, games_dir, unlink_quietly
from companion.storage.game_log import scan_log, tip_path

log = logging.getLogger("companion.storage.games_folder")


def _aside_name(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    return target


def copy_aside(path: Path) -> Path:
    """Keep the file as it is now (and its checkpoint) before anything is cut from it."""
    target = _aside_name(path)
    try:
        shutil.copy2(path, target)
        if tip_path(path).exists():
            shutil.copy2(tip_path(path), tip_path(target))
        fsync_dir(path.parent)
    except OSError as exc:  # a full disk: no half copy left, and nothing cut from the original
        unlink_quietly(target, tip_path(target))
        raise SaveFailed(exc) from None
    return target


def keep_aside(path: Path) -> Path:
    """Take a damaged log out of the games list without deleting anything: renamed to
    <name>.damaged-<time> (no longer *.jsonl), its checkpoint with it."""
    target = _aside_name(path)
    os.replace(path, target)
    if tip_path(path).exists():
        os.replace(tip_path(path), tip_path(target))
    fsync_dir(path.parent)
    return target


@dataclass
class SavedGame:
    path: Path
    header: dict
    finished: bool
    modified: float
    records: int


def log_paths(folder: Path | None = None) -> list[Path]:
    """Every *.jsonl in the games folder, newest first; never raises. A FIFO, a device or a
    socket named like a log (opening one would wait forever or read without end) and a link
    out of the folder are skipped with a logged line; found without opening anything."""
    folder = folder or games_dir()
    found = []
    try:
        for path in folder.glob("*.jsonl"):
            why = _not_a_log(path, folder)
            if why:
                log.warning("skipped %s in the games folder: %s", display_name(path), why)
                continue
            try:
                found.append((path.stat().st_mtime, path))
            except OSError:  # gone meanwhile, or a dangling link: listed, and reported when read
                found.append((0.0, path))
    except OSError as exc:
        log.warning("cannot list %s: %s", folder, exc)
    return [p for _, p in sorted(found, key=lambda x: x[0], reverse=True)]


def _not_a_log(path: Path, folder: Path) -> str:
    """Why `path` is no game log to read ("" when it may be one: a regular file, a link to one in
    the folder; a folder, a dangling link or a file gone meanwhile are listed and reported when
    read). lstat and stat only: a FIFO is never opened."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return ""
    if stat.S_ISLNK(mode):
        inside = os.path.realpath(folder)
        if os.path.commonpath([inside, os.path.realpath(path)]) != inside:
            return "a link to a file outside the folder"
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return ""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return ""
    return (
        "not a regular file ("
        + ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device")
        + ")"
    )


_NAME_TIME = re.compile(r"game-(\d{8})-(\d{6})")


def started_from_name(path: Path) -> float | None:
    """The local time a log's file name was made with (game-YYYYmmdd-HHMMSS-...), as Unix time:
    logs from before issue 31 have no start in their header."""
    match = _NAME_TIME.search(path.name)
    if not match:
        return None
    try:
        return time.mktime(time.strptime("".join(match.groups()), "%Y%m%d%H%M%S"))
    except (ValueError, OverflowError):
        return None


def modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def saved_games(folder: Path | None = None) -> list[SavedGame]:
    """Every intact saved game, newest first. Damaged files are skipped with a warning
    (the home screen lists them apart, with what is wrong)."""
    return list(_saved_newest_first(folder))


def _saved_newest_first(folder: Path | None):
    for path in log_paths(folder):  # lazily: `last_unfinished` reads only up to the game it needs
        loaded = scan_log(path)
        if loaded.damage:
            log.warning("skipping %s: %s", display_name(path), loaded.damage.summary())
            continue
        said = [r.get("t") for r in loaded.records if r.get("t") != "drop"]  # late drops change nothing
        finished = bool(said) and said[-1] == "finished"
        yield SavedGame(path, loaded.header, finished, modified(path), len(loaded.records))


def last_unfinished(folder: Path | None = None) -> SavedGame | None:
    return next((g for g in _saved_newest_first(folder) if not g.finished), None)
