"""The app with a tower on MQTT, under Xvfb: the new-game screen's MQTT fields
(user, password, CA file), a TLS broker with passwords (the shipped
hardware/mosquitto files, real mosquitto) counting the tower's drops, and the
tower bar and panel warning about an open mqtt:// link."""

import json
import time

from firmware_bridge.sim import MqttPort, SimulatedTower
from tests.companion.ui.test_app import Launch, _looks_like_a_screen
from tests.firmware_bridge.bridge_helpers import Broker
from tests.firmware_bridge.locked_broker import TOWER, USERS, LockedBroker, make_certs

ACK_SECONDS = 30.0  # a loaded machine: the last ack is usually there at once


def _acked(tower: SimulatedTower, seq: int, seconds: float = ACK_SECONDS) -> int:
    """The tower's highest acknowledged drop, once it reaches seq (or when the time is up)."""
    end = time.monotonic() + seconds
    while tower.acked < seq and time.monotonic() < end:
        time.sleep(0.02)
    return tower.acked


def test_new_game_with_a_locked_broker_and_a_warning_for_an_open_one(tmp_path):
    make_certs(tmp_path / "certs", "127.0.0.1")
    (tmp_path / "locked").mkdir()
    (tmp_path / "open").mkdir()
    locked = LockedBroker(tmp_path / "locked", tmp_path / "certs").start()
    open_broker = Broker(tmp_path / "open").start()
    tower = SimulatedTower(TOWER, seed=71)
    on_locked = MqttPort(
        tower, locked.url, username=TOWER, password=USERS[TOWER], cafile=locked.ca, backoff_min=0.2, backoff_max=1.0
    )
    on_open = MqttPort(SimulatedTower(TOWER, seed=72), open_broker.url, backoff_min=0.2, backoff_max=1.0)
    for colour in ("red", "red", "blue"):
        tower.drop(colour)
    env = {
        "ELGRANDE_TEST_MQTT": json.dumps(
            {
                "locked": locked.url,
                "open": open_broker.url,
                "tower": TOWER,
                "password": USERS["companion"],
                "ca": locked.ca,
            }
        )
    }
    try:
        launch = Launch("mqtt", ["mqtt_scenarios:locked_and_open_tower"], tmp_path, env=env)
        acked = _acked(tower, 3)  # before the tower's link closes: the last ack may be on its way
    finally:
        on_locked.close()
        on_open.close()
        locked.stop()
        open_broker.stop()
    outcome, shots = launch.of("mqtt_scenarios:locked_and_open_tower")
    for name in ("setup_mqtt", "tower_panel_locked", "table_open_link", "tower_panel_open"):
        _looks_like_a_screen(shots / f"{name}.png")
    assert acked == 3, (
        f"the tower heard acks up to drop {acked} within {ACK_SECONDS:.0f} s, not 3"
    )  # the app stored them
