"""A locked-down mosquitto made from the files hardware/README.md ships
(hardware/mosquitto/: mosquitto.conf, acl, make-certs.sh): TLS with
certificates made here by Debian's openssl, a password file made with
mosquitto_passwd, and the shipped ACL. Only the paths and the port change."""

from __future__ import annotations

import getpass
import shutil
import subprocess
import threading
from pathlib import Path

from paho.mqtt import client as mqtt

from tests.firmware_bridge.bridge_helpers import Broker, free_port

SHIPPED = Path(__file__).resolve().parents[2] / "hardware" / "mosquitto"
MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"
TOWER = "castillo-a1b2c3"
STRANGER = "castillo-bbbbbb"  # another tower's user: valid credentials, not this tower's
USERS = {"companion": "table-secret", TOWER: "tower-secret", STRANGER: "stranger-secret"}


def make_certs(directory: Path, *args: str) -> None:
    subprocess.run(
        ["sh", str(SHIPPED / "make-certs.sh"), str(directory), *args], check=True, capture_output=True, timeout=60
    )


def make_passwords(path: Path, users: dict[str, str]) -> None:
    path.write_text("")
    for user, password in users.items():
        subprocess.run([MOSQUITTO_PASSWD, "-b", str(path), user, password], check=True, capture_output=True, timeout=30)


class LockedBroker(Broker):
    def __init__(
        self,
        directory: Path,
        certs: Path,
        users: dict[str, str] = USERS,
        require_certificate: bool = False,
        pin_client_ids: bool = True,
    ):
        self.port = free_port()
        self.url = f"mqtts://127.0.0.1:{self.port}"
        self.certs = certs
        self.ca = str(certs / "ca.crt")
        home = directory / "elgrande"
        home.mkdir()
        shutil.copytree(certs, home / "certs")
        shutil.copy(SHIPPED / "acl", home / "acl")
        make_passwords(home / "passwd", users)
        conf = (SHIPPED / "mosquitto.conf").read_text()
        for old, new in (
            [("/etc/mosquitto/elgrande/", f"{home}/"), ("\nlistener 8883\n", f"\nlistener {self.port} 127.0.0.1\n")]
            + ([("require_certificate false", "require_certificate true")] if require_certificate else [])
            + ([] if pin_client_ids else [("\nuse_username_as_clientid true", "\n")])
        ):  # the control
            assert old in conf, f"the shipped mosquitto.conf changed: no {old!r}"
            conf = conf.replace(old, new)
        self.conf = directory / "mosquitto.conf"
        # as root, mosquitto would switch to the 'mosquitto' user, who cannot read the test's files
        self.conf.write_text(conf + f"\nlog_dest stderr\npersistence false\nuser {getpass.getuser()}\n")
        self.log = directory / "mosquitto.log"
        self.proc = None


def client(
    broker: LockedBroker,
    user: str | None,
    password: str | None = None,
    *,
    cafile: str | None = None,
    client_id: str = "",
) -> tuple[mqtt.Client, dict]:
    """A raw paho client (a stranger, or a check), connected and looping; `result`
    holds its CONNACK reason and every message it receives."""
    result: dict = {"connack": None, "messages": [], "answered": threading.Event()}
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)
    c.tls_set(ca_certs=cafile or broker.ca)
    if user:
        c.username_pw_set(user, password)

    def on_connect(cl, userdata, flags, reason_code, properties):
        result["connack"] = reason_code
        result["answered"].set()

    def on_message(cl, userdata, message):
        result["messages"].append((message.topic, message.payload, message.retain))

    c.on_connect = on_connect
    c.on_message = on_message
    c.reconnect_delay_set(5, 10)
    c.connect("127.0.0.1", broker.port, keepalive=10)
    c.loop_start()
    assert result["answered"].wait(10), "the broker never answered CONNECT"
    return c, result


def close(c: mqtt.Client) -> None:
    c.disconnect()
    c.loop_stop()
