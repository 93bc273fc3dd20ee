"""The phone server: the players' secret discs on their own phones, and in a 2023 game every
other private choice (Power Shift's Modifier cards dealt and passed, a card taken back) and the
2023 Veto, asked of each holder at once when a special action is announced.

The companion serves a small page on the local network (plain HTTP, no
internet). Each seat has a one-time join code that works for a few minutes (the
tablet shows it as a QR code and can make a new one); joining gives the phone a
256-bit credential kept in the browser, so a reload or a dropped Wi-Fi rejoins
the same seat. A phone that joins sees nothing private until the tablet
confirms it with one tap ("Is this Ana's phone?"); No forgets it. The tablet
can revoke a seat at any time.

One server serves a whole game night: `switch_table` points it at the next
game's table. Phones keep their credentials and follow their players to the
new seats (seats.py says how); a phone whose player has no seat picks a free
one on its screen. Nothing of the old game survives the switch: the old
table's observer is removed, every view is rebuilt from the new table, and a
pick or a view read still under way for the old table is refused or dropped.

Routes (all answers to bad input are 4xx with a clear message, never a 5xx):
  GET  /, /phone        the phone page
  GET  /join/<code>     the phone page, which then spends the code (410 page if expired or spent)
  POST /api/join        {"code", "credential"?} -> {"seat", "credential"} (the credential this browser
                        holds already, if any: the tablet's question then names the seat it holds)
  GET  /api/me          Authorization: Bearer <credential> -> this seat's PhoneView
                        (a PendingView until the tablet confirms the phone)
  POST /api/pick        {"credential", "question", "region", "seq"?} -> {"ok": true}
  POST /api/choose      {"credential", "question", "values", "seq"?} -> {"ok": true}: a 2023 private answer
                        (Modifier cards dealt or passed, a card taken back, a Veto used or let pass)
  POST /api/seat        {"credential", "seat"} -> {"ok": true, "seat"}: a phone without a seat takes a free one
  POST /api/leave       {"credential"} -> {"ok": true}: the phone leaves its seat (its player plays another colour)
  GET  /api/status      StatusView: who has chosen (never what), for anyone
  GET  /ws              phone socket: first frame {"type": "hello", "credential"}, then
                        {"type": "pick", "credential", "question", "region", "seq"?, "ref"?},
                        {"type": "choose", "credential", "question", "values", "seq"?, "ref"?},
                        {"type": "seat", "credential", "seat", "ref"?} or {"type": "leave", "credential", "ref"?};
                        receives "pending", "view" (PhoneView), "choose_seat" (SeatChoice), "result"
                        and "error" frames
  GET  /ws/status       spectator socket: "status" frames (StatusView); at most `Limits.spectators`

Every view and status message carries `seq`, +1 per change of that feed, so a
client can tell that it missed nothing. A pick's or a choice's own `seq` is the page's number for
that answer (ordering.py): the server takes a seat's answers in that order only, refusing an older
or repeated one without touching the table ("already have a newer choice", with `stale` and the
seat's `last_seq` in the error frame); a view's `last_seq` tells a reloaded page where to go on.
An answer identical to the one in force writes nothing. Views are computed from the table on
the server's own thread (an executor that also runs the table inputs, so a slow
disk never stalls the sockets) and sent only when they changed: another seat's
change of pick makes no message to anyone. Connection limits (idle and body
timeouts, per-address and total caps, quiet logging) are in guard.py.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import html
import json
import logging
import re
import socket
import threading
from collections.abc import Callable
from importlib import resources
from typing import Annotated, Any, Literal

from aiohttp import WSMsgType, web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.input_errors import InputError
from companion.phones.ordering import MAX_SEQ, SeatOrder, Stale, answer_in_force
from companion.phones.seats import CODE_LIFETIME, MAX_TOKEN_CHARS, REFUSALS, SEAT_REFUSALS, Joined, Phone, Seats
from companion.phones.views import (
    DISC_KINDS,
    PURPOSE_TEXT,
    Faces,
    OptionOut,
    PhoneView,
    PrivateAsk,
    Snapshot,
    StatusView,
    modifier_faces,
    pending_view,
    phone_view,
    seat_choice,
    status_view,
)
from companion.prompts.builder import MODIFIER_PREFIX
from companion.table.authority import Table
from companion.table.log import SIMULTANEOUS
from companion.web.guard import ConnectionGuard, Limits, RateLimitedLog, one_line
from companion.web.server import ThreadedServer, json_error
from engine.board.model import CASTILLO
from engine.events import SecretDiscSet, VetoUsed, VetoWaived

log = logging.getLogger("companion.phones")

MAX_BODY = 4096  # bytes in a request body
MAX_FRAME = 4096  # bytes in a websocket frame
HELLO_TIMEOUT = 10.0  # seconds a phone socket has to say who it is
HEARTBEAT = 15.0  # websocket pings: a phone gone off the Wi-Fi shows as disconnected
QUEUE_LIMIT = 256  # messages waiting for one slow client before it is dropped (it reconnects)
CLOSE_POLICY = 4400  # malformed hello
CLOSE_UNKNOWN = 4401  # unknown or revoked credential: the page forgets it
CLOSE_FORBIDDEN = 4403  # a frame with another seat's credential
CLOSE_TIMEOUT = 4408
CLOSE_REPLACED = 4409  # the seat's oldest socket, when the same seat opens one too many
CLOSE_SLOW = 4429
# 2023: private choices a phone answers besides its discs (a Veto too, below).
PHONE_PRIVATE_KINDS = (
    "deal_modifiers",
    "pass_modifier",
    "take_back_power_card",
    "choose_power_cards",
)  # the last: King and Intrigue's 13 kept, in secret
# Entering the Modifier cards dealt is refused when more copies of a card are entered than the set
# has: someone made a mistake. Each refusal tells a little about others' hands, so a phone gets
# this many; after that the cards are entered on the tablet, with the table watching.
DEAL_REFUSALS = 3
VETO_ANSWERS = {"use": "Use my Veto: prevent it", "pass": "Let it pass"}

# ---- requests (allow-listed; anything else is refused) -----------------------------

Token = Annotated[str, Field(min_length=1, max_length=MAX_TOKEN_CHARS)]
AnswerSeq = Annotated[int, Field(ge=1, le=MAX_SEQ)]  # the page's number for an answer (ordering.py)


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class HelloIn(_In):
    type: Literal["hello"]
    credential: Token


class PickIn(_In):
    type: Literal["pick"] = "pick"
    credential: Token
    question: Annotated[str, Field(min_length=1, max_length=200)]
    region: Annotated[str, Field(min_length=1, max_length=40)]
    seq: AnswerSeq | None = None
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class JoinIn(_In):
    code: Token
    # The credential this browser already holds, if any: "this phone already holds Ana's seat".
    # Not a Token: a page's stored value is only a hint, and a strange one must not stop the join.
    credential: Annotated[str, Field(max_length=MAX_TOKEN_CHARS)] | None = None


class SeatIn(_In):
    type: Literal["seat"] = "seat"
    credential: Token
    seat: Annotated[str, Field(min_length=1, max_length=20)]
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class LeaveIn(_In):
    type: Literal["leave"] = "leave"
    credential: Token
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class ChooseIn(_In):
    """A 2023 private answer: the values of the options the phone's question offers."""

    type: Literal["choose"] = "choose"
    credential: Token
    question: Annotated[str, Field(min_length=1, max_length=200)]
    # at most a whole hand: King and Intrigue with its modules keeps 13 Power cards by tapping them
    values: Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]], Field(min_length=1, max_length=18)]
    seq: AnswerSeq | None = None
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


FRAMES: dict[str, type[BaseModel]] = {"pick": PickIn, "choose": ChooseIn, "seat": SeatIn, "leave": LeaveIn}


class Refused(Exception):
    """A request refused with an HTTP-like status and a message for the player."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class StaleAnswer(Refused):
    """An answer older than (or as old as) the seat's last accepted one: nothing was changed."""

    def __init__(self, stale: Stale):
        super().__init__(409, stale.message)
        self.last = stale.last


class NotConfirmed(Refused):
    """A joined phone the tablet has not confirmed yet: refused, but its socket stays open."""

    def __init__(self, name: str):
        super().__init__(
            403,
            f'The tablet has not confirmed this phone yet: someone taps Yes on "Is this {name}\'s phone?" there first.',
        )


NOT_JOINED = "This phone is not joined to a seat (or the tablet replaced it): scan your seat's QR code on the tablet."


def _load(raw: bytes | str) -> dict:
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "malformed request: expected a JSON object") from None
    if not isinstance(data, dict):
        raise Refused(400, "malformed request: expected a JSON object")
    return data


def _parse_frame(raw: str) -> Any:
    """A phone socket's frame: a pick (the default), a seat taken or a seat left."""
    data = _load(raw)
    kind = data.get("type", "pick")
    return _validate(FRAMES.get(kind, PickIn) if isinstance(kind, str) else PickIn, data)


def _parse(model: type[BaseModel], raw: bytes | str) -> Any:
    """Malformed input -> Refused(400) naming the first problem, never echoing data back."""
    return _validate(model, _load(raw))


def _validate(model: type[BaseModel], data: dict) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False, include_input=False, include_context=False)[0]
        where = ".".join(str(x) for x in err["loc"]) or "request"
        raise Refused(400, f"malformed request ({where}: {err['msg']})") from None
    except RecursionError:
        raise Refused(400, "malformed request: nested too deeply") from None


def lan_address() -> str:
    """This machine's address on the local network (the one a phone can reach), else 127.0.0.1.

    Connecting a UDP socket sends nothing; it only makes the system pick the
    interface it would route through."""
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                addr = s.getsockname()[0]
            if addr and not addr.startswith(("127.", "0.")):
                return addr
        except OSError:
            continue
    return "127.0.0.1"


_BROWSERS = (
    ("SamsungBrowser", "Samsung Internet"),
    ("EdgA", "Edge"),
    ("EdgiOS", "Edge"),
    ("Edg/", "Edge"),
    ("FxiOS", "Firefox"),
    ("Firefox", "Firefox"),
    ("OPR", "Opera"),
    ("CriOS", "Chrome"),
    ("Chrome", "Chrome"),
    ("Safari", "Safari"),
)
_SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "Mac"),
    ("Linux", "Linux"),
)
_HOST = re.compile(r"^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")


def describe_device(user_agent: str) -> str:
    """ "Chrome on Android": enough for the table to tell whose phone it is, nothing more."""
    browser = next((name for key, name in _BROWSERS if key in user_agent), "a browser")
    system = next((name for key, name in _SYSTEMS if key in user_agent), "")
    return f"{browser} on {system}" if system else browser


def content_security_policy(host: str) -> str:
    """connect-src 'self': the page talks only to this server. CSP 3 lets 'self' cover ws: to the same
    host and port (Chromium, Firefox); Safari before 15.4 does not, so that one URL is also named."""
    same_ws = f" ws://{host}" if _HOST.match(host or "") else ""
    return (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
        f"connect-src 'self'{same_ws}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


class _Client:
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
        self._close_with: tuple[int, bytes] = (1000, b"")
        self._closing = False

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


class PhoneServer:
    """Serves the phone page and sockets for one table. Thread-safe public methods.

    The tablet uses: start(), stop(), switch_table(table), port, seat_url(pid), revoke(pid),
    seats_status(), lobby(), forget(phone), confirmations(), confirm(pid, phone), reject(pid, phone),
    status(), subscribe(callback)."""

    def __init__(
        self,
        table: Table,
        host: str = "0.0.0.0",
        port: int = 0,
        *,
        public_host: str | None = None,
        code_lifetime: float = CODE_LIFETIME,
        limits: Limits = Limits(),
    ):
        self.table = table
        self.host = host
        self._public_host = public_host
        self.limits = limits
        self.board = table.board
        self.seats = Seats(table.players, code_lifetime, names=dict(table.names))
        self._players = tuple(table.players)
        self._generation = 0  # +1 per table served: work begun for an earlier table is dropped
        self._page = resources.files("companion.phones").joinpath("static/phone.html").read_bytes()
        self._gone_page = resources.files("companion.phones").joinpath("static/gone.html").read_text("utf-8")
        self._table_lock = getattr(table, "_lock", None) or contextlib.nullcontext()
        self._observers: list[Callable[[str], None]] = []
        self._unsubscribe: Callable[[], None] | None = None
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._log = RateLimitedLog(log, limits.log_burst, limits.log_window)
        self._web = ThreadedServer(
            "phone server",
            host,
            port,
            limits=limits,
            log=self._log,
            max_body=MAX_BODY,
            routes=self._routes,
            refusal=self._refusal,
            special=self._special_answer,
            listening=self._listening,
            stopping=self._stopping,
        )
        # Loop-thread state.
        self._phones: dict[str, dict[_Client, None]] = {pid: {} for pid in self._players}  # oldest first
        self._waiting: dict[int, dict[_Client, None]] = {}  # sockets of phones in the lobby, by phone serial
        self._spectators: set[_Client] = set()
        self._spectators_from: dict[str, int] = {}
        self._views: dict[str, PhoneView] = {}
        self._view_floor: dict[str, int] = {}  # each seat's last view seq in the previous game
        self._status: StatusView | None = None
        self._refreshing = False
        self._dirty = False
        self._refresh_task: asyncio.Task | None = None
        self._expiry: asyncio.TimerHandle | None = None
        self._allowed_cache: tuple[tuple[int, str], dict[str, list[str]]] = ((0, ""), {})
        self._cache_lock = threading.Lock()
        self._faces: tuple[int, Faces | None] = (-1, None)  # (generation, this game's Modifier faces)
        self._deal_refused: dict[tuple[int, str, str], int] = {}  # (generation, question, seat) -> refusals
        self._order = SeatOrder()  # each seat's last accepted answer number (executor, under the table lock)

    # ---- lifecycle --------------------------------------------------------------------------

    def start(self) -> PhoneServer:
        """Start serving on its own thread; returns once listening (raises if it cannot)."""
        if self._web.thread:
            raise RuntimeError("the phone server is already running")
        self._refreshing = self._dirty = False  # a task cancelled by a previous stop never reset them
        # One worker: table inputs and view reads run there in order, off the event loop.
        self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="phones-table")
        try:
            self._web.start()
        except BaseException:
            self._executor.shutdown(wait=False, cancel_futures=True)
            raise
        return self

    def _routes(self, app: web.Application) -> None:
        app.router.add_get("/", self._page_handler)
        app.router.add_get("/phone", self._page_handler)
        app.router.add_get(r"/join/{code}", self._join_page)
        app.router.add_post("/api/join", self._api_join)
        app.router.add_get("/api/me", self._api_me)
        app.router.add_post("/api/pick", self._api_pick)
        app.router.add_post("/api/choose", self._api_choose)
        app.router.add_post("/api/seat", self._api_seat)
        app.router.add_post("/api/leave", self._api_leave)
        app.router.add_get("/api/status", self._api_status)
        app.router.add_get("/ws", self._phone_ws)
        app.router.add_get("/ws/status", self._status_ws)
        app.on_response_prepare.append(self._headers)

    async def _listening(self) -> None:
        self._unsubscribe = self.table.subscribe(self._table_changed)
        await self._refresh_now()
        self._schedule_expiry()

    async def _stopping(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        if self._expiry:
            self._expiry.cancel()
        for client in self._phone_clients() + list(self._spectators):
            client.kill(1001, "the companion is stopping")
        if self._refresh_task and not self._refresh_task.done():
            self._refresh_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._refresh_task

    def running(self) -> bool:
        """Its thread and event loop are alive (Android may stop them while the app is paused)."""
        thread = self._web.thread
        return thread is not None and thread.is_alive() and self._web.running()

    def stop(self) -> None:
        """Close every socket and stop listening. Safe to call twice."""
        self._web.stop()
        if self._executor:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> PhoneServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def guard(self) -> ConnectionGuard | None:
        return self._web.guard

    @property
    def _loop(self) -> asyncio.AbstractEventLoop | None:
        return self._web.loop

    @property
    def port(self) -> int:
        if self._web.port is None:
            raise RuntimeError("the phone server is not started")
        return self._web.port

    # ---- the next game --------------------------------------------------------------------

    def switch_table(self, table: Table) -> None:
        """Serve the next game's table from now on: same port, same phones. Each phone follows
        its player (seats.reseat); views, status and the regions a seat may pick are rebuilt from
        the new table before this returns, and the old table is no longer observed or held."""
        loop = self._loop
        if not self._web.running():
            self._take_table(table)
            return
        if self._web.on_its_thread():
            raise RuntimeError("switch_table is for the tablet's thread, not the server's")
        asyncio.run_coroutine_threadsafe(self._switch(table), loop).result(15)

    def _take_table(self, table: Table) -> None:
        """The new table's seats and nothing of the old one's (loop thread, or before start)."""
        self._generation += 1
        self.table = table
        self.board = table.board
        self._table_lock = getattr(table, "_lock", None) or contextlib.nullcontext()
        self._players = tuple(table.players)
        self._deal_refused = {}
        self.seats.reseat(self._players, dict(table.names))
        with self._cache_lock:
            self._allowed_cache = ((self._generation, ""), {})
        # Each seat's feed goes on counting (a phone that stays sees seq go up), from the new table.
        self._view_floor = {pid: view.seq for pid, view in self._views.items()}
        self._views = {}

    async def _switch(self, table: Table) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        clients = self._phone_clients()
        with self._table_lock:  # a pick being applied to the old table ends first; none starts after
            self._take_table(table)
        self._phones = {pid: {} for pid in self._players}
        self._waiting = {}
        for client in clients:  # each socket follows its phone: a seat, the lobby, or gone
            self._place_socket(client)
        self._unsubscribe = table.subscribe(self._table_changed)
        await self._refresh_now()
        self._schedule_expiry()
        self._seats_changed()

    def _phone_clients(self) -> list[_Client]:
        return [c for cs in self._phones.values() for c in cs] + [c for cs in self._waiting.values() for c in cs]

    def _place_socket(self, client: _Client) -> None:
        """Puts a phone's socket where its phone is now and tells it what it may see there."""
        pid, phone = self._where(client.serial)
        if phone is None:
            client.kill(CLOSE_UNKNOWN, "the tablet removed this phone: scan your seat's QR code again")
            return
        client.pid, client.view_seq = pid, 0
        if pid is None:
            self._waiting.setdefault(phone.serial, {})[client] = None
            client.lobby_text = ""
            self._send_choice(client, phone)
            return
        self._phones[pid][client] = None
        pending = self._pending(pid)
        if pending is not None:
            client.push(pending)
        else:
            self._send_view(client, self._views.get(pid))

    def _where(self, serial: int | None) -> tuple[str | None, Phone | None]:
        for pid in self._players:
            phone = self.seats.phone(pid)
            if phone is not None and phone.serial == serial:
                return pid, phone
        return None, next((p for p in self.seats.lobby() if p.serial == serial), None)

    def _choice(self, phone: Phone) -> str:
        names = self.table.names
        return seat_choice(names, self.seats.free_seats(), self.seats.suggested(phone), phone.was).model_dump_json()

    def _send_choice(self, client: _Client, phone: Phone) -> None:
        text = self._choice(phone)
        if text != client.lobby_text:  # a frame only when the free seats changed
            client.lobby_text = text
            client.push(text)

    def _lobby_changed(self) -> None:
        if not self._waiting:
            return
        phones = {p.serial: p for p in self.seats.lobby()}
        for serial, clients in list(self._waiting.items()):
            phone = phones.get(serial)
            for client in list(clients):
                if phone is None:
                    clients.pop(client, None)
                    client.kill(CLOSE_UNKNOWN, "the tablet removed this phone: scan your seat's QR code again")
                else:
                    self._send_choice(client, phone)
            if not clients:
                self._waiting.pop(serial, None)

    # ---- what the tablet uses --------------------------------------------------------------

    def base_url(self) -> str:
        host = self._public_host or (lan_address() if self.host in ("0.0.0.0", "", "::") else self.host)
        return f"http://{host}:{self.port}"

    def seat_url(self, pid: str) -> str | None:
        """The URL to show as this seat's QR code, or None when there is none to show: a phone
        holds the seat, or the code expired (revoke makes a new one)."""
        self._known(pid)
        code = self.seats.pending_code(pid)
        return f"{self.base_url()}/join/{code}" if code else None

    def revoke(self, pid: str, reason: str = "this phone was removed from the seat by the tablet") -> str:
        """The seat's phone credential stops working now, its sockets are closed, and a new
        join code is made (also what "New code" does for an expired one). Returns the seat's new URL."""
        self._known(pid)
        self.seats.revoke(pid)
        loop = self._loop
        if loop and loop.is_running():
            fut = asyncio.run_coroutine_threadsafe(self._drop_seat(pid, reason), loop)
            if not self._web.on_its_thread():
                with contextlib.suppress(Exception):
                    fut.result(5)
        return self.seat_url(pid)

    def confirm(self, pid: str, phone: int) -> bool:
        """The tablet's Yes: the phone of join `phone` is this seat's. From now on it sees its
        private view. False (nothing changes) if the seat holds another phone by now."""
        self._known(pid)
        if not self.seats.confirm(pid, phone):
            return False
        self._on_loop(self._seat_confirmed, pid)
        return True

    def reject(self, pid: str, phone: int) -> str | None:
        """The tablet's No: forget that phone and make a new code (its new URL). None if the seat
        holds another phone by now (nothing changes)."""
        self._known(pid)
        current = self.seats.phone(pid)
        if current is None or current.serial != phone or current.confirmed:
            return None
        if current.vouched and self.seats.unseat(pid, phone):
            # The tablet knows this phone as another player's: it goes back to choosing, not away.
            self._run_on_loop(self._moved_to_lobby, pid, phone)
            return self.seat_url(pid)
        return self.revoke(pid, f"the tablet said this is not {self._name(pid)}'s phone")

    def confirmations(self) -> list[dict]:
        """Phones waiting for the tablet's Yes, in seat order: {"seat", "phone", "question", "detail"}."""
        out = []
        for pid in self._players:
            phone = self.seats.phone(pid)
            if phone is not None and not phone.confirmed:
                before = f"; it was {phone.was}'s phone in an earlier game" if phone.was else ""
                out.append(
                    {
                        "seat": pid,
                        "phone": phone.serial,
                        "question": self._question(pid, phone),
                        "detail": f"Its screen shows {phone.number} ({phone.device}){before}",
                    }
                )
        return out

    def _question(self, pid: str, phone: Phone) -> str:
        """ "Is this Bruno's phone?", naming the seat this phone holds already, if it does: a
        player who scans a second seat's code would see that seat's secrets too."""
        question = f"Is this {self._name(pid)}'s phone?"
        if phone.same_device_as is None:
            return question
        other, _ = self._where(phone.same_device_as)
        if other is None or other == pid:
            return question
        return f"{question} This phone already holds {self._name(other)}'s seat."

    def seats_status(self) -> dict[str, dict]:
        """{pid: {"joined", "connected", "awaiting", "code", "expires_in"}}: joined is a confirmed
        phone; connected, that a phone holding the seat (confirmed or not) has a socket open now;
        awaiting, the phone's join number while the tablet has not confirmed it (else None); code is
        "open" (a QR code to show), "expired" (offer a new one) or None (a phone holds the seat)."""
        out = {}
        for pid in self._players:
            phone = self.seats.phone(pid)
            state = self.seats.code_state(pid)
            out[pid] = {
                "joined": bool(phone and phone.confirmed),
                "connected": bool(self._phones.get(pid)),
                "awaiting": phone.serial if phone and not phone.confirmed else None,
                "code": None if state == "taken" else state,
                "expires_in": self.seats.expires_in(pid),
            }
        return out

    def lobby(self) -> list[dict]:
        """Phones of earlier games waiting for a seat (they pick one on their screen):
        {"phone", "was", "device", "connected"}, oldest first."""
        return [
            {"phone": p.serial, "was": p.was, "device": p.device, "connected": bool(self._waiting.get(p.serial))}
            for p in self.seats.lobby()
        ]

    def forget(self, phone: int) -> bool:
        """Forget a phone waiting in the lobby: its credential stops working, its page says so."""
        if not self.seats.forget(phone):
            return False
        self._on_loop(self._seats_changed)
        return True

    def status(self) -> dict:
        """The public status feed (who has chosen, never what), as a plain dict."""
        status = self._status
        if status is None:
            raise RuntimeError("the phone server is not started")
        return status.model_dump(mode="json")

    def subscribe(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """callback("seats") after a phone joins, is confirmed, connects, disconnects or is revoked,
        and when a join code expires; callback("status") when the status feed changes. Called on
        the server's thread: a Kivy app hops to its own thread with Clock. Returns unsubscribe."""
        self._observers.append(callback)
        return lambda: self._observers.remove(callback) if callback in self._observers else None

    def _emit(self, what: str) -> None:
        for callback in list(self._observers):
            try:
                callback(what)
            except Exception:  # an observer's bug must not break the server
                log.exception("phone server observer failed")

    def _known(self, pid: str) -> None:
        if pid not in self._players:
            raise KeyError(f"{pid!r} is not playing (players: {', '.join(self._players)})")

    def _name(self, pid: str) -> str:
        return self.table.names.get(pid, pid)

    def _on_loop(self, fn: Callable, *args) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # loop closed: stopping
                loop.call_soon_threadsafe(fn, *args)

    def _run_on_loop(self, fn: Callable, *args) -> None:
        """fn on the loop, waited for when called from another thread (the tablet's answer is done
        when it returns)."""
        loop = self._loop
        if loop is None or not loop.is_running():
            return
        if self._web.on_its_thread():
            fn(*args)
            return

        async def call():
            fn(*args)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(call(), loop).result(5)

    def _moved_to_lobby(self, pid: str, serial: int) -> None:
        """A seat's sockets of phone `serial` now belong to the lobby."""
        for client in [c for c in self._phones.get(pid, {}) if c.serial == serial]:
            self._phones[pid].pop(client, None)
            self._place_socket(client)
        self._schedule_expiry()
        self._seats_changed()

    async def _drop_seat(self, pid: str, reason: str) -> None:
        for client in list(self._phones.get(pid, ())):
            client.kill(CLOSE_UNKNOWN, reason)
        self._schedule_expiry()
        self._seats_changed()

    def _send_view(self, client: _Client, view: PhoneView | None) -> None:
        """A seat's view to one of its sockets: only once its phone is confirmed, each view once."""
        if view is not None and view.seq > client.view_seq and self.seats.confirmed(client.pid, client.serial):
            client.view_seq = view.seq
            client.push(view.model_dump_json())

    def _seat_confirmed(self, pid: str) -> None:
        for client in self._phones.get(pid, ()):
            self._send_view(client, self._views.get(pid))
        self._seats_changed()

    def _schedule_expiry(self) -> None:
        """Tell the tablet when the next open code expires, so it shows it as expired."""
        if self._expiry:
            self._expiry.cancel()
        left = self.seats.next_expiry()
        if left is not None and self._loop is not None:
            self._expiry = self._loop.call_later(left + 0.05, self._codes_expired)

    def _codes_expired(self) -> None:
        self._expiry = None
        self._seats_changed()
        self._schedule_expiry()

    def _seats_changed(self) -> None:
        self._lobby_changed()
        self._emit("seats")
        self._request_refresh()

    # ---- reading the table --------------------------------------------------------------------

    def _table_changed(self, what: str) -> None:  # any thread
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # loop closed: stopping
                loop.call_soon_threadsafe(self._request_refresh)

    def _request_refresh(self) -> None:
        if self._refreshing:
            self._dirty = True
            return
        self._refreshing = True
        self._refresh_task = asyncio.ensure_future(self._refresh_loop())

    async def _refresh_loop(self) -> None:
        try:
            while True:
                self._dirty = False
                await self._refresh_now()
                if not self._dirty:
                    break
        finally:
            self._refreshing = False

    async def _refresh_now(self) -> None:
        loop = asyncio.get_running_loop()
        generation, table, players = self._generation, self.table, self._players
        try:
            snap = await loop.run_in_executor(self._executor, self._snapshot, table, players, generation)
        except RuntimeError:  # executor shut down: stopping
            return
        if generation != self._generation:
            return  # read from the last game's table while the next one took over: dropped
        # Public: a seat has a phone once the tablet confirmed it (a phone still awaiting does not count).
        seats = {
            pid: {"joined": state["joined"], "connected": state["joined"] and state["connected"]}
            for pid, state in self.seats_status().items()
        }
        for pid in self._players:
            view = phone_view(self.board, snap, pid)
            old = self._views.get(pid)
            if old is not None and old.model_copy(update={"seq": 0}) == view:
                continue
            view = view.model_copy(update={"seq": old.seq + 1 if old else self._view_floor.get(pid, 0) + 1})
            self._views[pid] = view
            for client in self._phones[pid]:
                self._send_view(client, view)  # an unconfirmed phone sees nothing private
        status = status_view(snap, seats)
        old = self._status
        if old is None or old.model_copy(update={"seq": 0}) != status:
            self._status = status.model_copy(update={"seq": old.seq + 1 if old else 1})
            text = self._status.model_dump_json()
            for client in self._spectators:
                client.push(text)
            if old is not None:
                self._emit("status")

    def _snapshot(self, table: Table, players: tuple[str, ...], generation: int) -> Snapshot:
        """One coherent read of the table (under its lock). Runs on the executor."""
        with getattr(table, "_lock", None) or contextlib.nullcontext():
            ask = table.asked()
            qid = self._question_id(table, ask)
            game = table.public().game
            private = {pid: table.private(pid) for pid in players}
            revealed = self._last_reveal(table) if ask.kind not in DISC_KINDS else {}
            names = dict(table.names)
            edition = self._read_2023(table, ask, players, private, generation, game) if _is_2023(table) else {}
            again = [p for p in players if table.chooses_again(p)]
            answered = {p: self._order.last(table, p) for p in players}
        purpose = ask.options.get("purpose") if ask.kind in DISC_KINDS else None
        chosen = list(ask.options.get("chosen", [])) if ask.kind in DISC_KINDS else []
        waiting = list(ask.players) if ask.kind == "secret_disc" else []
        needed = [p for p in players if p in chosen or p in waiting]
        allowed = {p: self._allowed(generation, qid, ask, p, purpose) for p in needed}
        rounds = game.get("rounds") or [game.get("round", 0)]
        return Snapshot(
            mode=table.mode,
            players=list(players),
            qid=qid,
            kind=ask.kind,
            purpose=purpose,
            needed=needed,
            chosen=[p for p in players if p in chosen],
            allowed=allowed,
            round=int(game.get("round", 0)),
            rounds=int(rounds[-1]) if rounds else 0,
            king=game.get("king"),
            names=names,
            scores={p["id"]: int(p.get("score", 0)) for p in game.get("players", [])},
            private=private,
            revealed=revealed,
            over=ask.kind == "game_over",
            winners=list(ask.options.get("winners", [])) if ask.kind == "game_over" else [],
            again=again,
            answered=answered,
            **edition,
        )

    # ---- the 2023 edition: private choices besides the discs, in phone terms ----------------------

    def _question_id(self, table: Table, ask) -> str:
        """The table's question id; for a 2023 Veto, one that another holder's "let it pass" does
        not change: every holder is asked at once, and one answer must not make another's stale."""
        qid = table.question_id()
        if ask.kind != "veto" or not _is_2023(table):
            return qid
        answers = SIMULTANEOUS + ("veto_waived",)
        events = sum(1 for r in table.effective if r["t"] == "event" and r["e"]["type"] not in answers)
        return f"veto-{ask.round}-{ask.options.get('against')}-{ask.card}-{events}"

    def _faces_of(self, table: Table, generation: int) -> Faces | None:
        """This game's Modifier cards by face (Power Shift), or None."""
        cached_generation, faces = self._faces
        if cached_generation != generation:
            modifiers = table.state.modifiers if table.state is not None else {}
            faces = modifier_faces(modifiers) if modifiers else None
            self._faces = (generation, faces)
        return faces

    def _read_2023(
        self, table: Table, ask, players: tuple[str, ...], private: dict[str, dict], generation: int, game: dict
    ) -> dict:
        """Each seat's private question, the words of its disc and its Modifier cards (under the
        table's lock). Every seat's part holds that seat's own secrets only."""
        faces = self._faces_of(table, generation)
        out: dict[str, Any] = {"asks": {}, "disc_words": {}, "hands": {}}
        if faces is not None:
            out["hands"] = {pid: faces.hand(private[pid].get("modifiers_in_hand") or ()) for pid in players}
        if ask.kind in PHONE_PRIVATE_KINDS:
            needed = (
                list(players)
                if ask.kind == "deal_modifiers"
                else [p for p in players if p in ask.players or p in ask.options.get("chosen", ())]
            )
            out.update(
                private_kind=ask.kind, private_needed=needed, private_chosen=[p for p in needed if p not in ask.players]
            )
            for pid in needed:
                pick = table.private_question(pid)
                if pick is not None:
                    out["asks"][pid] = _cards_ask(pick, faces, private[pid])
        elif ask.kind == "veto":
            holders = [p for p in ask.players if p in players]
            out.update(private_kind="veto", private_needed=holders)
            for pid in holders:
                out["asks"][pid] = self._veto_ask(table, ask)
        elif ask.options.get("castillo_stays"):
            out["notice"] = (
                "The King stands by the Castillo",
                "Nobody sets a disc at this general scoring: the Castillo is scored, and every "
                "Caballero in it is thrown back in.",
            )
        elif ask.kind in DISC_KINDS:
            builder = table.prompt_builder()
            seats = set(ask.options.get("regions") or {}) | set(ask.options.get("chosen", ()))
            in_castillo = {p["id"] for p in game.get("players", []) if p.get("grande") == CASTILLO}
            for pid in players:
                if pid in seats:
                    out["disc_words"][pid] = self._disc_words(table, builder, ask, pid, pid in in_castillo)
        return out

    def _veto_ask(self, table: Table, ask) -> PrivateAsk:
        against = table.names.get(ask.options.get("against"), ask.options.get("against"))
        card = table.board.cards.get(ask.card)
        what = card.name if card is not None else str(ask.card)
        return PrivateAsk(
            "veto",
            f"Veto: stop {against}'s {what}?",
            f"{against} announces the special action of {what}. Decide now, all or nothing: "
            "your Veto prevents the whole special action; once it has begun nobody can stop it.",
            [OptionOut(id=k, label=v) for k, v in VETO_ANSWERS.items()],
        )

    @staticmethod
    def _disc_words(table: Table, builder, ask, pid: str, grande_in_castillo: bool) -> tuple[str, str]:
        """What a 2023 disc is for, in plain words (title, hint), when it is not a classic purpose."""
        purpose = ask.options.get("purpose")
        words = builder.secret_purpose(ask, pid)
        if purpose == "civil_war":
            return (
                "Civil War: choose a region where you have at least one Caballero",
                f"Set your disc to {words}. All discs are turned up together; the King's region cannot be chosen.",
            )
        if purpose == "eviction_destination":
            card = table.board.cards.get(ask.card) if ask.card else None
            name = card.name if card is not None else "Eviction"
            source = _evicted_region(table)
            left = f"All your Caballeros in {builder.area(source)}" if source else "Your evicted Caballeros"
            return (
                f"{name}: where do your Caballeros go?",
                f"{left} move to the region you pick (the King's region or the same region: back to your "
                "court). All discs are turned up together.",
            )
        if purpose == "castillo_destination" and grande_in_castillo:
            return (
                "General scoring: where do your Castillo Caballeros and your Grande go?",
                "Set your secret disc. After the Castillo is scored, your Caballeros in it and your Grande "
                "(thrown in with Competition) move to this region; the King's region is not offered, "
                "since no Grande may go there.",
            )
        if purpose in PURPOSE_TEXT:
            return PURPOSE_TEXT[purpose]
        return ("Secret disc: " + (purpose or "a region").replace("_", " "), f"Set your disc to {words}.")

    def _allowed(self, generation: int, qid: str, ask, pid: str, purpose: str | None) -> list[str]:
        """The regions this seat may pick for this question. The engine lists them while the
        seat (or anyone) is still to choose; remembered for a change of pick afterwards (per
        table: two games may ask questions with the same id)."""
        with self._cache_lock:
            cached_key, cache = self._allowed_cache
            if cached_key != (generation, qid):
                cache = {}
                self._allowed_cache = ((generation, qid), cache)
            listed = (ask.options.get("regions") or {}).get(pid) if ask.kind == "secret_disc" else None
            if listed is not None:
                cache[pid] = list(listed)
            if pid in cache:
                return cache[pid]
        if purpose in ("send_back", "civil_war"):
            return []  # depends on the board: not known without the engine's list
        return list(self.board.region_ids)

    @staticmethod
    def _last_reveal(table: Table) -> dict[str, str]:
        """The picks of the last secret-disc reveal, from the table's records (undo-aware)."""
        records = getattr(table, "effective", None) or []
        i = len(records) - 1
        while i >= 0 and not (
            records[i].get("t") == "event" and records[i]["e"].get("type") == "secret_discs_revealed"
        ):
            i -= 1
        picks: dict[str, str] = {}
        for record in reversed(records[: max(i, 0)]):
            if record.get("t") != "event":
                continue
            e = record["e"]
            if e.get("type") == "secret_disc_set":
                picks.setdefault(e["player"], e["region"])
            elif e.get("type") != "castillo_counted":
                break
        return picks if i >= 0 else {}

    # ---- picks ----------------------------------------------------------------------------------

    def _confirmed_seat(self, credential: str) -> str:
        """The seat of a phone the tablet confirmed, or the refusal to send back."""
        pid, phone = self.seats.locate(credential)
        if phone is not None and pid is None:
            raise Refused(409, "This phone has no seat in this game yet: pick your seat first.")
        if pid is None:
            raise Refused(401, NOT_JOINED)
        if not self.seats.confirmed(pid):
            raise NotConfirmed(self._name(pid))
        return pid

    async def _on_executor(self, fn: Callable, *args) -> None:
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, fn, self.table, self._generation, *args)
        except RuntimeError:
            raise Refused(409, "the companion is stopping") from None

    async def _pick(self, pick: PickIn) -> None:
        await self._on_executor(self._pick_sync, self._confirmed_seat(pick.credential), pick)

    async def _choose(self, req: ChooseIn) -> None:
        await self._on_executor(self._choose_sync, self._confirmed_seat(req.credential), req)

    def _choose_sync(self, table: Table, generation: int, pid: str, req: ChooseIn) -> None:
        """A 2023 private answer, checked against the question this seat is asked now."""
        with getattr(table, "_lock", None) or contextlib.nullcontext():
            if generation != self._generation:
                raise Refused(
                    409, "That choice is no longer open: a new game has started. Your screen now shows the new game."
                )
            ask = table.asked()
            qid = self._question_id(table, ask)
            if req.question != qid:
                raise Refused(
                    409,
                    "That choice is no longer open: the game has moved on. Your screen now shows the current question.",
                )
            self._check_order(table, pid, req.seq)
            if _is_2023(table) and ask.kind == "veto":
                event = self._veto_answer(ask, pid, req.values)
            else:
                pick = table.private_question(pid) if _is_2023(table) and ask.kind in PHONE_PRIVATE_KINDS else None
                if pick is None:
                    raise Refused(409, "No private choice is asked of you right now.")
                values = self._card_values(table, ask, pick, pid, req.values, (generation, qid, pid))
                try:
                    event = pick.event(values)
                except ValueError as exc:
                    raise Refused(422, str(exc)) from None
            self._answer(table, pid, event, req.seq)

    def _check_order(self, table: Table, pid: str, seq: int | None) -> None:
        """Refuses an answer older than the seat's last accepted one, before the table or its log is touched."""
        try:
            self._order.check(table, pid, seq)
        except Stale as stale:
            raise StaleAnswer(stale) from None

    def _answer(self, table: Table, pid: str, event, seq: int | None) -> None:
        """A checked answer put in force with its number (under the table's lock). The same answer
        as the one in force writes nothing: a page resending it must not grow the log."""
        if answer_in_force(table, event):
            self._order.accept(table, pid, seq)
            self._table_changed("order")  # the seat's view shows its new last_seq
            return
        try:
            table.submit(event, player=pid, phone_seq=seq)
        except InputError as exc:
            raise Refused(409, str(exc)) from None
        self._order.accept(table, pid, seq)

    @staticmethod
    def _veto_answer(ask, pid: str, values: list[str]):
        if pid not in ask.players:
            raise Refused(409, "No Veto decision is asked of you right now.")
        if values not in (["use"], ["pass"]):
            raise Refused(
                422,
                "Answer with one of the two buttons: use your Veto (it prevents the whole special "
                "action) or let it pass.",
            )
        return VetoUsed(player=pid) if values == ["use"] else VetoWaived(player=pid)

    def _card_values(self, table: Table, ask, pick, pid: str, values: list[str], key: tuple) -> list[str]:
        """The phone's answer (faces of Modifier cards, "power:N") as the values of the table's
        private pick (card ids). Refused with a message when it is not one of the options."""
        faces = self._faces_of(table, key[0])
        if len(values) != pick.count:
            raise Refused(422, f"Pick {pick.count} card{'s' * (pick.count != 1)}, not {len(values)}.")
        offered = {v for v, _ in pick.options}
        if pick.kind == "deal_modifiers":
            return self._dealt_ids(ask, faces, values, key)
        out = []
        for value in values:
            if value.startswith("power:") and value[len("power:") :] in offered:
                out.append(value[len("power:") :])
                continue
            prefix = MODIFIER_PREFIX if pick.kind == "take_back_power_card" else ""
            ids = faces.ids.get(value, []) if faces is not None else []
            match = [prefix + m for m in ids if prefix + m in offered]
            if not match:
                raise Refused(422, "That card is not one of your choices; pick one from the list.")
            out.append(match[0])
        return out

    def _dealt_ids(self, ask, faces: Faces | None, values: list[str], key: tuple) -> list[str]:
        """The copies of the faces a player entered that no other player entered: twins are one
        card at the table. More copies of a face than are left is a mistake at the table."""
        if faces is None or any(v not in faces.ids for v in values):
            raise Refused(422, "That card is not one of the Modifier cards of this game; pick from the list.")
        refused = self._deal_refused.get(key, 0)
        if refused >= DEAL_REFUSALS:
            raise Refused(
                409,
                f"Your Modifier cards were refused {DEAL_REFUSALS} times: enter them on the "
                "tablet's private screen, with the table checking the cards.",
            )
        free = set(ask.options.get("free", ()))
        ids: list[str] = []
        for face in dict.fromkeys(values):
            wanted = values.count(face)
            label = faces.options[face].label
            if wanted > len(faces.ids[face]):
                raise Refused(422, f"The set has only {len(faces.ids[face])} {label}: check your three cards.")
            left = [m for m in faces.ids[face] if m in free]
            if wanted > len(left):
                self._deal_refused[key] = refused + 1
                raise Refused(
                    409,
                    f"{label}: more of these cards would be entered than the set has. Check your "
                    "three cards; if they are right, another player entered a wrong card and the "
                    "tablet can undo theirs.",
                )
            ids += left[:wanted]
        return ids

    def _pick_sync(self, table: Table, generation: int, pid: str, pick: PickIn) -> None:
        with getattr(table, "_lock", None) or contextlib.nullcontext():  # the question checked is the one answered
            if generation != self._generation:
                raise Refused(
                    409, "That choice is no longer open: a new game has started. Your screen now shows the new game."
                )
            qid = table.question_id()
            if pick.question != qid:
                raise Refused(
                    409,
                    "That choice is no longer open: the game has moved on. Your screen now shows the current question.",
                )
            self._check_order(table, pid, pick.seq)
            ask = table.asked()
            purpose = ask.options.get("purpose") if ask.kind in DISC_KINDS else None
            waiting = ask.players if ask.kind == "secret_disc" else ()
            chosen = ask.options.get("chosen", []) if ask.kind in DISC_KINDS else []
            if pid not in waiting and pid not in chosen:
                raise Refused(409, "No secret choice is asked of you right now.")
            if table.mode == "scoring" and ask.kind == "reveal_secret_discs":
                raise Refused(409, "The discs are locked: the Castillo has been counted.")
            allowed = self._allowed(generation, qid, ask, pid, purpose)
            if pick.region not in allowed:
                raise Refused(422, "That region is not one of your choices; pick one from the list.")
            self._answer(table, pid, SecretDiscSet(player=pid, region=pick.region), pick.seq)

    # ---- HTTP -----------------------------------------------------------------------------------

    def _special_answer(self, request: web.Request, exc: Exception) -> web.Response | None:
        """A refusal the server raised itself (its own message), or a body over the limit."""
        if isinstance(exc, Refused):
            response = self._refusal(request, exc.status, exc.message)
            if exc.status == 408:
                response.force_close()
            return response
        if isinstance(exc, web.HTTPRequestEntityTooLarge):
            return self._refusal(request, 413, f"request too large (at most {MAX_BODY} bytes)")
        return None

    def _refusal(self, request: web.Request, status: int, message: str) -> web.Response:
        """A 4xx answer, and one log line for a bad request (not for a pick the game has moved past,
        nor for a spent or expired join code: those happen in normal play)."""
        if status not in (409, 410):
            self._log(
                "bad requests",
                logging.WARNING,
                f"phones: bad request from {one_line(request.remote, 60)}: {request.method} "
                f"{one_line(request.path, 80)}: {status} {one_line(message, 120)}",
            )
        return json_error(status, message)

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        if response.content_type == "text/html":
            response.headers["Content-Security-Policy"] = content_security_policy(request.host)

    async def _body(self, request: web.Request) -> bytes:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise Refused(413, f"request too large (at most {MAX_BODY} bytes)")
        try:
            return await asyncio.wait_for(request.read(), self.limits.body_timeout)
        except TimeoutError:
            raise Refused(408, f"the request body did not arrive within {self.limits.body_timeout:g} s") from None

    async def _page_handler(self, request: web.Request) -> web.Response:
        return web.Response(body=self._page, content_type="text/html", charset="utf-8")

    async def _join_page(self, request: web.Request) -> web.Response:
        # Showing the page does not spend the code (a link preview must not): the page does.
        refusal = self.seats.refusal(request.match_info["code"])
        if refusal is None:
            return await self._page_handler(request)
        title, text = REFUSALS[refusal]
        page = self._gone_page.replace("{title}", html.escape(title)).replace("{text}", html.escape(text))
        return web.Response(status=410, text=page, content_type="text/html", charset="utf-8")

    async def _api_join(self, request: web.Request) -> web.Response:
        req = _parse(JoinIn, await self._body(request))
        joined = self.seats.join(req.code, describe_device(request.headers.get("User-Agent", "")), held=req.credential)
        if not isinstance(joined, Joined):
            raise Refused(410, REFUSALS[joined][1])
        self._seats_changed()
        return web.json_response({"seat": joined.seat, "credential": joined.credential})

    def _seat_from_header(self, request: web.Request) -> str:
        auth = request.headers.get("Authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise Refused(401, "missing credential (Authorization: Bearer <credential>)")
        pid = self.seats.seat_for(token.strip())
        if pid is None:
            raise Refused(401, NOT_JOINED)
        return pid

    def _pending(self, pid: str) -> str | None:
        """The "waiting for the tablet" frame while this seat's phone is unconfirmed, else None."""
        phone = self.seats.phone(pid)
        if phone is None or phone.confirmed:
            return None
        return pending_view(pid, self._name(pid), phone.number).model_dump_json()

    async def _api_me(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization", "")
        scheme, _, token = auth.partition(" ")
        pid, phone = self.seats.locate(token.strip()) if scheme.lower() == "bearer" else (None, None)
        if phone is not None and pid is None:  # a phone of an earlier game: which seat is yours?
            return web.Response(text=self._choice(phone), content_type="application/json")
        pid = self._seat_from_header(request)
        pending = self._pending(pid)
        if pending is not None:
            return web.Response(text=pending, content_type="application/json")
        view = self._views.get(pid)
        if view is None:
            raise Refused(409, "the companion is starting: try again")
        return web.Response(text=view.model_dump_json(), content_type="application/json")

    async def _api_pick(self, request: web.Request) -> web.Response:
        await self._pick(_parse(PickIn, await self._body(request)))
        return web.json_response({"ok": True})

    async def _api_choose(self, request: web.Request) -> web.Response:
        await self._choose(_parse(ChooseIn, await self._body(request)))
        return web.json_response({"ok": True})

    async def _api_seat(self, request: web.Request) -> web.Response:
        req = _parse(SeatIn, await self._body(request))
        return web.json_response({"ok": True, "seat": self._take_seat(req.credential, req.seat)})

    async def _api_leave(self, request: web.Request) -> web.Response:
        req = _parse(LeaveIn, await self._body(request))
        self._leave_seat(req.credential)
        return web.json_response({"ok": True})

    def _take_seat(self, credential: str, pid: str) -> str:
        """A phone without a seat takes a free one (loop thread); its sockets follow it there."""
        taken = self.seats.take_seat(credential, pid)
        if isinstance(taken, str):
            if taken == "unknown" and self.seats.seat_for(credential) is None:
                raise Refused(401, NOT_JOINED)
            raise Refused(409, SEAT_REFUSALS[taken])
        for client in list(self._waiting.pop(taken.serial, {})):
            self._place_socket(client)
        self._schedule_expiry()
        self._seats_changed()
        return pid

    def _leave_seat(self, credential: str) -> None:
        """A seated phone goes back to choosing (its player plays another colour): the seat gets a new code."""
        pid, phone = self.seats.locate(credential)
        if phone is None:
            raise Refused(401, NOT_JOINED)
        if pid is None or self.seats.leave_seat(credential) != pid:
            raise Refused(409, "This phone has no seat to leave.")
        self._moved_to_lobby(pid, phone.serial)

    async def _api_status(self, request: web.Request) -> web.Response:
        if self._status is None:
            raise Refused(409, "the companion is starting: try again")
        return web.Response(text=self._status.model_dump_json(), content_type="application/json")

    # ---- websockets ---------------------------------------------------------------------------

    async def _phone_ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME, compress=False, timeout=2.0)
        await ws.prepare(request)
        if self.guard:
            self.guard.request_done(request.protocol)  # until its hello: idle, closed like any idle connection
        try:
            msg = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await ws.close(code=CLOSE_TIMEOUT, message=b"say hello first (with the credential)")
            return ws
        if msg.type != WSMsgType.TEXT:
            await self._close_bad(ws, msg)
            return ws
        try:
            hello = _parse(HelloIn, msg.data)
        except Refused as exc:
            await ws.close(code=CLOSE_POLICY, message=exc.message.encode()[:120])
            return ws
        pid, phone = self.seats.locate(hello.credential)
        if phone is None:
            await ws.close(code=CLOSE_UNKNOWN, message=b"unknown credential: scan your seat's QR code again")
            return ws
        if self.guard:
            self.guard.protect(request.protocol)  # a seat's phone: at most sockets_per_seat of these
        client = _Client(ws, pid, phone.serial)
        client.credential = hello.credential
        client.task = asyncio.ensure_future(client.writer())
        self._add_phone_socket(client)
        self._seats_changed()
        try:
            async for msg in ws:
                if client.dead:
                    break
                if msg.type == WSMsgType.TEXT:
                    await self._phone_frame(client, msg.data)
                else:
                    await self._close_bad(ws, msg)
                    break
        finally:
            client.kill(1000, "bye")  # no-op if already closed
            self._remove_phone_socket(client)
            self._seats_changed()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.task, 2)
        return ws

    def _add_phone_socket(self, client: _Client) -> None:
        """The newest socket wins: a reload or a second tab must not be locked out by stale ones."""
        sockets = self._phones[client.pid] if client.pid else self._waiting.setdefault(client.serial, {})
        while len(sockets) >= self.limits.sockets_per_seat:
            oldest = next(iter(sockets))
            sockets.pop(oldest)
            oldest.kill(CLOSE_REPLACED, "this seat was opened on a newer page")
        self._place_socket(client)

    def _remove_phone_socket(self, client: _Client) -> None:
        """Wherever the socket is now (its phone may have changed seat, or the game changed)."""
        if client.pid is not None:
            self._phones.get(client.pid, {}).pop(client, None)
        waiting = self._waiting.get(client.serial)
        if waiting is not None:
            waiting.pop(client, None)
            if not waiting:
                self._waiting.pop(client.serial, None)

    async def _phone_frame(self, client: _Client, data: str) -> None:
        ref = None
        try:
            frame = _parse_frame(data)
            ref = frame.ref
            seat, phone = self.seats.locate(frame.credential)
            if phone is None:
                raise Refused(401, NOT_JOINED)
            if phone.serial != client.serial or seat != client.pid:
                raise Refused(403, "this connection belongs to another seat")
            if isinstance(frame, SeatIn):
                self._take_seat(frame.credential, frame.seat)
            elif isinstance(frame, LeaveIn):
                self._leave_seat(frame.credential)
            elif isinstance(frame, ChooseIn):
                await self._choose(frame)
            else:
                await self._pick(frame)
            client.push(json.dumps({"type": "result", "ref": ref, "ok": True}))
        except Refused as exc:
            stale = {"stale": True, "last_seq": exc.last} if isinstance(exc, StaleAnswer) else {}
            client.push(
                json.dumps({"type": "error", "ref": ref, "status": exc.status, "message": exc.message, **stale})
            )
            if exc.status == 401:
                client.kill(CLOSE_UNKNOWN, "unknown credential: scan your seat's QR code again", flush=True)
            elif exc.status == 403 and not isinstance(exc, NotConfirmed):
                client.kill(CLOSE_FORBIDDEN, "this connection belongs to another seat", flush=True)

    @staticmethod
    async def _close_bad(ws: web.WebSocketResponse, msg) -> None:
        if msg.type == WSMsgType.BINARY:
            await ws.close(code=1003, message=b"text JSON frames only")
        elif msg.type == WSMsgType.ERROR:
            # aiohttp already closed it (1009 for a frame over the limit)
            if not ws.closed:
                await ws.close(code=1009, message=f"frame too large (at most {MAX_FRAME} bytes)".encode())
        elif not ws.closed:
            await ws.close(code=1000)

    async def _status_ws(self, request: web.Request) -> web.WebSocketResponse:
        address = request.remote or "?"
        refusal = self._spectator_refusal(address)
        if refusal:
            raise Refused(429, refusal)
        self._spectators_from[address] = self._spectators_from.get(address, 0) + 1  # its place, taken now
        client: _Client | None = None
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME, compress=False, timeout=2.0)
        try:
            await ws.prepare(request)
            if self.guard:
                self.guard.protect(request.protocol)  # counted against the spectator caps instead
            client = _Client(ws, None)
            client.task = asyncio.ensure_future(client.writer())
            self._spectators.add(client)
            if self._status is not None:
                client.push(self._status.model_dump_json())
            async for msg in ws:  # spectators only listen; what they send is ignored
                if client.dead:
                    break
                if msg.type not in (WSMsgType.TEXT,):
                    await self._close_bad(ws, msg)
                    break
        finally:
            left = self._spectators_from.pop(address, 1) - 1
            if left:
                self._spectators_from[address] = left
            if client is not None:
                client.kill(1000, "bye")  # no-op if already closed
                self._spectators.discard(client)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(client.task, 2)
        return ws

    def _spectator_refusal(self, address: str) -> str | None:
        limits = self.limits
        if sum(self._spectators_from.values()) >= limits.spectators:
            return f"too many status screens are open (at most {limits.spectators}): close one first"
        if self._spectators_from.get(address, 0) >= limits.spectators_per_address:
            return (
                f"this device already has {limits.spectators_per_address} status screens open "
                "(the most one address may have)"
            )
        return None


def _is_2023(table: Table) -> bool:
    """A rule set with private choices besides the discs (the 2023 edition, King and Intrigue)."""
    return getattr(table.setup.game, "rules", "classic") in ("2023", "king-intrigue")


def _evicted_region(table: Table) -> str | None:
    """The region the current special action's player chose (Coup, Eviction): public."""
    for record in reversed(table.effective):
        if record["t"] != "event":
            continue
        kind = record["e"].get("type")
        if kind == "region_chosen":
            return record["e"].get("region")
        if kind == "special_action_started":
            return None
    return None


def _cards_ask(pick, faces: Faces | None, mine: dict) -> PrivateAsk:
    """A table's private pick of cards (companion.prompts.builder.PrivatePick) as the phone asks it:
    Modifier cards by face, Power cards by value; the seat's own current answer."""
    if pick.kind == "deal_modifiers" and faces is not None:
        options = [faces.option(face, min(pick.count, len(ids))) for face, ids in faces.ids.items()]
        return PrivateAsk(
            "cards",
            "Your Modifier cards",
            f"Tap the {pick.count} Modifier cards you were dealt (a card you hold twice: tap it "
            "twice), then Confirm. Nobody else sees them.",
            options,
            count=pick.count,
        )
    cards: list[OptionOut] = []
    held: set[str] = set()
    for value, label in pick.options:
        mid = value[len(MODIFIER_PREFIX) :] if value.startswith(MODIFIER_PREFIX) else value
        if faces is not None and mid in faces.face_of:
            held.add(faces.face_of[mid])  # twins once: they are one card at the table
        else:
            cards.append(OptionOut(id=f"power:{value}", label=label))
    options = cards + [faces.options[face] for face in faces.ids if face in held] if faces else cards
    chosen = []
    passing = mine.get("modifier_passing")
    if pick.kind == "pass_modifier" and faces is not None and passing in faces.face_of:
        chosen = [faces.options[faces.face_of[passing]]]
    return PrivateAsk("cards", pick.title, pick.hint, options, count=pick.count, chosen=chosen)
