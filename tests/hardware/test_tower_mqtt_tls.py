"""The firmware's locked-down MQTT settings (mqtt_setup.py) on the real MicroPython:
TLS contexts from real certificate files (made by hardware/mosquitto/make-certs.sh),
a real TLS handshake and CONNECT against a real mosquitto built from the shipped
files, and every setting or connection problem said once, as a fault frame on
USB serial, while the tower goes on counting."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import towersim
import tracegen

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.firmware_bridge.locked_broker import (  # noqa: E402
    STRANGER,
    TOWER,
    USERS,
    LockedBroker,
    client,
    close,
    make_certs,
)

FIRMWARE = ROOT / "hardware" / "firmware"
PROBE = Path(__file__).with_name("mqtt_probe.py")
DEV = "castillo-test"  # the harness's device id


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    d = tmp_path_factory.mktemp("certs")
    make_certs(d, "127.0.0.1", "localhost")
    make_certs(d, "--client", TOWER)
    return d


def faults(r, code):
    return [f["msg"] for f in r.of_type("fault") if f["code"] == code]


def counting_trace(seed, config, mqtt):
    tb = tracegen.TraceBuilder(seed=seed, flicker=0, glitches=0, config=config, mqtt=mqtt)
    tracegen.calibrate(tb)
    for colour in ("red", "blue", "green"):
        tb.wait(400000)
        tb.drop(colour)
    tb.wait(8000000)  # several reconnection attempts (1, 2, 4 s)
    return tb


def test_tls_and_a_password_make_a_checked_client_and_connect(micropython, certs):
    config = {"mqtt_tls": True, "mqtt_ca_file": str(certs / "ca.der"), "mqtt_password": "pw"}
    r, _ = towersim.run_builder(counting_trace(81, config, {"up": True, "tls": True, "users": {DEV: "pw"}}), timeout=60)
    assert r.connects and r.connects[0][1]  # the first attempt connects: TLS context, user = device id
    assert faults(r, "mqtt_error") == [] and faults(r, "mqtt_config") == []
    drops = [towersim.decode_frame(p[2]) for p in r.pubs if p[1].endswith("/drop")]
    assert [d["col"] for d in drops] == ["red", "blue", "green"]


def test_a_wrong_password_is_said_once_on_serial_and_counting_goes_on(micropython, certs):
    config = {"mqtt_tls": True, "mqtt_ca_file": str(certs / "ca.der"), "mqtt_password": "wrong"}
    r, _ = towersim.run_builder(counting_trace(82, config, {"up": True, "tls": True, "users": {DEV: "pw"}}), timeout=60)
    assert len(r.connects) >= 3 and not any(ok for _, ok in r.connects)
    assert faults(r, "mqtt_error") == [
        "the broker at broker:8883 refused the connection: not authorised "
        f"(user '{DEV}'; check mqtt_user and mqtt_password)"
    ]  # once, though it keeps trying
    assert [f["col"] for f in r.of_type("drop")] == ["red", "blue", "green"]  # over serial


def test_plain_mqtt_to_a_tls_broker_is_said_once(micropython):
    r, _ = towersim.run_builder(counting_trace(83, {}, {"up": True, "tls": True}), timeout=60)
    assert faults(r, "mqtt_error") == ["lost or no connection to the broker at broker:1883 (errno 104)"]


@pytest.mark.parametrize(
    "config,says",
    [
        ({"mqtt_tls": True}, "mqtt_tls needs mqtt_ca_file"),
        ({"mqtt_tls": True, "mqtt_ca_file": "/nonexistent/ca.der"}, "/nonexistent/ca.der: no such file on the board"),
        ({"mqtt_tls": True, "mqtt_ca_file": "$certs/ca.crt"}, "give DER files"),
        (
            {"mqtt_tls": True, "mqtt_ca_file": "$certs/ca.der", "mqtt_cert_file": "$certs/x.der"},
            "mqtt_cert_file and mqtt_key_file go together",
        ),
        ({"mqtt_ca_file": "$certs/ca.der"}, 'mqtt_ca_file is for TLS: set "mqtt_tls": true'),
        ({"mqtt_port": "8883"}, "mqtt_port: a number from 1 to 65535"),
        ({"mqtt_tls": "yes"}, "mqtt_tls: true or false"),
    ],
)
def test_settings_that_cannot_work_are_named_and_the_tower_counts_on(micropython, certs, config, says):
    config = {k: v.replace("$certs", str(certs)) if isinstance(v, str) else v for k, v in config.items()}
    r, _ = towersim.run_builder(counting_trace(84, config, {"up": True}), timeout=60)
    [problem] = faults(r, "mqtt_config")
    assert says in problem
    assert r.connects == []  # never tries with settings that cannot work
    assert [f["col"] for f in r.of_type("drop")] == ["red", "blue", "green"]
    assert r.of_type("hello")[0]["t"] == "hello" and r.frames[0][1]["t"] == "hello"  # hello first, then the fault


# ---- a real TLS handshake: host MicroPython against the shipped mosquitto set-up ----------


@pytest.fixture
def locked(tmp_path, certs):
    b = LockedBroker(tmp_path, certs, require_certificate=False).start()
    yield b
    b.stop()


def probe(micropython, tmp_path, settings: dict, dev: str = TOWER) -> str:
    path = tmp_path / f"settings-{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps(settings))
    other = STRANGER if dev == TOWER else TOWER
    out = subprocess.run(
        [micropython, str(PROBE), str(FIRMWARE), str(path), dev, other], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_firmware_settings_meet_the_shipped_broker(micropython, locked, certs, tmp_path):
    settings = {
        "mqtt_server": "127.0.0.1",
        "mqtt_port": locked.port,
        "mqtt_tls": True,
        "mqtt_ca_file": str(certs / "ca.der"),
        "mqtt_password": USERS[TOWER],
    }
    watcher, seen = client(locked, "companion", USERS["companion"])
    watcher.subscribe("elgrande/tower/#", qos=1)
    try:
        assert probe(micropython, tmp_path, settings) == "CONNECTED"
        wrong = probe(micropython, tmp_path, {**settings, "mqtt_password": "nope"})
        assert wrong == (
            f"ERROR the broker at 127.0.0.1:{locked.port} refused the connection: not authorised "
            f"(user '{TOWER}'; check mqtt_user and mqtt_password)"
        )
        anonymous = probe(micropython, tmp_path, {**settings, "mqtt_password": None})
        assert "not authorised (anonymous" in anonymous
        other = tmp_path / "other"
        make_certs(other, "127.0.0.1")
        bad_ca = probe(micropython, tmp_path, {**settings, "mqtt_ca_file": str(other / "ca.der")})
        assert bad_ca.startswith("ERROR TLS: the broker's certificate was not accepted"), bad_ca
        by_name = probe(micropython, tmp_path, {**settings, "mqtt_server": "localhost"})
        assert by_name == "CONNECTED"  # the certificate names both
        # the stranger's own login works, but the ACL keeps it to its own topics
        assert probe(micropython, tmp_path, {**settings, "mqtt_password": USERS[STRANGER]}, STRANGER) == "CONNECTED"
    finally:
        close(watcher)
    topics = [(t, p) for t, p, _ in seen["messages"]]
    assert (f"elgrande/tower/{TOWER}/hello", b"probe-hello") in topics
    assert not any(p in (b"forged-drop", b"forged-cmd") for _, p in topics)


def test_a_client_certificate_in_der(micropython, certs, tmp_path):
    (tmp_path / "b").mkdir()
    b = LockedBroker(tmp_path / "b", certs, require_certificate=True).start()
    try:
        settings = {
            "mqtt_server": "127.0.0.1",
            "mqtt_port": b.port,
            "mqtt_tls": True,
            "mqtt_ca_file": str(certs / "ca.der"),
            "mqtt_password": USERS[TOWER],
        }
        with_cert = {
            **settings,
            "mqtt_cert_file": str(certs / f"{TOWER}.der"),
            "mqtt_key_file": str(certs / f"{TOWER}.key.der"),
        }
        assert probe(micropython, tmp_path, with_cert) == "CONNECTED"
        without = probe(micropython, tmp_path, settings)
        assert without.startswith("ERROR") and "wants a client certificate" in without, without
    finally:
        b.stop()


CLOCK_AND_FACTORY = r"""
import sys
sys.path.insert(0, FIRMWARE)
import mqtt_setup

class Clock:
    now = 0
    def ticks_ms(self):
        return self.now

answers = []
def settime(server):
    if not answers.pop(0):
        raise OSError(110)

clock = Clock()
sync = mqtt_setup.ClockSync("ntp.lan", settime, clock, retry_ms=30000)
answers[:] = [False, True]
cfg = {"mqtt_server": "broker", "mqtt_tls": True, "mqtt_ca_file": CA, "mqtt_password": "pw",
       "wifi_ssid": "net"}

class Umqtt:  # umqtt.simple 1.4+: takes ssl=SSLContext
    def __init__(self, **kw):
        self.kw = kw

class OldUmqtt(Umqtt):  # before 1.4: ssl=True, ssl_params, no certificate check
    ssl_params = {}

import ssl
make, describe = mqtt_setup.client_factory(cfg, "castillo-x", Umqtt, ssl, lambda: True, sync)
for step in range(3):
    try:
        c = make()
        print("MADE", c.kw["user"], c.kw["port"], c.kw["ssl"] is not None)
    except Exception as e:
        print("DOWN", describe(e))
    clock.now += 31000 if step else 1000
make_old, describe_old = mqtt_setup.client_factory(cfg, "castillo-x", OldUmqtt, ssl)
try:
    make_old()
except Exception as e:
    print("DOWN", describe_old(e))
make_nowifi, describe_nowifi = mqtt_setup.client_factory(cfg, "castillo-x", Umqtt, ssl, lambda: False)
try:
    make_nowifi()
except Exception as e:
    print("DOWN", describe_nowifi(e))
"""


def test_the_clock_is_set_before_tls_and_each_reason_is_said_plainly(micropython, certs, tmp_path):
    script = tmp_path / "clock.py"
    script.write_text(f"FIRMWARE = {str(FIRMWARE)!r}\nCA = {str(certs / 'ca.der')!r}\n" + CLOCK_AND_FACTORY)
    out = subprocess.run([micropython, str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "DOWN clock not set: NTP ntp.lan did not answer (110); TLS cannot check certificate dates: "
        "set ntp_server to a server on this network",
        "DOWN clock not set yet (NTP ntp.lan did not answer); TLS cannot check certificate dates: "
        "set ntp_server to a server on this network",  # 1 s later: not asked again before 30 s
        "MADE castillo-x 8883 True",  # 30 s later the NTP server answers
        "DOWN umqtt.simple is too old for a checked TLS link: mpremote mip install umqtt.simple",
        "DOWN Wi-Fi not connected (wifi_ssid 'net')",
    ]


def test_a_broken_settings_file_is_said_and_the_defaults_are_used(micropython, tmp_path):
    (tmp_path / "broken.json").write_text('{"mqtt_server": "192.168.1.10", "mqtt_tls": tru')
    (tmp_path / "list.json").write_text('["mqtt_server"]')
    (tmp_path / "good.json").write_text('{"mqtt_server": "192.168.1.10"}')
    script = tmp_path / "load.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(FIRMWARE)!r})\nimport defaults\n"
        f"cfg = defaults.load({str(tmp_path / 'broken.json')!r}, {str(tmp_path / 'list.json')!r}, "
        f"{str(tmp_path / 'missing.json')!r}, {str(tmp_path / 'good.json')!r})\n"
        "print(cfg['mqtt_server'], cfg['mqtt_tls'])\nfor e in cfg['settings_errors']: print(e)\n"
    )
    out = subprocess.run([micropython, str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "192.168.1.10 False"
    assert "broken.json is not valid JSON" in lines[1] and "list.json must hold a JSON object" in lines[2]
    assert len(lines) == 3
