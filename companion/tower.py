"""The table's tower: the bridge the setup asked for, wired to the table.

Drops arrive on the bridge's thread and go straight to `Table.tower_drop`
(which logs them durably); status changes go to `on_status`. Nothing here
touches the UI: the app hops to its thread with Clock. With `simulated`, a
SimulatedTower speaks the real protocol over a real pty to a SerialBridge, so
the on-screen drop buttons exercise the same path as a USB tower.
"""
from __future__ import annotations

import logging
from typing import Callable, Optional

from firmware_bridge.link import LinkStatus
from firmware_bridge.messages import COLOURS
from firmware_bridge.sim import PtyPort, SimulatedTower
from firmware_bridge.transport_mqtt import MqttBridge
from firmware_bridge.transport_serial import SerialBridge

from .table import Table, TowerConfig

log = logging.getLogger("companion.tower")

SIM_DEVICE = "castillo-sim"


class TowerConnection:
    def __init__(self, table: Table, config: TowerConfig,
                 on_status: Optional[Callable[[LinkStatus], None]] = None):
        self.table = table
        self.config = config
        self._on_status = on_status
        self.sim: Optional[SimulatedTower] = None
        self._pty: Optional[PtyPort] = None
        self.bridge = None
        self.last_status: Optional[LinkStatus] = None

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
            self.bridge = MqttBridge(c.broker, c.tower_id, self.table.tower_drop, **options)
        self.table.on_tower_empty = self.empty
        self.bridge.start()
        if self.table.empty_token:  # the tower may not have heard it before a restart; idempotent
            self.empty(self.table.empty_token)
        return self

    def _status(self, status: LinkStatus) -> None:
        self.last_status = status
        if self._on_status:
            self._on_status(status)

    @property
    def status(self) -> Optional[LinkStatus]:
        return self.bridge.link.status if self.bridge else None

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
