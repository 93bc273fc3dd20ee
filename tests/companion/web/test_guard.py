"""The phone server's connection limits, on real sockets: idle and half-sent connections
closed, a per-address cap, a total budget that makes room for a newcomer, a cap on status
screens, one log line per bad request, the open-file limit raised at start, and the CSP."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from companion.phones import PhoneServer
from companion.web.guard import ConnectionGuard, Limits, RateLimitedLog, one_line
from tests.companion.phones.conftest import http, join, make_table, to_general_scoring, wait_for
from tests.companion.phones.wsclient import frame, phone, pick, run, url

ROOT = Path(__file__).resolve().parents[3]
FAST = Limits(idle_timeout=0.5, body_timeout=0.5)


def connect_from(address: str, port: int) -> socket.socket:
    """A TCP connection to the server on 127.0.0.1 from another loopback address (another "device")."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((address, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


# A deadline for what the server does after its 0.5 s timeouts, on a loaded machine (a close
# that comes returns at once); "never" still fails.
LOADED_S = 10.0


def cut_off_while_dribbling(s: socket.socket, head: bytes, every: float = 0.05) -> bool:
    """Send `head` a byte every `every` s (400 bytes: 20 s, far past the 0.5 s timeouts): True if the
    server cut the connection before the head was all sent, however slow the machine."""
    try:
        for byte in head:
            s.sendall(bytes([byte]))
            time.sleep(every)
            if select.select([s], [], [], 0)[0] and s.recv(4096) == b"":
                return True
    except (BrokenPipeError, ConnectionResetError):
        return True
    return False


def closed_within(s: socket.socket, seconds: float) -> bool:
    """Did the server close (or reset) this connection within `seconds`? Whatever it answered first
    is read and ignored."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        s.settimeout(left)
        try:
            if s.recv(4096) == b"":
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except TimeoutError:
            return False
    return False


@pytest.fixture
def fast_server():
    servers = []

    def start(limits: Limits = FAST, table=None) -> PhoneServer:
        server = PhoneServer(table or make_table(), host="127.0.0.1", limits=limits).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def test_idle_and_half_sent_connections_are_closed(fast_server):
    server = fast_server()
    port = server.port
    idle = connect_from("127.0.0.1", port)  # connects, says nothing
    head = connect_from("127.0.0.1", port)
    head.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Half: ")  # a request head never finished
    body = connect_from("127.0.0.1", port)
    body.sendall(
        b'POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"code":'
    )  # a body never finished
    kept = connect_from("127.0.0.1", port)  # one complete request, then idle
    kept.sendall(b"GET /api/status HTTP/1.1\r\nHost: x\r\n\r\n")
    assert kept.recv(4096).startswith(b"HTTP/1.1 200")
    drip = connect_from("127.0.0.1", port)  # a head sent a byte at a time, forever
    assert cut_off_while_dribbling(drip, b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 400), (
        "a dribbled request head was not cut off"
    )
    assert closed_within(drip, LOADED_S)
    for s, what in ((idle, "an idle connection"), (head, "a half-sent head"), (kept, "an idle keep-alive")):
        assert closed_within(s, LOADED_S), f"{what} stayed open"
    body.settimeout(LOADED_S)
    answer = body.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive within 0.5 s" in answer
    assert closed_within(body, LOADED_S)
    assert len(server.guard) == 0
    # A socket that opens the phone websocket but never says who it is goes the same way.
    ws = connect_from("127.0.0.1", port)
    ws.sendall(
        b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    assert ws.recv(4096).startswith(b"HTTP/1.1 101")
    assert closed_within(ws, LOADED_S)


def test_a_phone_that_keeps_talking_is_not_cut_off(fast_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = fast_server(table=table)
    cred = join(server, "red")

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await phone(session, server, cred)
            view = await frame(ws)
            for i in range(4):  # well past the idle timeout, with nothing to say in between
                await asyncio.sleep(0.4)
                assert (await pick(ws, cred, view["question"]["id"], ["aragon", "sevilla"][i % 2], i))["ok"]

    run(main())


def test_one_address_gets_a_fixed_number_of_connections(fast_server):
    server = fast_server(Limits(idle_timeout=5, per_address=6))
    mine = [connect_from("127.0.0.7", server.port) for _ in range(6)]
    extra = [connect_from("127.0.0.7", server.port) for _ in range(4)]
    for s in extra:
        assert closed_within(s, LOADED_S), "a connection over the per-address cap was kept"
    for s in mine:
        assert not closed_within(s, 0.05)
    wait_for(lambda: server.guard.open_from("127.0.0.7") == 6, what="six from that address")
    assert server.guard.refused == 4
    # Another address is served as usual, while the first still holds its six.
    other = connect_from("127.0.0.8", server.port)
    other.sendall(b"GET /api/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert other.recv(4096).startswith(b"HTTP/1.1 200")
    for s in mine + extra + [other]:
        s.close()


def test_a_full_server_makes_room_for_a_newcomer(fast_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = fast_server(Limits(idle_timeout=10, per_address=16, max_connections=40), table)
    assert server.guard.budget == 40
    held = [connect_from(f"127.0.0.{20 + i // 16}", server.port) for i in range(64)]
    wait_for(lambda: server.guard.evicted >= 24, what="the oldest idle connections closed")
    assert len(server.guard) == 40
    assert all(closed_within(s, LOADED_S) for s in held[:24]), "the longest idle ones go first"
    assert not any(closed_within(s, 0.02) for s in held[-8:])
    # A phone still joins and picks (its own connections make room the same way).
    cred = join(server, "blue")

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await phone(session, server, cred)
            view = await frame(ws)
            assert (await pick(ws, cred, view["question"]["id"], "granada"))["ok"]

    run(main())
    assert table.private("blue")["secret_disc"] == "granada"
    for s in held:
        s.close()


async def spectators_from_become(server, address: str, count: int, timeout: float = 5.0) -> None:
    """Wait until the server counts `count` status screens open from `address` (a closed socket's
    place is given back when the server sees it close, a moment after the client did)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (seen := server._spectator_places.count(address)) != count:
        assert loop.time() < end, (
            f"{address}: the server still counts {seen} status screen(s) open "
            f"{timeout:g} s after one closed; expected {count}"
        )
        await asyncio.sleep(0.01)


def test_status_screens_are_capped(fast_server):
    server = fast_server(Limits(idle_timeout=5, spectators=3, spectators_per_address=2))

    async def open_from(session_by_address, address):
        session = session_by_address[address]
        return await session.ws_connect(url(server, "/ws/status"))

    async def main():
        sessions = {
            a: aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(a, 0)))
            for a in ("127.0.0.1", "127.0.0.2", "127.0.0.3")
        }
        try:
            a1 = await open_from(sessions, "127.0.0.1")
            a2 = await open_from(sessions, "127.0.0.1")  # (held: a socket let go of is closed)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_from(sessions, "127.0.0.1")
            assert refused.value.status == 429
            async with sessions["127.0.0.1"].get(url(server, "/ws/status")) as resp:
                assert resp.status == 429 and "2 status screens" in (await resp.json())["error"]
            b1 = await open_from(sessions, "127.0.0.2")
            assert (await frame(b1))["type"] == "status"
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_from(sessions, "127.0.0.3")
            assert refused.value.status == 429
            await a1.close()
            await spectators_from_become(server, "127.0.0.1", 1)
            c1 = await open_from(sessions, "127.0.0.3")  # a closed one frees its place
            assert (await frame(c1))["type"] == "status"
            assert not a2.closed and not b1.closed
        finally:
            for session in sessions.values():
                await session.close()

    run(main())


def test_each_bad_request_logs_one_line_without_traceback(fast_server, caplog):
    server = fast_server(Limits(idle_timeout=2, log_burst=6, log_window=60))
    bad = [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"y" * 9000 + b"\r\n\r\n",
        b"POST /api/pick HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        b"GET /no-such-page HTTP/1.1\r\nHost: x\r\n\r\n",
        b"\x00\xff\xfe\r\n\x1b[31mforged\nlog line\r\n\r\n",
    ]
    with caplog.at_level(logging.INFO, logger="companion.phones"):
        for raw in bad:
            with connect_from("127.0.0.1", server.port) as s:
                s.sendall(raw)
                answer = s.recv(4096)
                assert answer == b"" or answer.split(b" ")[1][:1] == b"4", (raw[:30], answer[:80])
        wait_for(lambda: len(caplog.records) >= len(bad), what="the log lines")
        time.sleep(0.1)
    lines = [r for r in caplog.records if r.name.startswith(("companion.phones", "aiohttp"))]
    assert len(lines) == len(bad), [r.getMessage() for r in lines]
    for record in lines:
        text = record.getMessage()
        assert "\n" not in text and record.exc_info is None and "Traceback" not in text, text
        assert "bad request from 127.0.0.1" in text, text
    # Past the burst, the rest are counted, not logged one by one.
    with caplog.at_level(logging.INFO, logger="companion.phones"):
        caplog.clear()
        for _ in range(30):
            assert http(server, "GET", "/nope")[0] == 404
        time.sleep(0.1)
    assert len(caplog.records) == 0


def test_the_log_limiter_counts_what_it_does_not_log(caplog):
    now = [0.0]
    limited = RateLimitedLog(logging.getLogger("companion.phones.test"), burst=2, window=10, clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="companion.phones.test"):
        for i in range(5):
            limited("bad requests", logging.WARNING, f"line {i}")
        now[0] = 11
        limited("bad requests", logging.WARNING, "line 5")
    assert [r.getMessage() for r in caplog.records] == [
        "line 0",
        "line 1",
        "phones: 3 more bad requests not logged in the last 11 s",
        "line 5",
    ]
    assert one_line("a\nb\x1b[31m" + "c" * 300, 20) == "a?b?[31mcccccccccccc..."


def test_the_open_file_limit_is_raised_at_start(tmp_path):
    """In a process started with a low soft limit, starting the phone server raises it to the hard limit."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    script = (
        "import resource, json, sys\n"
        "from companion.phones import PhoneServer\n"
        "from companion.table.authority import Table, TableSetup\n"
        "from tests.companion.phones.conftest import SETUP\n"
        "before = resource.getrlimit(resource.RLIMIT_NOFILE)[0]\n"
        "server = PhoneServer(Table.new(TableSetup(game=SETUP, mode='scoring')), host='127.0.0.1').start()\n"
        "print(json.dumps([before, resource.getrlimit(resource.RLIMIT_NOFILE)[0], server.guard.budget]))\n"
        "server.stop()\n"
    )

    def low():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=low,
        env={**os.environ, "ELGRANDE_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    before, after, budget = json.loads(out.stdout.strip().splitlines()[-1])
    assert before == 256 and after == min(hard, 65536)
    assert budget == min(512, (after - 256) // 2)


def test_the_page_header_is_the_csp_of_its_own_host(fast_server):
    server = fast_server()
    status, headers, _ = http(server, "GET", "/")
    assert status == 200
    assert f"connect-src 'self' ws://127.0.0.1:{server.port};" in headers["Content-Security-Policy"]
    assert " ws: " not in headers["Content-Security-Policy"]


class _FakeTransport:
    def __init__(self):
        self.aborted = False

    def abort(self):
        self.aborted = True


class _FakeHandler:
    """What the guard touches of an aiohttp request handler."""

    def __init__(self):
        self.transport = _FakeTransport()
        self.closed = False

    def force_close(self):
        self.closed = True
        self.transport = None


def test_the_guard_sweeps_and_makes_room_by_itself():
    """The guard's own rules, without aiohttp's keep-alive timer (older aiohttp has none before
    the first request): idle ones swept, busy and protected ones kept, the oldest idle evicted."""
    now = [0.0]
    logged = []
    guard = ConnectionGuard(
        Limits(idle_timeout=5, per_address=2),
        lambda kind, level, text: logged.append(kind),
        budget=4,
        clock=lambda: now[0],
    )
    idle, busy, trusted, newer = (_FakeHandler() for _ in range(4))
    for handler, address in ((idle, "a"), (busy, "a"), (trusted, "b"), (newer, "b")):
        assert guard.admit(handler, address)
        now[0] += 1
    assert not guard.admit(_FakeHandler(), "a") and logged == ["refused connections"]  # a third from a
    guard.request_started(busy)
    guard.protect(trusted)
    now[0] = 5.5
    guard.sweep()  # only `idle` is past 5 s with nothing in progress
    assert idle.transport is None and idle.closed and len(guard) == 3
    assert not busy.closed and not trusted.closed and not newer.closed
    late = _FakeHandler()
    assert guard.admit(late, "c") and len(guard) == 4
    fifth = _FakeHandler()
    assert guard.admit(fifth, "c")  # full: the oldest idle (not busy, not protected) makes room
    assert newer.closed and not busy.closed and not trusted.closed and guard.evicted == 1
    guard.gone(newer)  # its connection_lost comes later: counted once only
    assert len(guard) == 4 and guard.open_from("b") == 1
    guard.request_done(busy)
    now[0] = 100
    guard.sweep()
    assert busy.closed and late.closed and fifth.closed and not trusted.closed and len(guard) == 1


def test_a_status_screen_that_stops_reading_is_dropped_once_its_queue_is_full(fast_server, monkeypatch):
    """A spectator socket that never reads: the kernel's buffers fill, then its queue; then the
    server drops it (its place is free again) instead of waiting on a close it would never read."""
    import companion.phones.clients as clients_module

    monkeypatch.setattr(clients_module, "QUEUE_LIMIT", 4)
    server = fast_server(Limits(idle_timeout=30))
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(5)
    s.connect(("127.0.0.1", server.port))
    s.sendall(
        b"GET /ws/status HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    assert s.recv(12) == b"HTTP/1.1 101"
    wait_for(lambda: len(server._spectators) == 1, what="the status screen counted")
    for _ in range(100):  # statuses pushed as a busy table would (large ones, to fill the buffers sooner)
        if not server._spectators:
            break
        server._loop.call_soon_threadsafe(lambda: [c.push("x" * 65536) for c in list(server._spectators)])
        time.sleep(0.02)
    wait_for(lambda: not server._spectators, timeout=10, what="the silent status screen dropped")
    assert closed_within(s, 5)
    s.close()
