"""A table's side of club night: its public state, retained, on the club broker.

On every change of the table (its observers are told after each accepted input) the
publisher thread builds the state from the public view (topics.public_state) and
publishes it retained, QoS 1; at least every heartbeat it publishes it again with a fresh
timestamp, so the board can tell a live table from a stale one. The Last Will (retained
"0" on the table's `online` topic) marks it offline when the connection dies; on every
(re)connection it says "1" and republishes the state. paho reconnects with backoff.

It also reads the board's retained seating (topics.SeatingMessage): a game takes the newest seating
while it has not begun (no input yet) and keeps it from its first input on; a game that learns its
first seating only after it began carries it marked `late` (the board then asks the organiser).
A saved game keeps its seating beside its log (`<game>.club.json`), so a game resumed after the
app restarted still carries the seating it started under.

Nothing here can stop the table: the table's observer only sets an event, and every
broker problem becomes one status line (`status`), logged once per kind.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable

from paho.mqtt import client as mqtt

from companion.club.config import ClubConfig
from companion.club.errors import Reason
from companion.club.topics import (
    HEARTBEAT,
    MAX_SEATING,
    Seated,
    SeatingMessage,
    online_topic,
    public_state,
    seating_topic,
    state_topic,
)
from companion.words import N_, _
from firmware_bridge.guard import LogLimiter
from firmware_bridge.transport_mqtt import (
    TlsFiles,
    client_settings,
    describe_connect_error,
    describe_refusal,
    make_client,
)

log = logging.getLogger("companion.club")
# The club link's one status line (Reason: the tablet says it in the table's language; the log in English).
CLUB_LINK = {
    "connecting": N_("club: connecting to {address}"),
    "up": N_("club: publishing table {table} to {address}"),
    "refused": N_("club: {reason} (the game goes on)"),
    "down": N_("club: {reason} (the game goes on; retrying)"),
    "lost": N_("club: lost the broker ({reason}); the game goes on, retrying"),
    "not publishing": N_("club: not publishing ({reason})"),
}


class ClubPublisher:
    def __init__(
        self,
        table,
        config: ClubConfig,
        *,
        heartbeat: float = HEARTBEAT,
        on_status: Callable[[str], None] | None = None,
        backoff: tuple[float, float] = (0.2, 10.0),
        keepalive: int = 10,
    ):
        self.config = config
        self.broker, user, password, ctx, self.security = client_settings(
            config.broker, config.username, config.password, TlsFiles(config.ca_file)
        )
        self.table = table
        self.table_id = config.table
        self.heartbeat = heartbeat
        self.keepalive = keepalive
        self.on_status = on_status
        self._address = f"{self.broker.host}:{self.broker.port}"
        self.status = Reason(CLUB_LINK["connecting"], address=self._address)
        self.published = 0
        self.connects = 0
        self.version = -1
        self._state_topic = state_topic(config.club, self.table_id)
        self._online_topic = online_topic(config.club, self.table_id)
        self._seating_topic = seating_topic(config.club)
        self.seating: SeatingMessage | None = None  # the board's newest seating, as received
        self.seated: Seated | None = None  # the one this game carries
        self.seating_known = threading.Event()
        self._logs = LogLimiter(log)
        self._changed = threading.Event()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._publishing = threading.Lock()  # one state at a time: the retained one is always the newest
        self._user = user
        self._refused = False
        client_id = f"elgrande-table-{self.table_id}-{os.urandom(3).hex()}"
        c = make_client(client_id, self.broker, user, password, ctx, backoff)
        c.will_set(self._online_topic, b"0", qos=1, retain=True)
        c.on_connect, c.on_connect_fail, c.on_disconnect = self._on_connect, self._on_connect_fail, self._on_disconnect
        c.on_message = self._on_message
        self.client = c
        self._unsubscribe: Callable[[], None] | None = None
        self._restore()
        self._thread = threading.Thread(target=self._run, name=f"club-{self.table_id}", daemon=True)

    # ---- life -------------------------------------------------------------------------

    def start(self) -> ClubPublisher:
        self._unsubscribe = self.table.subscribe(lambda what: self._changed.set())
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=self.keepalive)
        self.client.loop_start()
        self._thread.start()
        return self

    def stop(self, say_offline: bool = True) -> None:
        """A clean stop says offline itself (a Last Will is only sent when the link dies)."""
        self._stop.set()
        self._changed.set()
        if self._unsubscribe:
            self._unsubscribe()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if say_offline and self._connected.is_set():
            self._guarded(
                "offline", lambda: self.client.publish(self._online_topic, b"0", qos=1, retain=True).wait_for_publish(2)
            )
        self.client.disconnect()
        self.client.loop_stop()

    def switch_table(self, table) -> None:
        """A new game at the same tablet: its state replaces the last one's."""
        if self._unsubscribe:
            self._unsubscribe()
        with self._publishing:
            self.table = table
            self.seated = None
            self._restore()
            self._bind()
        self._unsubscribe = table.subscribe(lambda what: self._changed.set())
        self._changed.set()

    def _bind(self) -> None:
        """The seating this game carries: the newest one while it has not begun, then kept."""
        seating = self.seating
        if seating is None:
            return
        begun = len(self.table.records) > 0
        if self.seated is None or (not begun and self.seated.round_id != seating.round_id):
            self.seated = Seated(event=seating.event, round=seating.round, round_id=seating.round_id, late=begun)
            self._keep()

    def _seating_file(self):
        path = getattr(self.table, "path", None)
        return path.with_suffix(".club.json") if path is not None else None

    def _keep(self) -> None:
        """The game's seating, saved beside its log (a game in memory keeps it in memory only)."""
        where = self._seating_file()
        if where is not None and self.seated is not None:
            self._guarded(
                "keep seating",
                lambda: where.write_text(json.dumps({"game": self.table.nonce, "seated": self.seated.model_dump()})),
            )

    def _restore(self) -> None:
        """A resumed game's seating, as it was saved when the game started."""
        where = self._seating_file()
        if where is None or not where.exists():
            return

        def read():
            kept = json.loads(where.read_text())
            if kept.get("game") == self.table.nonce:
                self.seated = Seated.model_validate(kept["seated"])

        self._guarded("restore seating", read)

    # ---- the publishing thread -----------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            self._changed.wait(self.heartbeat)
            self._changed.clear()
            if self._stop.is_set():
                break
            self._guarded("publish", self.publish_now)

    def publish_now(self) -> None:
        if not self._connected.is_set():
            return  # on_connect publishes the state as it is then
        with self._publishing:
            version = len(self.table.records)  # grows with every accepted input, undo included
            self.version = version
            payload = public_state(
                self.table, self.table_id, version, self.heartbeat, seated=self.seated
            ).model_dump_json()
            info = self.client.publish(self._state_topic, payload.encode(), qos=1, retain=True)
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                self.published += 1

    # ---- paho callbacks (guarded: nothing raises into paho) --------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        def connected():
            if reason_code.is_failure:
                self._refused = True
                why = describe_refusal(reason_code, self.broker.host, self.broker.port, self._user)
                self._say(Reason(CLUB_LINK["refused"], reason=Reason.of_link(why)), "refused")
                return
            self._refused = False
            self.connects += 1
            self._connected.set()
            client.publish(self._online_topic, b"1", qos=1, retain=True)
            client.subscribe(self._seating_topic, qos=1)
            self.publish_now()
            self._say(Reason(CLUB_LINK["up"], table=self.table_id, address=self._address), "up")

        self._guarded("connect", connected)

    def _on_message(self, client, userdata, message):
        def take():
            if message.topic != self._seating_topic or not message.payload or len(message.payload) > MAX_SEATING:
                return
            seating = SeatingMessage.model_validate_json(message.payload)
            with self._publishing:
                self.seating = seating
                self._bind()
            self.seating_known.set()
            self._changed.set()

        self._guarded("seating", take)

    def _on_connect_fail(self, client, userdata):
        self._guarded(
            "connect_fail",
            lambda: self._say(
                Reason(
                    CLUB_LINK["down"],
                    reason=Reason.of_link(
                        describe_connect_error(client.last_error, self.broker.host, self.broker.port, self.broker.tls)
                    ),
                ),
                "down",
            ),
        )

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self._connected.clear()
        if not self._stop.is_set() and not self._refused:  # a refusal already says why
            self._guarded(
                "disconnect",
                lambda: self._say(Reason(CLUB_LINK["lost"], reason=reason_code), "down"),
            )

    def _say(self, status: Reason, kind: str) -> None:
        if status == self.status:
            return
        self.status = status
        self._logs.log(logging.WARNING if kind != "up" else logging.INFO, kind, "%s", status)
        if self.on_status:
            self.on_status(status)

    def _guarded(self, what: str, fn: Callable) -> None:
        try:
            fn()
        except Exception as exc:
            self._logs.log(logging.WARNING, what, "club %s failed: %s", what, str(exc)[:200] or type(exc).__name__)


def publisher_for(table, on_status: Callable[[str], None] | None = None) -> ClubPublisher | None:
    """The club publisher a game's setup asks for, started; None without a club. A setting the
    publisher cannot use (a bad URL, a CA file that is not there) is one status line, and the
    game goes on without the club."""
    config = getattr(table.setup, "club", None)
    if config is None:
        return None
    try:
        return ClubPublisher(table, config, on_status=on_status).start()
    except ValueError as exc:
        status = Reason(CLUB_LINK["not publishing"], reason=exc)
        log.warning("%s", status)
        if on_status:
            on_status(status)
        return None


def check_club(config: ClubConfig) -> None:
    """Raises ValueError in one line for an address or CA file the publisher could not use."""
    client_settings(config.broker, config.username, config.password, TlsFiles(config.ca_file))


def club_line(status: str) -> str:
    """The club link's whole status line in the table's language (the table bar's button tells it)."""
    return status.said() if isinstance(status, Reason) else status


def club_bar(status: str) -> tuple[str, bool]:
    """The table bar's short word for the club link and whether it is up: "" without a club
    (the full status line is shown when the button is tapped)."""
    if not status:
        return "", True
    words = getattr(status, "words", "")
    if words == CLUB_LINK["up"]:
        return _("Club: live"), True
    if words == CLUB_LINK["connecting"]:
        return _("Club: connecting"), True
    return _("Club: offline"), False
