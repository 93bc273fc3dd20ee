"""The serial transport's contract, run on each port backend the bridge can use:
pyserial on a real pty, and usbserial4a (Android) through firmware_bridge.usb_android's
adapter over a stand-in that behaves as the library does (fake_usbserial4a.py) on the
same kind of pty. Same tower, same link, same expectations."""

import threading

import pytest

from firmware_bridge import usb_android
from firmware_bridge.ports import _android_ports, list_ports
from firmware_bridge.sim import PtyPort, SimulatedTower
from firmware_bridge.transport_serial import SerialBridge
from tests.firmware_bridge.bridge_helpers import Collector, assert_exactly_once_in_order
from tests.firmware_bridge.fake_usbserial4a import FakeSerial4a, FakeUsb

DEVICE = "/dev/bus/usb/001/004"


class Backend:
    """A tower on a pty, reached through one kind of port."""

    def __init__(self, kind: str, seed: int):
        self.kind = kind
        self.tower = SimulatedTower(seed=seed)
        self.pty = PtyPort(self.tower, baud=0)
        self.usb = FakeUsb()
        self.serial4a = FakeSerial4a(self.usb, {DEVICE: self.pty.path})
        self.opener = None

    def bridge(self, c: Collector, allowed: bool = True, **options) -> SerialBridge:
        options.setdefault("backoff_max", 0.3)
        if self.kind == "pyserial":
            return SerialBridge(self.pty.path, c.drop, c.status, **options)
        self.usb.plug(DEVICE, allowed=allowed)
        self.opener = usb_android.UsbOpener(
            DEVICE, baudrate=115200, read_timeout=0.05, usb=self.usb, serial4a=self.serial4a
        )
        return SerialBridge(usb_android.url_of(DEVICE), c.drop, c.status, opener=self.opener, **options)

    def close(self):
        self.pty.close()


@pytest.fixture(params=["pyserial", "usbserial4a"])
def backend(request):
    b = Backend(request.param, seed=31)
    yield b
    b.close()


def _connected(c):
    c.wait(lambda c: c.statuses and c.statuses[-1].state == "connected", 10, "connected")


def test_a_burst_arrives_once_in_order_and_is_acknowledged(backend):
    c = Collector()
    bridge = backend.bridge(c).start()
    try:
        _connected(c)
        for _ in range(40):
            backend.tower.drop()
        c.wait_drops(40, timeout=20)
        assert_exactly_once_in_order(c.drops, [(backend.tower.boot_id, 40)])
        c.wait(lambda _: backend.tower.acked == 40, 10, "the acks written back to the tower")
    finally:
        bridge.stop()


def test_a_cut_mid_burst_reopens_and_loses_nothing(backend):
    c = Collector()
    bridge = backend.bridge(c).start()
    try:
        _connected(c)
        cut = threading.Event()

        def on_drop(d):
            c.drop(d)
            if d.seq == 15 and not cut.is_set():
                cut.set()
                bridge.cut()

        bridge.link._on_drop = on_drop
        for _ in range(60):
            backend.tower.drop()
        c.wait(lambda _: cut.is_set(), 20, "the cut")
        backend.tower.heartbeat()
        c.wait_drops(60, timeout=30)
        assert_exactly_once_in_order(c.drops, [(backend.tower.boot_id, 60)])
        assert bridge.opened >= 2
    finally:
        bridge.stop()


def test_a_write_on_a_closed_port_raises_so_the_link_knows(backend):
    c = Collector()
    bridge = backend.bridge(c).start()
    try:
        _connected(c)
        port = bridge._ser
        port.close()
        with pytest.raises(OSError):
            port.write(b"x\n")
        with pytest.raises(OSError):
            port.read(1)
    finally:
        bridge.stop()


# ---- what only the Android backend has: permission and unplugging ------------------------------


@pytest.fixture
def usb_backend():
    b = Backend("usbserial4a", seed=32)
    yield b
    b.close()


def test_the_permission_is_asked_once_without_blocking_and_the_link_comes_up_when_allowed(usb_backend):
    b = usb_backend
    c = Collector()
    bridge = b.bridge(c, allowed=False).start()
    try:
        c.wait(
            lambda c: any("waiting for permission" in (s.message or "") for s in c.statuses),
            10,
            "the link saying it waits for the permission",
        )
        assert bridge.opened == 0 and b.usb.requests == [DEVICE]
        c.wait(lambda _: b.serial4a.opened == [] and len(b.usb.requests) == 1, 1, "no second dialog")
        b.tower.drop()
        b.usb.grant(DEVICE)  # the person taps Allow
        _connected(c)
        c.wait_drops(1, timeout=10)
        assert b.opener.permission_requests == 1
    finally:
        bridge.stop()


def test_an_unplugged_device_is_noticed_and_the_link_comes_back_when_replugged(usb_backend):
    b = usb_backend
    c = Collector()
    bridge = b.bridge(c).start()
    try:
        _connected(c)
        for _ in range(5):
            b.tower.drop()
        c.wait_drops(5, timeout=10)
        b.usb.pull(DEVICE)  # CDC-ACM: reads go quiet, no error from the library
        c.wait(
            lambda c: any(s.state == "disconnected" and "unplugged" in (s.message or "") for s in c.statuses),
            10,
            "the unplug to be noticed",
        )
        c.wait(lambda c: any("not attached" in (s.message or "") for s in c.statuses), 10, "not attached")
        for _ in range(5):
            b.tower.drop()  # thrown while the cable was out: the tower keeps them
        b.usb.plug(DEVICE)
        c.wait_drops(10, timeout=20)
        assert_exactly_once_in_order(c.drops, [(b.tower.boot_id, 10)])
    finally:
        bridge.stop()


def test_usb_urls_are_checked_and_listed_like_serial_ports():
    with pytest.raises(ValueError, match="usb-android:<device>"):
        SerialBridge("usb-android:", lambda d: None)
    usb = FakeUsb()
    usb.plug("/dev/bus/usb/001/002")
    usb.plug("/dev/bus/usb/001/003", vid=0x046D, pid=0xC52B)  # a mouse receiver
    ports = _android_ports(usb)
    found = list_ports(ports=ports)
    assert [p.device for p in found] == ["usb-android:/dev/bus/usb/001/002"]
    assert found[0].kind.startswith("Raspberry Pi Pico") and found[0].serial_number == "E6614C311B"
    assert len(list_ports((), ports=ports)) == 2
    assert _android_ports(object()) == []  # no USB manager: nothing listed, nothing raised


def test_without_the_android_libraries_the_opener_says_so():
    opener = usb_android.UsbOpener(DEVICE, baudrate=115200, read_timeout=0.05)
    with pytest.raises(OSError, match="usb4a and usbserial4a"):
        opener()


def test_on_android_the_port_listing_imports_and_lists_without_pyserials_tty_scan():
    """CPython for Android says sys.platform == "android", where pyserial's port listing refuses
    to import: the bridge and the app must still load, and list USB devices through usb4a."""
    import subprocess
    import sys

    code = (
        "import sys, pydantic, sysconfig; sysconfig.get_config_vars()\n"  # as built for this host
        "sys.platform = 'android'\n"
        "from firmware_bridge import ports, transport_serial\n"
        "from firmware_bridge.usb_android import on_android\n"
        "assert on_android()\n"
        "print(ports.list_ports(ids=()))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=30,
        env={**__import__("os").environ, "ANDROID_ARGUMENT": "/data/app"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "[]"  # no usb4a here: nothing listed, nothing raised
