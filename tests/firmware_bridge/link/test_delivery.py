"""One boot's drops reach the table exactly once and in order, whatever order they come in."""

import logging
from collections import Counter

from firmware_bridge.guard import LogLimiter
from firmware_bridge.link.boots import BootRecord
from firmware_bridge.link.delivery import Delivery
from firmware_bridge.messages import Drop

BOOT = "3f9a12c0"


def drop(seq: int, colour: str = "red") -> Drop:
    return Drop.model_validate(
        {"t": "drop", "boot": BOOT, "seq": seq, "col": colour, "best": colour, "conf": 1000}
        | {"amb": [6, 6, 5, 17], "tr": 6010, "multi": False, "est": 1, "ms": 1000 + seq}
    )


class Table:
    def __init__(self) -> None:
        self.now = 0.0
        self.taken: list[int] = []
        self.refuse: set[int] = set()
        self.notices: list[str] = []
        self.resyncs: list[str] = []

    def offer(self, d) -> None:
        if d.seq in self.refuse:
            raise OSError("disk full")
        self.taken.append(d.seq)

    def delivery(self) -> Delivery:
        counters: Counter = Counter()
        d = Delivery(
            counters,
            LogLimiter(logging.getLogger("firmware_bridge.test"), clock=lambda: self.now),
            lambda: self.now,
            offer=self.offer,
            notice=self.notices.append,
            resync=self.resyncs.append,
            handed_over=lambda d: None,
            max_pending=16,
            max_delivery_attempts=3,
            retry_after=1.0,
        )
        d.restart("castillo-a", BootRecord())
        return d


def test_a_drop_beyond_a_gap_waits_and_is_handed_over_when_the_gap_fills():
    table = Table()
    d = table.delivery()
    assert d.take(drop(1)) == "handled"
    assert d.take(drop(3)) == "waiting" and d.gap()
    assert d.take(drop(2)) == "handled"
    assert table.taken == [1, 2, 3] and d.delivered == 3 and d.record.delivered == 3 and not d.gap()


def test_a_repeat_is_counted_and_a_repeat_with_other_content_asks_for_the_totals():
    table = Table()
    d = table.delivery()
    d.take(drop(1))
    assert d.take(drop(1)) == "repeat" and d.counters["duplicates"] == 1
    d.take(drop(1, "blue"))
    assert d.counters["conflicting_repeat"] == 1 and table.resyncs == ["drop 1 came again with other content"]
    assert table.taken == [1]


def test_a_drop_the_table_refuses_is_kept_offered_again_after_a_backoff_then_skipped_loudly():
    table = Table()
    table.refuse = {2}
    d = table.delivery()
    d.take(drop(1))
    d.take(drop(2))
    d.take(drop(3))  # waits behind the refused one: order is kept
    assert table.taken == [1] and d.refused == (2, 1)
    assert not d.redeliver_due(0.5)
    table.now = 1.0
    assert d.redeliver_due(1.0) and d.refused == (2, 2)  # refused again: 2 s this time
    table.now = 3.0
    d.redeliver_due(3.0)  # the third refusal: skipped, the totals asked for
    assert table.taken == [1, 3] and d.counters["undeliverable"] == 1
    assert any("refused drop 2 3 times" in r for r in table.resyncs)


def test_drops_the_tower_no_longer_holds_are_counted_lost_and_delivery_goes_on_after_them():
    table = Table()
    d = table.delivery()
    d.take(drop(1))
    d.take(drop(5))
    assert d.skip_to(3) == 2 and d.counters["lost"] == 2
    d.take(drop(4))
    assert table.taken == [1, 4, 5] and d.delivered == 5
