"""What the link tells a person (or the table): `LinkStatus`, and `Notices`, which paces the
faults and refused frames shown as status changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel

OFFLINE = "tower offline (its Last Will on the broker)"
State = Literal["connecting", "connected", "resyncing", "disconnected", "incompatible"]


class LinkStatus(BaseModel):
    """What a person (or the table) needs to know about the tower link."""

    state: State
    since: float  # wall clock of the last state change: "disconnected since ..."
    transport: str = ""
    tower: str | None = None
    fw: str | None = None
    proto: int | None = None
    boot: str | None = None
    delivered: int = 0  # last sequence number handed over in this boot
    last_drop: dict | None = None  # TowerDrop.brief() of the last drop handed over
    message: str | None = None  # why (refused version, silence, fault ...)
    counters: dict[str, int] = {}
    # The last thing that went wrong on the link (a frame refused, a callback or a
    # worker that failed); it stays after the state moves on, `message` does not.
    last_fault: str | None = None
    last_fault_at: float | None = None  # wall clock
    # The colours the tower is calibrated for (its hello; None: not known yet or not calibrated),
    # and the last calibration frame while one runs or just ended (state, colour, got, need ...).
    calibrated: list[str] | None = None
    calibration: dict | None = None

    def differs_from(self, old: LinkStatus) -> bool:
        """Worth telling: what a person sees changed (not just the counters or the last drop)."""
        return (
            self.state,
            self.tower,
            self.fw,
            self.boot,
            self.message,
            self.last_fault_at,
            self.calibrated,
            self.calibration,
        ) != (old.state, old.tower, old.fw, old.boot, old.message, old.last_fault_at, old.calibrated, old.calibration)


class Notices:
    """Faults and refused frames shown as status changes: at most one per `every` seconds;
    those in between are summed into the next one ("... (3 more since the last one)")."""

    def __init__(self, every: float, clock: Callable[[], float]) -> None:
        self.every = every
        self._clock = clock
        self.waiting: str | None = None  # a notice to show once `every` has passed
        self._held = 0
        self._next_at = 0.0

    def add(self, text: str) -> str | None:
        """Takes a notice; returns what to show now, or None if it waits for `due()`."""
        self.waiting = text
        self._held += 1
        return self._take() if self._clock() >= self._next_at else None

    def due(self, now: float) -> str | None:
        """The notice waiting, once its time has come (for the link's tick)."""
        return self._take() if self.waiting is not None and now >= self._next_at else None

    def _take(self) -> str:
        text, more = self.waiting or "", self._held - 1
        self.waiting, self._held = None, 0
        if more:
            text += f" ({more} more since the last one)"
        self._next_at = self._clock() + self.every
        return text
