"""The data folder and durable writes: where the companion keeps its files (the platform's user
data folder, or $ELGRANDE_DATA_DIR), and how a file is written so that it is on the storage
whole or not at all.

A write the storage refuses is said to people in one line (SaveFailed, storage_trouble): it names
the storage and what to do, never a path. A full disk is found even when a write comes back short
without an error (write_all writes on until the kernel says ENOSPC).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import platformdirs

from companion.words import N_, _

APP_NAME = "elgrande-companion"
DATA_DIR_ENV = "ELGRANDE_DATA_DIR"  # overrides the platform's folder (tests, portable installs)


class SaveFailed(Exception):
    """A write that did not reach the storage whole. The log is as it was before it (the
    part written is cut off again), and the message is for people: it names the storage and
    what to do, never a path."""

    def __init__(self, exc: OSError):
        self.cause = exc
        super().__init__(storage_trouble(exc))

    def words(self, what: str) -> str:
        """The same line about something other than an input ("this entry")."""
        return storage_trouble(self.cause, what)


FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
# What a refused write was of, as the callers name it (translated where said; a caller's own
# words already in the table's language pass unchanged).
WHAT_WAS_WRITTEN = (N_("this input"), N_("this entry"), N_("the theme"), N_("the language"))


def storage_trouble(exc: OSError, what: str = WHAT_WAS_WRITTEN[0]) -> str:
    """What a failed write means to the table, in one line, in the table's language."""
    what = _(what)
    if exc.errno in FULL_ERRNOS:
        return _("The tablet's storage is full: free some space; nothing of {what} was kept").format(what=what)
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return _(
            "The tablet's storage refuses to be written to (it is read-only or not ours); nothing of {what} was kept"
        ).format(what=what)
    reason = (exc.strerror or _("it failed")).rstrip(".")
    return _("The tablet could not save {what} ({reason}); nothing of it was kept: try again").format(
        what=what, reason=reason
    )


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def games_dir() -> Path:
    return data_dir() / "games"


def display_name(path: Path) -> str:
    """A file name any label or terminal can show (names are bytes on Linux, and may hold
    control characters): companion.safe_text.for_file_name."""
    from companion.safe_text import for_file_name

    return for_file_name(path)


def write_all(fd: int, data: bytes) -> None:
    """os.write until every byte is written: on a filling disk a write returns short without an
    error, and only the next one says ENOSPC."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def fsync_dir(folder: Path) -> None:
    """A folder synced: the names of files made or renamed in it are durable too."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_durably(path: Path, data: bytes) -> None:
    """The file replaced whole, or not at all (SaveFailed; the half-written copy removed)."""
    temp = path.with_name(f".{path.name}.{os.urandom(3).hex()}.new")
    try:
        with open(temp, "wb", buffering=0) as f:
            write_all(f.fileno(), data)
            os.fsync(f.fileno())
        os.replace(temp, path)
        fsync_dir(path.parent)
    except OSError as exc:
        unlink_quietly(temp)
        raise SaveFailed(exc) from None


def unlink_quietly(*paths: Path) -> None:
    for path in paths:
        try:
            path.unlink()
        except OSError:
            pass
