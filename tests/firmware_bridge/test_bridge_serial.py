"""Serial transport over real ptys (and pyserial's loop://), with the simulated tower."""

import threading

import pytest
import serial

from firmware_bridge import framing
from firmware_bridge.ports import find_tower, list_ports
from firmware_bridge.sim import PtyPort, SimulatedTower
from firmware_bridge.transport_serial import SerialBridge
from tests.firmware_bridge.bridge_helpers import Collector, assert_exactly_once_in_order


@pytest.fixture
def pty_tower():
    tower = SimulatedTower(seed=21)
    port = PtyPort(tower, baud=0)
    yield tower, port
    port.close()


def test_pty_burst_at_115200_arrives_in_order():
    tower = SimulatedTower(seed=20)
    port = PtyPort(tower, baud=115200)
    c = Collector()
    bridge = SerialBridge(port.path, c.drop, c.status).start()
    try:
        c.wait(lambda c: c.statuses and c.statuses[-1].state == "connected", 10, "connected")
        for _ in range(30):
            tower.drop()
        c.wait_drops(30, timeout=20)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 30)])
        c.wait(lambda _: tower.acked == 30, 10, "the final ack")
    finally:
        bridge.stop()
        port.close()


def test_serial_cut_mid_burst_and_reopened(pty_tower):
    tower, port = pty_tower
    c = Collector()
    bridge = SerialBridge(port.path, c.drop, c.status).start()
    try:
        c.wait(lambda c: c.statuses and c.statuses[-1].state == "connected", 10, "connected")
        cut_done = threading.Event()

        def on_drop_cut(d):
            c.drop(d)
            if d.seq == 60 and not cut_done.is_set():
                cut_done.set()
                bridge.cut()  # the cable comes out in the middle of the burst

        bridge.link._on_drop = on_drop_cut
        for _ in range(200):
            tower.drop()
        c.wait(lambda _: cut_done.is_set(), 20, "the cut")
        tower.heartbeat()  # a heartbeat after the burst reveals whatever the cut lost
        c.wait_drops(200, timeout=30)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 200)])
        assert bridge.opened >= 2
        states = [s.state for s in c.statuses]
        assert "disconnected" in states and states[-1] in ("connected", "connecting")
    finally:
        bridge.stop()


def test_tower_reboot_mid_burst_over_a_pty(pty_tower):
    tower, port = pty_tower
    c = Collector()
    bridge = SerialBridge(port.path, c.drop, c.status).start()
    try:
        c.wait(lambda c: c.statuses and c.statuses[-1].state == "connected", 10, "connected")
        old = tower.boot_id
        for _ in range(50):
            tower.drop()
        c.wait_drops(50, timeout=20)
        tower.reboot()
        for _ in range(40):
            tower.drop()
        c.wait_drops(90, timeout=20)
        assert_exactly_once_in_order(c.drops, [(old, 50), (tower.boot_id, 40)])
        c.wait(
            lambda _: bridge.link.totals is not None and bridge.link.totals.boot == tower.boot_id,
            10,
            "the totals snapshot of the new boot",
        )
        # The snapshot may be taken before all 40 new drops: it keeps the 50 from before
        # the reboot and says (seq) how many of the new boot it includes.
        totals = bridge.link.totals
        assert totals.drops == 50 + totals.seq and 0 <= totals.seq <= 40
    finally:
        bridge.stop()


def test_a_missing_port_is_retried_and_reported_once():
    c = Collector()
    bridge = SerialBridge("/dev/does-not-exist-elgrande", c.drop, c.status, backoff_max=0.2).start()
    try:
        c.wait(
            lambda c: any(s.state == "disconnected" and "cannot open" in (s.message or "") for s in c.statuses),
            10,
            "the open failure",
        )
    finally:
        bridge.stop()
    assert sum(1 for s in c.statuses if "cannot open" in (s.message or "")) == 1


def test_loop_url_and_garbage_on_the_wire():
    # loop:// echoes what the bridge writes: its own commands come back as unknown frames
    c = Collector()
    bridge = SerialBridge("loop://", c.drop, c.status).start()
    try:
        c.wait(lambda _: bridge.opened == 1, 10, "open")
        bridge._ser.write(b"\x00\xffjunk\n" + framing.encode({"t": "weather"}) + b"\n")
        c.wait(
            lambda _: bridge.link.counters["bad_frame"] >= 1 and bridge.link.counters["unknown_message"] >= 1,
            10,
            "the junk to be counted",
        )
    finally:
        bridge.stop()


def test_unknown_url_scheme_is_refused_at_once():
    with pytest.raises(ValueError):
        SerialBridge("nonsense://x", lambda d: None)


class FakePort:
    def __init__(self, device, vid, pid):
        self.device, self.vid, self.pid = device, vid, pid
        self.serial_number, self.description = "E66", "Board in FS mode"


def test_list_ports_by_vendor_and_product_id():
    ports = [
        FakePort("/dev/ttyS0", None, None),
        FakePort("/dev/ttyACM1", 0x2E8A, 0x0005),
        FakePort("/dev/ttyUSB0", 0x10C4, 0xEA60),
        FakePort("/dev/ttyACM0", 0x1234, 0x5678),
    ]
    assert [p.device for p in list_ports(ports=ports)] == ["/dev/ttyACM1", "/dev/ttyUSB0"]
    assert [p.device for p in list_ports([(0x1234, 0x5678)], ports=ports)] == ["/dev/ttyACM0"]
    assert len(list_ports((), ports=ports)) == 4
    assert find_tower(ports) == "/dev/ttyACM1"
    assert list_ports(ports=ports)[0].kind.startswith("Raspberry Pi Pico")
    assert isinstance(list_ports(), list)  # the real machine: whatever it has


def test_pty_tower_answers_a_raw_pyserial_host(pty_tower):
    tower, port = pty_tower
    with serial.serial_for_url(port.path, baudrate=115200, timeout=5) as ser:
        ser.write(framing.encode({"t": "hello_req", "id": 1}) + b"\n")
        hello = framing.decode(ser.readline().rstrip(b"\n"))
        assert hello["t"] == "hello" and hello["proto"] == 1 and hello["dev"] == tower.dev
        ser.write(b"x" * 600 + b"\n")
        fault = framing.decode(ser.readline().rstrip(b"\n"))
        assert fault["code"] == "line_too_long"
