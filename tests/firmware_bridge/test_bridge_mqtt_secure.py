"""The locked-down MQTT link against a real mosquitto built from the shipped
hardware/mosquitto files (TLS with certificates made here, passwords, the ACL):
the real (simulated) tower's drops arrive exactly once; a stranger can neither
connect anonymously, nor inject drops, spoof a boot or a hello, nor command
the tower; bad credentials and bad certificates give one clear status line."""

import threading
import time

import pytest

from firmware_bridge import framing
from firmware_bridge.sim import MqttPort, SimulatedTower
from firmware_bridge.transport_mqtt import MqttBridge
from tests.firmware_bridge.bridge_helpers import Collector, assert_exactly_once_in_order
from tests.firmware_bridge.locked_broker import STRANGER, TOWER, USERS, LockedBroker, client, close, make_certs

COMPANION = {"username": "companion", "password": USERS["companion"]}


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    d = tmp_path_factory.mktemp("certs")
    make_certs(d, "127.0.0.1", "localhost")
    make_certs(d, "--client", "companion")
    make_certs(d, "--client", TOWER)
    return d


@pytest.fixture
def locked(tmp_path, certs):
    b = LockedBroker(tmp_path, certs).start()
    yield b
    b.stop()


def has_state(state, needle=""):
    return lambda c: any(s.state == state and needle in (s.message or "") for s in c.statuses)


def start_tower(broker, seed, **kw):
    tower = SimulatedTower(TOWER, seed=seed)
    options = {"username": TOWER, "password": USERS[TOWER], "cafile": broker.ca, **kw}
    port = MqttPort(tower, broker.url, backoff_min=0.2, backoff_max=1.0, **options)
    return tower, port


def start_bridge(broker, **kw):
    c = Collector()
    options = {**COMPANION, "cafile": broker.ca, "backoff_min": 0.2, "backoff_max": 1.0, **kw}
    return c, MqttBridge(broker.url, TOWER, c.drop, c.status, **options).start()


def test_tower_over_tls_and_passwords_delivers_exactly_once(locked):
    tower, port = start_tower(locked, 41)
    c, bridge = start_bridge(locked)
    try:
        c.wait(has_state("connected"), 15, "connected over TLS")
        for _ in range(30):
            tower.drop()
        c.wait_drops(30, 15)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 30)])
        assert bridge.security.encrypted and bridge.security.authenticated and bridge.security.warning is None
        assert c.statuses[-1].transport.startswith("mqtts 127.0.0.1:")
        c.wait(lambda _: tower.acked == 30, 10, "the tower to hear the acks (the companion may command it)")
    finally:
        bridge.stop()
        port.close()


def test_anonymous_and_wrong_passwords_are_refused_with_a_clear_status(locked):
    anonymous, result = client(locked, None)
    close(anonymous)
    assert result["connack"].is_failure and "authori" in str(result["connack"]).lower()
    tower, port = start_tower(locked, 42)
    c_anon, anon = start_bridge(locked, username=None, password=None)
    c_bad, bad = start_bridge(locked, username="companion", password="wrong")
    c_good, good = start_bridge(locked)
    try:
        c_good.wait(has_state("connected"), 15, "the right password connects")
        c_anon.wait(has_state("disconnected", "not authorised"), 15, "the anonymous bridge refused")
        c_bad.wait(has_state("disconnected", "not authorised"), 15, "the wrong password refused")
        assert "anonymous client" in c_anon.statuses[-1].message
        assert "user 'companion'" in c_bad.statuses[-1].message
        assert "check the user name and password" in c_bad.statuses[-1].message
        assert anon.security.warning and "anonymous" in anon.security.warning
        tower.drop("green")
        c_good.wait_drops(1, 10)
        time.sleep(0.5)  # the refused bridges keep trying, with backoff, and never crash
        assert c_anon.drops == [] and c_bad.drops == []
        assert bad.client._thread is not None and bad._ticker.is_alive()
        assert "Traceback" not in "".join(s.message or "" for s in c_bad.statuses)
        # a tower with a wrong password says why too
        problems = []
        wrong = MqttPort(
            SimulatedTower(TOWER, seed=9),
            locked.url,
            username=TOWER,
            password="nope",
            cafile=locked.ca,
            backoff_min=0.2,
            backoff_max=1.0,
            on_problem=problems.append,
        )
        try:
            c_good.wait(lambda _: problems, 10, "the tower's refusal")
            assert "not authorised" in problems[0] and TOWER in problems[0]
        finally:
            wrong.close()
    finally:
        for b in (anon, bad, good):
            b.stop()
        port.close()


def forge(msg: dict) -> bytes:
    return framing.encode(msg)


def test_a_stranger_cannot_inject_drops_spoof_a_boot_or_command_the_tower(locked):
    tower, port = start_tower(locked, 43)
    c, bridge = start_bridge(locked)
    stranger, overheard = client(locked, STRANGER, USERS[STRANGER], client_id=STRANGER)
    try:
        stranger.subscribe(f"elgrande/tower/{TOWER}/#", qos=1)  # the Castillo's drops are secret too
        c.wait(has_state("connected"), 15, "connected")
        made = [tower.drop(colour) for colour in ("red", "blue", "green", "red", "black")]
        c.wait_drops(5, 10)
        base = f"elgrande/tower/{TOWER}/"
        boot = tower.boot_id
        forged = [
            # the next drop, with the real boot id: would take the real drop 6's place
            (
                "drop",
                {
                    "t": "drop",
                    "boot": boot,
                    "seq": 6,
                    "col": "yellow",
                    "best": "yellow",
                    "conf": 1000,
                    "raw": [420, 300, 110, 850],
                    "amb": [6, 6, 5, 17],
                    "tr": 6000,
                    "multi": False,
                    "est": 1,
                    "ms": 1,
                },
                False,
            ),
            # a spoofed boot: a hello and a heartbeat naming another boot
            ("hello", {**tower.hello(), "boot": "deadbeef", "seq": 0}, True),
            (
                "hb",
                {
                    "t": "hb",
                    "boot": "deadbeef",
                    "seq": 0,
                    "acked": 0,
                    "up": 1,
                    "beam": 0,
                    "held": 0,
                    "lost": 0,
                    "bad": 0,
                    "glitch": 0,
                    "edge_ovf": 0,
                },
                False,
            ),
            # a hello claiming protocol 2, retained: would stop every companion at start
            ("hello", {**tower.hello(), "proto": 2}, True),
            # commands to the tower: only the companion may send them
            ("cmd", {"t": "empty", "token": "forged-empty"}, False),
            ("cmd", {"t": "calibrate", "colours": ["red"], "per": 3}, False),
            ("cmd", {"t": "ack", "boot": boot, "seq": 5}, False),
        ]
        for leaf, msg, retain in forged:
            stranger.publish(base + leaf, forge(msg), qos=1, retain=retain).wait_for_publish(5)
        stranger.publish(base + "status", b"offline", qos=1, retain=True).wait_for_publish(5)
        for _ in range(20):
            made.append(tower.drop())
        c.wait_drops(25, 15)
        time.sleep(0.5)  # anything forged that got through would have arrived by now
        assert_exactly_once_in_order(c.drops, [(boot, 25)])
        for d in c.drops:  # each one the tower made, none forged
            assert (d.colour or "uncertain") == framing.decode(tower.ring[d.seq])["col"]
        assert overheard["messages"] == []
        assert all(s.state != "incompatible" for s in c.statuses)
        assert all(s.boot in (None, boot) for s in c.statuses)
        assert c.statuses[-1].state == "connected"
        # the tower never obeyed the stranger
        assert tower.totals["token"] == "" and tower.totals["epoch"] == 0
        assert tower.totals["drops"] == 25
        assert tower.cal_colours == ["red", "yellow", "green", "blue", "black"] and tower.teaching is None
        # the retained hello and status are still the tower's own (read as the companion's user,
        # which may be connected once: use_username_as_clientid)
        bridge.stop()
        check, seen = client(locked, "companion", USERS["companion"])
        check.subscribe(base + "#", qos=1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and {t.rsplit("/", 1)[1] for t, _, r in seen["messages"] if r} < {
            "hello",
            "status",
        }:
            time.sleep(0.05)
        close(check)
        retained = {t.rsplit("/", 1)[1]: p for t, p, r in seen["messages"] if r}
        hello = framing.decode(retained["hello"])
        assert (hello["boot"], hello["proto"]) == (boot, 1) and retained["status"] == b"online"
    finally:
        close(stranger)
        bridge.stop()
        port.close()


def takeovers(broker, victims, port, bridge, c, tries):
    """A stranger with a valid account of its own connects `tries` times with each victim's
    client id; how often the tower (port) and the companion (bridge) were knocked off."""
    knocked = {"tower": 0, "companion": 0}
    for _ in range(tries):
        for client_id in victims.values():
            connects, downs = port.connects, bridge.link.counters["disconnects"]
            stranger, answer = client(broker, STRANGER, USERS[STRANGER], client_id=client_id)
            assert not answer["connack"].is_failure  # its own login is good
            close(stranger)
            port.tower.drop()  # the link carries on: the drop arrives whatever happened
            c.wait_drops(len(c.drops) + 1, 15)
            knocked["tower"] += port.connects > connects or not port.connected.is_set()
            knocked["companion"] += bridge.link.counters["disconnects"] > downs
    return knocked


def test_another_account_cannot_knock_the_tower_or_the_companion_off(locked, tmp_path, certs):
    """Issue 25: the shipped configuration pins client ids to users (use_username_as_clientid),
    so a stranger connecting with the tower's id (its device id, known from its topics) or the
    companion's takes nobody's session: 0 of 10 each. The control, the same broker without that
    line: the tower is knocked off every time."""
    tower, port = start_tower(locked, 46)
    c, bridge = start_bridge(locked)
    try:
        c.wait(has_state("connected"), 15, "connected")
        knocked = takeovers(locked, {"tower": TOWER, "companion": "companion"}, port, bridge, c, 10)
        assert knocked == {"tower": 0, "companion": 0}
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 20)])
        assert port.connects == 1 and bridge.link.counters["disconnects"] == 0
    finally:
        bridge.stop()
        port.close()
    (tmp_path / "open").mkdir()
    unpinned = LockedBroker(tmp_path / "open", certs, pin_client_ids=False).start()
    tower, port = start_tower(unpinned, 47)
    c, bridge = start_bridge(unpinned)
    try:
        c.wait(has_state("connected"), 15, "connected")
        port.connected.wait(10)
        knocked = takeovers(unpinned, {"tower": TOWER}, port, bridge, c, 2)
        assert knocked["tower"] == 2
    finally:
        bridge.stop()
        port.close()
        unpinned.stop()


def test_the_same_forgery_gets_through_an_open_broker(broker):
    # The control of the test above: without TLS, users and the ACL, the very same
    # forged drop is taken (which is why hardware/README.md locks the broker down).
    tower = SimulatedTower(TOWER, seed=44)
    port = MqttPort(tower, broker.url, backoff_min=0.2, backoff_max=1.0)
    c = Collector()
    bridge = MqttBridge(broker.url, TOWER, c.drop, c.status).start()
    stranger, _ = client_plain(broker)
    try:
        c.wait(has_state("connected"), 15, "connected")
        assert bridge.security.warning and "not encrypted" in bridge.security.warning
        tower.drop("red")
        c.wait_drops(1, 10)
        drop = {
            "t": "drop",
            "boot": tower.boot_id,
            "seq": 2,
            "col": "yellow",
            "best": "yellow",
            "conf": 1000,
            "raw": [420, 300, 110, 850],
            "amb": [6, 6, 5, 17],
            "tr": 6000,
            "multi": False,
            "est": 1,
            "ms": 1,
        }
        stranger.publish(f"elgrande/tower/{TOWER}/drop", forge(drop), qos=1).wait_for_publish(5)
        c.wait_drops(2, 10)
        assert c.drops[1].colour == "yellow" and tower.last_seq == 1  # a drop the tower never made
    finally:
        close(stranger)
        bridge.stop()
        port.close()


def client_plain(broker):
    from paho.mqtt import client as mqtt

    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c, None


def test_bad_certificates_give_one_clear_line(locked, tmp_path):
    other = tmp_path / "other"
    make_certs(other, "127.0.0.1")
    c_ca, wrong_ca = start_bridge(locked, cafile=str(other / "ca.crt"))
    plain = Collector()
    no_tls = MqttBridge(
        locked.url.replace("mqtts://", "mqtt://"),
        TOWER,
        plain.drop,
        plain.status,
        backoff_min=0.2,
        backoff_max=1.0,
        **COMPANION,
    ).start()
    try:
        c_ca.wait(has_state("disconnected", "certificate"), 15, "the wrong CA named")
        assert "the CA file does not vouch for" in c_ca.statuses[-1].message
        plain.wait(has_state("disconnected", "use mqtts://"), 15, "plain MQTT on the TLS port explained")
    finally:
        wrong_ca.stop()
        no_tls.stop()
    with pytest.raises(ValueError, match="no such file"):
        MqttBridge(locked.url, TOWER, print, cafile=str(tmp_path / "missing.crt"))
    (tmp_path / "junk.pem").write_text("not a certificate\n")
    with pytest.raises(ValueError, match="not a PEM certificate"):
        MqttBridge(locked.url, TOWER, print, cafile=str(tmp_path / "junk.pem"))
    with pytest.raises(ValueError, match="key must belong to the certificate"):
        MqttBridge(
            locked.url,
            TOWER,
            print,
            cafile=locked.ca,
            certfile=str(locked.certs / "companion.crt"),
            keyfile=str(locked.certs / f"{TOWER}.key"),
        )


def test_client_certificates_when_the_broker_requires_them(tmp_path, certs):
    b = LockedBroker(tmp_path, certs, require_certificate=True).start()
    tower, port = start_tower(b, 45, certfile=str(certs / f"{TOWER}.crt"), keyfile=str(certs / f"{TOWER}.key"))
    c_none, without = start_bridge(b)
    c, bridge = start_bridge(b, certfile=str(certs / "companion.crt"), keyfile=str(certs / "companion.key"))
    try:
        c.wait(has_state("connected"), 15, "connected with a client certificate")
        for _ in range(10):
            tower.drop()
        c.wait_drops(10, 10)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 10)])
        c_none.wait(has_state("disconnected", "client certificate"), 15, "the missing certificate named")
    finally:
        without.stop()
        bridge.stop()
        port.close()
        b.stop()


def test_heartbeats_that_stop_show_the_tower_offline_before_its_last_will(locked):
    tower, port = start_tower(locked, 46)
    c, bridge = start_bridge(locked, silence_timeout=1.0)
    stop = threading.Event()
    beats = threading.Thread(
        target=lambda: [tower.heartbeat() for _ in iter(lambda: stop.wait(0.2), True)], daemon=True
    )
    beats.start()
    try:
        c.wait(has_state("connected"), 15, "connected")
        tower.drop("red")
        c.wait_drops(1, 10)
        port.freeze()  # the tower's Wi-Fi stalls: the broker holds its Last Will for 45 s (keepalive 30)
        c.wait(lambda c: c.statuses[-1].state == "disconnected", 5, "silence noticed")
        assert c.statuses[-1].message == "no frame from the tower for 1 s"
        for _ in range(5):
            tower.drop()
        port.thaw()
        c.wait(lambda c: c.statuses[-1].state == "connected", 15, "back once heartbeats come again")
        c.wait_drops(6, 10)
        assert_exactly_once_in_order(c.drops, [(tower.boot_id, 6)])
    finally:
        stop.set()
        bridge.stop()
        port.close()


# ---- the commands a builder runs --------------------------------------------------------


def test_tower_sim_and_listen_over_mqtts_with_passwords(locked, monkeypatch):
    import json

    from tests.firmware_bridge.test_bridge_cli import Proc, run

    url = locked.url.replace("mqtts://", f"mqtts://{TOWER}:{USERS[TOWER]}@")
    sim = Proc(
        "tower-sim",
        "--mqtt",
        url,
        "--tower-id",
        TOWER,
        "--cafile",
        locked.ca,
        "--random",
        "10",
        "--rate",
        "100",
        "--seed",
        "3",
    )
    try:
        assert sim.line().startswith(f"MQTT 127.0.0.1:{locked.port} elgrande/tower/{TOWER}/")
        monkeypatch.setenv("ELGRANDE_MQTT_PASSWORD", USERS["companion"])  # kept off the command line
        out = run(
            "listen",
            "--mqtt",
            locked.url,
            "--tower-id",
            TOWER,
            "--username",
            "companion",
            "--cafile",
            locked.ca,
            "--json",
            "--count",
            "10",
            timeout=60,
        )
        assert out.returncode == 0, out.stderr
        objs = [json.loads(x) for x in out.stdout.splitlines()]
        assert [o["seq"] for o in objs if "seq" in o] == list(range(1, 11))
        security = [o["security"] for o in objs if "status" in o][-1]
        assert security["encrypted"] and security["authenticated"] and security["warning"] is None
    finally:
        assert sim.stop() == 0


def test_listen_and_tower_sim_say_why_the_broker_refuses_them(locked):
    from tests.firmware_bridge.test_bridge_cli import Proc

    listen = Proc(
        "listen",
        "--mqtt",
        locked.url,
        "--tower-id",
        TOWER,
        "--username",
        "companion",
        "--password",
        "wrong",
        "--cafile",
        locked.ca,
    )
    sim = Proc(
        "tower-sim",
        "--mqtt",
        locked.url,
        "--tower-id",
        TOWER,
        "--username",
        TOWER,
        "--password",
        "nope",
        "--cafile",
        locked.ca,
    )
    try:
        line = listen.line()
        while "not authorised" not in line:
            line = listen.line()
        assert line.startswith("link  disconnected") and "user 'companion'" in line
        assert listen.p.poll() is None  # it keeps trying: a fixed password file is picked up
        sim.line()  # MQTT ...
    finally:
        assert listen.stop() == 0
        assert sim.stop() == 0
    assert "Traceback" not in listen.p.stderr.read()
    err = sim.p.stderr.read()
    assert "not authorised" in err and "Traceback" not in err and err.count("\n") == 1


def test_listen_warns_when_the_link_is_open(broker):
    from tests.firmware_bridge.test_bridge_cli import Proc

    listen = Proc("listen", "--mqtt", broker.url, "--tower-id", TOWER)
    try:
        first = listen.line()
        assert first.startswith("link  warning: the tower link is not encrypted") and "anonymous" in first
    finally:
        listen.stop()
