"""One websocket of the phone server (a phone's or a status screen's) and how it is closed.

Each socket has a queue and a writer task that sends it in order; a client too slow to keep up is
dropped (it reconnects and gets the current state)."""

from __future__ import annotations

import asyncio
import contextlib

from aiohttp import WSMsgType, web

MAX_FRAME = 4096  # bytes in a websocket frame
HEARTBEAT = 15.0  # websocket pings: a phone gone off the Wi-Fi shows as disconnected
QUEUE_LIMIT = 256  # messages waiting for one slow client before it is dropped (it reconnects)
CLOSE_POLICY = 4400  # malformed hello
CLOSE_UNKNOWN = 4401  # unknown or revoked credential: the page forgets it
CLOSE_FORBIDDEN = 4403  # a frame with another seat's credential
CLOSE_TIMEOUT = 4408
CLOSE_REPLACED = 4409  # the seat's oldest socket, when the same seat opens one too many
CLOSE_SLOW = 4429
REMOVED = "the tablet removed this phone: scan your seat's QR code again"


def open_socket() -> web.WebSocketResponse:
    return web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME, compress=False, timeout=2.0)


class Client:
    """One websocket; a writer task sends its queue in order."""

    def __init__(self, ws: web.WebSocketResponse, pid: str | None, serial: int | None = None):
        self.ws, self.pid = ws, pid
        self.serial = serial  # the join (phone) this socket belongs to; views go to a confirmed one only
        self.view_seq = 0  # the last view sent (each view once, in order)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self.dead = False
        self.task: asyncio.Task | None = None
        self.credential: str | None = None
        self.lobby_text = ""  # the last seat choice sent (a phone without a seat)
        self.lang = "en"  # the language its page reads: every word sent to it is in that language
        self._close_with: tuple[int, bytes] = (1000, b"")
        self._closing = False

    def start(self) -> None:
        self.task = asyncio.ensure_future(self.writer())

    def push(self, text: str) -> None:
        if self.dead:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # a client this slow gets the current state when it reconnects
            self.kill(CLOSE_SLOW, "too slow: reconnect")
            self.abort()

    def abort(self) -> None:
        """Drops the connection at once: a socket that stopped reading would hold a polite close
        (and its place) as long as it holds the writes before it."""
        request = getattr(self.ws, "_req", None)
        transport = request.transport if request is not None else None
        if transport is not None:
            transport.abort()

    def kill(self, code: int, reason: str, flush: bool = False) -> None:
        """No more messages to this socket from now; close it (after what is queued, if flush)."""
        if self.dead:
            return
        self.dead = True
        self._close_with = (code, reason.encode()[:120])
        if not flush or self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
            asyncio.ensure_future(self._close())
        self.queue.put_nowait(None)

    async def writer_done(self) -> None:
        """Its writer given a moment to end (once killed)."""
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 2)

    async def _close(self) -> None:
        if not self._closing:
            self._closing = True
            code, reason = self._close_with
            with contextlib.suppress(Exception):
                await self.ws.close(code=code, message=reason)

    async def writer(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError, asyncio.CancelledError):
            while (text := await self.queue.get()) is not None:
                await self.ws.send_str(text)
        if self.dead:
            await self._close()


async def close_bad(ws: web.WebSocketResponse, msg) -> None:
    """A frame that is not text JSON (or an error aiohttp met): the socket is closed saying why."""
    if msg.type == WSMsgType.BINARY:
        await ws.close(code=1003, message=b"text JSON frames only")
    elif msg.type == WSMsgType.ERROR:
        # aiohttp already closed it (1009 for a frame over the limit)
        if not ws.closed:
            await ws.close(code=1009, message=f"frame too large (at most {MAX_FRAME} bytes)".encode())
    elif not ws.closed:
        await ws.close(code=1000)
