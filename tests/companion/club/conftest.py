"""Club night tests: a real mosquitto locked down with the shipped club files
(hardware/mosquitto/club/: mosquitto.conf, acl; certificates by make-certs.sh,
passwords by mosquitto_passwd), on a free loopback port; only the paths and the port change."""

from __future__ import annotations

import getpass
import shutil
import threading
from pathlib import Path

import pytest
from paho.mqtt import client as mqtt

from tests.firmware_bridge.bridge_helpers import Broker, free_port
from tests.firmware_bridge.locked_broker import make_certs, make_passwords

SHIPPED = Path(__file__).resolve().parents[3] / "hardware" / "mosquitto" / "club"
TABLES = ("table-1", "table-2", "table-3", "table-4")
USERS = {"club-board": "board-secret", **{t: f"{t}-secret" for t in TABLES}}
CLUB = "testclub"
TOKEN = "organiser-token-123"


class ClubBroker(Broker):
    def __init__(
        self,
        directory: Path,
        certs: Path,
        users: dict[str, str] = USERS,
        extra: str = "",
        files: Path | None = None,
        port: int | None = None,
    ):
        """`files`: a folder with the acl and passwd to install instead (elgrande club-setup's)."""
        self.port = port or free_port()
        self.url = f"mqtts://127.0.0.1:{self.port}"
        self.ca = str(certs / "ca.crt")
        home = directory / "elgrande-club"
        home.mkdir()
        shutil.copytree(certs, home / "certs")
        if files is None:
            shutil.copy(SHIPPED / "acl", home / "acl")
            make_passwords(home / "passwd", users)
        else:
            shutil.copy(files / "acl", home / "acl")
            shutil.copy(files / "passwd", home / "passwd")
        (directory / "data").mkdir()
        conf = (SHIPPED / "mosquitto.conf").read_text()
        for old, new in [
            ("/etc/mosquitto/elgrande-club/", f"{home}/"),
            ("\nlistener 8883\n", f"\nlistener {self.port} 127.0.0.1\n"),
        ]:
            assert old in conf, f"the shipped club mosquitto.conf changed: no {old!r}"
            conf = conf.replace(old, new)
        # Installed as the README says: the shipped file in conf.d, under a main file like
        # Debian's (which keeps retained messages: persistence and its location).
        conf_d = directory / "conf.d"
        conf_d.mkdir()
        (conf_d / "elgrande-club.conf").write_text(conf + "\n" + extra)
        self.conf = directory / "mosquitto.conf"
        self.conf.write_text(
            f"persistence true\npersistence_location {directory / 'data'}/\nlog_dest stderr\n"
            f"user {getpass.getuser()}\ninclude_dir {conf_d}\n"
        )
        self.log = directory / "mosquitto.log"
        self.proc = None


@pytest.fixture(scope="session")
def certs(tmp_path_factory):
    d = tmp_path_factory.mktemp("club-certs")
    make_certs(d, "127.0.0.1", "localhost")
    return d


@pytest.fixture
def club_broker(tmp_path, certs):
    (tmp_path / "broker").mkdir()
    b = ClubBroker(tmp_path / "broker", certs).start()
    yield b
    b.stop()


def club_config(broker: ClubBroker, table: str, **kw):
    from companion.club.config import ClubConfig

    return ClubConfig(broker=broker.url, club=CLUB, username=table, password=USERS[table], ca_file=broker.ca, **kw)


class Listener:
    """A raw paho client that keeps every message it receives on the club's topics."""

    def __init__(
        self,
        broker: ClubBroker,
        user: str = "club-board",
        password: str | None = None,
        topic: str = f"elgrande/club/{CLUB}/#",
    ):
        self.messages: list[tuple[str, bytes, bool]] = []
        self.cond = threading.Condition()
        self.connack = None
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        c.tls_set(ca_certs=broker.ca)
        c.username_pw_set(user, password if password is not None else USERS.get(user))

        def on_connect(cl, userdata, flags, reason_code, properties):
            self.connack = reason_code
            if not reason_code.is_failure:
                cl.subscribe(topic, qos=1)
            with self.cond:
                self.cond.notify_all()

        def on_message(cl, userdata, message):
            with self.cond:
                self.messages.append((message.topic, message.payload, bool(message.retain)))
                self.cond.notify_all()

        c.on_connect, c.on_message = on_connect, on_message
        c.connect("127.0.0.1", broker.port, keepalive=10)
        c.loop_start()
        self.client = c

    def wait(self, predicate, timeout: float = 20.0, what: str = ""):
        with self.cond:
            if not self.cond.wait_for(lambda: predicate(self.messages), timeout):
                from tests.companion.phones.conftest import awaited

                last = self.messages[-1] if self.messages else "none"
                raise AssertionError(
                    f"waited {timeout:g} s for {what or awaited(predicate)}; "
                    f"got {len(self.messages)} messages, the last: {last}"
                )

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def browser():
    """Debian's Chromium through Playwright (fails, never skips: scripts/setup.sh installs it)."""
    from playwright import sync_api

    from tests.companion.phones.test_browser import ARGS, CHROMIUM

    assert shutil.which(CHROMIUM), f"no Chromium at {CHROMIUM}: run scripts/setup.sh as root (it installs it)"
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
