"""Drops of one boot handed to the table exactly once and in sequence order.

What was handed over (`delivered`), what waits beyond a gap (`pending`), what each drop said
(to spot a repeat with other content), and the drop the table could not take, offered
again with a backoff: that is this module. Asking the tower for what is missing (replay,
totals) is the link's (core.py): it is told through `resync` and reads `gap()`.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import Literal

from firmware_bridge.adapter import TowerDrop, tower_drop
from firmware_bridge.guard import LogLimiter, describe
from firmware_bridge.link.boots import BootRecord
from firmware_bridge.messages import Drop

SEEN_KEPT = 1024  # fingerprints of drops handed over, to spot a conflicting repeat
Fingerprint = tuple
# What became of a drop taken: a repeat (nothing to do), waiting beyond a gap, or handled in order
# (handed over, or kept because the table refused it).
Taken = Literal["repeat", "waiting", "handled"]


def fingerprint(msg: Drop) -> Fingerprint:
    # What a drop says, from its checked fields only: a repeat with other content is
    # a conflict. (Never re-encoded: a received frame may hold anything in extra fields.)
    return (
        msg.col,
        msg.xcol,
        msg.best,
        msg.xbest,
        msg.conf,
        tuple(msg.raw) if msg.raw else None,
        tuple(msg.amb),
        msg.tr,
        msg.multi,
        msg.est,
        msg.ms,
    )


class Delivery:
    """One boot's drops to the table. `offer(drop)` is the table; `notice(text)` shows a
    problem; `resync(why)` asks the link to fetch a totals snapshot; `handed_over(drop)`
    tells it a drop was handed over (for its status)."""

    def __init__(
        self,
        counters: Counter,
        logs: LogLimiter,
        clock: Callable[[], float],
        *,
        offer: Callable[[TowerDrop], None],
        notice: Callable[[str], None],
        resync: Callable[[str], None],
        handed_over: Callable[[TowerDrop], None],
        max_pending: int,
        max_delivery_attempts: int,
        retry_after: float,
    ) -> None:
        self.counters = counters
        self._logs = logs
        self._clock = clock
        self._offer = offer
        self._notice = notice
        self._resync = resync
        self._handed_over_to_table = handed_over
        self.max_pending = max_pending
        self.max_delivery_attempts = max_delivery_attempts
        self.retry_after = retry_after
        self.tower: str | None = None
        self.record = BootRecord()  # the boot's record in the link's BootBook, kept in step
        self.known_last = 0  # highest seq the device says exists, this boot
        self.pending: dict[int, tuple[Drop, Fingerprint]] = {}  # beyond a gap (or refused by the table)
        self._seen: OrderedDict[int, Fingerprint] = OrderedDict()  # seq -> fingerprint
        self.refused: tuple[int, int] | None = None  # (seq, attempts) of a drop the table could not take
        self.redeliver_at: float | None = None
        self.progress = 0.0  # when a drop was last handed over

    @property
    def delivered(self) -> int:
        """Highest contiguous seq handed over, this boot."""
        return self.record.delivered

    def restart(self, tower: str | None, record: BootRecord) -> None:
        """A new boot (or one seen before: it resumes after its last drop handed over)."""
        self.tower = tower
        self.record = record
        self.known_last = record.delivered
        self.pending.clear()
        self._seen.clear()
        self.refused = None
        self.redeliver_at = None

    def gap(self) -> bool:
        """Drops are missing that the tower should be asked to replay (not while the table is
        refusing one: the link holds it already)."""
        return self.delivered < self.known_last and not self.refused

    def take(self, msg: Drop) -> Taken:
        """A drop from the tower, handed over in order or kept until it can be."""
        seq = msg.seq
        fp = fingerprint(msg)
        if seq <= self.delivered:
            seen = self._seen.get(seq)
            if seen is not None and seen != fp:
                self.counters["conflicting_repeat"] += 1
                self._resync(f"drop {seq} came again with other content")
            else:
                self.counters["duplicates"] += 1
            return "repeat"
        if seq > self.known_last:
            self.known_last = seq
        if self.refused and self.refused[0] == seq:
            self.counters["duplicates"] += 1  # held already; offered to the table again on the backoff (tick)
            return "repeat"
        if seq != self.delivered + 1:
            if seq in self.pending:
                self.counters["duplicates"] += 1
            elif len(self.pending) < self.max_pending:
                self.pending[seq] = (msg, fp)
            self.counters["out_of_order"] += 1
            return "waiting"
        if self._deliver(msg, fp):
            self.deliver_pending()
        return "handled"

    def redeliver_due(self, now: float) -> bool:
        """The refused drop's backoff is over: offer what waits again (True if it was due)."""
        if self.redeliver_at is None or now < self.redeliver_at:
            return False
        self.redeliver_at = None
        self.deliver_pending()
        return True

    def skip_to(self, seq: int) -> int:
        """Drops up to seq are gone from the tower (`replay_gap`): counted lost, delivery goes on
        after them. Returns how many were lost."""
        lost = max(0, seq - self.delivered)
        if lost:
            self.counters["lost"] += lost
            self.record.delivered = seq
            self.pending = {s: p for s, p in self.pending.items() if s > seq}
            if self.refused and self.refused[0] <= seq:
                self.refused, self.redeliver_at = None, None
            self.deliver_pending()
        return lost

    def deliver_pending(self) -> None:
        while self.delivered + 1 in self.pending:
            if not self._deliver(*self.pending.pop(self.delivered + 1)):
                return

    def _deliver(self, msg: Drop, fp: Fingerprint) -> bool:
        """Hands one drop to the table; False if the table raised (the drop is kept)."""
        drop = tower_drop(self.tower, msg)
        try:
            self._offer(drop)
        except Exception as error:  # the table's problem must not stop the link, nor lose the drop
            return self._table_refused(msg, fp, error)
        self._handed_over(msg, fp, drop)
        if self.refused:
            seq, attempts = self.refused
            self.refused = None
            self._notice(f"the table took drop {seq} at attempt {attempts + 1}")
        return True

    def _handed_over(self, msg: Drop, fp: Fingerprint, drop: TowerDrop) -> None:
        self.record.delivered = msg.seq
        self.progress = self._clock()
        self._seen[msg.seq] = fp
        if len(self._seen) > SEEN_KEPT:
            self._seen.popitem(last=False)
        self.counters["delivered"] += 1
        self._handed_over_to_table(drop)

    def _table_refused(self, msg: Drop, fp: Fingerprint, error: Exception) -> bool:
        # Not acknowledged, so the tower holds it too; offered again with a backoff.
        # After max_delivery_attempts it is skipped, loudly, rather than holding every
        # later drop back for ever: counted as `undeliverable`, shown, and the totals
        # snapshot (which still counts it) is fetched again.
        # A table that says it will take it later (`keep_offering`: its storage is full) is offered
        # it again for as long as it takes, every few seconds at most; the tower holds it meanwhile.
        self.counters["callback_errors"] += 1
        seq = msg.seq
        attempts = self.refused[1] + 1 if self.refused and self.refused[0] == seq else 1
        if getattr(error, "keep_offering", False):
            attempts = min(attempts, self.max_delivery_attempts - 1)
        if attempts >= self.max_delivery_attempts:
            self.refused = None
            self.counters["undeliverable"] += 1
            text = (
                f"the table refused drop {seq} {attempts} times ({describe(error)}): skipped; "
                f"the tower's totals still count it"
            )
            self._logs.log(logging.ERROR, "undeliverable", "%s", text)
            self._handed_over(msg, fp, tower_drop(self.tower, msg))
            self._notice(text)
            self._resync(text)
            return True
        self.refused = (seq, attempts)
        self.pending[seq] = (msg, fp)
        self.redeliver_at = self._clock() + self.retry_after * 2 ** (attempts - 1)
        text = f"the table could not take drop {seq} ({describe(error)}): kept, not acknowledged, offered again"
        self._logs.log(logging.ERROR, "on_drop", "%s", text)
        self._notice(text)
        return False
