"""Async websocket helpers (aiohttp client) for the phone server tests."""

from __future__ import annotations

import asyncio
import json

import aiohttp


def url(server, path: str) -> str:
    return f"http://127.0.0.1:{server.port}{path}"


async def phone(session: aiohttp.ClientSession, server, credential: str):
    ws = await session.ws_connect(url(server, "/ws"))
    await ws.send_json({"type": "hello", "credential": credential})
    return ws


async def spectator(session: aiohttp.ClientSession, server):
    return await session.ws_connect(url(server, "/ws/status"))


# Deadlines for a loaded machine (two CPU hogs beside the suite): a frame that comes returns at once.
DEADLINE = 20.0


async def frame(ws, timeout: float = DEADLINE) -> dict:
    msg = await asyncio.wait_for(ws.receive(), timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, (msg.type, msg.data, msg.extra)
    return json.loads(msg.data)


async def until(ws, predicate, timeout: float = DEADLINE, seen: list | None = None) -> dict:
    """Frames until one satisfies predicate; every frame is appended to `seen`. A timeout names
    what was awaited and the last frame seen."""
    from tests.companion.phones.conftest import awaited

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    last = "no frame at all"
    while True:
        try:
            m = await frame(ws, max(0.01, end - loop.time()))
        except TimeoutError:
            raise AssertionError(
                f"waited {timeout:g} s for a frame where {awaited(predicate)}; the last frame: {last}"
            ) from None
        last = m
        if seen is not None:
            seen.append(m)
        if predicate(m):
            return m


async def quiet(ws, seconds: float = 0.3) -> list:
    """Frames arriving within `seconds` (expected: none)."""
    got = []
    try:
        while True:
            msg = await asyncio.wait_for(ws.receive(), seconds)
            got.append(msg)
            if msg.type != aiohttp.WSMsgType.TEXT:
                return got
    except TimeoutError:
        return got


async def pick(ws, credential: str, question: str, region: str, ref: int = 1) -> dict:
    await ws.send_json({"type": "pick", "credential": credential, "question": question, "region": region, "ref": ref})
    return await until(ws, lambda m: m["type"] in ("result", "error") and m.get("ref") == ref)


def run(coro, timeout: float = 60):
    async def bounded():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())
