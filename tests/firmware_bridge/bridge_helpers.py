"""Helpers of the bridge tests: a mosquitto broker on a free loopback port,
the simulated tower wired to a link in process, a drop collector that can be awaited."""

from __future__ import annotations

import getpass
import os
import random
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from firmware_bridge import framing
from firmware_bridge.link import Link
from firmware_bridge.sim import InProcessPort, SimulatedTower

MOSQUITTO = "/usr/sbin/mosquitto"


class Collector:
    """on_drop / on_status target whose contents can be awaited (no sleeps)."""

    def __init__(self):
        self.drops = []
        self.statuses = []
        self._cond = threading.Condition()

    def drop(self, d):
        with self._cond:
            self.drops.append(d)
            self._cond.notify_all()

    def status(self, s):
        with self._cond:
            self.statuses.append(s)
            self._cond.notify_all()

    def wait(self, predicate, timeout: float, what: str = "condition"):
        # Woken by every drop and status; the short slices also catch state the
        # collector is not told about (tower acks, counters), within the deadline
        # (at least LOADED_S: a loaded machine; a wait that is met returns at once).
        timeout = max(timeout, LOADED_S)
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self) and time.monotonic() < deadline:
                self._cond.wait(min(0.02, max(0.0, deadline - time.monotonic())))
            if not predicate(self):
                raise AssertionError(
                    f"timed out after {timeout} s waiting for {what}; "
                    f"{len(self.drops)} drops, states {[s.state for s in self.statuses]}"
                )

    def wait_drops(self, n: int, timeout: float = 30.0):
        self.wait(lambda c: len(c.drops) >= n, timeout, f"{n} drops")

    def keys(self):
        return [(d.boot, d.seq) for d in self.drops]


LOADED_S = 20.0


def assert_exactly_once_in_order(drops, boots_and_counts):
    """boots_and_counts: [(boot, n), ...] in boot order: drops 1..n of each, once, in order."""
    expected = [(boot, seq) for boot, n in boots_and_counts for seq in range(1, n + 1)]
    got = [(d.boot, d.seq) for d in drops]
    assert len(got) == len(set(got)), "a drop was handed over twice"
    assert got == expected


class Wire:
    """Simulated tower <-> link in one thread, with a fake clock and faults on
    the way: `up(kind, bytes) -> list of chunks` device->host, `down(cmd) ->
    list of cmds` host->device."""

    def __init__(self, seed: int = 0, tower: SimulatedTower | None = None, **link_options):
        self.tower = tower or SimulatedTower(seed=seed)
        self.now = 0.0
        self.c = Collector()
        self.sent = []  # commands the link sent (after `down`)
        self.up = lambda kind, data: [data]
        self.down = lambda cmd: [cmd]
        self.link = Link(self._command, self.c.drop, self.c.status, clock=lambda: self.now, **link_options)
        self.port = InProcessPort(self.tower, self._frame)

    def _frame(self, kind, frame):
        for chunk in self.up(kind, frame + b"\n"):
            self.link.feed_bytes(chunk)

    def _command(self, msg):
        for m in self.down(msg):
            self.sent.append(m)
            self.port.line(framing.encode(m))

    def connect(self):
        self.link.transport_up("in process")
        return self.settle()

    def settle(self, rounds: int = 400, step: float = 0.2):
        """Pump and tick (the fake clock advancing) until nothing moves."""
        quiet = 0
        for _ in range(rounds):
            moved = self.port.pump()
            self.now += step
            self.link.tick()
            moved += self.port.pump()
            quiet = quiet + 1 if not moved else 0
            if quiet >= 12:  # longer than retry_after: every retry has had its chance
                return self
        raise AssertionError("the link never settled")


_PORTS_LOW = 20000
_handed_out: set[int] = set()


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A free port for a server that cannot bind port 0 and say which (mosquitto). Taken below the
    kernel's ephemeral range, so no client socket of any process is handed it in the meantime (nor
    while a broker restarts on it); from a slice of that range of its own per pytest-xdist worker,
    so two workers never pick the same; checked free, and never handed out twice by this process."""
    high = _ephemeral_low()
    if high - _PORTS_LOW < 1000:  # an unusual kernel setting: let the kernel choose
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
    width = (high - _PORTS_LOW) // max(workers, 1)
    first = _PORTS_LOW + worker * width
    start = random.randrange(width)  # another run of the suite beside this one starts elsewhere
    for i in range(width):
        port = first + (start + i) % width
        if port in _handed_out:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise AssertionError(f"no free port in {first}..{first + width - 1}")


class Broker:
    def __init__(self, directory: Path, extra: str = ""):
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.conf = directory / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            f"log_dest stderr\nuser {getpass.getuser()}\n{extra}"
        )  # as root: do not drop to 'mosquitto',
        # which could not read the test's own files
        self.log = directory / "mosquitto.log"
        self.proc = None

    def start(self, timeout: float = 10.0) -> Broker:
        if not os.path.exists(MOSQUITTO):
            pytest.fail(f"{MOSQUITTO} is missing: apt-get install mosquitto")
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=open(self.log, "ab")
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"mosquitto did not start: {self.log.read_text()[-2000:]}") from None
                time.sleep(0.02)  # polling a port that has no event to wait on

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
