"""Realistic sensor traces with ground truth for the Castillo tower firmware.

A trace is JSON lines: a "meta" line, then events sorted by time "t" (µs):

    {"k": "edge", "t": .., "v": 1|0}            raw beam level (1 = blocked)
    {"k": "cube", "t": .., "t0": .., "t1": .., "rgbc": [r, g, b, c]}
                                                 a cube in the colour sensor's field
    {"k": "amb", "t": .., "rgbc": [...]}        light leaking into the shroud from t on
    {"k": "cmd", "t": .., "obj": {...}}         a host command over serial ("$boot" is
    {"k": "cmd", "t": .., "line": "..."}        filled in by the harness) or raw bytes
    {"k": "mqtt", "t": .., "up": bool}          the broker goes up / down
    {"k": "mqtt_cmd", "t": .., "obj": {...}}    a host command over MQTT
    {"k": "reboot", "t": ..}                    power cycle
    {"k": "truth", "t": .., ...}                ground truth for one cube (ignored by
                                                 the harness; see Drop.as_event)

Physical model (numbers for a TCS34725 at gain 16x, 2.4 ms, the breakout's LED on,
inside a matt black shroud):
- a cube falls through the throat in 5-8 ms; the beam is blocked for that long;
- its edges may flicker (the cube's edge grazing the beam) for up to 0.8 ms;
- the sensor sees the cube while it is in the beam, give or take 0.4 ms of
  misalignment; its reading varies with the cube's distance and face
  (brightness x lognormal 12 %) and with wood and paint (3 % per channel);
- a black cube reflects about 6 % of what a yellow one does;
- ambient light leaks in, drifting slowly and jumping when a lamp is switched;
- the sensor itself adds read noise and shot noise (in the fake sensor).

Run as a script to write a trace:  python tracegen.py --drops 200 --seed 3 > t.jsonl
"""

import argparse
import binascii
import json
import math
import random
import sys

COLOURS = ("red", "yellow", "green", "blue", "black")  # the classic box; the default calibration
ADDED = ("purple", "orange", "white")  # the 2023 box's others (hardware/firmware/colour.py)
VOCABULARY = COLOURS + ADDED
SET_2023 = ("purple", "blue", "green", "orange", "white")  # a 2023 box, white for its unnamed fifth

# Counts of a centred cube filling one 2.4 ms integration.
REFLECT = {
    "red": (290, 70, 60, 420),
    "yellow": (330, 280, 90, 700),
    "green": (80, 200, 110, 390),
    "blue": (60, 110, 210, 380),
    "black": (22, 20, 18, 62),
    # The 2023 box's colours are MODELLED, not measured on a tower: plausible TCS34725
    # counts under the breakout's white LED, chosen to make the known hard pairs hard.
    # Purple: a dark violet; the sensor's broad red and blue responses put it between
    # blue and the neutral point, a little darker than blue.
    "purple": (95, 68, 160, 330),
    # Orange: between red and yellow in hue but nearer red (its green is what tells
    # them apart), brighter than red.
    "orange": (305, 130, 62, 500),
    # White: near-neutral, the brightest cube; the clear channel reaches full scale
    # (1024) on the brightest faces, so its brightness is clipped there.
    "white": (330, 325, 285, 920),
}
SHROUD = (5.0, 5.0, 4.0, 15.0)  # empty matt-black shroud lit by the sensor's LED
LEAK = (3.0, 2.6, 2.0, 8.0)  # room light leaking in at drift level 1

CLOSE_US = 15000  # cubes closer than this (start to start) need not be told apart


def frame(obj):
    """A protocol-v1 frame, built independently of the firmware (CPython's CRC)."""
    body = _dumps(obj)
    return f"{body}*{binascii.crc_hqx(body.encode(), 0xFFFF):04X}"


def _dumps(value):
    if isinstance(value, dict):
        keys = sorted(value)
        if "t" in keys:
            keys.remove("t")
            keys.insert(0, "t")
        return "{" + ",".join(json.dumps(k) + ":" + _dumps(value[k]) for k in keys) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_dumps(v) for v in value) + "]"
    return json.dumps(value)


class Drop:
    def __init__(self, n, colour, t_enter, transit, cal=False):
        self.n = n
        self.colour = colour
        self.t_enter = t_enter
        self.t_exit = t_enter + transit
        self.cal = cal
        self.close = False
        self.boot = 0

    def as_event(self):
        return {
            "k": "truth",
            "t": self.t_enter,
            "n": self.n,
            "colour": self.colour,
            "t_enter": self.t_enter,
            "t_exit": self.t_exit,
            "cal": self.cal,
            "close": self.close,
            "boot": self.boot,
        }


class TraceBuilder:
    """Builds a trace event by event; the scenario helpers below use it."""

    def __init__(self, seed=1, config=None, sensor=True, mqtt=None, flicker=0.3, glitches=0.01, drift=True):
        self.rng = random.Random(seed)
        self.seed = seed
        self.meta = {"k": "meta", "seed": seed, "config": config or {}, "sensor": sensor}
        if mqtt is not None:
            self.meta["mqtt"] = mqtt
        self.events = []
        self.drops = []
        self.t = 0
        self.flicker = flicker
        self.glitches = glitches
        self.drift = drift
        self.level = 1.0  # ambient drift level
        self.next_amb = 0
        self.boot = 0
        self.last_beam_end = -(10**9)

    # ---- primitive events ----
    def add(self, event):
        self.events.append(event)

    def _ambient_until(self, t):
        # Slow random walk, plus now and then a lamp switched on or off.
        while self.next_amb <= t:
            if self.drift:
                self.level *= math.exp(self.rng.gauss(0, 0.03))
                if self.rng.random() < 0.01:
                    self.level *= self.rng.choice((0.5, 2.0))
                self.level = min(4.0, max(0.3, self.level))
            rgbc = [round(shroud + leak * self.level, 2) for shroud, leak in zip(SHROUD, LEAK)]
            self.add({"k": "amb", "t": self.next_amb, "rgbc": rgbc})
            self.next_amb += 100000

    def wait(self, us):
        self.t += int(us)
        self._ambient_until(self.t)

    def cmd(self, obj=None, line=None, mqtt=False):
        ev = {"k": "mqtt_cmd" if mqtt else "cmd", "t": self.t}
        if line is not None:
            ev["line"] = line
        else:
            ev["obj"] = obj
        self.add(ev)

    def mqtt(self, up):
        self.add({"k": "mqtt", "t": self.t, "up": up})

    def reboot(self):
        self.add({"k": "reboot", "t": self.t})
        self.boot += 1

    # ---- cubes ----
    def cube_reading(self, colour):
        base = REFLECT[colour]
        bright = math.exp(self.rng.gauss(0, 0.12))
        return [round(v * bright * (1 + self.rng.gauss(0, 0.03)), 2) for v in base]

    def drop(self, colour, at=None, transit=None, cal=False, flicker=None, rgbc=None):
        """One cube entering the beam at `at` (default: now). rgbc overrides the
        reading (an odd cube, a stray object)."""
        t_enter = self.t if at is None else int(at)
        transit = transit or self.rng.randint(5000, 8000)
        d = Drop(len(self.drops), colour, t_enter, transit, cal)
        d.boot = self.boot
        d.flicker = self.flicker if flicker is None else flicker
        skew = self.rng.randint(-400, 400)
        self.add(
            {
                "k": "cube",
                "t": t_enter + min(0, skew),
                "t0": t_enter + skew,
                "t1": d.t_exit + skew,
                "rgbc": rgbc or self.cube_reading(colour),
            }
        )
        self.drops.append(d)
        return d

    def glitch(self, at):
        # A sub-millisecond blip (dust, vibration): never a cube.
        self.add({"k": "edge", "t": at, "v": 1})
        self.add({"k": "edge", "t": at + self.rng.randint(100, 500), "v": 0})

    def _beam_edges(self):
        # Union of the cubes' blocked intervals, with flicker at the edges.
        spans = sorted((d.t_enter, d.t_exit, d.flicker) for d in self.drops)
        merged = []
        for a, b, fl in spans:
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b, fl])
        for a, b, fl in merged:
            self._edge_with_flicker(a, 1, fl, entering=True)
            self._edge_with_flicker(b, 0, fl, entering=False)

    def _edge_with_flicker(self, t, v, p, entering):
        # Chatter of 1-3 toggles within 0.8 ms: after the entering edge at t,
        # or before the final leaving edge at t, so t stays the true edge.
        toggles = self.rng.randint(1, 3) if self.rng.random() < p else 0
        offsets = sorted(self.rng.sample(range(30, 800), 2 * toggles))
        if entering:
            stamps = [(t, 1)] + [(t + x, i % 2) for i, x in enumerate(offsets)]
        else:
            stamps = [(t - 800 + x, i % 2) for i, x in enumerate(offsets)] + [(t, 0)]
        for stamp, level in stamps:
            self.add({"k": "edge", "t": stamp, "v": level})

    def mark_close(self):
        starts = sorted(self.drops, key=lambda d: d.t_enter)
        for a, b in zip(starts, starts[1:]):
            if b.t_enter - a.t_enter < CLOSE_US:
                a.close = b.close = True

    def build(self):
        self._beam_edges()
        self.mark_close()
        for d in self.drops:
            self.add(d.as_event())
        self._ambient_until(self.t)
        order = {"amb": 0, "cube": 1, "edge": 2, "truth": 3}
        self.events.sort(key=lambda e: (e["t"], order.get(e["k"], 4)))
        return [self.meta] + self.events

    def write(self, path_or_file):
        lines = [json.dumps(e) for e in self.build()]
        text = "\n".join(lines) + "\n"
        if hasattr(path_or_file, "write"):
            path_or_file.write(text)
        else:
            with open(path_or_file, "w") as f:
                f.write(text)


def calibrate(tb, per=5, gap_us=800000, colours=None, keep=None):
    """The calibration routine: the command, then `per` drops of each colour
    (`colours`: the list the command names; None: the tower's default five;
    `keep`: colours already calibrated that stay, no cube thrown for them)."""
    tb.wait(500000)
    cmd = {"t": "calibrate", "per": per, "id": 1}
    if colours is not None:
        cmd["colours"] = list(colours)
    if keep:
        cmd["keep"] = list(keep)
    tb.cmd(cmd)
    for colour in colours or COLOURS:
        for _ in range(per):
            tb.wait(gap_us)
            tb.drop(colour, cal=True, flicker=0)
    tb.wait(gap_us)


def game(tb, drops, close_fraction=0.02, reboot_at=None, colours=COLOURS):
    """Players throwing cubes of `colours`: bursts of 1-4 cubes 15-150 ms apart,
    bursts 0.3-2 s apart; a few pairs closer than 15 ms; an optional reboot."""
    made = 0
    while made < drops:
        tb.wait(tb.rng.randint(300000, 2000000))
        if reboot_at is not None and made >= reboot_at:
            tb.reboot()
            reboot_at = None
            tb.wait(1000000)
        burst = min(drops - made, tb.rng.randint(1, 4))
        for i in range(burst):
            colour = tb.rng.choice(colours)
            if i and tb.rng.random() < close_fraction * 2:
                spacing = tb.rng.randint(3000, CLOSE_US - 1)
            elif i:
                spacing = tb.rng.randint(CLOSE_US, 150000)
            else:
                spacing = 0
            tb.wait(spacing)
            tb.drop(colour)
            made += 1
        tb.wait(tb.drops[-1].t_exit - tb.t + 1000)
        if tb.glitches and tb.rng.random() < tb.glitches:
            tb.wait(40000)
            tb.glitch(tb.t)


def standard_trace(drops=200, seed=1, reboot=True, colours=None, taught=False, **kw):
    """Calibration, a game, a totals request. colours: the set calibrated and
    thrown (None: the default five, with the calibrate command as it always was).
    taught: the tower is calibrated for the classic five first, then taught only the
    colours of the set it does not know, keeping the others (as the tablet does)."""
    tb = TraceBuilder(seed=seed, **kw)
    if taught and colours:
        calibrate(tb)
        keep = [c for c in colours if c in COLOURS]
        calibrate(tb, colours=[c for c in colours if c not in keep], keep=keep)
    else:
        calibrate(tb, colours=colours)
    game(tb, drops, reboot_at=drops // 2 if reboot else None, colours=tuple(colours or COLOURS))
    tb.wait(1000000)
    tb.cmd({"t": "totals_req", "id": 99})
    tb.wait(500000)
    return tb


def long_game(tb, drops=2000, ring=256, outage_s=600, reconnections=3, colours=COLOURS):
    """A long night for the memory bench: a calibration, drops acknowledged as they go,
    `reconnections` short broker outages, a `outage_s` outage during which `ring` drops
    fill the tower's ring (none overwritten), the reconnection that publishes them all
    again, a host's replay from 1 (older than the ring: replay_gap, then the whole ring),
    a second calibration, and the rest of the drops. Needs meta mqtt up and host_acks."""
    calibrate(tb, colours=colours)
    first = (drops - ring - 10 * reconnections) // 2
    game(tb, first, close_fraction=0, colours=colours)
    for _ in range(reconnections):
        tb.wait(2000000)
        tb.mqtt(False)
        game(tb, 10, close_fraction=0, colours=colours)
        tb.wait(20000000)
        tb.mqtt(True)
        tb.wait(70000000)  # the tower's backoff, then everything published and acknowledged
    start = tb.t
    tb.mqtt(False)
    game(tb, ring, close_fraction=0, colours=colours)
    tb.wait(max(0, start + outage_s * 1000000 - tb.t))
    tb.mqtt(True)
    tb.wait(90000000)
    tb.cmd({"t": "replay", "boot": "$boot", "from": 1, "id": 7}, mqtt=True)
    tb.wait(30000000)
    calibrate(tb, colours=colours)
    game(tb, drops - first - 10 * reconnections - ring, close_fraction=0, colours=colours)
    tb.wait(5000000)
    tb.cmd({"t": "totals_req", "id": 99}, mqtt=True)
    tb.wait(2000000)
    return tb


def parse_colours(text):
    """None, '2023' or 'a,b,c' as a tuple of known ids (ValueError naming a bad one)."""
    if not text:
        return None
    if text == "2023":
        return SET_2023
    colours = tuple(c.strip() for c in text.split(",") if c.strip())
    wrong = [c for c in colours if c not in VOCABULARY]
    if wrong or not colours or len(set(colours)) != len(colours):
        raise ValueError(
            f"colours must be distinct ids from {', '.join(VOCABULARY)} (or 2023); not: {', '.join(wrong) or text}"
        )
    return colours


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drops", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-reboot", action="store_true")
    ap.add_argument(
        "--colours",
        help="comma-separated colour ids to calibrate and throw "
        "(default: the classic five; '2023': " + ",".join(SET_2023) + ")",
    )
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args(argv)
    tb = standard_trace(args.drops, args.seed, reboot=not args.no_reboot, colours=parse_colours(args.colours))
    tb.write(sys.stdout if args.output == "-" else args.output)


if __name__ == "__main__":
    main()
