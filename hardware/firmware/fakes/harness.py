# Runs the tower firmware on the host MicroPython against a trace.
#   micropython harness.py TRACE.jsonl [STORE_DIR]
# Trace lines (JSON, sorted by time "t" in microseconds): see tools/tracegen.py.
# Prints one line per event of interest:
#   BOOT <t_us> <n>                   a (re)boot of the device
#   OUT <t_us> <frame>                a frame the device wrote to serial
#   CONNECT <t_us> <ok 0/1>           an MQTT connect attempt
#   PUB <t_us> <retain> <qos> <topic> <payload>
#   STATS <json>                      loop timings at the end
#   MEM <json>                        heap figures at the end, when the meta line asks ("mem")
# Meta options for the memory bench (bench/bench_firmware_memory.py):
#   "mem": {"every": N, "ballast": B, "session": [n, ...]}
#                                      collect and read the free heap every N loop passes and
#                                      after every trace event; hold B bytes throughout; while
#                                      connected to the broker hold blocks of n bytes (what a TLS
#                                      session takes from the heap on a board whose mbedTLS uses it)
#   "host_acks": true                  a host on the broker acknowledges each drop published
import gc
import json
import os
import sys
import time

HERE = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, HERE + "/..")
sys.path.insert(0, HERE)

import defaults  # noqa: E402
import protocol  # noqa: E402
from device import Device  # noqa: E402
from fake_board import FakeClock, FakePin, FakeTCS34725Bus, Scene  # noqa: E402
from link_serial import SerialLink  # noqa: E402
from sensing import EdgeQueue  # noqa: E402
from store import Store  # noqa: E402
from tcs34725 import TCS34725  # noqa: E402

FINE_US = 250  # loop cadence while the beam is busy
IDLE_US = 20000  # the harness skips ahead while nothing happens


class Tower:
    # One power-on of the device: RAM state lives here, the store survives.
    def __init__(self, h, boot_no):
        self.h = h
        cfg = dict(defaults.DEFAULTS)
        cfg.update(h.overrides)
        cfg["device_id"] = cfg["device_id"] or "castillo-test"
        self.edges = EdgeQueue()
        self.pin = FakePin(0)
        edges, clock = self.edges, h.clock

        def on_edge(pin):
            edges.put(clock.ticks_us(), pin.value() == 1)

        self.pin.irq(on_edge)
        self.bus = FakeTCS34725Bus(h.clock, h.scene, seed=h.seed + boot_no, present=h.sensor_present)
        sensor = TCS34725(self.bus, gain=cfg["sensor_gain"])
        self.device = Device(cfg, h.clock, self.edges, sensor, h.store, None, os.urandom)
        self.serial = SerialLink(self.device, self.read, self.write, cfg["serial_budget_bytes"])
        self.mqtt = None
        problem = None
        if h.broker is not None:
            # as main.py builds it: settings checked, TLS context from the real ssl module
            try:
                import ssl
            except ImportError:  # a MicroPython built without TLS (the 32-bit memory bench)
                ssl = None
            from fake_umqtt import FakeMQTTClient
            from mqtt_setup import make_link

            broker = h.broker
            device, serial = self.device, self.serial

            def report(text):
                if text:
                    device.fault("mqtt_error", text, serial)

            cfg["mqtt_server"] = cfg["mqtt_server"] or "broker"
            self.mqtt, problem = make_link(device, cfg, lambda **kw: FakeMQTTClient(broker, **kw), ssl, h.clock, report)
        self.device.start()
        if problem:
            self.device.fault("mqtt_config", problem, self.serial)

    def read(self):
        data, self.h.inbox = self.h.inbox, b""
        return data

    def write(self, data):
        for line in data.decode().splitlines():
            print("OUT", self.h.clock.now_us, line)


class Harness:
    def __init__(self, path, store_dir):
        self.file = open(path)
        meta = json.loads(self.file.readline())
        self.seed = meta.get("seed", 1)
        self.overrides = meta.get("config", {})
        self.sensor_present = meta.get("sensor", True)
        self.clock = FakeClock(meta.get("start_us", 0))
        self.scene = Scene()
        self.store = Store(store_dir)
        self.inbox = b""
        self.broker = None
        if meta.get("mqtt"):
            from fake_umqtt import FakeBroker

            self.broker = FakeBroker()
            self.broker.up = meta["mqtt"].get("up", True)
            self.broker.connect_ms = meta["mqtt"].get("connect_ms", 0)
            self.broker.users = meta["mqtt"].get("users")
            self.broker.tls = meta["mqtt"].get("tls", False)
            self.broker.on_block = self.block_for
            if meta.get("mem"):
                self.broker.session_blocks = meta["mem"].get("session")
        self.host_acks = meta.get("host_acks", False)
        self.host_acked = {}  # boot -> highest seq the simulated host acknowledged
        self.host_received = None  # (boot, seq) of the last drop it received
        self.host_ack_due = None  # when it acknowledges what it received (trace time, us)
        self.mem = meta.get("mem")
        self.ballast = bytearray(self.mem.get("ballast", 0)) if self.mem else None
        self.mem_low = None  # (free bytes after a collection, where, trace time)
        self.mem_samples = 0
        self.boots = 0
        self.pending = None  # next trace event, read ahead
        self.passes = 0
        self.busy_passes = 0
        self.loop_us = 0
        self.busy_us = 0
        self.baseline_us = 0
        self.log_len = 0
        self.tower = None
        self.reboot()

    def reboot(self):
        self.tower = Tower(self, self.boots)
        print("BOOT", self.clock.now_us, self.boots)
        self.boots += 1

    def next_event(self):
        if self.pending is None:
            line = self.file.readline()
            if line:
                self.pending = json.loads(line)
        return self.pending

    def apply(self, ev):
        kind = ev["k"]
        if kind == "edge":
            self.tower.pin.value(ev["v"])
        elif kind == "cube":
            self.scene.add_cube(ev["t0"], ev["t1"], ev["rgbc"])
        elif kind == "amb":
            self.scene.set_ambient(ev["t"], ev["rgbc"])
        elif kind == "cmd":
            self.inbox += self.command_bytes(ev)
        elif kind == "mqtt_cmd":
            self.broker.deliver(self.tower.mqtt.topic("cmd"), self.command_bytes(ev).strip())
        elif kind == "mqtt":
            self.broker.up = ev["up"]
            if not ev["up"]:
                self.broker.drop_client()
        elif kind == "reboot":
            self.reboot()
        if self.mem:
            self.mem_sample(kind)

    def mem_sample(self, where):
        # The live heap: free bytes right after a full collection.
        gc.collect()
        free = gc.mem_free()
        self.mem_samples += 1
        if self.mem_samples == 1:
            self.mem_first = free  # after start-up: modules, the device, the harness
        if self.mem_low is None or free < self.mem_low[0]:
            device = self.tower.device
            queued = [sum(len(f) for _, f in link.queue) for link in device.links]
            inbox = len(self.broker.inbox) if self.broker else 0
            self.mem_low = (free, where, self.clock.now_us, len(device.ring), self.largest_free(), queued, inbox)

    def largest_free(self):
        # The largest block one allocation could still get (fragmentation), to 64 bytes.
        low, high = 0, gc.mem_free()
        while high - low > 64:
            mid = (low + high) // 2
            try:
                block = bytearray(mid)
                del block
                low = mid
            except MemoryError:
                high = mid
        gc.collect()
        return low

    def command_bytes(self, ev):
        # "line": raw bytes as given (garbage allowed); "obj": a command whose
        # "$boot" values become the current boot id, framed by the firmware.
        if "line" in ev:
            return ev["line"].encode()
        obj = ev["obj"]
        for key in obj:
            if obj[key] == "$boot":
                obj[key] = self.tower.device.boot_id
        return (protocol.encode(obj) + "\n").encode()

    def block_for(self, ms):
        # A blocking call (MQTT connect) holds the loop: time passes and pin
        # interrupts still fire, but no loop pass runs.
        end = self.clock.now_us + ms * 1000
        ev = self.next_event()
        while ev is not None and ev["t"] <= end:
            self.clock.now_us = ev["t"]
            self.pending = None
            self.apply(ev)
            ev = self.next_event()
        self.clock.now_us = end

    def loop_pass(self):
        tower = self.tower
        busy = tower.device.tracker.blocked or tower.device.pending
        t0 = time.ticks_us()
        tower.device.step()
        t1 = time.ticks_us()
        tower.serial.step()
        if tower.mqtt:
            tower.mqtt.step(tower.device.quiet())
        dt = time.ticks_diff(t1, t0)
        self.passes += 1
        self.loop_us += dt
        if self.mem and self.passes % self.mem["every"] == 0:
            self.mem_sample("loop")
        if busy:
            self.busy_passes += 1
            self.busy_us += dt
        self.flush_broker_log()
        if self.host_ack_due is not None and self.clock.now_us >= self.host_ack_due:
            self.host_send_ack()

    def measure_baseline(self, n=20000):
        # The same measured call with an empty body, timed as a whole: what one
        # loop pass costs this interpreter before the firmware does anything.
        class Empty:
            def step(self):
                pass

        e = Empty()
        acc = 0
        t0 = time.ticks_us()
        for _ in range(n):
            a = time.ticks_us()
            e.step()
            b = time.ticks_us()
            acc += time.ticks_diff(b, a)
        self.baseline_us = time.ticks_diff(time.ticks_us(), t0)

    def flush_broker_log(self):
        if self.broker is None:
            return
        log = self.broker.log
        while self.log_len < len(log):
            item = log[self.log_len]
            self.log_len += 1
            if item[0] == "connect":
                print("CONNECT", self.clock.now_us, 1 if item[1] else 0)
            else:
                _, topic, payload, retain, qos = item
                if isinstance(payload, (bytes, bytearray)):
                    payload = bytes(payload).decode()
                print("PUB", self.clock.now_us, 1 if retain else 0, qos, topic, payload)
                if self.host_acks and topic.endswith("/drop"):
                    self.host_ack(payload)
        if self.mem:  # printed: what the broker saw is not the tower's memory
            del log[:]
            self.log_len = 0

    def host_ack(self, payload):
        # As the companion's link does: the drops received are acknowledged every 16, or
        # 50 ms after the last one (they come in order, so the last seq says it all).
        drop = protocol.decode(payload)
        boot, seq = drop["boot"], drop["seq"]
        if seq > self.host_acked.get(boot, 0):
            self.host_received = (boot, seq)
            if seq - self.host_acked.get(boot, 0) >= 16:
                self.host_send_ack()
            elif self.host_ack_due is None:
                self.host_ack_due = self.clock.now_us + 50000

    def host_send_ack(self):
        boot, seq = self.host_received
        self.host_acked[boot] = seq
        self.host_ack_due = None
        ack = protocol.encode({"t": "ack", "boot": boot, "seq": seq})
        self.broker.deliver(self.tower.mqtt.topic("cmd"), ack.encode())

    def run(self, tail_us=3000000):
        ev = self.next_event()
        end = None
        while True:
            if ev is not None:
                target = ev["t"]
            else:
                if end is None:
                    end = self.clock.now_us + tail_us
                target = end
            while self.clock.now_us < target:
                d = self.tower.device
                step = FINE_US if (d.tracker.blocked or d.pending) else IDLE_US
                self.clock.now_us = min(self.clock.now_us + step, target)
                self.loop_pass()
                ev = self.next_event()
                if ev is not None and ev["t"] < target:
                    target = ev["t"]  # a blocking call consumed events
            if ev is None and self.clock.now_us >= end:
                break
            if ev is not None and self.clock.now_us >= ev["t"]:
                self.pending = None
                self.apply(ev)
                self.loop_pass()
                ev = self.next_event()
        self.measure_baseline()
        print(
            "STATS",
            json.dumps(
                {
                    "passes": self.passes,
                    "loop_us": self.loop_us,
                    "busy_passes": self.busy_passes,
                    "busy_us": self.busy_us,
                    "baseline_passes": 20000,
                    "baseline_us": self.baseline_us,
                }
            ),
        )
        if self.mem:
            self.mem_sample("end")
            free, where, at, held, largest, queued, inbox = self.mem_low
            device = self.tower.device
            print(
                "MEM",
                json.dumps(
                    {
                        "heap": gc.mem_free() + gc.mem_alloc(),
                        "ballast": len(self.ballast),
                        "first_free": self.mem_first,
                        "lowest_free": free,
                        "lowest_where": where,
                        "lowest_at_us": at,
                        "ring_held_then": held,
                        "largest_free_then": largest,
                        "queued_bytes_then": queued,
                        "broker_inbox_then": inbox,
                        "samples": self.mem_samples,
                        "ring_lost": device.ring.lost,
                        "ring_capacity": device.ring.capacity,
                        "last_seq": device.ring.last_seq,
                        "link_overflowed": [link.overflowed for link in device.links],
                    }
                ),
            )


def main():
    store_dir = sys.argv[2] if len(sys.argv) > 2 else "/tmp/castillo-store"
    Harness(sys.argv[1], store_dir).run()


main()
