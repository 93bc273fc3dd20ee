"""The MQTT bridge on a real mosquitto with no ACL (the worst case): pinning to
the paired tower's topic and id, recovery from a stranger's retained hello,
a poison frame followed by real drops, and callbacks or a network thread that
fail: nothing stops the link, every real drop arrives once, faults are shown."""

import json
import time

from firmware_bridge import framing
from firmware_bridge.sim import MqttPort, SimulatedTower
from firmware_bridge.transport_mqtt import MqttBridge
from tests.firmware_bridge.bridge_helpers import Collector, assert_exactly_once_in_order
from tests.firmware_bridge.test_bridge_cli import Proc

TOWER = "castillo-a1b2c3"
BASE = f"elgrande/tower/{TOWER}/"


def publish(broker, topic: str, payload: bytes, retain: bool = False) -> None:
    from paho.mqtt import publish as single

    single.single(topic, payload, qos=1, retain=retain, hostname="127.0.0.1", port=broker.port)


def pair(broker, seed, **bridge_kw):
    tower = SimulatedTower(TOWER, seed=seed)
    port = MqttPort(tower, broker.url, backoff_min=0.2, backoff_max=1.0)
    c = Collector()
    bridge = MqttBridge(broker.url, TOWER, c.drop, c.status, backoff_min=0.2, backoff_max=1.0, **bridge_kw).start()
    c.wait(lambda c: c.statuses and c.statuses[-1].state == "connected", 15, "connected")
    return tower, port, c, bridge


def test_hellos_of_another_tower_or_on_another_topic_are_ignored(broker):
    tower, port, c, bridge = pair(broker, 51)
    try:
        tower.drop("red")
        c.wait_drops(1, 10)
        other = SimulatedTower("castillo-ffffff", seed=5)
        publish(broker, BASE + "hello", framing.encode(other.hello()), retain=True)  # another tower's hello here
        publish(broker, BASE + "drop", framing.encode({**tower.hello(), "boot": "0badb007"}))  # a hello as a drop
        c.wait(
            lambda _: bridge.refused["foreign_hello"] == 1 and bridge.refused["wrong_topic"] == 1, 10, "both refused"
        )
        for _ in range(10):
            tower.drop()
        c.wait_drops(11, 10)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 11)])
        assert {s.tower for s in c.statuses if s.tower} == {TOWER}
        assert bridge.link.status.counters["foreign_hello"] == 1
    finally:
        bridge.stop()
        port.close()


def test_a_strangers_retained_protocol_2_hello_does_not_stop_listen(broker):
    # No ACL: a stranger left a hello claiming protocol 2 on the tower's topic.
    # The companion refuses it at first, then the real tower's hello v1 wins.
    tower = SimulatedTower(TOWER, seed=52)
    publish(broker, BASE + "hello", framing.encode({**tower.hello(), "proto": 2, "boot": "0badb007"}), retain=True)
    listen = Proc("listen", "--mqtt", broker.url, "--tower-id", TOWER, "--json", "--count", "5")
    try:
        line = json.loads(listen.line())
        assert line["status"] == "connecting" and line["security"]["warning"]
        port = None
        seen = []
        while not any(s.get("status") == "incompatible" for s in seen):
            seen.append(json.loads(listen.line()))
        port = MqttPort(tower, broker.url, backoff_min=0.2, backoff_max=1.0)  # the real tower comes online
        for colour in ("red", "blue", "green", "yellow", "black"):
            tower.drop(colour)
        while True:
            obj = json.loads(listen.line())
            seen.append(obj)
            if obj.get("seq") == 5:
                break
        assert listen.p.wait(10) == 0
        drops = [o for o in seen if "seq" in o]
        assert [(d["seq"], d["colour"], d["boot"]) for d in drops] == [
            (i + 1, col, tower.boot_id) for i, col in enumerate(("red", "blue", "green", "yellow", "black"))
        ]
        assert "connected" in [o.get("status") for o in seen]
    finally:
        listen.stop()
        if port:
            port.close()


def test_poison_frame_then_20_real_drops_over_mosquitto(broker):
    tower, port, c, bridge = pair(broker, 53)
    try:
        tower.drop("red")
        c.wait_drops(1, 10)
        states_before = len(c.statuses)
        # valid CRC, a float in it and a boot that is not a string: once, such a frame
        # killed paho's network thread and every drop after it was lost
        poison = (
            b'{"t":"drop","boot":12345,"seq":2,"col":"red","conf":999.5,"amb":[0,0,0,0],'
            b'"tr":6000,"multi":false,"est":1,"ms":5}'
        )
        publish(broker, BASE + "drop", poison + b"*%04X" % framing.crc16(poison))
        for _ in range(20):
            tower.drop()
        c.wait_drops(21, 15)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 21)])
        shown = [s for s in c.statuses[states_before:] if s.message and "refused a frame" in s.message]
        assert shown, [s.message for s in c.statuses]  # the fault is a status change a person sees
        assert bridge.client._thread is not None and bridge.client._thread.is_alive()
    finally:
        bridge.stop()
        port.close()


def test_a_failing_callback_or_a_dead_network_thread_does_not_stop_the_link(broker):
    tower, port, c, bridge = pair(broker, 54)
    try:
        # 1. a bug in the message path: one call raises; the guard reports it, the next frames pass
        real = bridge._pinned
        calls = {"n": 0}

        def pinned_once_broken(leaf, payload):
            calls["n"] += 1
            if calls["n"] == 1:
                raise RuntimeError("injected bug")
            return real(leaf, payload)

        bridge._pinned = pinned_once_broken
        for _ in range(10):
            tower.drop()
        c.wait_drops(10, 15)  # the frame lost to the bug comes again by replay
        assert any(
            "mqtt on_message failed" in (s.message or "") and "injected bug" in (s.message or "") for s in c.statuses
        )
        # 2. paho's network thread itself dies (a bug outside our callbacks): the ticker starts it again
        client = bridge.client
        handle = client._handle_publish

        def dies_once():
            client._handle_publish = handle
            raise RuntimeError("network thread killed")

        client._handle_publish = dies_once
        for _ in range(10):
            tower.drop()
        c.wait_drops(20, 20)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 20)])
        # (the ticker counts the restart just after the new thread starts: that thread may
        # deliver every drop first)
        c.wait(lambda c: bridge.thread_restarts == 1, 5, "the restart counted")
        c.wait(
            lambda c: any(
                "MQTT network thread failed" in (s.message or "")
                and "network thread killed" in (s.message or "")
                and "restarted" in (s.message or "")
                for s in c.statuses
            ),
            5,
            "the restart shown",
        )

        # 3. a table whose status callback raises does not stop the drops either
        def broken_status(status):
            raise ValueError("the UI is gone")

        bridge.link._on_status = broken_status
        for _ in range(5):
            tower.drop()
        c.wait_drops(25, 15)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 25)])
    finally:
        bridge.stop()
        port.close()


def test_stop_is_quick_and_safe_even_before_start(broker):
    c = Collector()
    never_started = MqttBridge(broker.url, TOWER, c.drop, c.status)
    never_started.stop()
    tower, port, c, bridge = pair(broker, 55)
    t = time.monotonic()
    bridge.stop()
    port.close()
    assert time.monotonic() - t < 5
