"""MQTT transport against a real mosquitto on loopback, with the simulated tower."""

import subprocess
import threading

import pytest
from paho.mqtt import client as mqtt

from firmware_bridge.sim import MqttPort, SimulatedTower
from firmware_bridge.transport_mqtt import MqttBridge, parse_broker_url
from tests.firmware_bridge.bridge_helpers import Collector, assert_exactly_once_in_order


def connected(c):
    return c.statuses and c.statuses[-1].state == "connected"


def start_pair(url, seed, **bridge_kw):
    tower = SimulatedTower(seed=seed)
    port = MqttPort(tower, url, backoff_min=0.2, backoff_max=1.0)
    c = Collector()
    bridge = MqttBridge(url, tower.dev, c.drop, c.status, backoff_min=0.2, backoff_max=1.0, **bridge_kw).start()
    return tower, port, c, bridge


def test_topics_retained_state_and_a_burst(broker):
    tower, port, c, bridge = start_pair(broker.url, 31)
    try:
        c.wait(connected, 15, "connected")
        for _ in range(30):  # a burst of 30 drops
            tower.drop()
        c.wait_drops(30, timeout=15)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 30)])
        c.wait(lambda _: tower.acked == 30, 10, "the final ack")
        # retained: a newcomer reads status, hello and totals without asking
        seen = {}
        got_all = threading.Event()
        sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)

        def on_message(client, userdata, msg):
            seen[msg.topic.rsplit("/", 1)[1]] = (msg.payload, msg.retain)
            if {"status", "hello", "totals"} <= set(seen):
                got_all.set()

        sub.on_message = on_message
        sub.on_connect = lambda cl, *a: cl.subscribe(port.base + "#", qos=1)
        sub.connect("127.0.0.1", broker.port)
        sub.loop_start()
        try:
            assert got_all.wait(10)
        finally:
            sub.loop_stop()
            sub.disconnect()
        assert seen["status"] == (b"online", True)
        assert seen["hello"][1] and seen["totals"][1]
    finally:
        bridge.stop()
        port.close()


def test_broker_killed_mid_burst_and_restarted(broker):
    tower, port, c, bridge = start_pair(broker.url, 32)
    try:
        c.wait(connected, 15, "connected")
        for _ in range(60):
            tower.drop()
        c.wait_drops(20, timeout=15)
        broker.kill()  # SIGKILL: no goodbye to anyone, retained state gone (no persistence)
        c.wait(lambda c: c.statuses[-1].state == "disconnected", 15, "the bridge to notice")
        for _ in range(60):  # cubes keep falling while the broker is down
            tower.drop()
        broker.start()
        for _ in range(60):
            tower.drop()
        c.wait_drops(180, timeout=40)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 180)])
        c.wait(connected, 15, "connected again")
        assert bridge.connects >= 2 and port.connects >= 2
    finally:
        bridge.stop()
        port.close()


def test_tower_reboot_mid_burst_over_mqtt(broker):
    tower, port, c, bridge = start_pair(broker.url, 33)
    try:
        c.wait(connected, 15, "connected")
        old = tower.boot_id
        for _ in range(40):
            tower.drop()
        c.wait_drops(40, timeout=15)
        tower.reboot()
        for _ in range(25):
            tower.drop()
        c.wait_drops(65, timeout=20)
        assert_exactly_once_in_order(c.drops, [(old, 40), (tower.boot_id, 25)])
        c.wait(
            lambda _: (
                bridge.link.totals is not None
                and bridge.link.totals.boot == tower.boot_id
                and bridge.link.totals.drops == 65
            ),
            10,
            "the new boot's totals",
        )
    finally:
        bridge.stop()
        port.close()


def test_last_will_shows_the_tower_offline(broker):
    tower, port, c, bridge = start_pair(broker.url, 34, keepalive=5)
    try:
        c.wait(connected, 15, "connected")
        port.vanish()  # the socket dies without a DISCONNECT: the broker sends the Last Will
        c.wait(
            lambda c: c.statuses[-1].state == "disconnected" and "Last Will" in (c.statuses[-1].message or ""),
            15,
            "the Last Will",
        )
    finally:
        bridge.stop()


def test_broker_with_a_password(make_broker, tmp_path):
    pw = tmp_path / "passwd"
    pw.write_text("")
    subprocess.run(["/usr/bin/mosquitto_passwd", "-b", str(pw), "tower", "s3cret"], check=True, timeout=30)
    pw.chmod(0o644)
    b = make_broker(f"password_file {pw}\n", "auth")
    b.conf.write_text(b.conf.read_text().replace("allow_anonymous true", "allow_anonymous false"))
    b.start()
    tower = SimulatedTower(seed=35)
    port = MqttPort(tower, f"mqtt://tower:s3cret@127.0.0.1:{b.port}", backoff_min=0.2, backoff_max=1.0)
    good, bad = Collector(), Collector()
    ok = MqttBridge(b.url, tower.dev, good.drop, good.status, username="tower", password="s3cret").start()
    refused = MqttBridge(b.url, tower.dev, bad.drop, bad.status, username="tower", password="wrong").start()
    try:
        good.wait(connected, 15, "connected with the password")
        tower.drop("green")
        good.wait_drops(1, 10)
        bad.wait(lambda c: any("refused" in (s.message or "") for s in c.statuses), 15, "a refusal")
        assert bad.drops == []
    finally:
        ok.stop()
        refused.stop()
        port.close()


@pytest.mark.parametrize(
    "url,expected",
    [
        ("mqtt://127.0.0.1:1884", ("127.0.0.1", 1884, None, None, False)),
        ("broker.local", ("broker.local", 1883, None, None, False)),
        ("mqtt://u:p%40ss@h", ("h", 1883, "u", "p@ss", False)),
        ("mqtts://broker.local", ("broker.local", 8883, None, None, True)),
        ("mqtts://companion:pw@10.0.0.2:18883/", ("10.0.0.2", 18883, "companion", "pw", True)),
    ],
)
def test_broker_urls(url, expected):
    assert parse_broker_url(url) == expected


@pytest.mark.parametrize(
    "url,says",
    [
        ("http://h", "unknown scheme http://"),
        ("mqtt://", "no broker host"),
        ("mqtt://h:port", "port must be a number"),
        ("mqtts://h:70000", "port must be a number"),
        ("mqtt://h:0", "port must be a number"),
        ("", "no broker address"),
        ("mqtt://h/elgrande/tower", "has no path"),
    ],
)
def test_bad_broker_urls(url, says):
    with pytest.raises(ValueError, match=says):
        parse_broker_url(url)
