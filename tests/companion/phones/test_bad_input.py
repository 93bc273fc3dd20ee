"""Random and malformed requests and frames: always a clear 4xx (or a websocket close with a
policy code), never a 5xx or a traceback, nothing leaked, and the server still answers."""

from __future__ import annotations

import asyncio
import json
import socket

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.phones import PhoneServer
from companion.phones.clients import MAX_FRAME
from companion.phones.server import MAX_BODY
from tests.companion.phones.conftest import PICKS, PLAYERS, http, join, make_table, to_general_scoring
from tests.companion.phones.wsclient import url

CLEAN_CLOSE = {1000, 1003, 1009, 4400, 4401, 4403, 4408}
SECRET = PICKS["blue"]  # blue's pick: must never show up
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=12), kids, max_size=4),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["pick", "hello", "seat", "leave", "x", ""]) | st.text(max_size=8),
        "credential": st.text(max_size=120) | st.integers() | st.none(),
        "question": st.text(max_size=250) | st.integers(),
        "region": st.sampled_from(["aragon", "castillo", "granada", ""]) | st.text(max_size=50) | st.lists(st.text()),
        "ref": st.integers(-5, 2**40) | st.text(max_size=5),
        "code": st.text(max_size=120) | st.integers(),
        "player": st.sampled_from(PLAYERS),
        "seat": st.sampled_from(PLAYERS + ["", "purple"]) | st.integers() | st.text(max_size=30),
    },
)
BODIES = (
    st.binary(max_size=300)
    | JSONISH.map(lambda v: json.dumps(v).encode())
    | FIELDS.map(lambda v: json.dumps(v).encode())
)


@pytest.fixture(scope="module")
def setup():
    table = make_table("scoring")
    to_general_scoring(table)
    server = PhoneServer(table, host="127.0.0.1").start()
    creds = {pid: join(server, pid) for pid in PLAYERS}
    table.submit({"type": "secret_disc_set", "player": "blue", "region": SECRET}, player="blue")
    yield server, creds
    server.stop()


def assert_clean(status: int, body: bytes) -> None:
    assert 400 <= status < 500 or status == 200, (status, body[:200])
    text = body.decode("utf-8", "replace")
    assert "Traceback" not in text and 'File "' not in text and SECRET not in text, text[:300]


def still_answers(server) -> None:
    status, _, body = http(server, "GET", "/api/status")
    assert status == 200 and json.loads(body)["type"] == "status"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(
        ["/api/pick", "/api/join", "/api/me", "/api/status", "/api/seat", "/api/leave", "/ws", "/join/abc", "/"]
    ),
    method=st.sampled_from(["POST", "GET", "PUT", "DELETE", "PATCH"]),
    body=BODIES,
    ctype=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded", ""]),
    auth=st.sampled_from(["", "Bearer", "Bearer x", "Basic Zm9v", "Bearer " + "A" * 43]),
)
def test_random_requests(setup, path, method, body, ctype, auth):
    server, _ = setup
    headers = {k: v for k, v in (("Content-Type", ctype), ("Authorization", auth)) if v}
    status, _, answer = http(server, method, path, body=body, headers=headers)
    assert_clean(status, answer)
    if status >= 400 and path.startswith("/api"):
        assert json.loads(answer)["error"]  # a clear message, as JSON
    if status == 200 and path in ("/api/pick", "/api/seat", "/api/leave"):
        pytest.fail(f"a random {path} was accepted: {body!r}")


def test_oversized_and_malformed_http(setup):
    server, creds = setup
    qid = server.table.question_id()
    big = json.dumps({"credential": creds["red"], "question": qid, "region": "aragon", "pad": "x" * MAX_BODY})
    status, _, body = http(server, "POST", "/api/pick", body=big.encode())
    assert status == 413 and "too large" in json.loads(body)["error"]
    # Chunked without a Content-Length, larger than allowed.
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        chunk = b"x" * 3000
        s.sendall(
            b"POST /api/pick HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"%x\r\n" % len(chunk)
            + chunk
            + b"\r\n"
            + b"%x\r\n" % len(chunk)
            + chunk
            + b"\r\n0\r\n\r\n"
        )
        assert s.recv(200).startswith(b"HTTP/1.1 413")
    nested = b"[" * 3000 + b"]" * 3000
    status, _, body = http(server, "POST", "/api/join", body=nested)
    assert status in (400, 413)
    for raw in [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"y" * 20000 + b"\r\n\r\n",
        b"\x00\xff\xfe" * 50 + b"\r\n\r\n",
        b"POST /api/pick HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        b"POST /api/pick HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
    ]:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(raw)
            answer = s.recv(4096)
        assert answer == b"" or answer.split(b" ")[1][:1] == b"4", (raw[:40], answer[:100])
        assert b"Traceback" not in answer
    still_answers(server)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    frames=st.lists(
        st.one_of(BODIES.map(lambda b: b.decode("utf-8", "replace")), BODIES, st.text(max_size=200)),
        min_size=1,
        max_size=5,
    ),
    authenticated=st.booleans(),
)
def test_random_frames(setup, frames, authenticated):
    server, creds = setup

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(url(server, "/ws"))
            if authenticated:
                await ws.send_json({"type": "hello", "credential": creds["red"]})
            for f in frames:
                if isinstance(f, bytes):
                    await ws.send_bytes(f)
                else:
                    await ws.send_str(f)
            while True:
                try:
                    msg = await asyncio.wait_for(ws.receive(), 0.3)
                except TimeoutError:
                    break
                if msg.type == aiohttp.WSMsgType.TEXT:
                    m = json.loads(msg.data)
                    if m["type"] == "view":  # the offered regions are all nine: search the rest
                        m = {**m, "question": {**m["question"], "regions": []}}
                    assert SECRET not in json.dumps(m) and "Traceback" not in msg.data
                    if m["type"] == "error":
                        assert 400 <= m["status"] < 500 and m["message"]
                    elif m["type"] == "view":
                        assert m["seat"]["id"] == "red"
                    elif m["type"] == "result":
                        pytest.fail("a random frame made a pick")
                else:
                    assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), msg
                    if msg.type == aiohttp.WSMsgType.CLOSE:
                        assert msg.data in CLEAN_CLOSE, (msg.data, msg.extra)
                    break
            await ws.close()

    asyncio.run(asyncio.wait_for(main(), 10))
    assert server.table.private("red")["secret_disc"] is None


def test_oversized_frames_and_silent_sockets(setup, monkeypatch):
    server, creds = setup

    async def main():
        async with aiohttp.ClientSession() as session:
            for path in ("/ws", "/ws/status"):
                ws = await session.ws_connect(url(server, path))
                if path == "/ws":
                    await ws.send_json({"type": "hello", "credential": creds["green"]})
                await ws.send_str("x" * (MAX_FRAME + 10))
                while (msg := await asyncio.wait_for(ws.receive(), 3)).type == aiohttp.WSMsgType.TEXT:
                    pass
                assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1009, msg
            ws = await session.ws_connect(url(server, "/ws"))
            await ws.send_bytes(b"\x00" * 10)
            msg = await asyncio.wait_for(ws.receive(), 3)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1003
            ws = await session.ws_connect(url(server, "/ws"))
            await ws.send_json({"type": "pick", "credential": creds["green"], "question": "q", "region": "aragon"})
            msg = await asyncio.wait_for(ws.receive(), 3)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4400 and "hello" in msg.extra

    asyncio.run(asyncio.wait_for(main(), 15))
    monkeypatch.setattr("companion.phones.server.HELLO_TIMEOUT", 0.2)

    async def silent():
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(url(server, "/ws"))
            msg = await asyncio.wait_for(ws.receive(), 3)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4408

    asyncio.run(asyncio.wait_for(silent(), 5))
    still_answers(server)
    assert server.table.private("green")["secret_disc"] is None
