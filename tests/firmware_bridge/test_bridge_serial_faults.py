"""Issue 10 over real ptys: a poison frame, a table that fails once and a reader
thread that dies; each followed by 20 real drops, delivered exactly once, in
order, with the fault shown as a link status change. Also `elgrande listen
--serial` (a real subprocess) through a poison frame."""

import json

import pytest

from firmware_bridge import framing
from firmware_bridge.sim import PtyPort, SimulatedTower
from firmware_bridge.transport_serial import SerialBridge
from tests.firmware_bridge.bridge_helpers import Collector, assert_exactly_once_in_order
from tests.firmware_bridge.test_bridge_cli import Proc


def poison_frames(tower) -> list[bytes]:
    """Valid CRCs around wrong content: each of these once stopped the reader thread."""
    bodies = [
        # the next sequence number, a float in it
        b'{"t":"drop","amb":[6,6,5,17],"best":"red","boot":"%s","col":"red","conf":999.5,"est":1,"ms":5,'
        b'"multi":false,"raw":[1,2,3,4],"seq":%d,"tr":6000}' % (tower.boot_id.encode(), tower.last_seq + 1),
        b'{"t":"ok","boot":12345678,"cmd":"ack"}',  # a boot that is not a string
        b'{"t":"hb","boot":["%s"],"seq":-4}' % tower.boot_id.encode(),
    ]
    return [body + b"*%04X" % framing.crc16(body) for body in bodies]


def inject(port: PtyPort, frames: list[bytes]) -> None:
    """Frames on the wire between the tower's own, as if the tower had sent them."""
    with port.tower.lock:
        for frame in frames:
            port.send("poison", frame)
        port.wake()


def shown(c, needle: str) -> list[str]:
    return [s.last_fault for s in c.statuses if s.last_fault and needle in s.last_fault]


@pytest.fixture
def pty_link():
    tower = SimulatedTower(seed=61)
    port = PtyPort(tower, baud=0)
    c = Collector()
    bridges = []

    def start(**options):
        bridge = SerialBridge(port.path, c.drop, c.status, backoff_min=0.05, **options).start()
        bridges.append(bridge)
        c.wait(lambda c: c.statuses and c.statuses[-1].state == "connected", 10, "connected")
        tower.drop("red")
        c.wait_drops(1, 10)
        return bridge

    yield tower, port, c, start
    for b in bridges:
        b.stop()
    port.close()


def test_poison_frame_then_20_real_drops_over_a_pty(pty_link):
    tower, port, c, start = pty_link
    bridge = start()
    inject(port, poison_frames(tower))
    for _ in range(20):
        tower.drop()
    c.wait_drops(21, 20)
    assert_exactly_once_in_order(c.drops, [(tower.boot_id, 21)])
    assert shown(c, "refused a frame from the tower: drop: conf: should be an integer")
    # the drop and the hb are refused; the ok frame is valid (its "boot" is an extra field) and moves nothing
    assert bridge.link.counters["bad_message"] == 2 and bridge.link.counters["faults"] == 0
    assert bridge.link.boot == tower.boot_id and bridge.link.counters["reboots"] == 0
    assert bridge.restarts == 0 and bridge._worker.is_alive()
    c.wait(lambda _: tower.acked == 21, 10, "every drop acknowledged")


def test_a_table_that_fails_once_gets_the_drop_again_over_a_pty(pty_link):
    tower, port, c, start = pty_link
    bridge = start()
    failed = []

    def on_drop(d):
        if d.seq == 5 and not failed:
            failed.append(d.seq)
            raise OSError("disk full")
        c.drop(d)

    bridge.link._on_drop = on_drop
    for _ in range(20):
        tower.drop()
    c.wait_drops(21, 20)
    assert failed == [5]
    assert_exactly_once_in_order(c.drops, [(tower.boot_id, 21)])
    assert shown(c, "the table could not take drop 5 (OSError: disk full")
    c.wait(lambda _: tower.acked == 21, 10, "every drop acknowledged")


def test_a_reader_thread_that_dies_is_restarted_and_the_fault_shown(pty_link):
    tower, port, c, start = pty_link
    bridge = start()
    link = bridge.link
    real_feed = link.feed_bytes
    broke = []

    def feed_that_dies_once(data):
        if not broke:
            broke.append(data)
            raise RuntimeError("reader killed")  # past the link's own guard: the thread itself fails
        real_feed(data)

    link.feed_bytes = feed_that_dies_once  # the reader looks it up on each read
    for _ in range(20):
        tower.drop()
    c.wait_drops(21, 20)
    assert_exactly_once_in_order(c.drops, [(tower.boot_id, 21)])
    assert bridge.restarts == 1 and link.counters["worker_restarts"] == 1 and link.counters["faults"] == 1
    assert shown(c, "the serial reader failed (RuntimeError: reader killed")
    assert bridge.opened == 2  # the port was closed with the dead reader and opened afresh
    c.wait(lambda c: c.statuses[-1].state == "connected", 10, "connected again")


def test_listen_serial_survives_a_poison_frame():
    tower = SimulatedTower(seed=62)
    port = PtyPort(tower, baud=0)
    listen = Proc("listen", "--serial", port.path, "--json", "--count", "20")
    try:
        seen = []
        while not any(o.get("status") == "connected" for o in seen):
            seen.append(json.loads(listen.line()))
        inject(port, poison_frames(tower))
        for _ in range(20):
            tower.drop()
        while len([o for o in seen if "seq" in o]) < 20:
            seen.append(json.loads(listen.line()))
        assert listen.p.wait(10) == 0
        drops = [o for o in seen if "seq" in o]
        assert [(d["boot"], d["seq"]) for d in drops] == [(tower.boot_id, s) for s in range(1, 21)]
        messages = [o.get("message") or "" for o in seen if "status" in o]
        assert any("refused a frame from the tower" in m for m in messages)
        err = listen.p.stderr.read()
        assert "Traceback" not in err and err.count("\n") <= 6, err
    finally:
        listen.stop()
        port.close()
