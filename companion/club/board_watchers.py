"""The board pages' `/events` streams (server-sent events): capped in all and per address (the
shared companion/web/spectators.py), protected from the guard's sweeps, a keep-alive comment on
a quiet stream, and a page that stops reading dropped rather than holding its place. Loop thread."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from companion.web.guard import ConnectionGuard, Limits, RateLimitedLog, one_line
from companion.web.spectators import SpectatorPlaces

KEEP_ALIVE = 15.0  # seconds between comments on a quiet /events stream
WRITE_TIMEOUT = 10.0  # seconds an /events page may take to take one push before it is dropped
BACKLOG = 1000  # pushes waiting for one page before it is dropped (it reconnects and gets everything)

Events = list[tuple[str, Any]]  # (event kind, its JSON data)


def event_text(events: Events) -> str:
    return "".join(f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n" for kind, data in events)


class BoardWatchers:
    def __init__(self, limits: Limits, log: RateLimitedLog):
        self.queues: set[asyncio.Queue] = set()
        self.places = SpectatorPlaces(
            limits.spectators, limits.spectators_per_address, "board pages open", "board pages open"
        )
        self._log = log

    def push(self, text: str) -> None:
        for q in list(self.queues):
            if q.qsize() > BACKLOG:  # a page that stopped reading: dropped, it reconnects and gets everything
                q.put_nowait(None)
                self.queues.discard(q)
            else:
                q.put_nowait(text)

    def close_all(self) -> None:
        for q in list(self.queues):
            q.put_nowait(None)

    async def serve(
        self,
        request: web.Request,
        response: web.StreamResponse,
        guard: ConnectionGuard | None,
        first: Callable[[], Events],
    ) -> web.StreamResponse:
        """One page's stream (its place already taken by `take`): everything first, then each push."""
        address = request.remote or "?"
        q: asyncio.Queue = asyncio.Queue()
        try:
            response.force_close()  # the connection ends with its stream: protected, it is never swept
            await response.prepare(request)
            if guard:
                guard.protect(request.protocol)  # counted against the watcher caps instead
            q.put_nowait(event_text(first()))
            self.queues.add(q)
            await self._stream(request, response, q)
        except (ConnectionError, asyncio.CancelledError):  # a page closed: nothing to say
            pass
        finally:
            self.queues.discard(q)
            self.places.leave(address)
        return response

    async def _stream(self, request: web.Request, resp: web.StreamResponse, q: asyncio.Queue) -> None:
        quiet = 0.0
        while True:
            try:  # woken each second: a page that went away frees its place at once, not at the next push
                text = await asyncio.wait_for(q.get(), 1.0)
            except TimeoutError:
                transport = request.transport
                if transport is None or transport.is_closing():
                    return
                quiet += 1.0
                if quiet < KEEP_ALIVE:
                    continue
                text = ": keep-alive\n\n"
            quiet = 0.0
            if text is None:
                return
            try:
                await asyncio.wait_for(resp.write(text.encode()), WRITE_TIMEOUT)
            except TimeoutError:  # a page that stopped reading must not hold its place
                self._log(
                    "slow pages",
                    logging.INFO,
                    f"club board: dropped a board page at {one_line(request.remote, 60)}: it read "
                    f"nothing for {WRITE_TIMEOUT:g} s",
                )
                if request.transport is not None:
                    request.transport.abort()
                return
