"""Connection limits for the phone server (and the club board): nobody on the Wi-Fi can starve it.

aiohttp's defaults keep an idle or half-sent connection open for an hour and log
a traceback for every malformed request. Here:

- a connection with no request in progress (before its first request, between
  requests, or with a request's head half sent) is closed after `idle_timeout`;
  a request body must arrive within `body_timeout` (checked by the server);
- one address may hold `per_address` connections; more are refused at once;
- at most `max_connections` are open: a new one closes the longest-idle
  unprotected one rather than being turned away, so a phone always gets in.
  Protected (never closed for room) are only a confirmed phone's socket and the
  capped spectator sockets, so they can never fill the table;
- bad requests log one line each (no traceback), and at most `log_burst` lines
  per `log_window` seconds per kind, then one line counting the rest;
- the file-descriptor soft limit is raised to the hard limit where allowed.

The server builds its protocol objects through `GuardedSite`, a TCP site whose
handlers (a `web.RequestHandler` subclass) report to a `ConnectionGuard`.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import ssl
import sys
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import ClientPayloadError, web

log = logging.getLogger("companion.phones")

LISTEN_BACKLOG = 1024  # connections the kernel queues before the server accepts them
ACCEPT_BATCH = 64  # connections asyncio accepts in one go
FD_RESERVE = 256  # descriptors left to the rest of the app (game logs, the tower link, Kivy)
FD_CEILING = 65536  # never ask for more than this (macOS reports an unlimited hard limit it refuses)


@dataclass(frozen=True)
class Limits:
    idle_timeout: float = 5.0  # seconds a connection may sit with no request in progress
    body_timeout: float = 5.0  # seconds to send a request body once its head is in
    per_address: int = 16  # open connections from one address (a phone's browser uses about 7)
    max_connections: int = 512  # in all (also at most half the file-descriptor soft limit)
    spectators: int = 32  # /ws/status sockets in all
    spectators_per_address: int = 4
    sockets_per_seat: int = 4  # a seat's phone sockets; a fifth closes the oldest
    log_burst: int = 20  # log lines per kind per window, then one line counting the rest
    log_window: float = 10.0


# ---- file descriptors -------------------------------------------------------------------------


def raise_fd_limit(logger: logging.Logger = log, label: str = "phones") -> tuple[int, int]:
    """Raise this process's file-descriptor soft limit to its hard limit where allowed.
    Returns (soft before, soft now); (0, 0) where the platform has no such limit.
    `label` starts the log line (the server asking: "phones", "club board")."""
    try:
        import resource
    except ImportError:  # Windows
        return 0, 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = FD_CEILING if hard == resource.RLIM_INFINITY else min(hard, FD_CEILING)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError) as exc:
            logger.info("%s: could not raise the open-file limit from %d to %d (%s)", label, soft, want, exc)
            return soft, soft
        return soft, want
    return soft, soft


def connection_budget(limits: Limits) -> int:
    """How many connections the server may hold: the limit, and at most half of the soft
    descriptor limit less what the app keeps for itself."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except ImportError:
        return limits.max_connections
    if soft == resource.RLIM_INFINITY:
        return limits.max_connections
    return max(16, min(limits.max_connections, (soft - FD_RESERVE) // 2))


# ---- logging -----------------------------------------------------------------------------------

_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")


def one_line(text: object, limit: int = 160) -> str:
    """Safe to log: printable ASCII only (no forged log lines), cut to `limit`."""
    flat = _UNPRINTABLE.sub("?", str(text))
    return flat if len(flat) <= limit else flat[:limit] + "..."


class RateLimitedLog:
    """One line per event, at most `burst` per `window` seconds per kind; the rest are counted
    and reported in one line before the first event of that kind after the window.
    `label` starts the lines this module writes itself (the server they are about: "phones",
    "club board"); the guard and AiohttpLog use it too."""

    def __init__(
        self,
        logger: logging.Logger,
        burst: int,
        window: float,
        clock: Callable[[], float] = time.monotonic,
        label: str = "phones",
    ):
        self.logger, self.burst, self.window, self._clock = logger, burst, window, clock
        self.label = label
        self._windows: dict[str, tuple[float, int, int]] = {}  # kind -> (start, logged, suppressed)

    def __call__(self, kind: str, level: int, text: str) -> None:
        now = self._clock()
        start, logged, suppressed = self._windows.get(kind, (now, 0, 0))
        if now - start >= self.window:
            if suppressed:
                self.logger.log(
                    level, "%s: %d more %s not logged in the last %.0f s", self.label, suppressed, kind, now - start
                )
            start, logged, suppressed = now, 0, 0
        if logged < self.burst:
            self.logger.log(level, "%s", text)
            logged += 1
        else:
            suppressed += 1
        self._windows[kind] = (start, logged, suppressed)


class AiohttpLog(logging.LoggerAdapter):
    """Given to aiohttp's request handlers as their logger: a malformed request becomes one
    line ("bad request from 10.0.0.7: BadStatusLine: ...") instead of a traceback."""

    def __init__(self, limited: RateLimitedLog):
        super().__init__(limited.logger, {})
        self.limited = limited

    def log(self, level: int, msg: object, *args: Any, exc_info: Any = None, **kwargs: Any) -> None:
        if not self.isEnabledFor(logging.WARNING):
            return
        exc = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1] if exc_info else None
        try:
            text = str(msg) % args if args else str(msg)
        except (TypeError, ValueError):
            text = str(msg)
        text = text.replace("Error handling request from", "bad request from")
        if exc is not None:
            text += f": {type(exc).__name__}: {exc}"
        self.limited("bad requests", logging.WARNING, f"{self.limited.label}: " + one_line(text, 240))


# ---- connections -------------------------------------------------------------------------------


@dataclass
class _Conn:
    handler: GuardedHandler
    address: str
    since: float  # connected, or its last request finished
    in_request: bool = False
    protected: bool = False


class ConnectionGuard:
    """Counts connections per address, closes idle ones, makes room for new ones. Loop thread only.
    `holders` names what the protected connections are, for the line a full server logs."""

    def __init__(
        self,
        limits: Limits,
        limited_log: RateLimitedLog,
        budget: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        holders: str = "joined phones and status screens",
    ):
        self.limits = limits
        self.holders = holders
        self.label = getattr(limited_log, "label", "phones")  # any callable(kind, level, text) may log
        self.budget = budget if budget is not None else connection_budget(limits)
        self._log = limited_log
        self._clock = clock
        self._conns: dict[GuardedHandler, _Conn] = {}
        self._unprotected: OrderedDict[GuardedHandler, None] = OrderedDict()  # oldest `since` first
        self._per_address: Counter[str] = Counter()
        self.refused = 0
        self.evicted = 0
        self.idle_closed = 0
        self.peak = 0

    def __len__(self) -> int:
        return len(self._conns)

    def open_from(self, address: str) -> int:
        return self._per_address[address]

    # called by the handlers
    def admit(self, handler: GuardedHandler, address: str) -> bool:
        if self._per_address[address] >= self.limits.per_address:
            self.refused += 1
            self._log(
                "refused connections",
                logging.WARNING,
                f"{self.label}: refused a connection from {one_line(address, 60)}: it already has "
                f"{self.limits.per_address} open (the limit per address)",
            )
            return False
        if len(self._conns) >= self.budget and not self._make_room():
            self.refused += 1
            self._log(
                "refused connections",
                logging.WARNING,
                f"{self.label}: refused a connection from {one_line(address, 60)}: "
                f"{self.budget} open, all in use by {self.holders}",
            )
            return False
        self._conns[handler] = _Conn(handler, address, self._clock())
        self._unprotected[handler] = None
        self._per_address[address] += 1
        self.peak = max(self.peak, len(self._conns))
        return True

    def hand_over(self, door: Any, handler: GuardedHandler) -> bool:
        """A TLS connection's place, counted since it was accepted, passes from its door to the
        handler once the handshake is done (False: the door was closed meanwhile)."""
        conn = self._conns.pop(door, None)
        if conn is None:
            return False
        self._unprotected.pop(door, None)
        conn.handler, conn.since = handler, self._clock()
        self._conns[handler] = conn
        self._unprotected[handler] = None
        return True

    def gone(self, handler: GuardedHandler) -> None:
        conn = self._conns.pop(handler, None)
        if conn is None:
            return
        self._unprotected.pop(handler, None)
        self._per_address[conn.address] -= 1
        if not self._per_address[conn.address]:
            del self._per_address[conn.address]

    # called by the server
    def request_started(self, handler: Any) -> None:
        conn = self._conns.get(handler)
        if conn is not None:
            conn.in_request = True

    def request_done(self, handler: Any) -> None:
        """The request finished, or a websocket is open but not yet trusted: idle from now."""
        conn = self._conns.get(handler)
        if conn is not None and not conn.protected:
            conn.in_request, conn.since = False, self._clock()
            self._unprotected.move_to_end(handler)

    def protect(self, handler: Any) -> None:
        """A confirmed phone's socket or an admitted spectator: never closed to make room."""
        conn = self._conns.get(handler)
        if conn is not None:
            conn.protected = True
            self._unprotected.pop(handler, None)

    def _make_room(self) -> bool:
        """Close the longest-idle unprotected connection (one in a request only if none is idle)."""
        victim = next((h for h in self._unprotected if not self._conns[h].in_request), None)
        if victim is None:
            victim = next(iter(self._unprotected), None)
        if victim is None:
            return False
        self.evicted += 1
        self._log(
            "connections closed to make room",
            logging.INFO,
            f"{self.label}: {self.budget} connections open: closed the longest idle one "
            f"(from {one_line(self._conns[victim].address, 60)}) to let a new one in",
        )
        self._close(victim)
        return True

    def sweep(self) -> None:
        """Close every unprotected connection idle for longer than idle_timeout."""
        deadline = self._clock() - self.limits.idle_timeout
        stale = []
        for handler in self._unprotected:
            conn = self._conns[handler]
            if conn.since > deadline:
                break
            if not conn.in_request:
                stale.append(handler)
        for handler in stale:
            self.idle_closed += 1
            self._close(handler)

    def _close(self, handler: GuardedHandler) -> None:
        self.gone(handler)  # counted out now; its connection_lost comes later
        transport = handler.transport
        handler.force_close()
        if transport is not None:
            transport.abort()  # not close(): that waits for a peer that may never read


class GuardedHandler(web.RequestHandler):
    """aiohttp's request handler, admitted (or refused) by the guard when a connection opens."""

    def __init__(self, manager: web.Server, guard: ConnectionGuard, **kwargs: Any):
        super().__init__(manager, **kwargs)
        self._guard = guard
        self._admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "?"
        if not self._guard.admit(self, address):
            transport.abort()  # a reset: the descriptor is free at once
            return
        self._admitted = True
        super().connection_made(transport)

    def enter_admitted(self, transport: asyncio.BaseTransport) -> None:
        """The connection, already admitted (a TLS door held its place through the handshake)."""
        self._admitted = True
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        if not self._admitted:
            return
        self._guard.gone(self)
        super().connection_lost(exc)


class TlsDoor(asyncio.Protocol):
    """A TLS connection counted by the guard from the moment it is accepted: per address, in
    all, and swept like an idle one while its handshake runs (which must end within the idle
    timeout). With the handshake done the aiohttp handler takes the connection and its place.
    Without the door a half-done handshake held a descriptor that no limit counted."""

    def __init__(
        self,
        guard: ConnectionGuard,
        make_handler: Callable[[], GuardedHandler],
        tls: ssl.SSLContext,
        loop: asyncio.AbstractEventLoop,
    ):
        self._guard, self._make_handler, self._tls, self._loop = guard, make_handler, tls, loop
        self.transport: asyncio.Transport | None = None
        self._task: asyncio.Task | None = None
        self._early: list[bytes] = []  # bytes after the handshake, before the handler took over
        self._eof = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "?"
        if not self._guard.admit(self, address):
            transport.abort()
            return
        self.transport = transport  # type: ignore[assignment]
        self._task = self._loop.create_task(self._handshake(transport))

    async def _handshake(self, transport: asyncio.BaseTransport) -> None:
        try:
            secure = await self._loop.start_tls(
                transport,
                self,
                self._tls,
                server_side=True,  # type: ignore[arg-type]
                ssl_handshake_timeout=self._guard.limits.idle_timeout,
            )
        except (TimeoutError, OSError, ssl.SSLError, ConnectionError, RuntimeError):
            secure = None  # a failed or abandoned handshake: nothing to log per connection
        if secure is None or secure.is_closing():
            self._guard.gone(self)
            transport.abort()
            return
        handler = self._make_handler()
        if not self._guard.hand_over(self, handler):  # swept or evicted meanwhile
            secure.abort()
            return
        secure.set_protocol(handler)
        handler.enter_admitted(secure)
        for data in self._early:
            handler.data_received(data)
        if self._eof:
            handler.eof_received()

    # between the handshake's end and the handler's start (the same loop turn or the next)
    def data_received(self, data: bytes) -> None:
        self._early.append(data)

    def eof_received(self) -> bool:
        self._eof = True
        return True

    def force_close(self) -> None:
        """Closed by the guard (idle, or to make room): the handshake is abandoned."""
        if self._task is not None:
            self._task.cancel()

    def connection_lost(self, exc: BaseException | None) -> None:
        self._guard.gone(self)


def _listener(host: str, port: int) -> socket.socket:
    """A bound TCP socket for host:port (IPv4 or IPv6, as the host is written)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host or "0.0.0.0", port))
    except BaseException:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


class GuardedSite(web.BaseSite):
    """A TCP site whose connections go through a ConnectionGuard (and are swept for idleness).

    The kernel's queue of connections not yet accepted is deep (`backlog`), so a burst of
    connects waits there for the guard instead of a phone's SYN being dropped (which costs it a
    second before it tries again); asyncio accepts them `ACCEPT_BATCH` at a time, few enough that
    the descriptors of one batch fit beside the budget while the guard closes what it evicts."""

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str,
        port: int,
        guard: ConnectionGuard,
        handler_kwargs: dict[str, Any],
        backlog: int = LISTEN_BACKLOG,
        tls: ssl.SSLContext | None = None,
    ):
        super().__init__(runner, backlog=backlog)
        self._host, self._port = host, port
        self._tls = tls
        self._guard = guard
        self._handler_kwargs = handler_kwargs
        self._sweeper: asyncio.Task | None = None

    @property
    def name(self) -> str:
        return f"{'https' if self._tls else 'http'}://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        manager = self._runner.server
        assert manager is not None

        def make_handler() -> GuardedHandler:
            return GuardedHandler(manager, self._guard, loop=loop, **self._handler_kwargs)

        def make_door() -> TlsDoor:
            return TlsDoor(self._guard, make_handler, self._tls, loop)

        listener = _listener(self._host, self._port)
        try:
            # TLS: the door is counted from the accept, the handshake done on the loop (start_tls).
            self._server = await loop.create_server(
                make_door if self._tls else make_handler, sock=listener, backlog=ACCEPT_BATCH
            )
        except BaseException:
            listener.close()
            raise
        listener.listen(self._backlog)  # asyncio set the batch size as the queue length: deepen the queue
        self._sweeper = asyncio.ensure_future(self._sweep())

    async def _sweep(self) -> None:
        period = max(0.05, min(1.0, self._guard.limits.idle_timeout / 4))
        while True:
            await asyncio.sleep(period)
            self._guard.sweep()

    async def stop(self) -> None:
        if self._sweeper:
            self._sweeper.cancel()
        await super().stop()


Answer = Callable[[web.Request, Exception], web.StreamResponse | None]


def _no_special_answer(request: web.Request, exc: Exception) -> None:
    return None


def guarded_errors(
    server: Any,
    refusal: Callable[[web.Request, int, str], web.StreamResponse],
    label: str,
    error: Callable[[int, str], web.StreamResponse],
    special: Answer = _no_special_answer,
) -> Callable:
    """The middleware both web servers use. The guard (`server.guard`, made once the server runs)
    is told a request is under way, so the idle sweep never closes it mid-request. An exception
    `special` answers gets that answer; any other HTTP error is a `refusal` (which logs one
    line); a bug is logged with its traceback and answered 500 with no detail for the page."""

    @web.middleware
    async def errors(request: web.Request, handler):
        guard, connection = server.guard, request.protocol
        if guard:
            guard.request_started(connection)
        try:
            return await handler(request)
        except asyncio.CancelledError:
            raise
        except (ConnectionError, ClientPayloadError) as exc:  # the client went away mid-request: one line
            return refusal(request, 400, f"the connection closed mid-request ({type(exc).__name__})")
        except Exception as exc:
            answer = special(request, exc)
            if answer is not None:
                return answer
            if isinstance(exc, web.HTTPException):
                if exc.status < 400:
                    raise
                return refusal(request, exc.status, exc.reason or "refused")
            log.exception("%s error on %s %s", label, request.method, one_line(request.path, 80))
            return error(500, "internal error")
        finally:
            if guard:
                guard.request_done(connection)

    return errors
