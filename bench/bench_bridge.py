"""Tower link figures, each next to a baseline measured in the same run.

    .venv/bin/python bench/bench_bridge.py [--quick] [--json]

- latency, simulated tower makes a drop -> the bridge hands it over (p50, p99):
  MQTT (mosquitto on loopback) against a raw paho publish -> on_message on the
  same broker; a pty paced at 115200 baud against a raw pyserial readline on
  the same pty;
- sustained rate with nothing lost or doubled: MQTT at fixed offered rates;
  serial at 115200 as a share of what the line can carry;
- a burst of 30 drops inside 300 ms, over both: all delivered, in order.
Starts its own mosquitto (/usr/sbin/mosquitto) on a free loopback port.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import serial
from paho.mqtt import client as mqtt

from firmware_bridge.sim import MqttPort, PtyPort, SimulatedTower
from firmware_bridge.transport_mqtt import MqttBridge
from firmware_bridge.transport_serial import SerialBridge

BAUD = 115200
WARMUP = 20  # first samples of each series left out: connections and caches settle


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def ms(v):
    return round(v * 1000, 3)


class Sink:
    def __init__(self):
        self.at = {}
        self.keys = []
        self.cond = threading.Condition()

    def drop(self, d):
        now = time.perf_counter()
        with self.cond:
            self.keys.append((d.boot, d.seq))
            self.at.setdefault(d.seq, now)
            self.cond.notify_all()

    def wait(self, n, timeout):
        with self.cond:
            return self.cond.wait_for(lambda: len(self.keys) >= n, timeout)


def exact(keys, boot, n):
    return keys == [(boot, s) for s in range(1, n + 1)]


# ---- broker -----------------------------------------------------------------------


class Broker:
    def __init__(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.dir = tempfile.mkdtemp(prefix="bench-mqtt-")
        conf = Path(self.dir) / "m.conf"
        conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            f"user {os.environ.get('USER', 'root')}\n"
        )
        self.proc = subprocess.Popen(
            ["/usr/sbin/mosquitto", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                break
            except OSError:
                time.sleep(0.02)
        self.url = f"mqtt://127.0.0.1:{self.port}"

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(10)


def mqtt_pair(url, seed):
    tower = SimulatedTower(seed=seed)
    tower.sent_at = {}
    port = MqttPort(tower, url, backoff_min=0.2, backoff_max=1.0)
    sink = Sink()
    bridge = MqttBridge(url, tower.dev, sink.drop).start()
    deadline = time.monotonic() + 15
    while bridge.link.status.state != "connected" and time.monotonic() < deadline:
        time.sleep(0.01)
    return tower, port, sink, bridge


def sample_frame(seq=1):
    t = SimulatedTower(seed=1)
    for _ in range(seq):
        t.drop("red")
    return t.ring[seq]


def mqtt_latency(url, n, gap):
    tower, port, sink, bridge = mqtt_pair(url, 41)
    try:
        for _ in range(n):
            tower.drop()
            time.sleep(gap)  # a paced producer: latency, not queueing
        sink.wait(n, 30)
        lat = [sink.at[s] - tower.sent_at[s] for s in range(WARMUP + 1, n + 1) if s in sink.at]
        ok = exact(sink.keys, tower.boot_id, n)
    finally:
        bridge.stop()
        port.close()
    # baseline: raw paho, publish QoS 1 -> on_message, same broker, same frame
    got, sent = {}, {}
    done = threading.Event()
    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    subscribed = threading.Event()

    def on_message(c, u, m):
        i = int(m.payload.split(b'"ms":', 1)[1].split(b",", 1)[0])
        got[i] = time.perf_counter()
        if len(got) >= n:
            done.set()

    sub.on_message = on_message
    sub.on_subscribe = lambda *a: subscribed.set()
    sub.on_connect = lambda c, *a: c.subscribe("bench/raw", qos=1)
    host, port_no = "127.0.0.1", int(url.rsplit(":", 1)[1])
    sub.connect(host, port_no)
    sub.loop_start()
    pub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    pub.connect(host, port_no)
    pub.loop_start()
    subscribed.wait(10)
    frame = sample_frame()
    for i in range(n):
        payload = frame.replace(b'"ms":', b'"ms":%d,"x":' % i, 1)
        sent[i] = time.perf_counter()
        pub.publish("bench/raw", payload, qos=1)
        time.sleep(gap)
    done.wait(30)
    for c in (pub, sub):
        c.loop_stop()
        c.disconnect()
    base = [got[i] - sent[i] for i in got if i >= WARMUP]
    return lat, base, ok


def mqtt_rate(url, rate, seconds):
    tower, port, sink, bridge = mqtt_pair(url, 42)
    try:
        n = int(rate * seconds)
        start = time.perf_counter()
        made = 0
        while made < n:  # offered load: the drops due by now
            due = min(n, int((time.perf_counter() - start) * rate) + 1)
            while made < due:
                tower.drop()
                made += 1
            time.sleep(0.002)
        sink.wait(n, 60)
        end = max(sink.at.values()) if sink.at else time.perf_counter()
        ok = exact(sink.keys, tower.boot_id, n)
        return {
            "offered_per_s": rate,
            "drops": n,
            "delivered": len(sink.keys),
            "delivered_per_s": round(len(sink.keys) / (end - start)),
            "exactly_once_in_order": ok,
            "lost_on_tower": tower.lost,
            "link_lost": bridge.link.counters["lost"],
        }
    finally:
        bridge.stop()
        port.close()


def mqtt_burst(url):
    tower, port, sink, bridge = mqtt_pair(url, 43)
    try:
        t0 = time.perf_counter()
        for i in range(30):
            time.sleep(max(0.0, t0 + i * 0.009 - time.perf_counter()))  # 30 drops in 261 ms
            tower.drop()
        sink.wait(30, 30)
        return {
            "delivered": len(sink.keys),
            "in_order_once": exact(sink.keys, tower.boot_id, 30),
            "made_in_ms": ms(tower.sent_at[30] - tower.sent_at[1]),
            "last_handed_over_after_ms": ms(sink.at.get(30, float("nan")) - tower.sent_at[30]),
        }
    finally:
        bridge.stop()
        port.close()


# ---- serial -----------------------------------------------------------------------


def serial_bridge(seed, baud=BAUD):
    tower = SimulatedTower(seed=seed)
    tower.sent_at = {}
    port = PtyPort(tower, baud=baud)
    sink = Sink()
    bridge = SerialBridge(port.path, sink.drop).start()
    deadline = time.monotonic() + 15
    while bridge.link.status.state != "connected" and time.monotonic() < deadline:
        time.sleep(0.01)
    return tower, port, sink, bridge


def raw_reader(port, n):
    """Baseline: a raw pyserial readline loop on the same pty."""
    got = {}
    ser = serial.serial_for_url(port.path, baudrate=BAUD, timeout=0.5)
    stop = threading.Event()

    def run():
        while not stop.is_set() and len(got) < n:
            line = ser.readline()
            if line.startswith(b'{"t":"drop"'):
                got.setdefault(int(line.split(b'"seq":', 1)[1].split(b",", 1)[0]), time.perf_counter())

    th = threading.Thread(target=run, daemon=True)
    th.start()
    return got, ser, stop, th


def serial_latency(n, gap):
    tower, port, sink, bridge = serial_bridge(51)
    try:
        for _ in range(n):
            tower.drop()
            time.sleep(gap)
        sink.wait(n, 60)
        lat = [sink.at[s] - tower.sent_at[s] for s in range(1, n + 1) if s in sink.at]
        ok = exact(sink.keys, tower.boot_id, n)
    finally:
        bridge.stop()
        port.close()
    tower = SimulatedTower(seed=51)
    tower.sent_at = {}
    port = PtyPort(tower, baud=BAUD)
    got, ser, stop, th = raw_reader(port, n)
    try:
        for _ in range(n):
            tower.drop()
            time.sleep(gap)
        deadline = time.monotonic() + 30
        while len(got) < n and time.monotonic() < deadline:
            time.sleep(0.01)
        base = [got[s] - tower.sent_at[s] for s in got]
    finally:
        stop.set()
        th.join(5)
        ser.close()
        port.close()
    return lat, base, ok


def serial_rate(n):
    """n drops at once on a line paced at 115200: bytes of drop frames per second vs 11520."""
    tower, port, sink, bridge = serial_bridge(52)
    try:
        start = time.perf_counter()
        for _ in range(n):
            tower.drop()
        sink.wait(n, 60)
        end = max(sink.at.values())
        nbytes = sum(len(tower.ring[s]) + 1 for s in range(1, n + 1))
        ok = exact(sink.keys, tower.boot_id, n)
    finally:
        bridge.stop()
        port.close()
    tower = SimulatedTower(seed=52)
    port = PtyPort(tower, baud=BAUD)
    got, ser, stop, th = raw_reader(port, n)
    try:
        time.sleep(0.2)  # the reader has the port open
        start_b = time.perf_counter()
        for _ in range(n):
            tower.drop()
        deadline = time.monotonic() + 60
        while len(got) < n and time.monotonic() < deadline:
            time.sleep(0.005)
        base_rate = sum(len(tower.ring[s]) + 1 for s in got) / (max(got.values()) - start_b)
    finally:
        stop.set()
        th.join(5)
        ser.close()
        port.close()
    line = BAUD / 10
    rate = nbytes / (end - start)
    return {
        "drops": n,
        "exactly_once_in_order": ok,
        "drops_per_s": round(n / (end - start), 1),
        "bytes_per_s": round(rate),
        "line_bytes_per_s": line,
        "share_of_line": round(rate / line, 3),
        "raw_pyserial_share_of_line": round(base_rate / line, 3),
    }


def serial_burst():
    tower, port, sink, bridge = serial_bridge(53)
    try:
        t0 = time.perf_counter()
        for i in range(30):
            time.sleep(max(0.0, t0 + i * 0.009 - time.perf_counter()))
            tower.drop()
        sink.wait(30, 30)
        return {
            "delivered": len(sink.keys),
            "in_order_once": exact(sink.keys, tower.boot_id, 30),
            "made_in_ms": ms(tower.sent_at[30] - tower.sent_at[1]),
            "last_handed_over_after_ms": ms(sink.at.get(30, float("nan")) - tower.sent_at[30]),
            "note": "30 frames of ~180 bytes need ~470 ms of a 115200 baud line",
        }
    finally:
        bridge.stop()
        port.close()


def summary(lat, base):
    return {
        "bridge_p50_ms": ms(pct(lat, 50)),
        "bridge_p99_ms": ms(pct(lat, 99)),
        "baseline_p50_ms": ms(pct(base, 50)),
        "baseline_p99_ms": ms(pct(base, 99)),
        "p99_ratio": round(pct(lat, 99) / pct(base, 99), 2),
        "samples": len(lat),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer samples")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    n_lat = 200 if a.quick else 1000
    res = {}
    broker = Broker()
    try:
        lat, base, ok = mqtt_latency(broker.url, n_lat, 0.003)
        res["mqtt_latency"] = {**summary(lat, base), "exactly_once_in_order": ok}
        res["mqtt_rate"] = [mqtt_rate(broker.url, r, 2 if a.quick else 4) for r in (2000, 3000, 4000)]
        res["mqtt_burst_30"] = mqtt_burst(broker.url)
    finally:
        broker.stop()
    lat, base, ok = serial_latency(100 if a.quick else 300, 0.03)
    res["serial_latency_115200"] = {**summary(lat, base), "exactly_once_in_order": ok}
    res["serial_rate_115200"] = serial_rate(250)
    res["serial_burst_30"] = serial_burst()
    if a.json:
        print(json.dumps(res, indent=1))
        return
    for k, v in res.items():
        print(k)
        for row in v if isinstance(v, list) else [v]:
            print("   " + ", ".join(f"{kk} {vv}" for kk, vv in row.items()))


if __name__ == "__main__":
    main()
