"""One table as the club board knows it: its latest state, its online flag, where its messages came
from, and its status on the board.

`unknown` while the board itself has lost the broker (the page shows a banner), `offline` (its Last
Will, or a clean stop), `stale` (no state for longer than its heartbeat window: 2.5 heartbeats, by
the board's clock; a retained state, read when the board subscribes, is aged by the table's own
timestamp), `live` otherwise; a table is never shown live on old news."""

from __future__ import annotations

from typing import Any

from companion.club.topics import StateMessage

STALE_HEARTBEATS = 2.5


class TableEntry:
    def __init__(self, table: str):
        self.table = table
        self.state: StateMessage | None = None
        self.online: bool | None = None
        self.received = 0.0  # monotonic, when the last state arrived
        self.halls: set[str | None] = set()  # where its messages came from: None itself, else its hall
        self.changed = 0.0  # monotonic, when the last new version arrived

    def status(self, now: float, connected: bool = True) -> str:
        if not connected:
            return "unknown"
        if self.online is False:
            return "offline"
        if self.state is None:
            return "waiting"
        if now - self.received > STALE_HEARTBEATS * self.state.heartbeat:
            return "stale"
        return "live"

    def view(self, now: float, connected: bool = True) -> dict:
        out: dict[str, Any] = {"table": self.table, "status": self.status(now, connected)}
        if self.state is None:
            out["gone"] = True  # not (or no longer) a table of this event: the page removes its card
        if self.state is not None:
            out.update(self.state.model_dump(mode="json"))
            out["age"] = round(now - self.received, 1)
        return out
