"""Who is told after every accepted change to the table: "game", "drop", "tower", "private".

Told on the caller's thread, after the table's lock is let go (the Kivy app hops to its own
thread with Clock). An observer's failure is logged, never passed on: the input was accepted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

logger = logging.getLogger("companion.table.authority")  # the table's log, as before the move


class Observers:
    """The callbacks subscribed to one table."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[str], None]] = []

    def subscribe(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """callback(what) after each change. Returns unsubscribe."""
        self._callbacks.append(callback)
        return lambda: self._callbacks.remove(callback) if callback in self._callbacks else None

    def notify(self, what: str) -> None:
        for callback in list(self._callbacks):
            try:
                callback(what)
            except Exception:  # an observer's bug must not undo an accepted input
                logger.exception("observer failed")
