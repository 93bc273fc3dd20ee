"""The simulated tower on an MQTT broker, with the topic layout, retained state and Last Will
of hardware/PROTOCOL.md section 2.2, reconnecting with backoff like the firmware's link_mqtt.py."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from paho.mqtt import client as mqtt

from firmware_bridge.guard import Worker, describe, guarded
from firmware_bridge.sim.commands import handle_line
from firmware_bridge.sim.tower import SimPort, SimulatedTower
from firmware_bridge.transport_mqtt import (
    TlsFiles,
    client_settings,
    describe_connect_error,
    describe_refusal,
    describe_unanswered,
    make_client,
)

log = logging.getLogger("firmware_bridge.sim")

TOPICS = {
    # message type: (topic leaf, retained, qos), as link_mqtt.py
    "hello": ("hello", True, 1),
    "totals": ("totals", True, 1),
    "drop": ("drop", False, 1),
    "hb": ("hb", False, 0),
    "fault": ("fault", False, 1),
    "cal": ("cal", False, 1),
    "ok": ("reply", False, 1),
}


class MqttPort(SimPort):
    """The tower on an MQTT broker: client id = device id, Last Will `offline`,
    `online` + retained hello and totals on every (re)connection, then every drop
    no host has acknowledged on this link; reconnects for ever with backoff.
    `mqtts://` with `cafile` (and optionally a client `certfile`/`keyfile`), and
    a user name and password, as a locked-down broker wants them (the user name
    is normally the device id: hardware/mosquitto/acl). Why the broker cannot be
    reached or refuses is in `problem` (one line, None once connected) and is
    handed to `on_problem(text or None)` when it changes."""

    name = "mqtt"

    def __init__(
        self,
        tower: SimulatedTower,
        url: str,
        *,
        username: str | None = None,
        password: str | None = None,
        cafile: str | None = None,
        certfile: str | None = None,
        keyfile: str | None = None,
        prefix: str = "elgrande/tower/",
        backoff_min: float = 1.0,
        backoff_max: float = 60.0,
        keepalive: int = 30,
        on_problem: Callable[[str | None], None] | None = None,
    ) -> None:
        broker, user, secret, ctx, _ = client_settings(url, username, password, TlsFiles(cafile, certfile, keyfile))
        self.broker = broker
        self.host, self.port = broker.host, broker.port
        self.user = user
        self.base = f"{prefix}{tower.dev}/"
        self.connected = threading.Event()
        self.connects = 0
        self.problem: str | None = None
        self.faults = 0  # callbacks that raised (counted, logged, never fatal)
        self._on_problem = on_problem
        self._answered = None  # the connection attempt the broker last answered
        self._wake = threading.Event()
        self._stop = False
        self._frozen = False
        super().__init__(tower)
        c = make_client(tower.dev, broker, user, secret, ctx, (backoff_min, backoff_max))
        c.will_set(self.base + "status", b"offline", qos=1, retain=True)
        c.max_inflight_messages_set(1000)
        callbacks: dict[str, Callable[..., None]] = {
            "on_connect": self._on_connect,
            "on_connect_fail": self._on_connect_fail,
            "on_disconnect": self._on_disconnect,
            "on_message": self._on_message,
        }
        for name, callback in callbacks.items():
            setattr(c, name, guarded(f"sim tower {name}", self._fault, callback))
        self.client = c
        c.connect_async(self.host, self.port, keepalive=keepalive)
        c.loop_start()
        self._thread = Worker(self._pump, f"sim-mqtt-{tower.dev}", self._fault).start()

    def _fault(self, where: str, error: BaseException) -> None:
        self.faults += 1
        log.error("sim tower: %s failed (%s)", where, describe(error))

    def _problem(self, text: str | None) -> None:
        if text != self.problem:
            self.problem = text
            if self._on_problem:
                self._on_problem(text)
            elif text:
                log.warning("sim tower: %s", text)

    def topic(self, leaf: str) -> str:
        return self.base + leaf

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self._problem(describe_refusal(reason_code, self.host, self.port, self.user))
            return
        self._problem(None)
        self._answered = getattr(client, "attempts", None)
        client.subscribe(self.topic("cmd"), qos=1)
        client.publish(self.topic("status"), b"online", qos=1, retain=True)
        t = self.tower
        with t.lock:
            self.queue.clear()
            t.emit(t.hello(), self)
            t.emit(t.totals_frame(), self)
            self.rewind(max(self.acked + 1, t.oldest_seq))
            self.connects += 1
        self.connected.set()
        self._wake.set()

    def _on_connect_fail(self, client, userdata) -> None:
        self._problem(describe_connect_error(client.last_error, self.host, self.port, self.broker.tls))

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.connected.clear()
        if self._stop or (self.problem and self._answered != getattr(client, "attempts", None)):
            return  # stopping, or a refusal already says why
        if self._answered != getattr(client, "attempts", None):  # closed before answering
            self._problem(
                describe_unanswered(self.host, self.port, self.broker.tls, getattr(client, "last_logged_error", None))
            )
        else:
            self._problem(f"broker connection lost ({reason_code}); drops are queued until it is back")

    def _on_message(self, client, userdata, message) -> None:
        handle_line(self.tower, message.payload, self)

    def wake(self) -> None:
        self._wake.set()

    def on_reboot(self) -> None:
        super().on_reboot()
        self.tower.emit(self.tower.totals_frame(), self)  # a rebooted board reconnects: fresh retained totals

    def _pump(self) -> None:
        while not self._stop:
            self._wake.wait(0.5)
            self._wake.clear()
            while self.connected.is_set() and not self._stop and not self._frozen:
                with self.tower.lock:
                    item = self.next_frame()
                if item is None:
                    break
                leaf, retain, qos = TOPICS.get(item[0], ("reply", False, 1))
                info = self.client.publish(self.topic(leaf), item[1], qos=qos, retain=retain)
                if info.rc != mqtt.MQTT_ERR_SUCCESS:
                    with self.tower.lock:
                        self.unread(item)  # goes out again after the reconnect
                    break

    def close(self) -> None:
        super().close()
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=5)
        if self.connected.is_set():  # a clean disconnect sends no Last Will: say it ourselves
            self.client.publish(self.topic("status"), b"offline", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()

    def freeze(self) -> None:
        """The Wi-Fi stalls with the connection open: nothing goes out, not even
        pings, so the broker sends the Last Will only after 1.5 keepalives."""
        self._frozen = True
        self.client.loop_stop()

    def thaw(self) -> None:
        self._frozen = False
        self.client.loop_start()
        self._wake.set()

    def vanish(self) -> None:
        """Power cut or Wi-Fi gone: the broker publishes the Last Will."""
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=5)
        self.client.loop_stop()
        try:
            self.client.socket().close()
        except Exception:
            pass
        self.tower.detach(self)
