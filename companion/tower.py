"""The table's tower: the bridge the setup asked for, wired to the table.

Drops arrive on the bridge's thread and go straight to `Table.tower_drop`
(which logs them durably); status changes go to `on_status`. Nothing here
touches the UI: the app hops to its thread with Clock. With `simulated`, a
SimulatedTower speaks the real protocol over a real pty to a SerialBridge, so
the on-screen drop buttons exercise the same path as a USB tower.

Every status handed on is a `TowerStatus`: the link's status plus how private
the link is (`security`), so the tower bar can warn about an MQTT link that is
not encrypted or anonymous. A setting the bridge cannot use (a bad broker
address, a certificate file gone since the game was set up) becomes a
"disconnected" status saying why, never an exception.
"""
from __future__ import annotations

import logging
import time
from typing import Callable, Optional

from firmware_bridge.link import LinkStatus
from firmware_bridge.messages import COLOURS
from firmware_bridge.security import LOCAL, LinkSecurity, mqtt_security
from firmware_bridge.sim import PtyPort, SimulatedTower
from firmware_bridge.transport_mqtt import MqttBridge, parse_broker_url
from firmware_bridge.transport_serial import SerialBridge

from .table import Table, TowerConfig

log = logging.getLogger("companion.tower")

SIM_DEVICE = "castillo-sim"


class TowerStatus(LinkStatus):
    """The link's status and how private the link is (the tower bar warns)."""

    security: LinkSecurity = LOCAL


def mqtt_options(config: TowerConfig) -> dict:
    """The bridge's MQTT settings from the game's tower config."""
    return {"username": config.username or None, "password": config.password or None,
            "cafile": config.ca_file or None, "certfile": config.cert_file or None,
            "keyfile": config.key_file or None}


def check_mqtt(config: TowerConfig) -> None:
    """ValueError in one line for what the MQTT bridge could not use (broker address,
    tower id, certificate files), before a game starts with it."""
    MqttBridge(config.broker, config.tower_id, lambda drop: None, **mqtt_options(config))


class TowerConnection:
    def __init__(self, table: Table, config: TowerConfig,
                 on_status: Optional[Callable[[LinkStatus], None]] = None):
        self.table = table
        self.config = config
        self._on_status = on_status
        self.sim: Optional[SimulatedTower] = None
        self._pty: Optional[PtyPort] = None
        self.bridge = None
        self.last_status: Optional[TowerStatus] = None
        self.security: LinkSecurity = LOCAL

    def start(self) -> "TowerConnection":
        c = self.config
        resume = self.table.tower_position()
        options = {"resume": resume, "on_status": self._status}
        if c.kind == "none":
            return self
        if c.kind == "simulated":
            self.sim = SimulatedTower(SIM_DEVICE)
            self._pty = PtyPort(self.sim, baud=0)
            self.bridge = SerialBridge(self._pty.path, self.table.tower_drop, **options)
        elif c.kind == "serial":
            self.bridge = SerialBridge(c.port, self.table.tower_drop, **options)
        else:
            try:
                self.bridge = MqttBridge(c.broker, c.tower_id, self.table.tower_drop, **mqtt_options(c), **options)
            except ValueError as e:  # a setting the bridge cannot use: say so on the tower bar
                self._not_started(str(e))
                return self
            self.security = self.bridge.security
        self.table.on_tower_empty = self.empty
        self.bridge.start()
        if self.table.empty_token:  # the tower may not have heard it before a restart; idempotent
            self.empty(self.table.empty_token)
        return self

    def _not_started(self, why: str) -> None:
        log.warning("tower link not started: %s", why)
        try:
            broker = parse_broker_url(self.config.broker)
            self.security = mqtt_security(broker.tls, self.config.username or broker.user)
        except ValueError:
            self.security = mqtt_security(False, None)
        self._status(LinkStatus(state="disconnected", since=time.time(), message=f"not started: {why}"))

    def _status(self, status: LinkStatus) -> None:
        full = TowerStatus(**status.model_dump(), security=self.security)
        self.last_status = full
        if self._on_status:
            self._on_status(full)

    @property
    def status(self) -> Optional[TowerStatus]:
        if self.bridge is None:
            return self.last_status
        return TowerStatus(**self.bridge.link.status.model_dump(), security=self.security)

    def empty(self, token: str) -> None:
        if self.bridge:
            self.bridge.link.request_empty(token)

    def calibrate(self) -> None:
        if self.bridge:
            self.bridge.link.request_calibration()

    def simulate_drop(self, colour: str) -> None:
        """The simulated tower's on-screen buttons: a colour, "uncertain" or "multi"."""
        if self.sim is None:
            raise RuntimeError("only a simulated tower takes drops from the screen")
        if colour not in COLOURS + ("uncertain", "multi"):
            raise ValueError(f"unknown drop {colour!r}")
        self.sim.drop(colour)

    def stop(self) -> None:
        if self.bridge:
            self.bridge.stop()
        if self._pty:
            self._pty.close()
