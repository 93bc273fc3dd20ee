"""Waits on the frames a held websocket has received so far (kept by a drain task in a list).

A frame reaches its socket a moment after the table changed: a test waits for the frame it
expects, up to a deadline, instead of sleeping and hoping; a timeout names the seat, what was
expected and the last frame seen.
"""

from __future__ import annotations

import asyncio
import json


def _parsed(frame) -> dict:
    return json.loads(frame) if isinstance(frame, (str, bytes)) else frame


def _timed_out(seat: str, expected: str, frames: list, timeout: float) -> AssertionError:
    last = _parsed(frames[-1]) if frames else "no frame at all"
    return AssertionError(f"{seat}: no frame {expected} within {timeout:g} s; {len(frames)} frame(s), the last: {last}")


async def until_frame(frames: list, seat: str, expected: str, predicate, after: int = 0, timeout: float = 20.0) -> dict:
    """The first frame from index `after` on that satisfies predicate (waiting for it to come)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        for frame in frames[after:]:
            m = _parsed(frame)
            if predicate(m):
                return m
        if loop.time() >= end:
            raise _timed_out(seat, expected, frames, timeout)
        await asyncio.sleep(0.01)


async def until_latest(frames: list, seat: str, expected: str, predicate, timeout: float = 20.0) -> dict:
    """The newest frame, once it satisfies predicate: what the phone shows now."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        if frames and predicate(m := _parsed(frames[-1])):
            return m
        if loop.time() >= end:
            raise _timed_out(seat, expected, frames, timeout)
        await asyncio.sleep(0.01)
