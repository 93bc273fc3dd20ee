# The tower's state machine: sensing -> drops -> ring and totals; host commands (commands.py).
# Board-free: pins, I2C, clock and storage come in from main.py (or the fakes).
import gc
import struct
from time import ticks_add, ticks_diff

import protocol
from colour import ADDED, COLOURS, VOCABULARY, Classifier, nearest, separation
from commands import COMMANDS, HANDLERS, BadArgument
from defaults import FIRMWARE_VERSION
from ring import EventRing
from sensing import BeamTracker, tdiff
from tcs34725 import CYCLE_US, SensorError

MASK_US = 0x3FFFFFFF
# A drop in the ring (hardware/README.md, "Memory"): colour and best (DROP_NAMES index,
# NO_NAME for none), conf, raw present, raw r g b c, amb r g b c, transit us, multi, est,
# ms. 31 bytes; its frame is made again from them, byte for byte, when a link sends it.
DROP_RECORD = "<BBHB4H4HIBBi"
DROP_NAMES = ("uncertain",) + VOCABULARY
NO_NAME = 255
RECENT_FRAMES = 4  # frames of the newest drops kept made: live sends never make one again
# A collection while the beam is quiet, every so often: one forced by an allocation could fall
# on a falling cube, and a heap collected before it is full fragments less (hardware/README.md,
# "Memory").
COLLECT_EVERY_MS = 1000


def empty_totals():
    return {"counts": dict((c, 0) for c in COLOURS), "unc": 0, "multi": 0, "drops": 0, "epoch": 0, "token": ""}


def _u16(value):
    # A sensor count as the ring stores it (the TCS34725's counts are 16-bit).
    return max(0, min(0xFFFF, int(value)))


def counted_colours(refs):
    # The keys of totals.counts: the classic five as ever, plus each added colour
    # calibrated (so a classic tower's totals stay byte for byte what they were).
    return COLOURS + tuple(c for c in ADDED if refs and c in refs)


def wire_colour(colour):
    # (col, xcol) of a drop: an added colour goes in xcol, col says "uncertain", so
    # a host that knows only the classic five asks the players, as it must (and
    # an added best guess goes in xbest, best is then null).
    if colour in ADDED:
        return "uncertain", colour
    return colour, None


class Device:
    def __init__(self, cfg, clock, edges, sensor, store, led=None, random_bytes=None):
        self.cfg = cfg
        self.clock = clock
        self.edges = edges
        self.sensor = sensor
        self.store = store
        self.led = led
        self.links = []
        # The ring's buffer is the night's one big block: collected first, what start-up
        # compiled and let go is free, and it takes the lowest hole that fits.
        gc.collect()
        self.ring = EventRing(cfg["ring_size"], struct.calcsize(DROP_RECORD))
        self.recent = {}  # seq -> frame of the newest drops (RECENT_FRAMES)
        self.tracker = BeamTracker(
            cfg["debounce_us"], cfg["min_block_us"], cfg["multi_us"], cfg["typical_us"], cfg["stuck_us"]
        )
        self.device_id = cfg["device_id"] or "castillo-host"
        boot = int.from_bytes(random_bytes(4) if random_bytes else b"\0\0\0\1", "big")
        self.boot_id = f"{boot:08x}"
        self.boot_ms = clock.ticks_ms()
        self.counters = {"bad": 0, "unknown": 0, "sensor_err": 0}
        self.readings = []  # (t_us, (r, g, b, c)) read while the beam was busy
        self.pending = []  # finished blocks waiting for their last colour cycle
        self.ambient = None  # [r, g, b, c] of the empty shroud, tracks drift
        self.ambient_due = self.boot_ms
        self.ambient_wait = False
        self.last_busy_ms = self.boot_ms
        self.dirty = False
        self.calibration = None
        self.stuck_reported = False
        self.sensor_ok = False
        self.next_heartbeat = self.boot_ms
        self.next_collect = self.boot_ms
        self._load()

    # ---- start-up ---------------------------------------------------------

    def _load(self):
        state = self.store.load("state.json", {"boots": 0})
        state["boots"] = state.get("boots", 0) + 1
        self.boots = state["boots"]
        self.store.save("state.json", state)
        self.totals = self.store.load("totals.json", None) or empty_totals()
        cal = self.store.load("cal.json", None)
        self.cal = cal
        self.classifier = None
        if cal:
            self.classifier = Classifier(cal["refs"], self.cfg["min_conf"], self.cfg["max_distance"])
            if cal.get("multi_us"):
                self.tracker.multi_us = cal["multi_us"]
                self.tracker.typical_us = cal["typical_us"]

    def start(self):
        # Call once the links exist: hello, then faults found at start-up.
        sensor_problem = "no colour sensor configured"
        if self.sensor is not None:
            try:
                self.sensor.start()
                self.sensor_ok = True
            except SensorError as e:
                sensor_problem = str(e)
        self.emit(self.hello())
        if self.store.errors:
            self.fault("storage_error", "stored state was unreadable; defaults used")
        if not self.sensor_ok:
            self.fault("sensor_missing", sensor_problem + "; every drop will be counted as uncertain")
        if not self.classifier:
            self.fault("not_calibrated", "no calibration stored; every drop will be uncertain until calibrate")

    # ---- frames -------------------------------------------------------------

    def uptime_ms(self):
        return ticks_diff(self.clock.ticks_ms(), self.boot_ms)

    def hello(self):
        cal = {"ok": bool(self.classifier), "colours": [], "per": 0, "sep": 0}
        if self.cal:
            refs = self.cal["refs"]
            cal = {
                "ok": True,
                "colours": [c for c in VOCABULARY if c in refs],
                "per": self.cal.get("per", 0),
                "sep": int(separation(refs) * 10),
            }
        return {
            "t": "hello",
            "dev": self.device_id,
            "fw": FIRMWARE_VERSION,
            "proto": protocol.PROTOCOL_VERSION,
            "board": self.cfg["board"],
            "boot": self.boot_id,
            "boots": self.boots,
            "seq": self.ring.last_seq,
            "oldest": self.ring.oldest_seq,
            "ring": self.ring.capacity,
            "sensor": self.sensor_ok,
            "cal": cal,
        }

    def totals_frame(self):
        t = self.totals
        counts = dict((c, 0) for c in counted_colours(self.cal and self.cal["refs"]))
        counts.update(t["counts"])
        return {
            "t": "totals",
            "boot": self.boot_id,
            "seq": self.ring.last_seq,
            "counts": counts,
            "unc": t["unc"],
            "multi": t["multi"],
            "drops": t["drops"],
            "epoch": t["epoch"],
            "token": t["token"],
        }

    def heartbeat(self):
        return {
            "t": "hb",
            "boot": self.boot_id,
            "seq": self.ring.last_seq,
            "acked": self.ring.acked,
            "up": self.uptime_ms(),
            "beam": 1 if self.tracker.blocked else 0,
            "held": len(self.ring),
            "lost": self.ring.lost,
            "bad": self.counters["bad"],
            "glitch": self.tracker.glitches,
            "edge_ovf": self.edges.overflows,
        }

    def emit(self, msg, link=None):
        # To one link (a reply) or to all (news).
        frame = protocol.encode(msg)
        for target in [link] if link else self.links:
            target.send(msg["t"], frame)

    def fault(self, code, text, link=None, **extra):
        msg = {"t": "fault", "boot": self.boot_id, "code": code, "msg": text}
        msg.update(extra)
        self.emit(msg, link)
        if self.led:
            self.led.show("fault", self.clock.ticks_ms())

    # ---- sensing --------------------------------------------------------------

    def step(self):
        # One pass of the sensing loop. Never waits on a link.
        now_us = self.clock.ticks_us() & MASK_US
        now_ms = self.clock.ticks_ms()
        done = []
        while True:
            edge = self.edges.get()
            if edge is None:
                break
            self.tracker.edge(edge[0], edge[1], done)
        self.tracker.poll(now_us, done)
        if self.tracker.stuck and not self.stuck_reported:
            self.stuck_reported = True
            stuck_ms = self.cfg["stuck_us"] // 1000
            self.fault(
                "beam_stuck",
                f"beam blocked for over {stuck_ms} ms: a cube stuck in the throat, or the beam misaligned",
            )
        elif self.stuck_reported and not self.tracker.blocked:
            self.stuck_reported = False
        self.pending.extend(done)
        busy = self.tracker.blocked or self.pending
        if busy:
            self.last_busy_ms = now_ms
            self.ambient_wait = False
        self._read_sensor(now_us, now_ms, busy)
        self._finish_blocks(now_us)
        self._housekeeping(now_ms)

    def quiet(self):
        # True when blocking work (MQTT publish, flash write) cannot cost a reading.
        return not (self.tracker.blocked or self.pending) and ticks_diff(self.clock.ticks_ms(), self.last_busy_ms) >= 20

    def _read_sensor(self, now_us, now_ms, busy):
        if not self.sensor_ok:
            return
        if not busy and not self.ambient_wait:
            if ticks_diff(now_ms, self.ambient_due) < 0 or ticks_diff(now_ms, self.last_busy_ms) < 50:
                return
        try:
            if self.ambient_wait or busy:
                reading = self.sensor.fresh()
            else:
                self.sensor.discard()  # the next cycle is all empty shroud
                self.ambient_wait = True
                return
        except OSError:
            self.counters["sensor_err"] += 1
            self.sensor_ok = False
            self.fault("sensor_error", "colour sensor stopped answering on I2C")
            return
        if reading is None:
            return
        if busy:
            self.readings.append((now_us, reading))
            if len(self.readings) > 24:  # a long block: keep the most recent
                self.readings.pop(0)
        else:
            self.ambient_wait = False
            self.ambient_due = ticks_add(now_ms, self.cfg["ambient_ms"])
            self._track_ambient(reading)

    def _track_ambient(self, reading):
        if self.ambient is None:
            self.ambient = [float(v) for v in reading]
            return
        a = self.cfg["ambient_alpha"]
        for i in range(4):
            self.ambient[i] += a * (reading[i] - self.ambient[i])

    def _finish_blocks(self, now_us):
        # A block is classified once the cycle that covers its end has been read.
        wait = CYCLE_US + self.cfg["read_slack_us"]
        while self.pending and tdiff(now_us, self.pending[0].end) >= wait:
            block = self.pending.pop(0)
            mine = [r for t, r in self.readings if tdiff(t, block.start) > 0 and tdiff(t, block.end) <= wait]
            self.readings = [r for r in self.readings if tdiff(r[0], block.end) > wait]
            best = None
            for reading in mine:
                if best is None or reading[3] > best[3]:
                    best = reading
            # While calibrating, the references in use may not know the colour being taught (a
            # white cube is brighter than any classic one): only the beam says "several cubes".
            if best is not None and not block.multi and not self.calibration and self._colours_disagree(mine, best):
                block.multi = True
                block.estimate = 2
            if self.calibration:
                self._calibration_drop(block, best)
            else:
                self._count_drop(block, best)

    def _colours_disagree(self, readings, best):
        # Two cubes falling almost together block the beam about as long as one
        # slow cube; but they give more light than one cube can, or readings
        # that mostly saw a cube name two different colours with confidence.
        if not self.classifier:
            return False
        ambient = self.ambient or [0, 0, 0, 0]
        colour, _, _ = self.classifier.classify(best, ambient)
        if self.classifier.too_bright(best, ambient, colour):
            return True
        floor = ambient[3] + (best[3] - ambient[3]) * 3 / 4  # readings that saw mostly cube
        seen = None
        for reading in readings:
            if reading[3] < floor:
                continue
            colour, _, certain = self.classifier.classify(reading, ambient)
            if certain:
                if seen is not None and colour != seen:
                    return True
                seen = colour
        return False

    def _count_drop(self, block, reading):
        ambient = self.ambient or [0, 0, 0, 0]
        best, conf, certain = None, 0.0, False
        if reading is not None and self.classifier:
            best, conf, certain = self.classifier.classify(reading, ambient)
        colour = best if certain and not block.multi else "uncertain"
        totals = self.totals
        totals["drops"] += 1
        if block.multi:
            totals["multi"] += 1
        elif colour == "uncertain":
            totals["unc"] += 1
        else:
            totals["counts"][colour] = totals["counts"].get(colour, 0) + 1
        self.dirty = True
        ms = self.uptime_ms() - tdiff(self.clock.ticks_us() & MASK_US, block.start) // 1000
        raw = reading or (0, 0, 0, 0)
        values = (
            DROP_NAMES.index(colour),
            NO_NAME if best is None else DROP_NAMES.index(best),
            int(conf * 1000),
            1 if reading else 0,
            _u16(raw[0]),
            _u16(raw[1]),
            _u16(raw[2]),
            _u16(raw[3]),
            _u16(ambient[0] + 0.5),
            _u16(ambient[1] + 0.5),
            _u16(ambient[2] + 0.5),
            _u16(ambient[3] + 0.5),
            block.transit_us,
            1 if block.multi else 0,
            min(255, block.estimate),
            ms,
        )

        def pack(buffer, offset):
            struct.pack_into(DROP_RECORD, buffer, offset, *values)

        seq = self.ring.push(pack)
        self.recent[seq] = self._drop_frame(seq, values)
        if seq - RECENT_FRAMES in self.recent:
            del self.recent[seq - RECENT_FRAMES]
        if self.led:
            self.led.show("ok" if colour != "uncertain" else "unsure", self.clock.ticks_ms())

    def drop_frame(self, seq, make=True):
        # The frame of drop seq, as it was first sent; None when the ring no longer holds
        # it, or when it would have to be made again and make is False (a link waits for
        # a quiet beam: making a frame costs milliseconds on a board).
        frame = self.recent.get(seq)
        if frame is not None or not make:
            return frame
        offset = self.ring.offset(seq)
        if offset is None:
            return None
        return self._drop_frame(seq, struct.unpack_from(DROP_RECORD, self.ring.records, offset))

    def _drop_frame(self, seq, values):
        colour, best = DROP_NAMES[values[0]], None if values[1] == NO_NAME else DROP_NAMES[values[1]]
        col, xcol = wire_colour(colour)
        best_col, xbest = (None, best) if best in ADDED else (best, None)
        msg = {
            "t": "drop",
            "boot": self.boot_id,
            "seq": seq,
            "col": col,
            "best": best_col,
            "conf": values[2],
            "raw": list(values[4:8]) if values[3] else None,
            "amb": list(values[8:12]),
            "tr": values[12],
            "multi": values[13] == 1,
            "est": values[14],
            "ms": values[15],
        }
        if xcol:
            msg["xcol"] = xcol
        if xbest:
            msg["xbest"] = xbest
        return protocol.encode(msg)

    def _housekeeping(self, now_ms):
        if self.led:
            self.led.step(now_ms)
        if self.dirty and ticks_diff(now_ms, self.last_busy_ms) >= self.cfg["quiet_ms"]:
            self._save_totals()
        if ticks_diff(now_ms, self.next_heartbeat) >= 0:
            self.next_heartbeat = ticks_add(now_ms, self.cfg["heartbeat_ms"])
            self.emit(self.heartbeat())
        if ticks_diff(now_ms, self.next_collect) >= 0 and self.quiet():
            self.next_collect = ticks_add(now_ms, COLLECT_EVERY_MS)
            gc.collect()

    def _save_totals(self):
        self.dirty = False
        if not self.store.save("totals.json", self.totals):
            self.fault("storage_error", "could not write totals.json")

    # ---- calibration ----------------------------------------------------------

    def _calibration_drop(self, block, reading):
        cal = self.calibration
        if block.multi or reading is None:
            why = "several cubes at once" if block.multi else "no colour reading"
            self.emit(
                {
                    "t": "cal",
                    "state": "retry",
                    "colour": cal.colour,
                    "got": cal.got(),
                    "need": cal.per_colour,
                    "msg": why + "; drop that one again",
                }
            )
            return
        completed = cal.add(reading, self.ambient or [0, 0, 0, 0], block.transit_us)
        if self.led:
            self.led.show("cal", self.clock.ticks_ms())
        if completed:
            self._colour_learnt(cal, completed)
        if not cal.done:
            self.calibration_prompt()
            return
        self.calibration = None
        refs = cal.result()
        longest = max(cal.transits)
        typical = sum(cal.transits) // len(cal.transits)
        multi_us = min(20000, max(7000, longest * 105 // 100))
        if cal.kept and self.cal and self.cal.get("multi_us"):
            # Taught a few colours only: fewer transits seen, but the throat is the same one,
            # so the threshold never drops below what the full calibration measured.
            multi_us = max(multi_us, self.cal["multi_us"])
        self.cal = {"refs": refs, "per": cal.per_colour, "multi_us": multi_us, "typical_us": typical}
        self.tracker.multi_us = multi_us
        self.tracker.typical_us = typical
        self.classifier = Classifier(refs, self.cfg["min_conf"], self.cfg["max_distance"])
        sep = separation(refs)
        self.store.save("cal.json", self.cal)
        self.emit(
            {
                "t": "cal",
                "state": "done",
                "colours": cal.kept_order + cal.colours,
                "per": cal.per_colour,
                "sep": int(sep * 10),
                "multi_us": multi_us,
                "warn": sep < 6.0,
            }
        )

    def _colour_learnt(self, cal, colour):
        # How well the colour just learnt stands apart from those known so far (the kept
        # ones and the ones learnt before it), so the table hears it while the cubes are out.
        near, d = nearest(cal.learnt(), colour)
        self.emit(
            {
                "t": "cal",
                "state": "learnt",
                "colour": colour,
                "near": near,
                "dist": int(d * 10) if d is not None else None,
            }
        )

    def calibration_prompt(self, link=None):
        cal = self.calibration
        self.emit({"t": "cal", "state": "drop", "colour": cal.colour, "got": cal.got(), "need": cal.per_colour}, link)

    # ---- host commands -------------------------------------------------------

    def handle_line(self, line, link):
        # Bad input is answered with a fault frame and otherwise ignored.
        try:
            msg = protocol.decode(line)
        except protocol.FrameError as e:
            self.counters["bad"] += 1
            self.fault(e.code, e.msg, link, count=self.counters["bad"])
            return
        ref = msg.get("id")
        kind = msg["t"]
        handler = HANDLERS.get(kind)
        if handler is None:
            self.counters["unknown"] += 1
            known = ", ".join(COMMANDS)
            self.fault("unknown_command", f"unknown command {kind!r}; known: {known}", link, re=ref)
            return
        try:
            handler(self, msg, link, ref)
        except BadArgument as e:
            self.fault(e.code, f"{kind}: {e}", link, re=ref)
        except Exception as e:  # never let one command stop the counting
            self.fault("internal_error", f"{kind} failed: {e!r}", link, re=ref)

    def too_long(self, link):
        self.counters["bad"] += 1
        self.fault(
            "line_too_long", f"line longer than {protocol.MAX_LINE} bytes discarded", link, count=self.counters["bad"]
        )

    def ok(self, cmd, link, ref, **extra):
        msg = {"t": "ok", "cmd": cmd, "re": ref}
        msg.update(extra)
        self.emit(msg, link)

    def empty(self, token, link):
        # The Castillo was emptied: new totals for all, or the same again to `link` if this
        # token emptied it already. True if it emptied now.
        emptied = token != self.totals["token"]
        if emptied:
            epoch = self.totals["epoch"] + 1
            self.totals = empty_totals()
            self.totals["epoch"] = epoch
            self.totals["token"] = token
            self._save_totals()
            self.emit(self.totals_frame())
        else:
            self.emit(self.totals_frame(), link)
        return emptied
