"""The boots a link has seen: per (tower, boot), the last drop handed over (so a boot that comes
back resumes after it, never from 1 again), and per tower the newest `boots` count a hello named
(so a retained or redelivered hello from before is known as stale)."""

from __future__ import annotations

from collections import OrderedDict

# (tower, boot) pairs whose last drop handed over is remembered: a night has a handful of
# boots; the bound keeps a flood of forged boot ids from growing memory (past it, the
# table's own record of the drops it took is the second line of defence).
HELD_BOOTS = 4096


class BootRecord:
    """One boot of one tower: the last sequence number handed over, and the boot's `boots`
    count from its hello (None while no hello of this boot was seen)."""

    __slots__ = ("boots", "delivered")

    def __init__(self, delivered: int = 0, boots: int | None = None) -> None:
        self.delivered = delivered
        self.boots = boots


class BootBook:
    def __init__(self, resume: tuple[str, str, int] | None = None, limit: int = HELD_BOOTS) -> None:
        self.limit = limit
        # least recently used first; the current boot's record is kept in step with the delivery
        self.held: OrderedDict[tuple[str | None, str], BootRecord] = OrderedDict()
        if resume:
            self.held[(resume[0], resume[1])] = BootRecord(resume[2])  # the host already holds these
        self._newest: dict[str, int] = {}  # tower -> highest `boots` count a hello of it named

    def knows(self, tower: str | None, boot: str) -> bool:
        return (tower, boot) in self.held

    def record(self, tower: str | None, boot: str | None) -> BootRecord | None:
        return self.held.get((tower, boot)) if boot is not None else None

    def enter(self, tower: str | None, boot: str, boots: int | None = None) -> BootRecord:
        """The link moves to this boot: its record (made if new), now the most recently used."""
        record = self.held.pop((tower, boot), None) or BootRecord()
        if boots is not None:
            record.boots = boots
        self.held[(tower, boot)] = record
        while len(self.held) > self.limit:
            self.held.popitem(last=False)
        return record

    def saw_hello(self, tower: str, boots: int) -> None:
        self._newest[tower] = max(self._newest.get(tower, 0), boots)

    def stale_hello(self, tower: str, boots: int, current: BootRecord | None) -> bool:
        """A hello of this tower for another boot that is not its newest: retained or redelivered
        from before. Adopted only if its `boots` count is above every hello seen, or equal to the
        highest while the current boot was taken from a frame with no hello yet (a late frame
        of an older boot, say)."""
        newest = self._newest.get(tower, 0)
        return boots < newest or (boots == newest and current is not None and current.boots is not None)
