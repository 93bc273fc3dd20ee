"""A link of the simulated tower (firmware link.py): a bounded queue of control frames plus a
cursor into the drop ring; `InProcessPort`, the one pumped by the caller (unit tests)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from firmware_bridge import framing

if TYPE_CHECKING:
    from firmware_bridge.sim.tower import SimulatedTower

MAX_QUEUE = 64  # control frames waiting per link, as in the firmware
Item = tuple[str, bytes]  # (message type, frame)


class SimPort:
    """One link of the tower: a bounded queue of control frames plus a cursor
    into the drop ring (firmware link.py). Called with the tower's lock held."""

    name = "port"

    def __init__(self, tower: SimulatedTower) -> None:
        self.tower = tower
        self.queue: deque[Item] = deque()
        self.cursor = tower.last_seq + 1
        self.acked = 0
        self.overflowed = 0
        tower.attach(self)

    def send(self, kind: str, frame: bytes) -> None:
        if len(self.queue) >= MAX_QUEUE:
            self.queue.popleft()
            self.overflowed += 1
        self.queue.append((kind, frame))

    def rewind(self, seq: int) -> None:
        self.cursor = seq

    def next_frame(self) -> Item | None:
        if self.queue:
            return self.queue.popleft()
        t = self.tower
        self.cursor = max(self.cursor, t.oldest_seq)
        if self.cursor > t.last_seq:
            return None
        frame = t.ring[self.cursor]
        self.cursor += 1
        return "drop", frame

    def unread(self, item: Item) -> None:
        if item[0] == "drop":
            self.cursor -= 1
        else:
            self.queue.appendleft(item)

    def has_output(self) -> bool:
        return bool(self.queue) or self.cursor <= self.tower.last_seq

    def on_reboot(self) -> None:
        self.queue.clear()
        self.cursor = 1
        self.acked = 0

    def wake(self) -> None:
        """New output is waiting (called with the lock held; must not block)."""

    def close(self) -> None:
        self.tower.detach(self)


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
        self.tower.handle_line(data, self)

    def command(self, msg: dict) -> None:
        self.tower.handle_line(framing.encode(msg), self)
