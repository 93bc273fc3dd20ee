"""One aiohttp application served on its own thread, every connection through the guard.

The companion has two web servers, the phone server (phones/server.py) and the club board
(club/board.py). Each keeps only its routes and its logic; this is what they share: the thread
and its event loop, listening on host:port (plain or TLS, through guard.GuardedSite), the
middleware that answers every error in one line (guard.guarded_errors), the open-file limit,
one log line per socket error, and a stop that leaves no thread, loop or listening socket.

The owner hands in its routes and two hooks, both run on the server's loop: `listening` once the
port is open (start() returns after it), `stopping` before the connections are closed (also
when starting failed, so it must cope with a half-done start).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import threading
from collections.abc import Awaitable, Callable

from aiohttp import web

from companion.web.guard import (
    AiohttpLog,
    Answer,
    ConnectionGuard,
    GuardedSite,
    Limits,
    RateLimitedLog,
    guarded_errors,
    one_line,
    raise_fd_limit,
)
from companion.web.words import request_language
from companion.words.catalogue import speaking

MAX_HEAD_LINE = 8190  # bytes in the request line and in each header (aiohttp's default, stated)

Hook = Callable[[], Awaitable[None]]
Refusal = Callable[[web.Request, int, str], web.StreamResponse]


def json_error(status: int, message: str) -> web.Response:
    """An answer both servers give a refused request: {"error": message}."""
    return web.json_response({"error": message}, status=status)


def logged_refusal(
    log: RateLimitedLog, label: str, quiet: tuple[int, ...]
) -> Callable[[web.Request, int, str], web.Response]:
    """A 4xx answer, and one log line per bad request (`label` starts it), except for the `quiet`
    statuses: those happen in normal play."""

    def refusal(request: web.Request, status: int, message: str) -> web.Response:
        if status not in quiet:
            log(
                "bad requests",
                logging.WARNING,
                f"{label}: bad request from {one_line(request.remote, 60)}: {request.method} "
                f"{one_line(request.path, 80)}: {status} {one_line(message, 120)}",
            )
        return json_error(status, message)

    return refusal


@web.middleware
async def spoken(request: web.Request, handler):
    """Every word an answer carries (a refusal, a page) in the language of the page that asked."""
    with speaking(request_language(request)):
        return await handler(request)


async def _nothing() -> None:
    return None


def _no_special_answer(request: web.Request, exc: Exception) -> None:
    return None


class ThreadedServer:
    """Serves one aiohttp application on a thread of its own. start() returns once listening
    (or raises: an OSError as it came, such as a busy port; anything else as a RuntimeError);
    stop() closes every connection and ends the thread and its loop, and is safe to call twice.
    A stopped server may start again: it asks for the port it had."""

    def __init__(
        self,
        name: str,
        host: str,
        port: int,
        *,
        limits: Limits,
        log: RateLimitedLog,
        max_body: int,
        routes: Callable[[web.Application], None],
        refusal: Refusal,
        special: Answer = _no_special_answer,
        listening: Hook = _nothing,
        stopping: Hook = _nothing,
        holders: str = "joined phones and status screens",
        tls: ssl.SSLContext | None = None,
    ):
        self.name = name  # "phone server": in its error lines and messages
        self.host = host
        self.requested_port = port
        self.port: int | None = None  # the port listened on, once listening
        self.limits = limits
        self.tls = tls
        self.guard: ConnectionGuard | None = None  # made once the server runs; the middleware reads it
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self._log = log
        self._max_body = max_body
        self._routes, self._refusal, self._special = routes, refusal, special
        self._listening, self._stopping = listening, stopping
        self._holders = holders
        self._stop_event: asyncio.Event | None = None

    def on_its_thread(self) -> bool:
        return self.thread is not None and threading.current_thread() is self.thread

    def running(self) -> bool:
        return self.loop is not None and self.loop.is_running()

    def call_soon(self, fn: Callable, *args) -> None:
        """fn(*args) on the server's loop, from any thread; nothing once the loop has closed."""
        loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # loop closed: stopping
                loop.call_soon_threadsafe(fn, *args)

    def run_waited(self, fn: Callable, *args) -> None:
        """fn(*args) on the loop, waited for when called from another thread (at most 5 s), at once
        on the loop's own thread; nothing when the loop is not running."""
        loop = self.loop
        if loop is None or not loop.is_running():
            return
        if self.on_its_thread():
            fn(*args)
            return

        async def call():
            fn(*args)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(call(), loop).result(5)

    def start(self) -> None:
        if self.thread:
            raise RuntimeError(f"the {self.name} is already running")
        logger, label = self._log.logger, self._log.label
        before, now = raise_fd_limit(logger, label)
        if now > before:
            logger.info("%s: open-file limit raised from %d to %d", label, before, now)
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            loop.set_exception_handler(self._loop_error)
            self.loop = loop
            try:
                loop.run_until_complete(self._serve(started))
            except BaseException as exc:
                failure.append(exc)
            finally:
                started.set()
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

        self.thread = threading.Thread(target=run, name=self.name.replace(" ", "-"), daemon=True)
        self.thread.start()
        started.wait()
        if failure or not self.running():
            self.thread.join(5)
            self.thread = self.loop = None
            if failure and isinstance(failure[0], OSError):
                raise failure[0]  # a busy port: the owner says so, or tries another
            raise RuntimeError(f"the {self.name} could not start: {failure[0] if failure else 'unknown'}")

    def stop(self) -> None:
        thread, loop = self.thread, self.loop
        if not thread or not loop:
            return
        try:
            loop.call_soon_threadsafe(self._stop_event.set)
        except RuntimeError:  # the loop has ended already
            pass
        thread.join(10)
        self.thread = self.loop = None

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        """Out of descriptors and the like: one line (a flood must not flood the log too)."""
        exc = context.get("exception")
        if isinstance(exc, OSError):
            self._log(
                "socket errors",
                logging.WARNING,
                f"{self._log.label}: {one_line(context.get('message', 'socket error'))}: {one_line(exc)}",
            )
        else:
            loop.default_exception_handler(context)

    async def _serve(self, started: threading.Event) -> None:
        self._stop_event = asyncio.Event()
        errors = guarded_errors(self, self._refusal, self.name, json_error, self._special)
        app = web.Application(client_max_size=self._max_body, middlewares=[spoken, errors])
        self._routes(app)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        self.guard = ConnectionGuard(self.limits, self._log, holders=self._holders)
        handler_kwargs = dict(
            keepalive_timeout=self.limits.idle_timeout,
            access_log=None,
            logger=AiohttpLog(self._log),
            max_line_size=MAX_HEAD_LINE,
            max_field_size=MAX_HEAD_LINE,
            lingering_time=1.0,
        )
        try:
            site = GuardedSite(runner, self.host, self.requested_port, self.guard, handler_kwargs, tls=self.tls)
            await site.start()
            self.port = runner.addresses[0][1]
            self.requested_port = self.port  # a restart listens on the same port: the pages find it again
            await self._listening()
            started.set()
            await self._stop_event.wait()
        finally:
            await self._stopping()
            await runner.cleanup()
