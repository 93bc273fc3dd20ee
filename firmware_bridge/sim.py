"""A simulated Castillo tower that speaks protocol v1 as hardware/firmware does.

Same frames, same replies, same faults as device.py, link.py, link_serial.py
and link_mqtt.py: `hello`, `drop`, `totals`, `hb`, `fault`, `ok`; a ring of 256
drops with per-link cursors, acks, `replay` (with `replay_gap`), `totals_req`,
`empty` (idempotent by token), `identify`; `reboot()` draws a new boot id and
keeps the totals. Not simulated: the beam and the colour sensor (drops are
made by `drop(colour)`). Calibration is taught as on the firmware (1.2): after
`calibrate` (with `keep`), each `drop(colour)` is a cube for the colour asked, never
a counted drop; `cal` frames say `drop` (got of need), `retry` (a "multi" throw),
`learnt` (the nearest colour and its distance, from modelled readings: REFS plus
the sensor's noise, the firmware's features and spreads) and `done`; the colours
taught are kept across `reboot()`. A colour dropped that is not calibrated comes
out `uncertain`; an added colour (purple, orange, white) travels in `xcol`/`xbest`
as the firmware sends it.

It runs on three kinds of port, any number at once:
- InProcessPort: frames handed to a function, pumped by the caller (unit tests);
- PtyPort: a virtual serial port (os.openpty), optionally paced to a baud rate;
- MqttPort: paho-mqtt with the topic layout, retained state and Last Will of
  PROTOCOL.md section 2.2, reconnecting with backoff like link_mqtt.py.
"""

from __future__ import annotations

import logging
import math
import os
import random
import select
import threading
import time
import tty
from collections import deque
from collections.abc import Callable

from . import framing
from .messages import ADDED_COLOURS, COLOURS, MAX_CAL_COLOURS, PROTOCOL_VERSION, TOWER_COLOURS

log = logging.getLogger("firmware_bridge.sim")

SIM_FIRMWARE = "1.0.0"
MAX_QUEUE = 64  # control frames waiting per link, as in the firmware
TOKEN_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:")
COMMANDS = ("hello_req", "totals_req", "ack", "replay", "empty", "calibrate", "identify")
# Typical TCS34725 counts of each colour under the shroud (what the firmware reports as raw)
REFS = {
    "red": [313, 78, 69, 486],
    "yellow": [420, 300, 110, 850],
    "green": [90, 210, 110, 420],
    "blue": [60, 110, 230, 420],
    "black": [40, 40, 38, 120],
    # modelled, not measured (as hardware/tools/tracegen.py REFLECT)
    "purple": [105, 76, 170, 350],
    "orange": [315, 140, 70, 520],
    "white": [340, 335, 292, 940],
}
AMBIENT = [6, 6, 5, 17]
# The firmware's colour model (hardware/firmware/colour.py), for the distances a calibration reports.
SPREAD_FLOORS = (0.012, 0.012, 0.10)
SMALL_SAMPLE = 1.3


def _features(raw: list[int]) -> tuple[float, float, float]:
    r, g, b, c = (max(0, v - a) for v, a in zip(raw, AMBIENT))
    s = max(1, r + g + b)
    return r / s, g / s, math.log(c + 8.0)


def _reference(samples: list[tuple]) -> list[float]:
    """Means, then spreads (widened for a handful of cubes, never below the floors)."""
    means, spreads = [], []
    for axis, floor in enumerate(SPREAD_FLOORS):
        values = [v[axis] for v in samples]
        mean = sum(values) / len(values)
        std = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1))
        means.append(mean)
        spreads.append(math.sqrt((std * SMALL_SAMPLE) ** 2 + floor * floor))
    return means + spreads


def _distance(a: list[float], b: list[float]) -> float:
    return math.sqrt(sum(((a[k] - b[k]) / math.hypot(a[3 + k], b[3 + k])) ** 2 for k in range(3)))


class BadArgument(Exception):
    code = "bad_argument"


class StaleBoot(BadArgument):
    code = "stale_boot"


def _int_arg(msg: dict, name: str, low: int, high: int, default=None) -> int:
    value = msg.get(name, default)
    if value is None:
        raise BadArgument(f"{name} is required")
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadArgument(f"{name} must be an integer")
    if value < low or value > high:
        raise BadArgument(f"{name} must be between {low} and {high}")
    return value


def empty_totals() -> dict:
    return {"counts": {c: 0 for c in COLOURS}, "unc": 0, "multi": 0, "drops": 0, "epoch": 0, "token": ""}


def _wire(col: str, best: str | None) -> dict:
    # As the firmware: an added colour goes in xcol/xbest, col says uncertain and best is null.
    out = {"col": col, "best": best}
    if col in ADDED_COLOURS:
        out.update(col="uncertain", xcol=col)
    if best in ADDED_COLOURS:
        out.update(best=None, xbest=best)
    return out


class SimPort:
    """One link of the tower: a bounded queue of control frames plus a cursor
    into the drop ring (firmware link.py). Called with the tower's lock held."""

    name = "port"

    def __init__(self, tower: SimulatedTower):
        self.tower = tower
        self.queue: deque = deque()
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

    def next_frame(self):
        if self.queue:
            return self.queue.popleft()
        t = self.tower
        self.cursor = max(self.cursor, t.oldest_seq)
        if self.cursor > t.last_seq:
            return None
        frame = t.ring[self.cursor]
        self.cursor += 1
        return "drop", frame

    def unread(self, item) -> None:
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
    ):
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
        self.boot_id = "%08x" % self.rng.getrandbits(32)
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

    def fault(self, code: str, text: str, port: SimPort | None = None, **extra) -> None:
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

    def _ref(self, colour: str) -> list[float]:
        """A colour's reference: as taught here, or modelled from 5 noisy readings of its cubes."""
        if colour not in self.refs:
            model = random.Random(colour)
            self.refs[colour] = _reference(
                [_features([max(0, v + model.randint(-6, 6)) for v in REFS[colour]]) for _ in range(5)]
            )
        return self.refs[colour]

    def _nearest(self, colour: str, among: list[str]) -> tuple[str | None, int | None]:
        others = [(_distance(self._ref(colour), self._ref(c)), c) for c in among if c != colour]
        if not others:
            return None, None
        d, near = min(others)
        return near, int(d * 10)

    def _separation(self) -> int:
        cs = self.cal_colours
        pairs = [_distance(self._ref(a), self._ref(b)) for i, a in enumerate(cs) for b in cs[i + 1 :]]
        return int(min(pairs) * 10) if pairs else 0

    def _teach(self, colour: str) -> int:
        """A cube thrown while calibrating: a sample for the colour asked, never a drop (returns 0)."""
        cal = self.teaching
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
        samples.append(_features(self._reading(thrown)))
        if len(samples) < cal["per"]:
            self.emit({"t": "cal", "state": "drop", "colour": asked, "got": len(samples), "need": cal["per"]})
            return 0
        self.refs[asked] = _reference(samples)
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
                return self._teach(colour or self.teaching["colours"][self.teaching["index"]])
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
                **_wire(col, best),
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

    # ---- host commands (firmware device.py handle_line) --------------------------

    def handle_line(self, line: bytes, port: SimPort) -> None:
        with self.lock:
            try:
                msg = framing.decode(line)
            except framing.FrameError as e:
                self.counters["bad"] += 1
                self.fault(e.code, e.reason, port, count=self.counters["bad"])
                return
            ref = msg.get("id")
            if msg["t"] not in COMMANDS:
                self.counters["unknown"] += 1
                self.fault(
                    "unknown_command", f"unknown command {msg['t']!r}; known: {', '.join(COMMANDS)}", port, re=ref
                )
                return
            try:
                getattr(self, "cmd_" + msg["t"])(msg, port, ref)
            except BadArgument as e:
                self.fault(e.code, f"{msg['t']}: {e}", port, re=ref)
            except Exception as e:  # never let one command stop the counting
                self.fault("internal_error", f"{msg['t']} failed: {e!r}", port, re=ref)

    def too_long(self, port: SimPort) -> None:
        with self.lock:
            self.counters["bad"] += 1
            self.fault(
                "line_too_long",
                f"line longer than {framing.MAX_FRAME} bytes discarded",
                port,
                count=self.counters["bad"],
            )

    def ok(self, cmd: str, port: SimPort, ref, **extra) -> None:
        self.emit({"t": "ok", "cmd": cmd, "re": ref, **extra}, port)

    def _check_boot(self, msg: dict) -> None:
        if msg.get("boot") != self.boot_id:
            raise StaleBoot(
                f"boot {msg.get('boot')!r} is not the current boot {self.boot_id}; resynchronise with totals_req"
            )

    def cmd_hello_req(self, msg, port, ref):
        self.emit(self.hello(), port)

    def cmd_totals_req(self, msg, port, ref):
        self.emit(self.totals_frame(), port)

    def cmd_ack(self, msg, port, ref):
        self._check_boot(msg)
        seq = _int_arg(msg, "seq", 0, self.last_seq)
        self.acked = max(self.acked, seq)
        port.acked = max(port.acked, seq)

    def cmd_replay(self, msg, port, ref):
        self._check_boot(msg)
        first = _int_arg(msg, "from", 1, self.last_seq + 1)
        oldest = self.oldest_seq
        if first < oldest:
            self.fault(
                "replay_gap",
                f"drops {first} to {oldest - 1} are no longer held; replaying from "
                f"{oldest}, resynchronise with totals_req",
                port,
                re=ref,
                oldest=oldest,
                last=self.last_seq,
            )
            first = oldest
        port.rewind(first)
        self.ok("replay", port, ref, **{"from": first, "to": self.last_seq})

    def cmd_empty(self, msg, port, ref):
        token = msg.get("token")
        if not isinstance(token, str) or not 1 <= len(token) <= 32 or set(token) - TOKEN_CHARS:
            raise BadArgument("token must be 1 to 32 characters of A-Z a-z 0-9 _ - . :")
        emptied = token != self.totals["token"]
        if emptied:
            epoch = self.totals["epoch"] + 1
            self.totals = empty_totals()
            self.totals.update(epoch=epoch, token=token)
            self.emit(self.totals_frame())
        else:
            self.emit(self.totals_frame(), port)
        self.ok("empty", port, ref, token=token, emptied=emptied)

    def cmd_calibrate(self, msg, port, ref):
        if msg.get("cancel") is True:
            self.teaching = None
            self.ok("calibrate", port, ref, state="cancelled")
            return
        per = _int_arg(msg, "per", 1, 20, 5)
        colours = msg.get("colours", list(COLOURS))
        if (
            not isinstance(colours, list)
            or not colours
            or len(colours) > MAX_CAL_COLOURS
            or [c for c in colours if not isinstance(c, str) or c not in TOWER_COLOURS]
            or len(set(colours)) != len(colours)
        ):
            raise BadArgument(
                f"colours must be a list of 1 to {MAX_CAL_COLOURS} distinct ids from: " + ", ".join(TOWER_COLOURS)
            )
        keep = msg.get("keep", [])
        if (
            not isinstance(keep, list)
            or [c for c in keep if not isinstance(c, str) or c not in self.cal_colours or c in colours]
            or len(set(keep)) != len(keep)
            or len(keep) + len(colours) > MAX_CAL_COLOURS
        ):
            raise BadArgument(
                f"keep must list distinct colours the tower is calibrated for "
                f"({', '.join(self.cal_colours)}), none of those asked, and at most "
                f"{MAX_CAL_COLOURS} colours in all"
            )
        self.teaching = {"colours": list(colours), "keep": list(keep), "per": per, "index": 0, "samples": {}}
        self.ok("calibrate", port, ref, state="started")
        self.emit({"t": "cal", "state": "drop", "colour": colours[0], "got": 0, "need": per})

    def cmd_identify(self, msg, port, ref):
        self.ok("identify", port, ref, s=_int_arg(msg, "s", 1, 60, 5))


# ---- ports ----------------------------------------------------------------------


class InProcessPort(SimPort):
    """Frames go to `deliver(kind, frame)` when the caller pumps; commands come
    in through `command(dict)` or `line(bytes)`. Deterministic, no threads."""

    name = "inprocess"

    def __init__(self, tower: SimulatedTower, deliver: Callable[[str, bytes], None]):
        super().__init__(tower)
        self.deliver = deliver

    def pump(self, limit: int = 1_000_000) -> int:
        """Hands over waiting frames (including those queued while pumping)."""
        n = 0
        while n < limit:
            with self.tower.lock:
                item = self.next_frame()
            if item is None:
                return n
            self.deliver(*item)
            n += 1
        return n

    def line(self, data: bytes) -> None:
        self.tower.handle_line(data, self)

    def command(self, msg: dict) -> None:
        self.tower.handle_line(framing.encode(msg), self)


class PtyPort(SimPort):
    """A virtual serial port: the host opens `path` (the pty's slave side) with
    pyserial like a USB serial device. `baud` paces the output like a UART
    (0: as fast as the pty takes it). Frames nobody reads stay in the ring."""

    name = "serial"

    def __init__(self, tower: SimulatedTower, baud: int = 115200):
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: bytes as they are
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self.baud = baud
        self.written_at: dict[int, float] = {}  # seq -> perf_counter when its last byte was written
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._stop = False
        self._splitter = framing.LineSplitter()
        super().__init__(tower)
        self._thread = threading.Thread(target=self._run, name=f"sim-pty-{self.path}", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except (BlockingIOError, OSError):
            pass  # already awake

    def _run(self) -> None:
        out = bytearray()
        seqs: list[tuple[int, int]] = []  # (end offset in out, seq) of drops in out
        next_at = 0.0
        while not self._stop:
            if not out:
                with self.tower.lock:
                    while len(out) < 1024:
                        item = self.next_frame()
                        if item is None:
                            break
                        out += item[1] + b"\n"
                        if item[0] == "drop":
                            seqs.append((len(out), _seq_of(item[1])))
            now = time.perf_counter()
            pace = max(0.0, next_at - now) if self.baud else 0.0
            want_write = bool(out) and pace == 0.0
            timeout = pace if out and pace else (None if not out else 0.5)
            try:
                r, w, _ = select.select(
                    [self.master, self._wake_r],
                    [self.master] if want_write else [],
                    [],
                    min(timeout, 0.5) if timeout is not None else 0.5,
                )
            except (OSError, ValueError):
                return
            if self._wake_r in r:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
            if self.master in r:
                self._read()
            if w:
                chunk = bytes(out[:64]) if self.baud else bytes(out)
                try:
                    n = os.write(self.master, chunk)
                except BlockingIOError:
                    n = 0
                except OSError:
                    return
                if n:
                    del out[:n]
                    done = time.perf_counter()
                    if self.baud:
                        next_at = max(next_at, done) + n * 10 / self.baud
                    seqs = [(end - n, s) for end, s in seqs]
                    while seqs and seqs[0][0] <= 0:
                        self.written_at[seqs.pop(0)[1]] = done

    def _read(self) -> None:
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return
        for line in self._splitter.lines(data):
            if line is None:
                self.tower.too_long(self)
            elif line.strip():
                self.tower.handle_line(line, self)

    def close(self) -> None:
        super().close()
        self._stop = True
        self.wake()
        self._thread.join(timeout=5)
        for fd in (self.master, self._slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass


def _seq_of(frame: bytes) -> int:
    i = frame.find(b'"seq":')
    j = i + 6
    while j < len(frame) and frame[j : j + 1].isdigit():
        j += 1
    return int(frame[i + 6 : j])


TOPICS = {
    # message type: (topic leaf, retained, qos), as link_mqtt.py
    "hello": ("hello", True, 1),
    "totals": ("totals", True, 1),
    "drop": ("drop", False, 1),
    "hb": ("hb", False, 0),
    "fault": ("fault", False, 1),
    "cal": ("cal", False, 1),
    "ok": ("reply", False, 1),
}


class MqttPort(SimPort):
    """The tower on an MQTT broker: client id = device id, Last Will `offline`,
    `online` + retained hello and totals on every (re)connection, then every drop
    no host has acknowledged on this link; reconnects for ever with backoff.
    `mqtts://` with `cafile` (and optionally a client `certfile`/`keyfile`), and
    a user name and password, as a locked-down broker wants them (the user name
    is normally the device id: hardware/mosquitto/acl). Why the broker cannot be
    reached or refuses is in `problem` (one line, None once connected) and is
    handed to `on_problem(text or None)` when it changes."""

    name = "mqtt"

    def __init__(
        self,
        tower: SimulatedTower,
        url: str,
        *,
        username: str | None = None,
        password: str | None = None,
        cafile: str | None = None,
        certfile: str | None = None,
        keyfile: str | None = None,
        prefix: str = "elgrande/tower/",
        backoff_min: float = 1.0,
        backoff_max: float = 60.0,
        keepalive: int = 30,
        on_problem: Callable[[str | None], None] | None = None,
    ):
        from paho.mqtt import client as mqtt

        from .guard import Worker, guarded
        from .transport_mqtt import TlsFiles, client_settings, make_client

        self._mqtt = mqtt
        broker, user, secret, ctx, _ = client_settings(url, username, password, TlsFiles(cafile, certfile, keyfile))
        self.broker = broker
        self.host, self.port = broker.host, broker.port
        self.user = user
        self.base = f"{prefix}{tower.dev}/"
        self.connected = threading.Event()
        self.connects = 0
        self.problem: str | None = None
        self.faults = 0  # callbacks that raised (counted, logged, never fatal)
        self._on_problem = on_problem
        self._answered = None  # the connection attempt the broker last answered
        self._wake = threading.Event()
        self._stop = False
        self._frozen = False
        super().__init__(tower)
        c = make_client(tower.dev, broker, user, secret, ctx, (backoff_min, backoff_max))
        c.will_set(self.base + "status", b"offline", qos=1, retain=True)
        c.max_inflight_messages_set(1000)
        for name in ("on_connect", "on_connect_fail", "on_disconnect", "on_message"):
            setattr(c, name, guarded(f"sim tower {name}", self._fault, getattr(self, "_" + name)))
        self.client = c
        c.connect_async(self.host, self.port, keepalive=keepalive)
        c.loop_start()
        self._thread = Worker(self._pump, f"sim-mqtt-{tower.dev}", self._fault).start()

    def _fault(self, where: str, error: BaseException) -> None:
        from .guard import describe

        self.faults += 1
        log.error("sim tower: %s failed (%s)", where, describe(error))

    def _problem(self, text: str | None) -> None:
        if text != self.problem:
            self.problem = text
            if self._on_problem:
                self._on_problem(text)
            elif text:
                log.warning("sim tower: %s", text)

    def topic(self, leaf: str) -> str:
        return self.base + leaf

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        from .transport_mqtt import describe_refusal

        if reason_code.is_failure:
            self._problem(describe_refusal(reason_code, self.host, self.port, self.user))
            return
        self._problem(None)
        self._answered = getattr(client, "attempts", None)
        client.subscribe(self.topic("cmd"), qos=1)
        client.publish(self.topic("status"), b"online", qos=1, retain=True)
        t = self.tower
        with t.lock:
            self.queue.clear()
            t.emit(t.hello(), self)
            t.emit(t.totals_frame(), self)
            self.rewind(max(self.acked + 1, t.oldest_seq))
            self.connects += 1
        self.connected.set()
        self._wake.set()

    def _on_connect_fail(self, client, userdata):
        from .transport_mqtt import describe_connect_error

        self._problem(describe_connect_error(client.last_error, self.host, self.port, self.broker.tls))

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        from .transport_mqtt import describe_unanswered

        self.connected.clear()
        if self._stop or (self.problem and self._answered != getattr(client, "attempts", None)):
            return  # stopping, or a refusal already says why
        if self._answered != getattr(client, "attempts", None):  # closed before answering
            self._problem(
                describe_unanswered(self.host, self.port, self.broker.tls, getattr(client, "last_logged_error", None))
            )
        else:
            self._problem(f"broker connection lost ({reason_code}); drops are queued until it is back")

    def _on_message(self, client, userdata, message):
        self.tower.handle_line(message.payload, self)

    def wake(self) -> None:
        self._wake.set()

    def on_reboot(self) -> None:
        super().on_reboot()
        self.tower.emit(self.tower.totals_frame(), self)  # a rebooted board reconnects: fresh retained totals

    def _pump(self) -> None:
        mqtt = self._mqtt
        while not self._stop:
            self._wake.wait(0.5)
            self._wake.clear()
            while self.connected.is_set() and not self._stop and not self._frozen:
                with self.tower.lock:
                    item = self.next_frame()
                if item is None:
                    break
                leaf, retain, qos = TOPICS.get(item[0], ("reply", False, 1))
                info = self.client.publish(self.topic(leaf), item[1], qos=qos, retain=retain)
                if info.rc != mqtt.MQTT_ERR_SUCCESS:
                    with self.tower.lock:
                        self.unread(item)  # goes out again after the reconnect
                    break

    def close(self) -> None:
        super().close()
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=5)
        if self.connected.is_set():  # a clean disconnect sends no Last Will: say it ourselves
            self.client.publish(self.topic("status"), b"offline", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()

    def freeze(self) -> None:
        """The Wi-Fi stalls with the connection open: nothing goes out, not even
        pings, so the broker sends the Last Will only after 1.5 keepalives."""
        self._frozen = True
        self.client.loop_stop()

    def thaw(self) -> None:
        self._frozen = False
        self.client.loop_start()
        self._wake.set()

    def vanish(self) -> None:
        """Power cut or Wi-Fi gone: the broker publishes the Last Will."""
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=5)
        self.client.loop_stop()
        try:
            self.client.socket().close()
        except Exception:
            pass
        self.tower.detach(self)
