"""MQTT transport (paho-mqtt 2.x): the topic layout of PROTOCOL.md section 2.2.

The bridge subscribes to its one tower's topics (the tower id given at pairing),
reads the retained `status`, `hello` and `totals`, sends commands on `cmd`
(QoS 1, never retained) and lets paho reconnect for ever with backoff; after
each reconnect the link asks for `hello` and replays what it missed.

Locked down (hardware/README.md): `mqtts://` with a CA file (and optionally a
client certificate), a user name and password per client, and the broker's
ACL, under which only the tower's own user may publish its device topics.
On top of that the bridge pins the tower: a `hello` counts only on the hello
topic and only when it names the tower of the topic, and every frame type must
come on its own topic (section 8 of PROTOCOL.md).

Nothing raises out of a paho callback or the ticker: each is guarded (logged
in one line, counted, shown as a status change), and a network thread that
dies anyway is started again by the ticker.
"""

from __future__ import annotations

import logging
import os
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

from paho.mqtt import client as mqtt

from . import framing
from .adapter import TowerDrop
from .guard import LogLimiter
from .link import Link, LinkStatus
from .security import LinkSecurity, mqtt_security

log = logging.getLogger("firmware_bridge.mqtt")

PREFIX = "elgrande/tower/"
LEAVES = ("status", "hello", "totals", "drop", "hb", "fault", "cal", "reply")
# The topic each device message type travels on (the firmware's link_mqtt.TOPICS).
TOPIC_OF_TYPE = {
    "hello": "hello",
    "totals": "totals",
    "drop": "drop",
    "hb": "hb",
    "fault": "fault",
    "cal": "cal",
    "ok": "reply",
}
SILENCE_TIMEOUT = 15.0  # 3 missed heartbeats, as on serial
SCHEMES = {"mqtt": (False, 1883), "tcp": (False, 1883), "mqtts": (True, 8883), "ssl": (True, 8883)}
TOWER_ID_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")


class BrokerUrl(NamedTuple):
    host: str
    port: int
    user: str | None
    password: str | None
    tls: bool


def parse_broker_url(url: str) -> BrokerUrl:
    """mqtts://[user[:password]@]host[:port] (TLS, port 8883) or mqtt://... (plain, 1883);
    ssl:// and tcp:// too, or a plain host[:port] (plain MQTT). Raises ValueError."""
    text = (url or "").strip()
    if not text:
        raise ValueError("no broker address: give mqtts://host[:port] (TLS) or mqtt://host[:port]")
    if "://" not in text:
        text = "mqtt://" + text
    parts = urlsplit(text)
    if parts.scheme not in SCHEMES:
        raise ValueError(
            f"{url}: unknown scheme {parts.scheme}://; use mqtts://host[:port] (TLS) or mqtt://host[:port]"
        )
    if not parts.hostname:
        raise ValueError(f"{url}: no broker host")
    tls, default_port = SCHEMES[parts.scheme]
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{url}: the port must be a number from 1 to 65535") from None
    if port == 0:
        raise ValueError(f"{url}: the port must be a number from 1 to 65535")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{url}: a broker address has no path; the tower id is given apart")
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return BrokerUrl(parts.hostname, port or default_port, user, password, tls)


def check_tower_id(tower_id: str | None) -> str:
    if not tower_id or not set(tower_id) <= TOWER_ID_CHARS or len(tower_id) > 64:
        raise ValueError(
            f"tower id {tower_id!r}: give the device id, e.g. castillo-a1b2c3 (letters, digits and - _ . : only)"
        )
    return tower_id


# ---- TLS -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TlsFiles:
    cafile: str | None = None  # None: the system's CAs
    certfile: str | None = None  # optional client certificate (PEM, may hold the key too)
    keyfile: str | None = None

    @property
    def any(self) -> bool:
        return bool(self.cafile or self.certfile or self.keyfile)


def _readable(path: str, what: str) -> str:
    full = os.path.expanduser(path)
    try:
        with open(full, "rb") as f:
            f.read(1)
    except FileNotFoundError:
        raise ValueError(f"{what} {path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{what} {path}: is a folder, not a file") from None
    except PermissionError:
        raise ValueError(f"{what} {path}: not readable (permission denied)") from None
    except OSError as e:
        raise ValueError(f"{what} {path}: cannot be read ({e.strerror or e})") from None
    return full


class _Encrypted(Exception):
    pass


def _no_passphrase():
    raise _Encrypted()


def tls_context(files: TlsFiles) -> ssl.SSLContext:
    """A client context that checks the broker's certificate and name; raises
    ValueError naming the file that is missing, unreadable or not usable."""
    cafile = _readable(files.cafile, "CA file") if files.cafile else None
    try:
        ctx = ssl.create_default_context(cafile=cafile)
    except ssl.SSLError as e:
        raise ValueError(f"CA file {files.cafile}: not a PEM certificate ({e.reason or e})") from None
    if files.keyfile and not files.certfile:
        raise ValueError(f"client key {files.keyfile}: a client key needs its certificate too")
    if files.certfile:
        cert = _readable(files.certfile, "client certificate")
        key = _readable(files.keyfile, "client key") if files.keyfile else None
        names = f"{files.certfile}" + (f" / {files.keyfile}" if files.keyfile else "")
        try:
            ctx.load_cert_chain(cert, key, password=_no_passphrase)
        except _Encrypted:
            raise ValueError(
                f"client key {files.keyfile or files.certfile}: protected by a passphrase; "
                f"use a key without one (openssl pkey -in KEY -out KEY.plain)"
            ) from None
        except ssl.SSLError as e:
            raise ValueError(
                f"client certificate {names}: not usable ({e.reason or e}); both must be PEM "
                f"and the key must belong to the certificate"
            ) from None
    return ctx


# ---- errors, in one line for people -----------------------------------------------------


def describe_connect_error(error: BaseException | None, host: str, port: int, tls: bool) -> str:
    where = f"{host}:{port}"
    if error is None:
        return f"cannot connect to the broker at {where}"
    if isinstance(error, ssl.SSLCertVerificationError):
        return (
            f"TLS: the broker at {where} showed a certificate the CA file does not vouch for "
            f"({error.verify_message}); check the CA file and that the broker's certificate names {host}"
        )
    if isinstance(error, ssl.SSLError):
        reason = getattr(error, "reason", None) or str(error)
        text = reason.lower()
        hint = ""
        if "wrong_version_number" in text or "wrong version number" in text or "record layer" in text:
            hint = ": is that port TLS? plain MQTT is mqtt://"
        elif "certificate required" in text or "certificate_required" in text:
            hint = ": the broker wants a client certificate (--cert / --key)"
        elif "unknown ca" in text or "bad certificate" in text or "unknown_ca" in text:
            hint = ": the broker did not accept the client certificate"
        return f"TLS handshake with the broker at {where} failed ({reason}){hint}"
    if isinstance(error, ConnectionRefusedError):
        usual = "mqtts:// is usually port 8883" if tls else "mqtt:// is usually port 1883"
        return f"nothing listens at {where}: is the broker running? ({usual})"
    if isinstance(error, socket.gaierror):
        return f"broker host {host!r} not found ({error.strerror or error})"
    if isinstance(error, (TimeoutError, socket.timeout)):
        return f"no answer from the broker at {where} (timed out)"
    if isinstance(error, OSError):
        return f"cannot reach the broker at {where} ({error.strerror or error})"
    return f"cannot connect to the broker at {where} ({error!r})"


def describe_unanswered(host: str, port: int, tls: bool, logged: str | None) -> str:
    """The broker hung up before answering CONNECT."""
    why = f" ({logged.removeprefix('failed to receive on socket: ')})" if logged else ""
    if not tls:
        hint = ": a TLS-only port? use mqtts://"
    elif "certificate" in (logged or "").lower() or not logged:
        hint = ": a broker that wants a client certificate does this (--cert / --key)"
    else:
        hint = ""
    return f"the broker at {host}:{port} closed the connection without answering{why}{hint}"


NOT_AUTHORISED = {4, 5, 134, 135}  # MQTT 3.1.1 return codes 4, 5; MQTT 5 reason codes 0x86, 0x87


def describe_refusal(reason_code: object, host: str, port: int, user: str | None) -> str:
    who = f"user {user!r}" if user else "an anonymous client (no user name)"
    if getattr(reason_code, "value", reason_code) in NOT_AUTHORISED:
        return (
            f"the broker at {host}:{port} refused the connection: not authorised ({who}; "
            f"check the user name and password)"
        )
    return f"the broker at {host}:{port} refused the connection: {reason_code} ({who})"


class _Client(mqtt.Client):
    """paho's client, keeping why the last connection attempt failed (paho's
    on_connect_fail is told nothing) and counting attempts."""

    last_error: BaseException | None = None
    last_logged_error: str | None = None  # paho's last error-level log line (a failed TLS read ...)
    thread_error: BaseException | None = None  # what ended the network thread, if anything did
    attempts = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.on_log = self._remember

    def _remember(self, client, userdata, level, text) -> None:
        if level == mqtt.MQTT_LOG_ERR:
            self.last_logged_error = text

    def _thread_main(self) -> None:
        # paho's network thread (loop_start); whatever ends it is kept for the
        # bridge's watchdog to report, instead of a traceback on stderr.
        try:
            super()._thread_main()
        except Exception as e:
            self.thread_error = e

    def reconnect(self):
        self.attempts += 1
        self.last_error = self.last_logged_error = None
        try:
            return super().reconnect()
        except Exception as e:  # OSError (TLS errors are OSErrors); kept for on_connect_fail
            self.last_error = e
            raise


def make_client(
    client_id: str,
    broker: BrokerUrl,
    username: str | None,
    password: str | None,
    tls: ssl.SSLContext | None,
    backoff: tuple[float, float],
) -> _Client:
    c = _Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
    c.suppress_exceptions = True  # belt and braces: the callbacks are guarded anyway
    if tls is not None:
        c.tls_set_context(tls)
    if username:
        c.username_pw_set(username, password)
    c.reconnect_delay_set(min_delay=backoff[0], max_delay=backoff[1])
    return c


def client_settings(
    url: str, username: str | None, password: str | None, tls_files: TlsFiles
) -> tuple[BrokerUrl, str | None, str | None, ssl.SSLContext | None, LinkSecurity]:
    """(broker, user, password, TLS context or None, LinkSecurity) from what a person gave;
    ValueError in one line for a bad URL or certificate file."""
    broker = parse_broker_url(url)
    if tls_files.any and not broker.tls:
        raise ValueError(f"{url}: a CA file or client certificate is for TLS: use mqtts://")
    user = username or broker.user
    secret = password if password is not None else broker.password
    if secret and not user:
        raise ValueError("a password needs a user name")
    ctx = tls_context(tls_files) if broker.tls else None
    return broker, user, secret, ctx, mqtt_security(broker.tls, user)


class MqttBridge:
    def __init__(
        self,
        url: str,
        tower_id: str,
        on_drop: Callable[[TowerDrop], None],
        on_status: Callable[[LinkStatus], None] | None = None,
        *,
        username: str | None = None,
        password: str | None = None,
        cafile: str | None = None,
        certfile: str | None = None,
        keyfile: str | None = None,
        prefix: str = PREFIX,
        backoff_min: float = 0.2,
        backoff_max: float = 10.0,
        keepalive: int = 10,
        tick_every: float = 0.05,
        **link_options: Any,
    ) -> None:
        self.broker, self.username, password, ctx, self.security = client_settings(
            url, username, password, TlsFiles(cafile, certfile, keyfile)
        )
        self.host, self.port = self.broker.host, self.broker.port
        self.tower_id = check_tower_id(tower_id)
        self.base = f"{prefix}{tower_id}/"
        link_options.setdefault("silence_timeout", SILENCE_TIMEOUT)
        self.link = Link(self._send, on_drop, on_status, **link_options)
        self.tick_every = tick_every
        self.keepalive = keepalive
        self.connected = threading.Event()
        self.connects = 0
        self.thread_restarts = 0
        self.refused = {"foreign_hello": 0, "wrong_topic": 0}  # frames the pinning kept from the link
        self._logs = LogLimiter(log)
        self._refusal: str | None = None  # why the broker said no to the last CONNECT
        self._answered = -1  # the connection attempt the broker last answered
        self._stop = threading.Event()
        client_id = f"elgrande-host-{os.getpid()}-{os.urandom(3).hex()}"
        c = make_client(client_id, self.broker, self.username, password, ctx, (backoff_min, backoff_max))
        for name in ("on_connect", "on_connect_fail", "on_disconnect", "on_message"):
            setattr(c, name, self.link.guarded(f"mqtt {name}", getattr(self, "_" + name)))
        self.client = c
        self._ticker = threading.Thread(target=self._tick, name=f"bridge-mqtt-{tower_id}", daemon=True)

    @property
    def where(self) -> str:
        return f"{'mqtts' if self.broker.tls else 'mqtt'} {self.host}:{self.port} {self.tower_id}"

    def start(self) -> MqttBridge:
        self.link.transport_connecting(self.where)
        self.client.connect_async(self.host, self.port, keepalive=self.keepalive)
        self.client.loop_start()
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._ticker.is_alive():
            self._ticker.join(timeout=5)
        self.client.disconnect()
        self.client.loop_stop()

    def _send(self, msg: dict) -> None:
        info = self.client.publish(self.base + "cmd", framing.encode(msg), qos=1, retain=False)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(f"publish failed: {mqtt.error_string(info.rc)}")

    # ---- paho callbacks (each guarded by the link) -----------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self._answered = client.attempts
        if reason_code.is_failure:
            self._refusal = describe_refusal(reason_code, self.host, self.port, self.username)
            self.link.transport_down(self._refusal)
            return
        self._refusal = None
        self.connects += 1
        client.subscribe([(self.base + leaf, 1) for leaf in LEAVES])
        self.connected.set()
        self.link.transport_up(self.where)

    def _on_connect_fail(self, client, userdata):
        self.link.transport_down(describe_connect_error(client.last_error, self.host, self.port, self.broker.tls))

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected.clear()
        if self._stop.is_set() or (self._refusal and self._answered == client.attempts):
            return  # stopping, or the refusal already says why
        if self._answered != client.attempts:
            self.link.transport_down(
                describe_unanswered(self.host, self.port, self.broker.tls, client.last_logged_error)
            )
        else:
            self.link.transport_down(f"broker connection lost ({reason_code})")

    def _on_message(self, client, userdata, message):
        leaf = message.topic[len(self.base) :]
        if leaf == "status":
            self.link.feed_availability(message.payload)
        elif leaf in LEAVES and self._pinned(leaf, message.payload):
            self.link.feed_frame(message.payload, retained=bool(message.retain))

    def _pinned(self, leaf: str, payload: bytes) -> bool:
        """Each frame type on its own topic; a hello only when it names this topic's tower."""
        try:
            obj = framing.decode(payload)
        except framing.FrameError:
            return True  # the link counts and logs a bad frame
        kind = obj.get("t")
        home = TOPIC_OF_TYPE.get(kind) if isinstance(kind, str) else None
        if home is not None and home != leaf:
            return self._refuse("wrong_topic", f"a {kind!r} frame on the {leaf!r} topic")
        if kind == "hello" and obj.get("dev") != self.tower_id:
            return self._refuse(
                "foreign_hello", f"a hello naming {str(obj.get('dev'))[:64]!r} on the topic of {self.tower_id}"
            )
        return True

    def _refuse(self, what: str, text: str) -> bool:
        self.refused[what] += 1
        self.link.counters[what] += 1
        self._logs.log(
            logging.WARNING, what, "ignored %s: not from the paired tower (%d so far)", text, self.refused[what]
        )
        return False

    # ---- ticker: the link's timers and a watchdog on paho's network thread ------------

    def _tick(self) -> None:
        tick = self.link.guarded("mqtt ticker", self._tick_once)
        while not self._stop.wait(self.tick_every):
            tick()

    def _tick_once(self) -> None:
        self.link.tick()
        if not self._stop.is_set() and self.client.loop_start() == mqtt.MQTT_ERR_SUCCESS:
            # loop_start() only starts a thread when the last one has ended: it had died
            self.thread_restarts += 1
            error, self.client.thread_error = self.client.thread_error, None
            self.link.report_fault("the MQTT network thread", error or RuntimeError("it ended"), restarted=True)
