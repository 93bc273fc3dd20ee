"""The simulated tower's port for unit tests: frames handed to a function when the caller pumps,
commands handed in as dicts or lines. Deterministic, no threads."""

from __future__ import annotations

from collections.abc import Callable

from firmware_bridge import framing
from firmware_bridge.sim.commands import handle_line
from firmware_bridge.sim.tower import SimPort, SimulatedTower


class InProcessPort(SimPort):
    """Frames go to `deliver(kind, frame)` when the caller pumps; commands come
    in through `command(dict)` or `line(bytes)`. Deterministic, no threads."""

    name = "inprocess"

    def __init__(self, tower: SimulatedTower, deliver: Callable[[str, bytes], None]) -> None:
        super().__init__(tower)
        self.deliver = deliver

    def pump(self, limit: int = 1_000_000) -> int:
        """Hands over waiting frames (including those queued while pumping)."""
        n = 0
        while n < limit:
            with self.tower.lock:
                item = self.next_frame()
            if item is None:
                return n
            self.deliver(*item)
            n += 1
        return n

    def line(self, data: bytes) -> None:
        handle_line(self.tower, data, self)

    def command(self, msg: dict) -> None:
        handle_line(self.tower, framing.encode(msg), self)
