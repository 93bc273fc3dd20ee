"""The figure: 1,200 idle sockets and half-sent requests held against the phone server (more
than its 1,024 open files), and a phone still joins and picks within a second (asserted: 2.5 s, for
a loaded machine).

The server runs in its own process held to 1,024 open files (soft = hard, so it cannot raise
the limit: the situation the issue measured, where about 1,100 idle sockets starved it). The
sockets come from 75 loopback addresses, as many devices would, at most 16 each (the per-address
cap), and are re-opened as fast as the server closes them while the phone joins and picks. The
phone does what the phone page does, over HTTP and the websocket (the page itself is tested in
Chromium by test_browser.py): it loads its seat's page, joins, says hello on the websocket,
waits for the tablet, and picks. A baseline phone joins and picks before the flood, in the same
run. Afterwards every held socket has been closed by the server, the server never came near its
file limit, it can still open files, and its log holds no traceback.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiohttp
import pytest

from tests.companion.phones.wsclient import run, until

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
FD_LIMIT = 1024
PER_ADDRESS = 16
KINDS = (
    ("idle", 960, b""),  # connect, say nothing
    ("half head", 180, b"GET / HTTP/1.1\r\nHost: x\r\nX-Unfinished: "),  # a head never finished
    (
        "half body",
        60,
        b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 900\r\n\r\n{"code": "',
    ),
)  # a body never finished
HELD = sum(n for _, n, _ in KINDS)
# Within a second on a quiet machine (the figure printed); asserted with room for a loaded one (two
# CPU hogs beside the suite, or one SYN resent after 1 s while the queue is full of the flood's
# connections), still half the server's 5 s idle timeout: a starved server answers a phone only
# once held sockets time out, or never.
LIMIT_S = 2.5


class Child:
    """The server process; one JSON line per command."""

    def __init__(self, tmp: Path):
        self.log_path = tmp / "server.log"
        self.err = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "flood_server.py"), str(FD_LIMIT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.err,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), "ELGRANDE_DATA_DIR": str(tmp)},
        )
        self.hello = self._answer()

    def _answer(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, f"the server process ended: {self.log()[-3000:]}"
        return json.loads(line)

    def ask(self, command: str) -> dict:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self._answer()

    def log(self) -> str:
        return self.log_path.read_text()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            self.proc.wait(15)
        self.err.close()


class Flood:
    """HELD sockets from 127.0.0.2 and up, PER_ADDRESS per address; `refill` keeps re-opening
    those the server closes, until stopped."""

    def __init__(self, port: int):
        self.port = port
        self.slots: list[tuple[str, bytes]] = []
        for kind, count, first_bytes in KINDS:
            self.slots += [(kind, first_bytes)] * count
        self.socks: list[socket.socket | None] = [None] * len(self.slots)
        self.reopened = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _open(self, i: int) -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((f"127.0.{1 + i // PER_ADDRESS // 250}.{2 + i // PER_ADDRESS % 250}", 0))
        s.settimeout(3)
        try:
            s.connect(("127.0.0.1", self.port))
            if self.slots[i][1]:
                s.sendall(self.slots[i][1])
        except OSError:
            pass  # refused at once (a reset): the next pass tries again
        s.setblocking(False)
        self.socks[i] = s

    def open_all(self) -> float:
        t0 = time.monotonic()
        for i in range(len(self.slots)):
            self._open(i)
        return time.monotonic() - t0

    def closed(self) -> list[int]:
        """Indices of sockets the server has closed or reset."""
        poller = select.poll()
        for _i, s in enumerate(self.socks):
            if s is not None:
                poller.register(s.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
        index = {s.fileno(): i for i, s in enumerate(self.socks) if s is not None}
        gone = []
        for fd, _ in poller.poll(0):
            s = self.socks[index[fd]]
            try:
                while data := s.recv(65536):  # a 408 answer to a half body comes before the close
                    del data
                gone.append(index[fd])
            except BlockingIOError:
                pass
            except OSError:
                gone.append(index[fd])
        return gone

    def _refill(self) -> None:
        while not self._stop.is_set():
            for i in self.closed():
                self.socks[i].close()
                self._open(i)
                self.reopened += 1
            time.sleep(0.005)

    def start_refill(self) -> None:
        self._thread = threading.Thread(target=self._refill, daemon=True)
        self._thread.start()

    def stop_refill(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(10)

    def close(self) -> None:
        self.stop_refill()
        for s in self.socks:
            if s is not None:
                s.close()


async def hello(session: aiohttp.ClientSession, ws_url: str, credential: str, deadline_s: float = 30):
    """The page's socket: until its hello is answered the server may close it as an idle
    connection to make room, and the page then connects again after 0.5 s; so does this.
    (the socket, its first frame)"""
    loop = asyncio.get_running_loop()
    end, closes = loop.time() + deadline_s, []
    while loop.time() < end:
        ws = await session.ws_connect(ws_url)
        await ws.send_json({"type": "hello", "credential": credential})
        msg = await asyncio.wait_for(ws.receive(), max(0.1, end - loop.time()))
        if msg.type == aiohttp.WSMsgType.TEXT:
            return ws, json.loads(msg.data)
        closes.append((msg.type.name, ws.close_code))
        await asyncio.sleep(0.5)
    raise AssertionError(f"no answer to the phone's hello within {deadline_s} s; the socket closed {closes}")


def phone_joins_and_picks(child: Child, pid: str, region: str) -> tuple[float, float]:
    """A phone opens its seat's link, waits for the tablet, picks, as the phone page does. (join s,
    pick s): the join until the server says the phone waits for the tablet, the pick from the tap
    until the server confirmed it. The tablet's Yes in between is a person's tap, not timed."""
    link = child.hello["urls"][pid]
    base, code = link.rsplit("/join/", 1)

    async def phone():
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            t0 = time.monotonic()
            async with session.get(link) as page:
                assert page.status == 200 and "<script>" in await page.text(), f"the seat's page: {page.status}"
            async with session.post(f"{base}/api/join", json={"code": code}) as answer:
                assert answer.status == 200, f"joining {pid}: {answer.status} {await answer.text()}"
                credential = (await answer.json())["credential"]
            ws, first = await hello(session, f"{base}/ws", credential)
            assert first["type"] == "pending", f"{pid}'s phone expected to wait for the tablet; got {first}"
            joined = time.monotonic() - t0
            confirmed = await asyncio.get_running_loop().run_in_executor(None, child.ask, f"confirm {pid}")
            assert confirmed["ok"], f"the tablet found no phone awaiting on {pid}"
            view = await until(ws, lambda m: m["type"] == "view" and m["question"]["state"] == "choose", 30)
            t1 = time.monotonic()
            await ws.send_json(
                {
                    "type": "pick",
                    "credential": credential,
                    "question": view["question"]["id"],
                    "region": region,
                    "ref": 1,
                }
            )
            answer = await until(ws, lambda m: m.get("ref") == 1, 30)
            picked = time.monotonic() - t1
            assert answer["type"] == "result", f"{pid} picking {region}: {answer}"
            await ws.close()
            return joined, picked

    return run(phone(), 60)


@pytest.fixture
def own_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard >= HELD + 1000, f"this test opens {HELD} sockets: the open-file hard limit is {hard}"
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_phone_joins_and_picks_within_a_second_past_1200_idle_sockets(tmp_path, own_fd_limit):
    child = Child(tmp_path)
    flood = Flood(child.hello["port"])
    figures = {}
    try:
        assert child.hello["fd_limit"] == [FD_LIMIT, FD_LIMIT]
        assert HELD > FD_LIMIT  # without its guard, the server would run out of files
        budget = child.hello["budget"]
        assert budget == (FD_LIMIT - 256) // 2
        figures["baseline"] = phone_joins_and_picks(child, "red", "sevilla")
        figures["open_s"] = flood.open_all()
        end = time.monotonic() + 15  # the server accepts the queued flood in batches
        while (during := child.ask("stats"))["evicted"] == 0 and time.monotonic() < end:
            time.sleep(0.05)
        assert during["evicted"] > 0, (
            f"the server evicted no held socket within 15 s of the flood; last stats: {during}"
        )
        assert during["open"] <= budget, during
        print(f"\nflood opened in {figures['open_s']:.2f} s; the server: {during}")
        flood.start_refill()
        time.sleep(0.3)
        figures["flooded"] = phone_joins_and_picks(child, "yellow", "granada")
        flood.stop_refill()
        figures["reopened"] = flood.reopened
        print(
            f"\nbaseline: join {figures['baseline'][0]:.3f} s, pick {figures['baseline'][1]:.3f} s; "
            f"with {HELD} sockets held ({flood.reopened} re-opened while the phone joined): "
            f"join {figures['flooded'][0]:.3f} s, pick {figures['flooded'][1]:.3f} s"
        )
        join_s, pick_s = figures["flooded"]
        assert join_s < LIMIT_S and pick_s < LIMIT_S, figures
        assert flood.reopened > 0  # the flood kept pressing while the phone joined
        # The server closes every held socket: idle ones after its idle timeout, half bodies with a 408.
        end = time.monotonic() + 10
        shut = set()
        while len(shut) < HELD and time.monotonic() < end:
            shut.update(flood.closed())
            time.sleep(0.05)
        assert len(shut) == HELD, f"{HELD - len(shut)} held sockets still open after 10 s"
        after = child.ask("stats")
        assert after["picks"]["red"] == "sevilla" and after["picks"]["yellow"] == "granada"
        assert after["files_ok"], "the server process could not open files"
        assert after["peak_fds"] < FD_LIMIT - 256, after  # it never came near its limit
        assert after["guard_peak"] <= budget, after
    finally:
        flood.close()
        child.close()
    log = child.log()
    assert "Traceback" not in log, log[-3000:]
    assert len(log.splitlines()) < 200, f"{len(log.splitlines())} log lines for one flood"
