"""MQTT transport (paho-mqtt 2.x): the topic layout of PROTOCOL.md section 2.2.

The bridge subscribes to the tower's topics, reads the retained `status`,
`hello` and `totals`, sends commands on `cmd` (QoS 1, never retained) and lets
paho reconnect for ever with backoff; after each reconnect the link asks for
`hello` and replays what it missed."""
from __future__ import annotations

import logging
import os
import threading
from typing import Callable, Optional
from urllib.parse import unquote, urlsplit

from paho.mqtt import client as mqtt

from . import framing
from .adapter import TowerDrop
from .link import Link, LinkStatus

log = logging.getLogger("firmware_bridge.mqtt")

PREFIX = "elgrande/tower/"
LEAVES = ("status", "hello", "totals", "drop", "hb", "fault", "cal", "reply")


def parse_broker_url(url: str) -> tuple[str, int, Optional[str], Optional[str]]:
    """mqtt://[user[:password]@]host[:port] (tcp:// too, or plain host[:port])."""
    if "://" not in url:
        url = "mqtt://" + url
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "tcp"):
        raise ValueError(f"{url}: only mqtt://host[:port] is supported (no TLS in protocol v1)")
    if not parts.hostname:
        raise ValueError(f"{url}: no broker host")
    try:
        port = parts.port or 1883
    except ValueError:
        raise ValueError(f"{url}: the port is not a number") from None
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return parts.hostname, port, user, password


class MqttBridge:
    def __init__(self, url: str, tower_id: str, on_drop: Callable[[TowerDrop], None],
                 on_status: Optional[Callable[[LinkStatus], None]] = None, *,
                 username: Optional[str] = None, password: Optional[str] = None, prefix: str = PREFIX,
                 backoff_min: float = 0.2, backoff_max: float = 10.0, keepalive: int = 10,
                 tick_every: float = 0.05, **link_options):
        self.host, self.port, url_user, url_password = parse_broker_url(url)
        if not tower_id or any(c in tower_id for c in "/+#"):
            raise ValueError(f"tower id {tower_id!r}: give the device id, e.g. castillo-a1b2c3")
        self.tower_id = tower_id
        self.base = f"{prefix}{tower_id}/"
        self.link = Link(self._send, on_drop, on_status, **link_options)
        self.tick_every = tick_every
        self.keepalive = keepalive
        self.connected = threading.Event()
        self.connects = 0
        self._stop = threading.Event()
        client_id = f"elgrande-host-{os.getpid()}-{os.urandom(3).hex()}"
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
        user = username or url_user
        if user:
            c.username_pw_set(user, password if password is not None else url_password)
        c.reconnect_delay_set(min_delay=backoff_min, max_delay=backoff_max)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        self.client = c
        self._ticker = threading.Thread(target=self._tick, name=f"bridge-mqtt-{tower_id}", daemon=True)

    def start(self) -> "MqttBridge":
        self.link.transport_connecting(f"mqtt {self.host}:{self.port} {self.tower_id}")
        self.client.connect_async(self.host, self.port, keepalive=self.keepalive)
        self.client.loop_start()
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.client.disconnect()
        self.client.loop_stop()
        self._ticker.join(timeout=5)

    def _send(self, msg: dict) -> None:
        info = self.client.publish(self.base + "cmd", framing.encode(msg), qos=1, retain=False)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(f"publish failed: {mqtt.error_string(info.rc)}")

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            # e.g. "Not authorized": wrong or missing username / password
            self.link.transport_down(f"broker {self.host}:{self.port} refused the connection: {reason_code}")
            return
        self.connects += 1
        client.subscribe([(self.base + leaf, 1) for leaf in LEAVES])
        self.connected.set()
        self.link.transport_up(f"mqtt {self.host}:{self.port} {self.tower_id}")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected.clear()
        if not self._stop.is_set():
            self.link.transport_down(f"broker connection lost ({reason_code})")

    def _on_message(self, client, userdata, message):
        leaf = message.topic[len(self.base):]
        if leaf == "status":
            self.link.feed_availability(message.payload)
        elif leaf in LEAVES:
            self.link.feed_frame(message.payload)

    def _tick(self) -> None:
        while not self._stop.wait(self.tick_every):
            self.link.tick()
