"""Hostile input for the tower link, and a harness that mixes it into a
simulated tower's real traffic through a Link's entry points.

`HostileFrames(seed)` makes one hostile item at a time: frames with a valid
CRC whose content is wrong (floats, huge and negative integers, nested
objects, giant strings, wrong `boot` types, unknown and confused types,
missing and extra fields), hellos of another protocol version, byte-level
mutations with the CRC made right again, frames with a wrong CRC, cut frames,
random bytes and over-long lines. A mutation that happens to give a fully valid
frame claiming something about the tower (a hello of protocol 1, a drop, hb,
totals or fault) is not used: telling such a frame from the tower's own is
authentication, not parsing (the MQTT link pins topic and user).

`FuzzRun(seed, transport)` interleaves those items with real drops from a
SimulatedTower, over `feed_bytes` split and merged at random (as serial does)
or `feed_frame` / `feed_availability` (as MQTT does), on a fake clock, then
lets the link settle and checks every real drop was handed over exactly once,
in order. It counts exceptions that escaped an entry point and times every call.

With `late=True` the tower's own frames also come back late or twice, as MQTT
may bring them (a retained hello, a broker's redelivery after a restart, a
bridged broker), hellos of earlier boots included, and the tower reboots now
and then; with `table_dir` the drops go to a real Table with its game log
there, and the app restarts now and then (the table reopened from its log, a
new Link resuming after the table's last drop). Doubled drops are counted at
the link (one Link handing the same drop over twice) and at the table (the
game log applying one twice), and the drops the table caught are counted too.
Used by tests/firmware_bridge/test_bridge_fuzz.py and bench/bench_link_fuzz.py.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from firmware_bridge import framing
from firmware_bridge.link import Link
from firmware_bridge.messages import Drop, Fault, Heartbeat, Hello, MessageError, Totals, parse_device
from firmware_bridge.sim import InProcessPort, SimulatedTower

FLOATS = [1.5, -0.0, 0.1, 3.0, 1e308, -1e-300, float("nan"), float("inf"), float("-inf")]
HUGE = [2**31, 2**53 + 1, 2**63, -(2**63), 10**30, -(10**30), 10**200]
NEGATIVE = [-1, -17, -(2**31)]
BOOTS = [
    12345678,
    0x3F9A12C0,
    None,
    True,
    [],
    ["3f9a12c0"],
    {"id": "3f9a12c0"},
    "",
    "XYZ",
    "3F9A12C0",
    "3f9a12c",
    "3f9a12c0a",
    " 3f9a12c0",
    "3f9a12c\u00e9",
    1.5,
    "\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000",
]
TYPES = [
    "drop",
    "hello",
    "hb",
    "totals",
    "fault",
    "cal",
    "ok",
    "weather",
    "",
    "DROP",
    "drop ",
    "hello_req",
    "ack",
    "x" * 40,
]


def _nested(rng: random.Random, depth: int):
    if depth <= 0:
        return rng.choice([1, "a", None, 1.5, [], {}])
    inner = _nested(rng, depth - 1)
    return rng.choice([{"k": inner}, [inner], [1, inner]])


def weird_value(rng: random.Random):
    kind = rng.randrange(10)
    if kind == 0:
        return rng.choice(FLOATS)
    if kind == 1:
        return rng.choice(HUGE)
    if kind == 2:
        return rng.choice(NEGATIVE)
    if kind == 3:
        return rng.choice([True, False, None])
    if kind == 4:
        return "x" * rng.randint(65, 420)  # a giant string (the frame limit is 512 bytes)
    if kind == 5:
        return rng.choice(["", "\u00e9", "\u0000", "\n", "a/b#", "\ud800", "red ", "RED", "uncertain"])
    if kind == 6:
        return _nested(rng, rng.randint(1, 12))
    if kind == 7:
        return rng.choice([[], [1, 2, 3], [1.5] * 4, [1, 2, 3, 4, 5], ["1", "2", "3", "4"], [-1] * 4, [2**70] * 4])
    if kind == 8:
        return rng.choice([{}, {"red": 1.5}, {"red": -1}, {"x" * 70: 1}, {"red": "1"}])
    return rng.choice(BOOTS)


def wire_bytes(obj) -> bytes:
    """Frames as a careless or hostile sender spells them: floats and NaN allowed, any key order."""
    body = json.dumps(obj, separators=(",", ":"), allow_nan=True).encode("ascii")
    return body + b"*%04X" % framing.crc16(body)


def claims_something(line: bytes) -> bool:
    """A fully valid frame that says something about the tower (see the module docstring)."""
    try:
        msg = parse_device(framing.decode(line))
    except (framing.FrameError, MessageError):
        return False
    return isinstance(msg, (Drop, Totals, Heartbeat, Fault)) or (isinstance(msg, Hello) and msg.proto == 1)


class HostileFrames:
    def __init__(self, seed: int, tower: SimulatedTower | None = None):
        self.rng = random.Random(seed)
        t = tower or SimulatedTower(seed=seed + 1)
        t.drop("red")
        t.drop("uncertain")
        self.templates = [
            framing.decode(t.ring[1]),
            framing.decode(t.ring[2]),
            t.hello(),
            t.totals_frame(),
            {
                "t": "hb",
                "boot": t.boot_id,
                "seq": 2,
                "acked": 1,
                "up": 1000,
                "beam": 0,
                "held": 2,
                "lost": 0,
                "bad": 0,
                "glitch": 0,
                "edge_ovf": 0,
            },
            {"t": "fault", "boot": t.boot_id, "code": "replay_gap", "msg": "gone", "oldest": 2, "last": 2, "re": 1},
            {"t": "ok", "cmd": "empty", "re": 3, "token": "g1", "emptied": True},
            {"t": "cal", "state": "done", "colours": ["red"], "per": 5, "sep": 74},
        ]
        self.wire = [framing.encode(t) for t in self.templates]
        self.kinds = Counter()
        self.skipped_valid = 0

    def item(self) -> bytes:
        """One hostile line, without its newline."""
        while True:
            kind, line = self._make()
            if not claims_something(line):
                self.kinds[kind] += 1
                return line
            self.skipped_valid += 1

    def _make(self) -> tuple[str, bytes]:
        rng = self.rng
        r = rng.random()
        if r < 0.55:
            return "typed", wire_bytes(self._mutated())
        if r < 0.60:
            return "other_proto", wire_bytes(self._other_proto())
        if r < 0.70:
            return "bytes_valid_crc", self._byte_mutation(fix_crc=True)
        if r < 0.78:
            return "bad_crc", self._byte_mutation(fix_crc=False)
        if r < 0.84:
            return "cut", rng.choice(self.wire)[: rng.randrange(1, 120)]
        if r < 0.96:
            return "random_bytes", bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 200)))
        return "long", b"{" + b"z" * rng.randrange(500, 3000)

    def _mutated(self) -> dict:
        rng = self.rng
        obj = json.loads(json.dumps(rng.choice(self.templates)))
        for _ in range(rng.randint(1, 3)):
            how = rng.randrange(7)
            keys = [k for k in obj if k != "t"]
            if how == 0 and keys:
                obj[rng.choice(keys)] = weird_value(rng)
            elif how == 1:
                obj["boot"] = rng.choice(BOOTS)
            elif how == 2:
                obj[rng.choice(["seq", "acked", "oldest", "from", "est", "conf"])] = rng.choice(NEGATIVE + HUGE + [0])
            elif how == 3 and keys:
                del obj[rng.choice(keys)]
            elif how == 4:
                obj["t"] = rng.choice(TYPES)
            elif how == 5:
                obj[rng.choice(["x", "lux", "boot2", "nested"])] = weird_value(rng)  # extra fields are allowed
            else:
                obj[rng.choice(keys or ["seq"])] = rng.choice(FLOATS)
        return obj

    def _other_proto(self) -> dict:
        rng = self.rng
        obj = json.loads(json.dumps(self.templates[2]))
        obj["proto"] = rng.choice([0, 2, 3, 99])
        obj["fw"] = f"{obj['proto']}.0.0"
        if rng.random() < 0.3:
            obj["dev"] = "castillo-ffffff"
        return obj

    def _byte_mutation(self, fix_crc: bool) -> bytes:
        rng = self.rng
        frame = bytearray(rng.choice(self.wire))
        body = frame[:-5]
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(body))
            body[at] = rng.choice([rng.getrandbits(8), ord(rng.choice('{}[]":,.-0123456789eE'))])
        body = bytes(body).replace(b"\n", b" ")
        crc = framing.crc16(body) if fix_crc else rng.getrandbits(16)
        return body + b"*%04X" % crc


@dataclass
class Figures:
    hostile: int = 0
    calls: int = 0
    escaped: int = 0
    escaped_examples: list = field(default_factory=list)
    slowest_call: float = 0.0
    slowest_call_cpu: float = 0.0  # the same in this thread's CPU time: not lengthened by a loaded machine
    calls_over_10ms: int = 0  # a garbage collection of the whole run's objects takes about that long
    real_drops: int = 0
    delivered: int = 0
    doubled: int = 0
    out_of_order: int = 0
    missing: int = 0
    wrong_content: int = 0
    seconds: float = 0.0
    late_frames: int = 0  # the tower's own frames fed again, late
    late_hellos: int = 0  # of which hellos, of an earlier boot or the current one
    reboots: int = 0
    restarts: int = 0  # the app restarted: the table reopened from its log, a new link
    doubled_at_table: int = 0  # drops the game log applied twice
    caught_by_table: int = 0  # drops a link handed over again that the table did not apply


class FuzzRun:
    """Hostile items and real tower traffic through one Link, on a fake clock."""

    def __init__(
        self,
        seed: int,
        transport: str = "serial",
        drop_every: int = 20,
        *,
        late: bool = False,
        table_dir=None,
        reboot_every: int = 4000,
        restart_every: int = 15000,
    ):
        assert transport in ("serial", "mqtt")
        self.transport = transport
        self.rng = random.Random(seed)
        self.now = 0.0
        self.tower = SimulatedTower(seed=seed, clock=lambda: self.now)  # the same run for the same seed
        self.hostile = HostileFrames(seed + 7)
        self.drop_every = drop_every
        self.got: list[tuple[str, int, str | None]] = []  # (boot, seq, colour) handed over, by any link
        self.got_by_link: set[tuple[str, int]] = set()  # (boot, seq) handed over by the link running now
        self.late = late
        self.reboot_every = reboot_every
        self.restart_every = restart_every
        self.history: list[bytes] = []  # the tower's frames so far (the last few thousand, every hello)
        self.hellos: list[bytes] = []
        self.table = self._new_table(table_dir) if table_dir is not None else None
        self.status_changes = 0
        self.outbox: list[bytes] = []
        self.fig = Figures()
        self.link = self._new_link(None)
        self.port = InProcessPort(self.tower, lambda kind, frame: self.outbox.append(frame))
        self.made: dict[tuple[str, int], str] = {}  # (boot, seq) -> colour, of real drops
        self._got_keys: set[tuple[str, int]] = set()

    def _new_link(self, resume) -> Link:
        return Link(
            self._command,
            self._on_drop,
            self._on_status,
            clock=lambda: self.now,
            resume=resume,
            silence_timeout=15.0 if self.transport == "serial" else None,
        )

    @staticmethod
    def _new_table(folder):
        from companion.table.authority import Table
        from companion.table.setup import TableSetup, TowerConfig
        from engine.events import GameSetup

        game = GameSetup(
            players=("red", "yellow", "green", "blue"),
            variant="short",
            king="cataluna",
            homes={"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia"},
            start_player="red",
        )
        setup = TableSetup(game=game, mode="scoring", tower=TowerConfig(kind="none"))
        return Table.new(setup, folder, nonce="fuzz")

    def _on_drop(self, drop) -> None:
        key = (drop.boot, drop.seq)
        self.fig.doubled += key in self.got_by_link
        self.got_by_link.add(key)
        if self.table is not None:
            self.table.tower_drop(drop)
        if key not in self._got_keys:  # a repeat is counted above (one link) or by the table (a restarted one)
            self._got_keys.add(key)
            self.got.append((drop.boot, drop.seq, drop.colour))

    def restart_app(self) -> None:
        """The app stops and starts again: the table from its log, a new link resuming after
        the table's last drop (as companion.tower.connection does)."""
        from companion.table.authority import Table

        self.fig.caught_by_table += self.table.drops_again
        path = self.table.path
        self.table.close()
        self.table = Table.resume(path)
        self.link = self._new_link(self.table.tower_position())
        self.got_by_link = set()
        self.fig.restarts += 1
        self._call(self.link.transport_up, "fuzz (restarted)")

    def _on_status(self, status) -> None:
        self.status_changes += 1

    def _command(self, msg: dict) -> None:
        self.port.line(framing.encode(msg))

    def _call(self, fn, arg) -> None:
        started, started_cpu = time.perf_counter(), time.thread_time()
        try:
            fn(arg)
        except Exception as e:  # what the link must never let out
            self.fig.escaped += 1
            if len(self.fig.escaped_examples) < 5:
                self.fig.escaped_examples.append(f"{fn.__name__}({arg[:60]!r}): {type(e).__name__}: {e}")
        took = time.perf_counter() - started
        self.fig.slowest_call_cpu = max(self.fig.slowest_call_cpu, time.thread_time() - started_cpu)
        self.fig.calls += 1
        self.fig.slowest_call = max(self.fig.slowest_call, took)
        self.fig.calls_over_10ms += took > 0.01

    def _real_drop(self) -> None:
        colour = self.rng.choice(["red", "yellow", "green", "blue", "black", "uncertain", "multi"])
        seq = self.tower.drop(colour)
        self.made[(self.tower.boot_id, seq)] = None if colour in ("uncertain", "multi") else colour
        self.fig.real_drops += 1

    def step(self) -> None:
        rng = self.rng
        if rng.randrange(self.drop_every) == 0:
            self._real_drop()
        if rng.randrange(200) == 0:
            self.tower.heartbeat()
        if self.late:
            self._reboot_or_restart()
        self.port.pump()
        real, self.outbox = self.outbox, []
        if self.late:
            real = self._with_late_frames(real)
        bad = self.hostile.item()
        self.fig.hostile += 1
        if self.transport == "serial":
            self._serial(real, bad)
        else:
            self._mqtt(real, bad)
        self.now += 0.01
        self._call(lambda _: self.link.tick(), b"")

    def _reboot_or_restart(self) -> None:
        rng = self.rng
        caught_up = self.link.boot == self.tower.boot_id and self.link.delivered >= self.tower.last_seq
        if caught_up and rng.randrange(self.reboot_every) == 0:
            self.tower.reboot()  # RAM lost: only once every drop is handed over, or they are lost for real
            self.fig.reboots += 1
        if self.table is not None and rng.randrange(self.restart_every) == 0:
            self.restart_app()

    def _with_late_frames(self, real: list[bytes]) -> list[bytes]:
        rng = self.rng
        for frame in real:
            self.history.append(frame)
            if framing.decode(frame).get("t") == "hello":
                self.hellos.append(frame)
        if len(self.history) > 8000:
            del self.history[:4000]
        if len(self.hellos) > 2000:  # the latest stays last: it is the retained one
            del self.hellos[:1000]
        if self.history and rng.random() < 0.03:
            hello = bool(self.hellos) and rng.random() < 0.4
            old = rng.choice(self.hellos) if hello else rng.choice(self.history)
            real = list(real)
            real.insert(rng.randrange(len(real) + 1), old)
            self.fig.late_frames += 1
            self.fig.late_hellos += hello
        return real

    def _serial(self, real: list[bytes], bad: bytes) -> None:
        rng = self.rng
        lines = [f + b"\n" for f in real]
        # the hostile line usually ends with its newline; sometimes it runs into the next line
        lines.insert(rng.randrange(len(lines) + 1), bad + (b"\n" if rng.random() < 0.9 else b""))
        stream = b"".join(lines)
        cuts = (
            sorted(rng.sample(range(1, len(stream)), min(len(stream) - 1, rng.randrange(0, 4))))
            if len(stream) > 1
            else []
        )
        start = 0
        for cut in cuts + [len(stream)]:
            self._call(self.link.feed_bytes, stream[start:cut])
            start = cut

    def _mqtt(self, real: list[bytes], bad: bytes) -> None:
        rng = self.rng
        items = [(self._mqtt_frame, f) for f in real]
        if rng.random() < 0.05:
            hostile = (self.link.feed_availability, rng.choice([b"offline", b"online", b"", bad[:40], b"\xff\xfe"]))
        else:
            hostile = (self.link.feed_frame, bad)
        items.insert(rng.randrange(len(items) + 1), hostile)
        for fn, payload in items:
            self._call(fn, payload)

    def _mqtt_frame(self, frame: bytes) -> None:
        # hellos are retained: after a reconnect the broker hands the last one over again
        self.link.feed_frame(frame, retained=frame in self.hellos[-1:])

    def settle(self, rounds: int = 3000) -> None:
        """No more hostile input: the tower speaks up until every drop it made is handed over."""
        quiet = 0
        for i in range(rounds):
            if i % 20 == 0:
                self.tower.heartbeat()
            if self.transport == "mqtt" and i == 0:
                self._call(self.link.feed_availability, b"online")
            moved = self.port.pump()
            for frame in self.outbox:
                if self.transport == "serial":
                    self._call(self.link.feed_bytes, frame + b"\n")
                else:
                    self._call(self.link.feed_frame, frame)
            self.outbox = []
            self.now += 0.2
            self._call(lambda _: self.link.tick(), b"")
            done = self.link.delivered >= self.tower.last_seq and self.link.status.state == "connected"
            quiet = quiet + 1 if done and not moved else 0
            if quiet >= 12:
                return

    def run(self, n: int, progress=None) -> Figures:
        """n hostile items, then settle and check; progress(i) every 1,000 items (a watchdog)."""
        started = time.perf_counter()
        self._call(self.link.transport_up, "fuzz")
        for i in range(n):
            if progress and i % 1000 == 0:
                progress(i)
            self.step()
        self.settle()
        self.fig.seconds = time.perf_counter() - started
        self._check()
        return self.fig

    def _check(self) -> None:
        keys = [(boot, seq) for boot, seq, _ in self.got]
        f = self.fig
        f.delivered = len(keys)
        if self.table is not None:
            f.caught_by_table += self.table.drops_again
            applied = [tuple(r["key"]) for r in self.table.records if r["t"] == "drop"]
            f.doubled_at_table = len(applied) - len(set(applied))
        boot_order = {boot: i for i, boot in enumerate(dict.fromkeys(b for b, _ in self.made))}
        expected = sorted(self.made, key=lambda k: (boot_order[k[0]], k[1]))
        f.out_of_order = int(keys != [k for k in expected if k in set(keys)])
        f.missing = len(set(expected) - set(keys))
        f.wrong_content = sum(1 for boot, seq, colour in self.got if self.made.get((boot, seq), "?") != colour)
