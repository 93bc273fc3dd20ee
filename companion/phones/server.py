"""The phone server: the players' secret discs on their own phones, and in a 2023 game every
other private choice (Power Shift's Modifier cards dealt and passed, a card taken back) and the
2023 Veto, asked of each holder at once when a special action is announced.

The companion serves a small page on the local network (plain HTTP, no internet). Each seat has a
one-time join code that works for a few minutes (the tablet shows it as a QR code and can make a new
one); joining gives the phone a 256-bit credential kept in the browser, so a reload or a dropped
Wi-Fi rejoins the same seat. A phone that joins sees nothing private until the tablet confirms it
with one tap ("Is this Ana's phone?"); No forgets it. The tablet can revoke a seat at any time.

One server serves a whole game night: `switch_table` points it at the next game's table. Phones
keep their credentials and follow their players to the new seats (seats.py says how); a phone whose
player has no seat picks a free one on its screen. Nothing of the old game survives the switch: the
old table's observer is removed, every view is rebuilt from the new table, and a pick or a view
read still under way for the old table is refused or dropped.

Each phone reads its own page's language (its hello's `lang`, then its switch): its views and
refusals are made in that language (companion.words.catalogue.speaking), whatever the tablet's.

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
                        {"type": "seat", "credential", "seat", "ref"?}, {"type": "leave", "credential", "ref"?}
                        or {"type": "lang", "credential", "lang"} (the page's language switch);
                        receives "pending", "view" (PhoneView), "choose_seat" (SeatChoice), "result"
                        and "error" frames
  GET  /ws/status       spectator socket: "status" frames (StatusView); at most `Limits.spectators`

Every view and status message carries `seq`, +1 per change of that feed (feed.py), so a client
can tell that it missed nothing. A pick's or a choice's own `seq` is the page's number for that
answer (ordering.py): an older or repeated one is refused without touching the table ("already
have a newer choice", with `stale` and the seat's `last_seq` in the error frame). Views are read
from the table on the server's own executor, which also takes the answers (answers.py), so a slow
disk never stalls the sockets; they are sent only when they changed. This module holds the routes
and the sockets; what a question means is in questions/, the seats in words in lobby.py, where
each socket is in sockets.py, the connection limits in companion/web/guard.py.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
from collections.abc import Callable
from functools import partial

from aiohttp import WSMsgType, web

from companion.phones.answers import Answers, ServedGame
from companion.phones.clients import (
    CLOSE_FORBIDDEN,
    CLOSE_POLICY,
    CLOSE_TIMEOUT,
    CLOSE_UNKNOWN,
    Client,
    close_bad,
    open_socket,
)
from companion.phones.feed import Refresher, ViewFeed
from companion.phones.inputs import ChooseIn, HelloIn, JoinIn, LangIn, LeaveIn, PickIn, SeatIn, parse, parse_frame
from companion.phones.lobby import CodeTimer, SeatDesk
from companion.phones.network import describe_device, lan_address, security_headers
from companion.phones.pages import PhonePages, spoken
from companion.phones.questions.snapshot import read_tables
from companion.phones.refusals import NOT_JOINED, NotConfirmed, Refused, StaleAnswer
from companion.phones.seats import CODE_LIFETIME, REFUSALS, Joined, Seats
from companion.phones.sockets import PhoneSockets
from companion.table.authority import Table
from companion.web.guard import ConnectionGuard, Limits, RateLimitedLog
from companion.web.server import ThreadedServer, logged_refusal
from companion.web.spectators import SpectatorPlaces
from companion.web.words import request_language
from companion.words import _, language
from companion.words.catalogue import normalise, speaking

log = logging.getLogger("companion.phones")

MAX_BODY = 4096  # bytes in a request body
HELLO_TIMEOUT = 10.0  # seconds a phone socket has to say who it is
DEFAULT_LIMITS = Limits()


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
        limits: Limits = DEFAULT_LIMITS,
    ):
        self.table = table
        self.host = host
        self._public_host = public_host
        self.limits = limits
        self.board = table.board
        self.seats = Seats(table.players, code_lifetime, names=dict(table.names))
        self.desk = SeatDesk(self.seats, table)
        self._game = ServedGame(table, 0)
        self._pages = PhonePages()
        self._observers: list[Callable[[str], None]] = []
        self._unsubscribe: Callable[[], None] | None = None
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._log = RateLimitedLog(log, limits.log_burst, limits.log_window)
        # Not logged: a pick the game has moved past, a spent or expired join code (normal play).
        self._refusal = logged_refusal(self._log, "phones", quiet=(409, 410))
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
        self._answers = Answers(lambda: self._game, self._table_changed)
        # Loop-thread state.
        self._feed = ViewFeed()
        self._views = self._feed.views  # the same dict, kept in place (bench/bench_phones.py reads it)
        self._sockets = PhoneSockets(self.desk, self._feed.spoken, self._seats_moved)
        self._http_languages: set[str] = set()  # languages pages asked for over HTTP (their views are made too)
        self._spectators: set[Client] = set()
        self._spectator_places = SpectatorPlaces(
            limits.spectators, limits.spectators_per_address, "status screens are open", "status screens open"
        )
        self._refresher = Refresher(self._refresh_now)
        self._codes = CodeTimer(self.seats, self._seats_changed)

    # ---- lifecycle --------------------------------------------------------------------------

    def start(self) -> PhoneServer:
        """Start serving on its own thread; returns once listening (raises if it cannot)."""
        if self._web.thread:
            raise RuntimeError("the phone server is already running")
        self._refresher.reset()
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
        app.on_response_prepare.append(security_headers)

    async def _listening(self) -> None:
        self._unsubscribe = self.table.subscribe(self._table_changed)
        await self._refresh_now()
        self._codes.schedule(self._loop)

    async def _stopping(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        self._codes.cancel()
        for client in self._sockets.all() + list(self._spectators):
            client.kill(1001, "the companion is stopping")
        await self._refresher.cancel()

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
        self._game = ServedGame(table, self._game.generation + 1)  # nothing of the old game's questions
        self.table = table
        self.board = table.board
        self.desk.serve(table)
        self.seats.reseat(self.desk.players, dict(table.names))
        self._sockets.reset()  # the sockets are placed again by _switch (none while stopped)
        self._feed.next_game()

    async def _switch(self, table: Table) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        clients = self._sockets.all()
        with self.table.lock:  # a pick being applied to the old table ends first; none starts after
            self._take_table(table)
        for client in clients:  # each socket follows its phone: a seat, the lobby, or gone
            self._sockets.place(client)
        self._unsubscribe = table.subscribe(self._table_changed)
        await self._refresh_now()
        self._seats_moved()

    # ---- what the tablet uses --------------------------------------------------------------

    def base_url(self) -> str:
        host = self._public_host or (lan_address() if self.host in ("0.0.0.0", "", "::") else self.host)
        return f"http://{host}:{self.port}"

    def seat_url(self, pid: str) -> str | None:
        """The URL to show as this seat's QR code, or None when there is none to show: a phone
        holds the seat, or the code expired (revoke makes a new one)."""
        self.desk.known(pid)
        code = self.seats.pending_code(pid)
        return f"{self.base_url()}/join/{code}" if code else None

    def revoke(self, pid: str, reason: str = "this phone was removed from the seat by the tablet") -> str:
        """The seat's phone credential stops working now, its sockets are closed, and a new
        join code is made (also what "New code" does for an expired one). Returns the seat's new URL."""
        self.desk.known(pid)
        self.seats.revoke(pid)
        loop = self._loop
        if loop and loop.is_running():

            async def drop() -> None:
                self._sockets.drop_seat(pid, reason)

            fut = asyncio.run_coroutine_threadsafe(drop(), loop)
            if not self._web.on_its_thread():
                with contextlib.suppress(Exception):
                    fut.result(5)
        return self.seat_url(pid)

    def confirm(self, pid: str, phone: int) -> bool:
        """The tablet's Yes: the phone of join `phone` is this seat's. From now on it sees its
        private view. False (nothing changes) if the seat holds another phone by now."""
        self.desk.known(pid)
        if not self.seats.confirm(pid, phone):
            return False
        self._web.call_soon(self._sockets.confirmed, pid)
        return True

    def reject(self, pid: str, phone: int) -> str | None:
        """The tablet's No: forget that phone and make a new code (its new URL). None if the seat
        holds another phone by now (nothing changes)."""
        self.desk.known(pid)
        current = self.seats.phone(pid)
        if current is None or current.serial != phone or current.confirmed:
            return None
        if current.vouched and self.seats.unseat(pid, phone):
            # The tablet knows this phone as another player's: it goes back to choosing, not away.
            self._web.run_waited(self._sockets.to_lobby, pid, phone)
            return self.seat_url(pid)
        return self.revoke(pid, f"the tablet said this is not {self.desk.name(pid)}'s phone")

    def confirmations(self) -> list[dict]:
        """Phones waiting for the tablet's Yes, in seat order: {"seat", "phone", "question", "detail"}."""
        return self.desk.confirmations()

    def seats_status(self) -> dict[str, dict]:
        """{pid: {"joined", "connected", "awaiting", "code", "expires_in"}}: joined is a confirmed
        phone; connected, that a phone holding the seat (confirmed or not) has a socket open now;
        awaiting, the phone's join number while the tablet has not confirmed it (else None); code is
        "open" (a QR code to show), "expired" (offer a new one) or None (a phone holds the seat)."""
        return self.desk.status(self._sockets.connected)

    def lobby(self) -> list[dict]:
        """Phones of earlier games waiting for a seat (they pick one on their screen):
        {"phone", "was", "device", "connected"}, oldest first."""
        return self.desk.lobby(self._sockets.in_lobby)

    def forget(self, phone: int) -> bool:
        """Forget a phone waiting in the lobby: its credential stops working, its page says so."""
        if not self.seats.forget(phone):
            return False
        self._web.call_soon(self._seats_changed)
        return True

    def status(self) -> dict:
        """The public status feed (who has chosen, never what), as a plain dict."""
        status = self._feed.status
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

    def _seats_moved(self) -> None:
        self._codes.schedule(self._loop)
        self._seats_changed()

    def _seats_changed(self) -> None:
        self._sockets.lobby_changed()
        self._emit("seats")
        self._refresher.request()

    # ---- reading the table --------------------------------------------------------------------

    def _table_changed(self, what: str) -> None:  # any thread
        self._web.call_soon(self._refresher.request)

    async def _refresh_now(self) -> None:
        loop = asyncio.get_running_loop()
        game, players = self._game, self.desk.players
        default = language()  # the tablet's; and each language a phone's page reads
        read = {c.lang for c in [*self._sockets.all(), *self._spectators]} | self._http_languages
        languages = [default] + sorted(read - {default})
        try:
            snaps = await loop.run_in_executor(
                self._executor, read_tables, game.table, players, game.memory, self._answers.order, languages
            )
        except RuntimeError:  # executor shut down: stopping
            return
        if game is not self._game:
            return  # read from the last game's table while the next one took over: dropped
        seats = self.seats_status()
        if self._feed.publish(self.board, snaps, default, players, seats, self._sockets, self._spectators):
            self._emit("status")

    # ---- answers --------------------------------------------------------------------------------

    async def _answer(self, req: PickIn | ChooseIn) -> None:
        """A disc picked or a private choice, taken on the executor (where the views are read); its
        refusal in the words of the page that sent it (the language spoken now, in this task)."""
        pid = self.desk.confirmed_seat(req.credential)
        take = partial(spoken, language(), self._answers.take, self._game, pid, req)
        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, take)
        except RuntimeError:
            raise Refused(409, _("the companion is stopping")) from None

    # ---- HTTP -----------------------------------------------------------------------------------

    def _special_answer(self, request: web.Request, exc: Exception) -> web.Response | None:
        """A refusal the server raised itself (its own message), or a body over the limit."""
        if isinstance(exc, Refused):
            response = self._refusal(request, exc.status, exc.message)
            if exc.status == 408:
                response.force_close()
            return response
        if isinstance(exc, web.HTTPRequestEntityTooLarge):
            return self._refusal(request, 413, _("request too large (at most {n} bytes)").format(n=MAX_BODY))
        return None

    async def _body(self, request: web.Request) -> bytes:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise Refused(413, _("request too large (at most {n} bytes)").format(n=MAX_BODY))
        try:
            return await asyncio.wait_for(request.read(), self.limits.body_timeout)
        except TimeoutError:
            words = _("the request body did not arrive within {seconds} s")
            raise Refused(408, words.format(seconds=f"{self.limits.body_timeout:g}")) from None

    async def _page_handler(self, request: web.Request) -> web.Response:
        return self._pages.phone(request)

    async def _join_page(self, request: web.Request) -> web.Response:
        # Showing the page does not spend the code (a link preview must not): the page does.
        refusal = self.seats.refusal(request.match_info["code"])
        if refusal is None:
            return await self._page_handler(request)
        return self._pages.gone(refusal)

    async def _api_join(self, request: web.Request) -> web.Response:
        req = parse(JoinIn, await self._body(request))
        joined = self.seats.join(req.code, describe_device(request.headers.get("User-Agent", "")), held=req.credential)
        if not isinstance(joined, Joined):
            raise Refused(410, _(REFUSALS[joined][1]))
        self._seats_changed()
        return web.json_response({"seat": joined.seat, "credential": joined.credential})

    async def _api_me(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization", "")
        scheme, _sep, token = auth.partition(" ")
        pid, phone = self.seats.locate(token.strip()) if scheme.lower() == "bearer" else (None, None)
        if phone is not None and pid is None:  # a phone of an earlier game: which seat is yours?
            return web.Response(text=self.desk.choice(phone), content_type="application/json")
        pid = self.desk.bearer_seat(auth)
        pending = self.desk.pending(pid)
        if pending is not None:
            return web.Response(text=pending, content_type="application/json")
        code = language()  # the page's (?lang=), else its browser's
        if not self._feed.has(code) and self._feed.view(pid) is not None:
            self._http_languages.add(code)
            await self._refresher.now()  # this language's views made now (the page's socket may be down)
        view = self._feed.view(pid, code)
        if view is None:
            raise Refused(409, _("the companion is starting: try again"))
        return web.Response(text=view.model_dump_json(), content_type="application/json")

    async def _api_pick(self, request: web.Request) -> web.Response:
        await self._answer(parse(PickIn, await self._body(request)))
        return web.json_response({"ok": True})

    async def _api_choose(self, request: web.Request) -> web.Response:
        await self._answer(parse(ChooseIn, await self._body(request)))
        return web.json_response({"ok": True})

    async def _api_seat(self, request: web.Request) -> web.Response:
        req = parse(SeatIn, await self._body(request))
        return web.json_response({"ok": True, "seat": self._sockets.take_seat(req.credential, req.seat)})

    async def _api_leave(self, request: web.Request) -> web.Response:
        req = parse(LeaveIn, await self._body(request))
        self._sockets.leave_seat(req.credential)
        return web.json_response({"ok": True})

    async def _api_status(self, request: web.Request) -> web.Response:
        if self._feed.status is None:
            raise Refused(409, _("the companion is starting: try again"))
        return web.Response(text=self._feed.status.model_dump_json(), content_type="application/json")

    # ---- websockets ---------------------------------------------------------------------------

    async def _phone_ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = open_socket()
        await ws.prepare(request)
        if self.guard:
            self.guard.request_done(request.protocol)  # until its hello: idle, closed like any idle connection
        try:
            msg = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await ws.close(code=CLOSE_TIMEOUT, message=b"say hello first (with the credential)")
            return ws
        if msg.type != WSMsgType.TEXT:
            await close_bad(ws, msg)
            return ws
        try:
            hello = parse(HelloIn, msg.data)
        except Refused as exc:
            await ws.close(code=CLOSE_POLICY, message=exc.message.encode()[:120])
            return ws
        pid, phone = self.seats.locate(hello.credential)
        if phone is None:
            await ws.close(code=CLOSE_UNKNOWN, message=b"unknown credential: scan your seat's QR code again")
            return ws
        if self.guard:
            self.guard.protect(request.protocol)  # a seat's phone: at most sockets_per_seat of these
        client = Client(ws, pid, phone.serial)
        client.credential = hello.credential
        client.lang = normalise(hello.lang) if hello.lang else request_language(request)
        client.start()
        self._sockets.add(client, self.limits.sockets_per_seat)
        self._seats_changed()
        try:
            async for msg in ws:
                if client.dead:
                    break
                if msg.type == WSMsgType.TEXT:
                    await self._phone_frame(client, msg.data)
                else:
                    await close_bad(ws, msg)
                    break
        finally:
            client.kill(1000, "bye")  # no-op if already closed
            self._sockets.remove(client)
            self._seats_changed()
            await client.writer_done()
        return ws

    async def _phone_frame(self, client: Client, data: str) -> None:
        with speaking(client.lang):  # a refusal in the words of this phone's page
            await self._phone_frame_spoken(client, data)

    async def _phone_frame_spoken(self, client: Client, data: str) -> None:
        ref = None
        try:
            frame = parse_frame(data)
            ref = frame.ref
            seat, phone = self.seats.locate(frame.credential)
            if phone is None:
                raise Refused(401, NOT_JOINED)
            if phone.serial != client.serial or seat != client.pid:
                raise Refused(403, _("this connection belongs to another seat"))
            if isinstance(frame, LangIn):
                self._sockets.speak(client, normalise(frame.lang), self._feed.has)
                self._refresher.request()  # that language's views, if not made yet
            elif isinstance(frame, SeatIn):
                self._sockets.take_seat(frame.credential, frame.seat)
            elif isinstance(frame, LeaveIn):
                self._sockets.leave_seat(frame.credential)
            else:
                await self._answer(frame)
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

    async def _status_ws(self, request: web.Request) -> web.WebSocketResponse:
        address = request.remote or "?"
        refusal = self._spectator_places.refusal(address)
        if refusal:
            raise Refused(429, refusal)
        self._spectator_places.take(address)  # its place, taken now
        client: Client | None = None
        ws = open_socket()
        try:
            await ws.prepare(request)
            if self.guard:
                self.guard.protect(request.protocol)  # counted against the spectator caps instead
            client = Client(ws, None)
            client.start()
            self._spectators.add(client)
            if self._feed.greet(client, request_language(request)):  # its language's status: made next
                self._refresher.request()
            async for msg in ws:  # spectators only listen; what they send is ignored
                if client.dead:
                    break
                if msg.type not in (WSMsgType.TEXT,):
                    await close_bad(ws, msg)
                    break
        finally:
            self._spectator_places.leave(address)
            if client is not None:
                client.kill(1000, "bye")  # no-op if already closed
                self._spectators.discard(client)
                await client.writer_done()
        return ws
