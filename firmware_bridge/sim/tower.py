"""The simulated tower's state: its boot, drop ring, totals and calibration, and the frames it
makes from them (hello, drop, totals, hb, cal); `SimPort`, one link of it. The host's lines are
handled in commands.py."""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from firmware_bridge import framing
from firmware_bridge.messages import ADDED_COLOURS, COLOURS, PROTOCOL_VERSION, TOWER_COLOURS
from firmware_bridge.sim.sensor import AMBIENT, REFS, distance, features, modelled_reference, reference, wire_colours

SIM_FIRMWARE = "1.0.0"
MAX_QUEUE = 64  # control frames waiting per link, as in the firmware
Item = tuple[str, bytes]  # (message type, frame)


def empty_totals() -> dict:
    return {"counts": {c: 0 for c in COLOURS}, "unc": 0, "multi": 0, "drops": 0, "epoch": 0, "token": ""}


class SimPort:
    """One link of the tower: a bounded queue of control frames plus a cursor
    into the drop ring (firmware link.py). Called with the tower's lock held."""

    name = "port"

    def __init__(self, tower: SimulatedTower) -> None:
        self.tower = tower
        self.queue: deque[Item] = deque()
        self.cursor = tower.last_seq + 1
        self.acked = 0
        self.overflowed = 0
        tower.attach(self)

    def send(self, kind: str, frame: bytes) -> None:
        if len(self.queue) >= MAX_QUEUE:
            self.queue.popleft()
            self.overflowed += 1
        self.queue.append((kind, frame))

    def rewind(self, seq: int) -> None:
        self.cursor = seq

    def next_frame(self) -> Item | None:
        if self.queue:
            return self.queue.popleft()
        t = self.tower
        self.cursor = max(self.cursor, t.oldest_seq)
        if self.cursor > t.last_seq:
            return None
        frame = t.ring[self.cursor]
        self.cursor += 1
        return "drop", frame

    def unread(self, item: Item) -> None:
        if item[0] == "drop":
            self.cursor -= 1
        else:
            self.queue.appendleft(item)

    def has_output(self) -> bool:
        return bool(self.queue) or self.cursor <= self.tower.last_seq

    def on_reboot(self) -> None:
        self.queue.clear()
        self.cursor = 1
        self.acked = 0

    def wake(self) -> None:
        """New output is waiting (called with the lock held; must not block)."""

    def close(self) -> None:
        self.tower.detach(self)


class SimulatedTower:
    def __init__(
        self,
        dev: str = "castillo-5e1a00",
        *,
        seed: int | None = None,
        ring_size: int = 256,
        fw: str = SIM_FIRMWARE,
        board: str = "host",
        proto: int = PROTOCOL_VERSION,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if ring_size < 256:
            raise ValueError("ring capacity must be at least 256")
        self.dev = dev
        self.fw = fw
        self.board = board
        self.proto = proto
        self.capacity = ring_size
        self.rng = random.Random(seed)
        self.clock = clock
        self.lock = threading.RLock()
        self.ports: list[SimPort] = []
        self.totals = empty_totals()
        self.boots = 0
        self.counters = {"bad": 0, "unknown": 0}
        self.cal_colours = list(COLOURS)
        self.refs: dict[str, list[float]] = {}  # references taught here (others: modelled on demand)
        self.teaching: dict | None = None  # a calibration under way: colours, per, index, samples
        self.sent_at: dict[int, float] | None = None  # seq -> perf_counter of the drop (benchmarks)
        self._boot()

    # ---- state ----------------------------------------------------------------

    def _boot(self) -> None:
        self.teaching = None  # a calibration under way lives in RAM, as on the firmware
        self.boots += 1
        self.boot_id = f"{self.rng.getrandbits(32):08x}"
        self.ring: dict[int, bytes] = {}
        self.last_seq = 0
        self.acked = 0
        self.lost = 0
        self.started = self.clock()
        self.counters = {"bad": 0, "unknown": 0}

    @property
    def oldest_seq(self) -> int:
        return max(1, self.last_seq - self.capacity + 1)

    def uptime_ms(self) -> int:
        return int((self.clock() - self.started) * 1000)

    def attach(self, port: SimPort) -> None:
        with self.lock:
            self.ports.append(port)

    def detach(self, port: SimPort) -> None:
        with self.lock:
            if port in self.ports:
                self.ports.remove(port)

    def emit(self, msg: dict, port: SimPort | None = None) -> None:
        # To one port (a reply) or to all (news).
        frame = framing.encode(msg)
        with self.lock:
            for target in [port] if port else list(self.ports):
                target.send(msg["t"], frame)
                target.wake()

    def fault(self, code: str, text: str, port: SimPort | None = None, **extra: Any) -> None:
        self.emit({"t": "fault", "boot": self.boot_id, "code": code, "msg": text, **extra}, port)

    def hello(self) -> dict:
        return {
            "t": "hello",
            "dev": self.dev,
            "fw": self.fw,
            "proto": self.proto,
            "board": self.board,
            "boot": self.boot_id,
            "boots": self.boots,
            "seq": self.last_seq,
            "oldest": self.oldest_seq,
            "ring": self.capacity,
            "sensor": True,
            "cal": {
                "ok": True,
                "colours": [c for c in TOWER_COLOURS if c in self.cal_colours],
                "per": 5,
                "sep": self._separation(),
            },
        }

    def totals_frame(self) -> dict:
        t = self.totals
        counts = {c: 0 for c in COLOURS + tuple(c for c in ADDED_COLOURS if c in self.cal_colours)}
        counts.update(t["counts"])
        return {
            "t": "totals",
            "boot": self.boot_id,
            "seq": self.last_seq,
            "counts": counts,
            "unc": t["unc"],
            "multi": t["multi"],
            "drops": t["drops"],
            "epoch": t["epoch"],
            "token": t["token"],
        }

    def heartbeat(self) -> None:
        with self.lock:
            self.emit(
                {
                    "t": "hb",
                    "boot": self.boot_id,
                    "seq": self.last_seq,
                    "acked": self.acked,
                    "up": self.uptime_ms(),
                    "beam": 0,
                    "held": self.last_seq - self.oldest_seq + 1,
                    "lost": self.lost,
                    "bad": self.counters["bad"],
                    "glitch": 0,
                    "edge_ovf": 0,
                }
            )

    # ---- what the beam and the sensor would do ----------------------------------

    def _reading(self, colour: str) -> list[int]:
        return [min(1024, max(0, v + self.rng.randint(-6, 6))) for v in REFS[colour]]

    def reference(self, colour: str) -> list[float]:
        """A colour's reference: as taught here, or modelled from 5 noisy readings of its cubes."""
        if colour not in self.refs:
            self.refs[colour] = modelled_reference(colour)
        return self.refs[colour]

    def _nearest(self, colour: str, among: list[str]) -> tuple[str | None, int | None]:
        others = [(distance(self.reference(colour), self.reference(c)), c) for c in among if c != colour]
        if not others:
            return None, None
        d, near = min(others)
        return near, int(d * 10)

    def _separation(self) -> int:
        cs = self.cal_colours
        pairs = [distance(self.reference(a), self.reference(b)) for i, a in enumerate(cs) for b in cs[i + 1 :]]
        return int(min(pairs) * 10) if pairs else 0

    def _teach(self, cal: dict, colour: str) -> int:
        """A cube thrown while calibrating (`cal`: the calibration under way): a sample for the
        colour asked, never a drop (returns 0)."""
        asked = cal["colours"][cal["index"]]
        samples = cal["samples"].setdefault(asked, [])
        if colour == "multi":
            self.emit(
                {
                    "t": "cal",
                    "state": "retry",
                    "colour": asked,
                    "got": len(samples),
                    "need": cal["per"],
                    "msg": "several cubes at once; drop that one again",
                }
            )
            return 0
        thrown = colour if colour in REFS else asked  # "uncertain": a cube of the colour asked
        samples.append(features(self._reading(thrown)))
        if len(samples) < cal["per"]:
            self.emit({"t": "cal", "state": "drop", "colour": asked, "got": len(samples), "need": cal["per"]})
            return 0
        self.refs[asked] = reference(samples)
        cal["index"] += 1
        known = cal["keep"] + cal["colours"][: cal["index"]]
        near, dist = self._nearest(asked, known)
        self.emit({"t": "cal", "state": "learnt", "colour": asked, "near": near, "dist": dist})
        if cal["index"] < len(cal["colours"]):
            self.emit(
                {"t": "cal", "state": "drop", "colour": cal["colours"][cal["index"]], "got": 0, "need": cal["per"]}
            )
            return 0
        self.teaching = None
        self.cal_colours = known
        sep = self._separation()
        self.emit(
            {
                "t": "cal",
                "state": "done",
                "colours": known,
                "per": cal["per"],
                "sep": sep,
                "multi_us": 8400,
                "warn": sep < 60,
            }
        )
        return 0

    def drop(self, colour: str | None = None) -> int:
        """One drop: a colour (messages.TOWER_COLOURS), "uncertain", "multi", or None for a random
        classic one. A colour the tower is not calibrated for comes out uncertain. While a
        calibration runs, the cube is taught instead (no drop: returns 0)."""
        with self.lock:
            if self.teaching is not None:
                cal = self.teaching
                return self._teach(cal, colour or cal["colours"][cal["index"]])
            rng = self.rng
            if colour is None:
                colour = rng.choice(COLOURS)
            multi = colour == "multi"
            if colour in TOWER_COLOURS and colour in self.cal_colours:
                best, conf, col = colour, rng.randint(996, 1000), colour
            elif colour in TOWER_COLOURS:
                best, conf, col = rng.choice(self.cal_colours), rng.randint(400, 990), "uncertain"
            elif colour in ("uncertain", "multi"):
                best, conf, col = rng.choice(COLOURS), rng.randint(400, 990), "uncertain"
            else:
                raise ValueError(f"unknown colour {colour!r}; one of {', '.join(TOWER_COLOURS)}, uncertain, multi")
            raw = [max(0, v + rng.randint(-6, 6)) for v in REFS[best]]
            if multi:
                raw = [min(1024, v * 2) for v in raw]
            raw = [min(1024, v) for v in raw]
            tr = rng.randint(11000, 16000) if multi else rng.randint(5500, 7200)
            t = self.totals
            t["drops"] += 1
            if multi:
                t["multi"] += 1
            elif col == "uncertain":
                t["unc"] += 1
            else:
                t["counts"][col] = t["counts"].get(col, 0) + 1
            seq = self.last_seq + 1
            msg = {
                "t": "drop",
                "boot": self.boot_id,
                "seq": seq,
                **wire_colours(col, best),
                "conf": conf,
                "raw": raw,
                "amb": list(AMBIENT),
                "tr": tr,
                "multi": multi,
                "est": 2 if multi else 1,
                "ms": self.uptime_ms(),
            }
            if seq - self.capacity >= 1:
                evicted = seq - self.capacity
                if evicted > self.acked:
                    self.lost += 1
                self.ring.pop(evicted, None)
            self.ring[seq] = framing.encode(msg)
            self.last_seq = seq
            if self.sent_at is not None:
                self.sent_at[seq] = time.perf_counter()
            for port in self.ports:
                port.wake()
            return seq

    def reboot(self) -> None:
        """Power cycle: RAM (ring, sequence numbers) lost, totals kept, new boot id."""
        with self.lock:
            self._boot()
            for port in self.ports:
                port.on_reboot()
            self.emit(self.hello())

    # ---- answers to the host (its commands: commands.py) ---------------------------

    def too_long(self, port: SimPort) -> None:
        with self.lock:
            self.counters["bad"] += 1
            self.fault(
                "line_too_long",
                f"line longer than {framing.MAX_FRAME} bytes discarded",
                port,
                count=self.counters["bad"],
            )

    def ok(self, cmd: str, port: SimPort, ref: Any, **extra: Any) -> None:
        self.emit({"t": "ok", "cmd": cmd, "re": ref, **extra}, port)

    def empty(self, token: str, port: SimPort) -> bool:
        """The Castillo was emptied (token): new totals for all, or the same again to `port` if
        this token emptied it already. True if it emptied now."""
        emptied = token != self.totals["token"]
        if emptied:
            epoch = self.totals["epoch"] + 1
            self.totals = empty_totals()
            self.totals.update(epoch=epoch, token=token)
            self.emit(self.totals_frame())
        else:
            self.emit(self.totals_frame(), port)
        return emptied
