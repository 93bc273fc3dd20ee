"""The table's tower over a locked-down MQTT broker (the shipped hardware/mosquitto
files, real mosquitto, TLS and passwords): drops reach the table, the status says
how private the link is, and settings it cannot use become a status, not a crash."""

import inspect
import threading
import time

import pytest

from companion.scripted import scripted_setup
from companion.table.authority import Table
from companion.table.setup import TableSetup, TowerConfig
from companion.tower.connection import TowerConnection, check_mqtt
from firmware_bridge.sim import MqttPort, SimulatedTower
from tests.firmware_bridge.bridge_helpers import Broker
from tests.firmware_bridge.locked_broker import TOWER, USERS, LockedBroker, make_certs


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def locked(tmp_path):
    make_certs(tmp_path / "certs", "127.0.0.1")
    (tmp_path / "broker").mkdir()
    b = LockedBroker(tmp_path / "broker", tmp_path / "certs").start()
    yield b
    b.stop()


def table_with(tower: TowerConfig) -> Table:
    setup = scripted_setup("scoring", "short", 3)
    return Table.new(TableSetup(game=setup.game, mode="scoring", tower=tower))


class Statuses:
    def __init__(self):
        self.seen = []
        self.changed = threading.Condition()

    def __call__(self, status):
        with self.changed:
            self.seen.append(status)
            self.changed.notify_all()

    def wait(self, predicate, timeout=20.0):
        with self.changed:
            assert self.changed.wait_for(lambda: any(predicate(s) for s in self.seen), timeout), (
                f"waited {timeout:g} s for a status where {inspect.getsource(predicate).strip()}; "
                f"seen: {[(s.state, s.message) for s in self.seen]}"
            )


def test_a_tower_on_a_tls_broker_with_passwords_counts_into_the_table(locked):
    config = TowerConfig(
        kind="mqtt",
        broker=locked.url,
        tower_id=TOWER,
        username="companion",
        password=USERS["companion"],
        ca_file=locked.ca,
    )
    check_mqtt(config)
    table = table_with(config)
    statuses = Statuses()
    link = TowerConnection(table, config, on_status=statuses).start()
    tower = SimulatedTower(TOWER, seed=61)
    port = MqttPort(
        tower, locked.url, username=TOWER, password=USERS[TOWER], cafile=locked.ca, backoff_min=0.2, backoff_max=1.0
    )
    try:
        statuses.wait(lambda s: s.state == "connected")
        for colour in ("red", "yellow", "red"):
            tower.drop(colour)
        deadline = time.monotonic() + 15
        while table.drops_total < 3 and time.monotonic() < deadline:
            time.sleep(0.02)  # the table has no event to wait on from here
        assert table.hidden_tallies()["red"] == 2 and table.hidden_tallies()["yellow"] == 1
        last = statuses.seen[-1]
        assert last.security.encrypted and last.security.authenticated and last.security.warning is None
        assert link.status.security == last.security
        assert USERS["companion"] not in repr(table.setup)
    finally:
        link.stop()
        port.close()
        table.close()
    resumed = Table.resume(table.path)
    try:
        assert resumed.setup.tower == config  # user, password and files come back with the game
    finally:
        resumed.close()


def test_settings_the_bridge_cannot_use_become_a_status(tmp_path):
    config = TowerConfig(
        kind="mqtt",
        broker="mqtts://127.0.0.1:1",
        tower_id=TOWER,
        username="companion",
        password="x",
        ca_file=str(tmp_path / "moved-away.crt"),
    )
    with pytest.raises(ValueError, match="moved-away.crt: no such file"):
        check_mqtt(config)  # the new-game screen says this before the game starts
    table = table_with(TowerConfig(kind="simulated"))
    statuses = Statuses()
    link = TowerConnection(table, config, on_status=statuses).start()  # e.g. a resumed game
    try:
        assert link.bridge is None
        [status] = statuses.seen
        assert status.state == "disconnected" and "not started: CA file" in status.message
        assert status.security.encrypted and status.security.warning is None
        link.empty("tok")  # nothing to tell, nothing raised
    finally:
        link.stop()
        table.close()


def test_an_open_link_is_flagged_and_serial_is_not(tmp_path):
    broker = Broker(tmp_path).start()
    table = table_with(TowerConfig(kind="simulated"))
    open_link = closed = None
    try:
        statuses = Statuses()
        open_link = TowerConnection(
            table, TowerConfig(kind="mqtt", broker=broker.url, tower_id=TOWER), on_status=statuses
        ).start()
        statuses.wait(lambda s: s.state == "connecting")
        warning = statuses.seen[-1].security.warning
        assert "not encrypted" in warning and "anonymous" in warning
        local = Statuses()
        closed = TowerConnection(table, TowerConfig(kind="simulated"), on_status=local).start()
        local.wait(lambda s: s.state == "connected")
        assert local.seen[-1].security.local and local.seen[-1].security.warning is None
    finally:
        for link in (open_link, closed):
            if link:
                link.stop()
        table.close()
        broker.stop()


def test_games_saved_before_these_settings_still_load():
    old = {"kind": "mqtt", "broker": "mqtt://10.0.0.2:1883", "tower_id": TOWER}
    config = TowerConfig.model_validate(old)
    assert config.username is None and config.ca_file is None and config.password is None
