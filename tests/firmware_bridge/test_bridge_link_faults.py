"""The link against the frames and callbacks that used to stop it (issue 10):
each is taken or refused with a reason, counted, shown, and the drops around
it still arrive exactly once, in order. In process, on a fake clock."""

import logging

import pytest

from firmware_bridge import framing
from firmware_bridge.sim import SimulatedTower
from tests.firmware_bridge.bridge_helpers import Wire, assert_exactly_once_in_order
from tests.firmware_bridge.fuzz_frames import wire_bytes


def drop_frame(tower, seq, change=None):
    obj = {
        "t": "drop",
        "boot": tower.boot_id,
        "seq": seq,
        "col": "red",
        "best": "red",
        "conf": 1000,
        "raw": [313, 78, 69, 486],
        "amb": [6, 6, 5, 17],
        "tr": 6010,
        "multi": False,
        "est": 1,
        "ms": 100,
    }
    obj.update(change or {})
    return wire_bytes(obj)


def faults(w):
    """Each fault shown, once (a status keeps its last fault after the state moves on)."""
    shown = {s.last_fault_at: s.last_fault for s in w.c.statuses if s.last_fault}
    return list(shown.values())


@pytest.mark.parametrize("feed", ["serial", "mqtt"])
@pytest.mark.parametrize(
    "poison,reason",
    [
        ({"conf": 999.5}, "drop: conf: should be an integer (PROTOCOL.md section 1: floats are not used on the wire)"),
        ({"seq": -3}, "drop: seq: Input should be greater than or equal to 1"),
        ({"seq": 2**40}, "drop: seq: Input should be less than or equal to 2147483647"),
        ({"boot": 12345678}, "drop: boot: Input should be a valid string"),
        ({"boot": "3F9A12C0"}, "drop: boot: should be 8 lower-case hex digits"),
        ({"amb": {"a": [1, {"b": [2]}]}}, "drop: amb: Input should be a valid list"),
        ({"col": "x" * 300}, "drop: col: Input should be 'red', 'yellow', 'green', 'blue', 'black' or 'uncertain'"),
    ],
)
def test_a_poison_drop_is_refused_with_its_reason_and_the_real_drops_arrive(feed, poison, reason):
    w = Wire(seed=30).connect()
    w.tower.drop("red")
    w.settle()
    line = drop_frame(w.tower, 2, poison)  # claims the next sequence number
    (w.link.feed_bytes(line + b"\n") if feed == "serial" else w.link.feed_frame(line))
    for _ in range(20):
        w.tower.drop("blue")
    w.settle()
    assert_exactly_once_in_order(w.c.drops, [(w.tower.boot_id, 21)])
    assert w.link.counters["bad_message"] == 1 and w.link.counters["faults"] == 0
    assert faults(w) == [f"refused a frame from the tower: {reason}"]
    assert w.c.statuses[-1].state == "connected"


def test_floats_and_nested_objects_in_extra_fields_are_ignored_not_re_encoded():
    # Section 7: unknown fields are allowed. This one used to raise from framing.dumps.
    w = Wire(seed=31).connect()
    w.link.feed_bytes(drop_frame(w.tower, 1, {"lux": 1.5, "more": {"deep": [[[0.25]]]}}) + b"\n")
    w.link.feed_bytes(drop_frame(w.tower, 1, {"lux": 1.5, "more": {"deep": [[[0.25]]]}}) + b"\n")  # a repeat
    w.tower.drop("red")  # the real drop 1 says the same
    w.settle()
    assert [(d.seq, d.colour) for d in w.c.drops] == [(1, "red")]
    assert w.link.counters["duplicates"] >= 1 and w.link.counters["faults"] == 0


@pytest.mark.parametrize(
    "frame",
    [
        {"t": "ok", "cmd": "ack", "boot": 12345678},  # a boot among an ok frame's extra fields used to reboot the link
        {"t": "ok", "cmd": "ack", "boot": "0badc0de"},
        {"t": "cal", "state": "done", "boot": [1, 2]},
        {"t": "ok", "cmd": "ack", "re": 1.5},
        {"t": "hb", "boot": {"x": 1}},
        {"t": "weather", "rain": 0.5, "boot": None},
        {"t": "hello", "dev": "castillo-5e1a00", "proto": 1.0},
    ],
)
def test_wrong_boot_types_and_floats_elsewhere_do_not_move_the_link(frame):
    w = Wire(seed=32).connect()
    boot = w.tower.boot_id
    w.tower.drop("green")
    w.settle()
    w.link.feed_frame(wire_bytes(frame))
    w.tower.drop("black")
    w.settle()
    assert w.link.boot == boot and w.link.counters["reboots"] == 0
    assert_exactly_once_in_order(w.c.drops, [(boot, 2)])
    assert w.link.counters["faults"] == 0


def test_a_hello_of_another_version_from_anyone_is_undone_by_the_towers_own_hello():
    w = Wire(seed=33).connect()
    w.tower.drop("red")
    w.settle()
    forged = {**w.tower.hello(), "proto": 2, "fw": "2.0.0"}
    w.link.feed_frame(framing.encode(forged))  # a retained hello on the broker, say
    assert w.link.status.state == "incompatible" and "protocol version 2" in w.link.status.message
    for _ in range(5):
        w.tower.drop("yellow")  # refused for now; they make the link ask the tower again
    w.settle()
    assert w.link.status.state == "connected" and w.link.status.proto == 1
    assert_exactly_once_in_order(w.c.drops, [(w.tower.boot_id, 6)])
    assert w.link.counters["refused"] >= 2


def test_a_tower_that_really_speaks_another_version_stays_refused():
    tower = SimulatedTower(seed=34, proto=2, fw="2.0.0")
    w = Wire(tower=tower).connect()
    for _ in range(5):
        tower.drop("red")
        tower.heartbeat()
        w.settle()
    assert w.c.drops == [] and w.link.status.state == "incompatible"
    assert {s.state for s in w.c.statuses} <= {"connecting", "incompatible"}


def test_an_on_drop_that_always_raises_is_retried_then_skipped_loudly_and_later_drops_flow():
    w = Wire(seed=35)
    tries = []

    def on_drop(d):
        if d.seq == 2:
            tries.append(w.now)
            raise ValueError("cannot store drop 2")
        w.c.drop(d)

    w.link._on_drop = on_drop
    w.connect()
    for _ in range(4):
        w.tower.drop("red")
    for _ in range(8):  # the backoff outlasts a settle: let the clock run on
        w.now += 4
        w.settle()
    assert len(tries) == 5  # max_delivery_attempts, with a growing backoff between them
    assert tries[4] - tries[3] > tries[1] - tries[0]
    assert [d.seq for d in w.c.drops] == [1, 3, 4]
    assert w.link.counters["undeliverable"] == 1 and w.link.counters["callback_errors"] == 5
    assert any("refused drop 2 5 times" in f and "skipped" in f for f in faults(w))
    assert w.tower.acked == 4


def test_status_and_totals_callbacks_that_raise_are_counted_and_the_totals_asked_again():
    calls = {"status": 0, "totals": 0}

    def on_status(s):
        calls["status"] += 1
        raise RuntimeError("ui gone")

    def on_totals(tower, totals):
        calls["totals"] += 1
        if calls["totals"] == 1:
            raise RuntimeError("table busy")

    w = Wire(seed=36, on_totals=on_totals)
    w.link._on_status = on_status
    w.connect()
    w.tower.drop("red")
    w.settle()
    assert calls["totals"] >= 2 and w.link.status.state == "connected"
    assert w.link.counters["callback_errors"] == calls["status"] + 1
    assert [d.seq for d in w.c.drops] == [1]


def test_a_bug_behind_an_entry_point_is_a_fault_shown_once_and_the_link_carries_on(monkeypatch):
    w = Wire(seed=37).connect()
    real = w.link._heartbeat

    def broken(msg):
        raise KeyError("a bug")

    monkeypatch.setattr(w.link, "_heartbeat", broken)
    w.tower.heartbeat()
    w.settle()
    monkeypatch.setattr(w.link, "_heartbeat", real)
    for _ in range(3):
        w.tower.drop("blue")
    w.settle()
    assert w.link.counters["faults"] >= 1
    assert any(
        f.startswith("handling a frame failed (KeyError: 'a bug' (test_bridge_link_faults.py:") for f in faults(w)
    )
    assert_exactly_once_in_order(w.c.drops, [(w.tower.boot_id, 3)])


def test_entry_points_given_the_wrong_types_do_not_raise():
    w = Wire(seed=38).connect()
    for call, arg in [
        (w.link.feed_bytes, None),
        (w.link.feed_bytes, "text"),
        (w.link.feed_frame, 5),
        (w.link.feed_frame, memoryview(b"{}*0000")),
        (w.link.feed_availability, None),
        (w.link.feed_availability, "online"),
        (w.link.feed_bytes, bytearray(b"\n\n")),
    ]:
        call(arg)
    assert w.link.counters["faults"] == 4  # None, "text" and 5 are bugs in the caller: counted, shown
    w.tower.drop("red")
    w.settle()
    assert [d.seq for d in w.c.drops] == [1]


def test_a_flood_of_garbage_logs_a_few_lines_and_a_summary_no_traceback(caplog):
    w = Wire(seed=39).connect()
    hostile = [b"garbage %d\n" % i for i in range(3000)]
    hostile += [drop_frame(w.tower, 1, {"conf": 0.5}) + b"\n"] * 3000
    hostile += [b"{" + b"x" * 600 + b"\n"] * 1000
    with caplog.at_level(logging.INFO, logger="firmware_bridge"):
        for i, line in enumerate(hostile):
            w.link.feed_bytes(line)
            if i % 100 == 0:
                w.now += 1.0
                w.link.tick()
        w.now += 20
        w.link.tick()
    records = [r for r in caplog.records if r.name.startswith("firmware_bridge")]
    assert len(records) < 60, [r.getMessage() for r in records][:10]
    assert not any(r.exc_info for r in records)
    summaries = [r.getMessage() for r in records if "not logged one by one" in r.getMessage()]
    assert summaries and "bad_message" in " ".join(summaries)
    assert w.link.counters["bad_frame"] == 3000 and w.link.counters["bad_message"] == 3000
    assert w.link.counters["line_too_long"] == 1000
    shown = {s.last_fault_at for s in w.c.statuses if s.last_fault}
    assert 0 < len(shown) <= w.now + 1  # status changes for refused frames: at most one a second
