"""`elgrande club`: the room board and the tournament desk.

A paho subscriber reads every table's retained state and online flag on the club broker
(topics.table_filter); an aiohttp server on its own thread (companion/web/server.py, as the phone
server) serves:

    GET  /                 the room board (read-only; static/board.html)
    GET  /organiser        the organiser's forms (static/organiser.html): each action sends the token
    GET  /events           server-sent events: one `table` event per changed table, `standings`
    GET  /api/tables       every table as the board shows it
    GET  /api/tournament   players, rounds, results, standings
    GET  /standings.csv    the standings as CSV
    POST /api/players      {"name": ...}                       organiser: register a player
    POST /api/rounds       {"tables": [ids], "seed": n?}      organiser: seat the next round
    POST /api/corrections  {"table", "game", "scores"|"void"} organiser: correct or void a result
                                                                (or enter a refused one's scores)
    POST /api/clear-old    {}                                  organiser: clear other events' retained tables

The board publishes the event's seating, retained (topics.seating_topic): tables bind their games
to it. States of another event (or of none) are not shown and never counted: they are listed as
`old_tables` (the organiser's "clear old tables" publishes empty retained messages over them).
A finished game of this event is counted only if it fits the seating (Tournament.take_result);
otherwise it is refused with its reason, shown to the organiser.

A large event's halls (companion/club/halls.py): the board also reads the tables their halls'
bridges carry (topics.hall_table_filter) and, given the hall plan, takes from a hall only the tables
the plan puts in it; anything else that came through a hall (the club broker's ACL should have
dropped it) is never shown nor counted: a finished game among it is listed as refused, with the
hall it came through and why.

Organiser requests carry `Authorization: Bearer <token>`, checked on every one and throttled per
address (board_access.py); the actions themselves are in board_actions.py. The connections go
through the web servers' guard (companion/web/guard.py): idle and half-sent connections closed,
per-address and total caps, heads and bodies limited, one log line per bad request; the `/events`
streams (board_watchers.py) are capped in all and per address and never swept as idle. A table's
status on the board (live, stale, offline...): board_tables.py.
A finished game's standings go to the tournament when its state says so (once per table+game).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
from functools import partial
from importlib import resources
from typing import TypeVar

from aiohttp import web
from pydantic import ValidationError

from companion.club.board_access import OrganiserGate, TokenThrottle, board_tls
from companion.club.board_actions import correct, register, seat_round, withdraw
from companion.club.board_tables import TableEntry
from companion.club.board_watchers import BoardWatchers, Events, event_text
from companion.club.board_words import SENT_WORDS, STATUS
from companion.club.errors import Reason
from companion.club.halls import HallPlan, misrouted
from companion.club.topics import (
    MAX_PAYLOAD,
    StateMessage,
    check_name,
    hall_table_filter,
    hall_topic,
    online_topic,
    seating_topic,
    split_any_topic,
    state_topic,
    table_filter,
)
from companion.club.tournament import Tournament, TournamentError
from companion.look.css import with_tokens
from companion.look.players import with_looks
from companion.web.guard import ConnectionGuard, Limits, RateLimitedLog
from companion.web.server import ThreadedServer, logged_refusal
from companion.web.words import for_reader, with_words
from companion.words import N_, _, language
from firmware_bridge.guard import LogLimiter
from firmware_bridge.transport_mqtt import (
    TlsFiles,
    client_settings,
    describe_connect_error,
    describe_refusal,
    make_client,
)

log = logging.getLogger("companion.club.board")
AnyResponse = TypeVar("AnyResponse", bound=web.StreamResponse)

MAX_TABLES = 2000
MAX_BODY = 16 * 1024
MAX_WATCHERS = 64
LABEL = "club board"
# The phone server's limits, but the capped long-lived sockets are the board pages' /events streams.
BOARD_LIMITS = Limits(spectators=MAX_WATCHERS, spectators_per_address=8)


class ClubBoard:
    def __init__(
        self,
        broker: str,
        club: str,
        tournament: Tournament,
        token: str,
        *,
        username: str | None = None,
        password: str | None = None,
        ca_file: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        tick: float = 0.5,
        limits: Limits = BOARD_LIMITS,
        throttle: TokenThrottle | None = None,
        certfile: str | None = None,
        keyfile: str | None = None,
        halls: HallPlan | None = None,
    ):
        check_name(club, "club name")
        if halls is not None and halls.club != club:
            words = _(
                "the hall plan is for club {plan}, the board for club {club}: give the "
                "plan elgrande club-setup wrote for this club"
            )
            raise ValueError(words.format(plan=halls.club, club=club))
        self.halls = halls
        self.tls = board_tls(certfile, keyfile)
        if not token or len(token) < 8:
            raise ValueError(_("the organiser's token must be at least 8 characters (--token or ELGRANDE_CLUB_TOKEN)"))
        self.club = club
        self.tournament = tournament
        self.broker, user, secret, ctx, self.security = client_settings(broker, username, password, TlsFiles(ca_file))
        self._user = user
        self.host = host
        self.tick = tick
        self.limits = limits
        self.throttle = throttle or TokenThrottle()
        self._http_log = RateLimitedLog(log, limits.log_burst, limits.log_window, label=LABEL)
        self._refusal = logged_refusal(self._http_log, LABEL, quiet=(404,))  # a favicon: not there, not news
        self._organiser = OrganiserGate(
            token.encode(), self.throttle, limits, self._http_log, MAX_BODY, self._headers, self._standings_changed
        )
        self._web = ThreadedServer(
            LABEL,
            host,
            port,
            limits=limits,
            log=self._http_log,
            max_body=MAX_BODY,
            routes=self._routes,
            refusal=self._refusal,
            listening=self._listening,
            stopping=self._stopping,
            holders="board pages",
            tls=self.tls,
        )
        self._ticker_task: asyncio.Task | None = None
        self.tables: dict[str, TableEntry] = {}
        self.old_tables: dict[str, str] = {}  # table -> the other event its retained state belongs to
        self._shown_board: dict | None = None
        self.counters = {
            "messages": 0,
            "bad": 0,
            "old": 0,
            "results": 0,
            "refused": 0,
            "other_event": 0,
            "misrouted": 0,
        }
        self.status = Reason(STATUS["connecting"], address=f"{self.broker.host}:{self.broker.port}")
        self.arrivals: list[tuple[float, float]] = []  # (state ts, board time) when `record_arrivals`
        self.record_arrivals = False
        self._lock = threading.Lock()
        self._logs = LogLimiter(log)
        self._watchers = BoardWatchers(limits, self._http_log)
        self._dirty: set[str] = set()
        self._push_pending = threading.Event()
        self._standings_dirty = False
        static = resources.files(__package__).joinpath("static")
        page = with_tokens(with_looks(static.joinpath("board.html").read_bytes()), "evening")
        self._page = with_words(page, also=SENT_WORDS)  # pages: their words
        self._organiser_page = with_words(static.joinpath("organiser.html").read_bytes(), also=SENT_WORDS)
        c = make_client(f"elgrande-club-board-{os.urandom(3).hex()}", self.broker, user, secret, ctx, (0.2, 5.0))
        c.on_connect, c.on_connect_fail, c.on_disconnect = self._on_connect, self._on_connect_fail, self._on_disconnect
        c.on_message = self._on_message
        self.client = c
        self.connected = threading.Event()

    # ---- life ------------------------------------------------------------------------

    def start(self) -> ClubBoard:
        try:
            self._web.start()
        except OSError as exc:
            raise OSError(
                f"cannot serve the board on {self.host}:{self._web.requested_port} ({exc.strerror or exc})"
            ) from None
        except RuntimeError:
            raise OSError("the board's web server did not start") from None
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self._refused = True  # a goodbye, not a lost broker: nothing to say
        self.client.disconnect()
        self.client.loop_stop()
        self._web.stop()

    @property
    def guard(self) -> ConnectionGuard | None:
        return self._web.guard

    @property
    def port(self) -> int:
        return self._web.port if self._web.port is not None else self._web.requested_port

    @property
    def url(self) -> str:
        scheme = "https" if self.tls else "http"
        return f"{scheme}://{'127.0.0.1' if self.host in ('0.0.0.0', '') else self.host}:{self.port}/"

    _refused = False

    def _routes(self, app: web.Application) -> None:
        app.router.add_get("/", self._page_handler)
        app.router.add_get("/organiser", self._organiser_handler)
        app.router.add_get("/events", self._events)
        app.router.add_get("/api/tables", self._tables_handler)
        app.router.add_get("/api/tournament", self._tournament_handler)
        app.router.add_get("/standings.csv", self._csv_handler)
        app.router.add_post("/api/players", self._organiser(partial(register, self.tournament)))
        app.router.add_post("/api/rounds", self._organiser(self._seat))
        app.router.add_post("/api/corrections", self._organiser(partial(correct, self.tournament)))
        app.router.add_post("/api/withdrawals", self._organiser(partial(withdraw, self.tournament)))
        app.router.add_post("/api/clear-old", self._organiser(self._clear_old))

    async def _listening(self) -> None:
        self._ticker_task = asyncio.ensure_future(self._ticker())

    async def _stopping(self) -> None:
        if self._ticker_task:
            self._ticker_task.cancel()
        self._watchers.close_all()

    # ---- MQTT (paho's thread; guarded) ---------------------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            self._refused = True
            why = describe_refusal(reason_code, self.broker.host, self.broker.port, self._user)
            self._say(Reason.of_link(why))
            return
        self._refused = False
        client.subscribe([(table_filter(self.club), 1), (hall_table_filter(self.club), 1)])
        self.connected.set()
        self.publish_seating()
        self._say(Reason(STATUS["subscribed"], club=self.club, address=f"{self.broker.host}:{self.broker.port}"))

    def _on_connect_fail(self, client, userdata):
        why = describe_connect_error(client.last_error, self.broker.host, self.broker.port, self.broker.tls)
        self._say(Reason.of_link(why))  # the banner says the board keeps trying

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected.clear()
        if self._refused:  # the refusal already says why
            return
        self._say(Reason(STATUS["lost"], reason=reason_code))

    def _say(self, status: Reason) -> None:
        self.status = status
        self._logs.log(logging.WARNING, status[:20], "club board: %s", status)
        self._wake()

    def publish_seating(self) -> None:
        """The event and its latest round's seating, retained, for the tables to bind their games to."""
        payload = json.dumps(self.tournament.seating(), separators=(",", ":")).encode()
        self.client.publish(seating_topic(self.club), payload, qos=1, retain=True)

    def _on_message(self, client, userdata, message):
        try:
            self._take(message.topic, message.payload, bool(message.retain))
        except Exception as exc:
            self.counters["bad"] += 1
            self._logs.log(
                logging.WARNING,
                "message",
                "club board: a message on %s failed: %s",
                message.topic[:120],
                str(exc)[:200],
            )

    def _take(self, topic: str, payload: bytes, retained: bool = False) -> None:
        now = time.monotonic()
        self.counters["messages"] += 1
        where = split_any_topic(self.club, topic)
        if where is None or len(payload) > MAX_PAYLOAD:
            self.counters["bad"] += 1
            return
        hall, table, leaf = where
        if hall is not None:
            reason = misrouted(self.halls, hall, table)
            if reason:
                self._misrouted(hall, table, leaf, payload, reason)
                return
        with self._lock:
            entry = self.tables.get(table)
            if entry is None:
                if len(self.tables) >= MAX_TABLES:
                    self.counters["bad"] += 1
                    return
                entry = self.tables[table] = TableEntry(table)
            entry.halls.add(hall)
            if leaf == "online":
                entry.online = payload.strip() == b"1" if payload else False
                self._dirty.add(table)
                self._wake()
                return
        if not payload:  # a retained state cleared (by the organiser's "clear old tables", or by hand)
            with self._lock:
                self.old_tables.pop(table, None)
            return
        try:
            state = StateMessage.model_validate_json(payload)
        except ValidationError as exc:
            self.counters["bad"] += 1
            self._logs.log(
                logging.WARNING,
                "bad-state",
                "club board: table %s sent a state it cannot read (%s)",
                table,
                str(exc.errors()[0].get("msg", exc))[:120],
            )
            return
        if state.table != table:
            self.counters["bad"] += 1
            self._logs.log(
                logging.WARNING,
                "foreign",
                "club board: a state naming table %r on the topic of %r ignored",
                state.table[:64],
                table,
            )
            return
        event = state.seated.event if state.seated else ""
        if event != self.tournament.event:
            self._other_event(table, entry, event)
            return
        with self._lock:
            self.old_tables.pop(table, None)
            old = entry.state
            if old is not None and old.game == state.game and state.version < old.version:
                self.counters["old"] += 1
                return
            # A retained state (the board just subscribed) may be old: aged by its own timestamp, so
            # a table that died without its Last Will reaching the board is not shown live meanwhile.
            entry.state = state
            entry.received = now - max(0.0, time.time() - state.ts) if retained else now
            new = old is None or old.game != state.game or old.version != state.version
            if new:
                entry.changed = now
                if self.record_arrivals:
                    self.arrivals.append((state.ts, time.time()))
            self._dirty.add(table)
        if state.over and state.standings:
            self._result(table, state)
        self._wake()

    def _misrouted(self, hall: str, table: str, leaf: str, payload: bytes, reason: str) -> None:
        """A message for a table that came through a hall which may not carry it: never shown, never
        counted; a finished game of this event among them is listed for the organiser with the reason
        (another event's could not count anyway)."""
        self.counters["misrouted"] += 1
        self._logs.log(logging.WARNING, "misrouted", "club board: a message for %s not taken: %s", table, reason)
        if leaf != "state" or not payload:
            return
        try:
            state = StateMessage.model_validate_json(payload)
        except ValidationError:
            return
        this_event = state.seated is not None and state.seated.event == self.tournament.event
        if (
            state.over
            and state.standings
            and this_event
            and self.tournament.refuse(
                table,
                state.game,
                reason,
                [s.model_dump() for s in state.standings],
                via=hall,
                round_no=state.seated.round if state.seated else None,
            )
        ):
            self.counters["refused"] += 1
            self._standings_dirty = True
            self._wake()

    def _other_event(self, table: str, entry: TableEntry, event: str) -> None:
        """Another event's state (last night's, retained): not shown, never counted; listed for the
        organiser's "clear old tables"."""
        self.counters["other_event"] += 1
        with self._lock:
            self.old_tables[table] = event or "none"
            if entry.state is not None:
                entry.state = None
                self._dirty.add(table)
        self._wake()

    def _result(self, table: str, state: StateMessage) -> None:
        key = f"{table}/{state.game}"
        if key in self.tournament.results:
            return  # counted before: its retained state again
        known = key in self.tournament.refused
        try:
            reason = self.tournament.take_result(
                table,
                state.game,
                [s.model_dump() for s in state.standings],
                state.seated.model_dump() if state.seated else None,
            )
        except (TournamentError, OSError) as exc:
            self._logs.log(logging.ERROR, "result", "club board: the result of table %s not saved: %s", table, exc)
            return
        if reason is None:
            self.counters["results"] += 1
            self._standings_dirty = True
            return
        if not known:
            self.counters["refused"] += 1
            self._standings_dirty = True
            self._logs.log(
                logging.WARNING,
                "refused",
                "club board: the result of game %s at %s is not counted: %s (the organiser page shows it)",
                state.game,
                table,
                reason,
            )

    def _wake(self) -> None:
        """One push scheduled at a time: the changes that come meanwhile go out with it, in one write
        to each page (at 200 tables, one loop callback per message kept the loop and the pages busy)."""
        loop = self._web.loop
        if loop is None or loop.is_closed() or self._push_pending.is_set():
            return
        self._push_pending.set()
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._pending_push)

    def _pending_push(self) -> None:
        self._push_pending.clear()
        self._push()

    # ---- pushing to the pages ----------------------------------------------------------------

    def board_view(self) -> dict:
        """The board's own state for the page: its link to the broker (a banner when lost), the
        event, and how many other events' tables are left on the broker."""
        return {
            "connected": self.connected.is_set(),
            "status": self.status,
            "status_words": self.status.as_json(),  # the page says it in its own language
            "event": self.tournament.event,
            "old_tables": len(self.old_tables),
        }

    def _push(self) -> None:
        now = time.monotonic()
        connected = self.connected.is_set()
        with self._lock:
            dirty, self._dirty = self._dirty, set()
            events = [("table", self.tables[t].view(now, connected)) for t in sorted(dirty)]
        board = self.board_view()
        if board != self._shown_board:
            self._shown_board = board
            events.insert(0, ("board", board))
        if self._standings_dirty:
            self._standings_dirty = False
            events.append(("tournament", self.tournament.snapshot()))
        if not events:
            return
        self._watchers.push(event_text(events))

    async def _ticker(self) -> None:
        """Tables whose status changed with time alone (stale), or with the board's link, are pushed too."""
        shown: dict[str, str] = {}
        while True:
            await asyncio.sleep(self.tick)
            now = time.monotonic()
            connected = self.connected.is_set()
            with self._lock:
                for t, entry in self.tables.items():
                    s = entry.status(now, connected)
                    if shown.get(t) != s:
                        shown[t] = s
                        self._dirty.add(t)
            self._push()

    def snapshot(self) -> list[dict]:
        """This event's tables as the board shows them."""
        now = time.monotonic()
        connected = self.connected.is_set()
        with self._lock:
            return [self.tables[t].view(now, connected) for t in sorted(self.tables) if self.tables[t].state]

    # ---- HTTP --------------------------------------------------------------------------------

    @staticmethod
    def _headers(response: AnyResponse) -> AnyResponse:
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'self' 'unsafe-inline'; "
            "style-src 'unsafe-inline'; connect-src 'self'; img-src 'self'"
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"
        return response

    async def _page_handler(self, request: web.Request) -> web.Response:
        page = for_reader(self._page, language())  # the browser's language (the page may choose another)
        return self._headers(web.Response(body=page, content_type="text/html", charset="utf-8"))

    async def _organiser_handler(self, request: web.Request) -> web.Response:
        """The organiser's forms; the page itself is no secret: every action it sends needs the token."""
        page = for_reader(self._organiser_page, language())
        return self._headers(web.Response(body=page, content_type="text/html", charset="utf-8"))

    async def _tables_handler(self, request: web.Request) -> web.Response:
        with self._lock:
            old = dict(self.old_tables)
        return self._headers(
            web.json_response(
                {
                    **self.board_view(),
                    "tables": self.snapshot(),
                    "old_tables": old,
                    "counters": dict(self.counters),
                    "halls": self.halls.halls if self.halls else {},
                }
            )
        )

    async def _tournament_handler(self, request: web.Request) -> web.Response:
        return self._headers(web.json_response(self.tournament.snapshot()))

    async def _csv_handler(self, request: web.Request) -> web.Response:
        r = web.Response(text=self.tournament.csv(), content_type="text/csv", charset="utf-8")
        r.headers["Content-Disposition"] = 'attachment; filename="standings.csv"'
        return self._headers(r)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        address = request.remote or "?"
        refusal = self._watchers.places.refusal(address)
        if refusal:
            return self._refusal(request, 429, refusal)
        self._watchers.places.take(address)  # its place, taken now
        response = self._headers(web.StreamResponse(headers={"Content-Type": "text/event-stream"}))
        return await self._watchers.serve(request, response, self.guard, self._everything)

    def _everything(self) -> Events:
        """What a page that just opened is sent first."""
        first: Events = [("board", self.board_view())] + [("table", view) for view in self.snapshot()]
        first.append(("tournament", self.tournament.snapshot()))
        return first

    def _standings_changed(self) -> None:
        """An organiser action went through: the pages get the tournament now."""
        self._standings_dirty = True
        self._push()

    def _seat(self, data: dict) -> dict:
        out = seat_round(self.tournament, data)
        self.publish_seating()
        return out

    def _clear_old(self, data: dict) -> dict:
        """Empty retained messages over every other event's table left on the broker."""
        with self._lock:
            old = sorted(self.old_tables)
        if not self.connected.is_set():
            raise TournamentError(N_("the board has lost the broker: clear the old tables once it is back"))
        with self._lock:
            where = {table: set(self.tables[table].halls) if table in self.tables else {None} for table in old}
        for table in old:
            for topic in (state_topic(self.club, table), online_topic(self.club, table)):
                for hall in where[table]:
                    self.client.publish(hall_topic(hall, topic) if hall else topic, b"", qos=1, retain=True)
        with self._lock:
            for table in old:
                self.old_tables.pop(table, None)
                entry = self.tables.get(table)
                if entry is not None and entry.state is None:
                    del self.tables[table]
        return {"cleared": old}
