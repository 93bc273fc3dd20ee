"""Tower fuzz (issue 10): hostile frames through the link's entry points, next to
a baseline taken in the same run.

    .venv/bin/python bench/bench_link_fuzz.py [--frames N] [--seed S] [--json] [--tree DIR]

For each transport, N hostile items (default 200,000; see
tests/firmware_bridge/fuzz_frames.py for what they are) are mixed into a
simulated tower's real drops: over `Link.feed_bytes` with lines split and
merged at random, as the serial reader calls it, and over `Link.feed_frame` /
`Link.feed_availability`, as the MQTT callbacks call them. Figures: exceptions
that escaped an entry point, the slowest single call (a watchdog also ends the
run with a traceback if any 1,000 items take over 60 s: a hang), real drops
made / delivered / doubled / missing / out of order. The tower's own frames also
come back late or twice (3% of items; hellos of earlier boots among them), the
tower reboots now and then, and the app restarts now and then: the drops go to a
real Table whose game log is reopened, and a new Link resumes after its last
drop (issue 25). Doubled drops are counted at the link (one Link handing a
drop over twice) and at the table (the game log applying one twice); the drops
a restarted link handed over again that the table caught are shown too.
Speed: the same 100,000
hostile lines through a connected link's `feed_frame` (parse, check, refuse,
count) against plain `framing.decode` of those lines, in the same run.
Exit status 1 if any figure misses its goal.

`--tree DIR` takes firmware_bridge from DIR instead (the link as it was
before issue 10, say: `mkdir /tmp/before && git archive 54e9368 firmware_bridge
| tar -x -C /tmp/before`), to measure it with the same harness.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
if "--tree" in sys.argv[:-1]:
    sys.path.insert(0, sys.argv[sys.argv.index("--tree") + 1])

from firmware_bridge import framing
from tests.firmware_bridge.fuzz_frames import FuzzRun, HostileFrames

HANG = 60.0  # seconds for 1,000 items before the watchdog calls it a hang


def refusal_speed(seed: int, n: int) -> tuple[float, float]:
    """Lines per second: plain framing.decode (errors caught), then a connected
    link's feed_frame, over the same n hostile lines."""
    frames = HostileFrames(seed)
    lines = [frames.item() for _ in range(n)]
    started = time.perf_counter()
    for line in lines:
        try:
            framing.decode(line)
        except framing.FrameError:
            pass
    decode = n / (time.perf_counter() - started)
    run = FuzzRun(seed, "mqtt")
    run.link.transport_up("speed")
    run.port.pump()
    for frame in run.outbox:
        run.link.feed_frame(frame)
    started = time.perf_counter()
    for line in lines:
        try:
            run.link.feed_frame(line)
        except Exception:  # only an older link (--tree) lets anything out
            pass
    link = n / (time.perf_counter() - started)
    return decode, link


def fuzz(transport: str, seed: int, n: int, late: bool) -> dict:
    # the game log on tmpfs when there is one: the table's fsyncs are not what is measured
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as folder:
        run = FuzzRun(seed, transport, late=late, table_dir=Path(folder) if late else None)
        f = run.run(n, progress=lambda i: faulthandler.dump_traceback_later(HANG, exit=True))
        faulthandler.cancel_dump_traceback_later()
        run.table and run.table.close()
    c = run.link.counters
    return {
        "transport": transport,
        "hostile": f.hostile,
        "calls": f.calls,
        "escaped": f.escaped,
        "escaped_examples": f.escaped_examples,
        "slowest_call_ms": round(f.slowest_call * 1000, 2),
        "calls_over_10ms": f.calls_over_10ms,
        "guard_faults": c["faults"],
        "real_drops": f.real_drops,
        "delivered": f.delivered,
        "doubled": f.doubled,
        "missing": f.missing,
        "out_of_order": f.out_of_order,
        "wrong_content": f.wrong_content,
        "doubled_at_table": f.doubled_at_table,
        "caught_by_table": f.caught_by_table,
        "late_frames": f.late_frames,
        "late_hellos": f.late_hellos,
        "reboots": f.reboots,
        "restarts": f.restarts,
        "seconds": round(f.seconds, 1),
        "final_state": run.link.status.state,
        "refused": {
            k: c[k]
            for k in (
                "bad_frame",
                "bad_checksum",
                "line_too_long",
                "bad_message",
                "unknown_message",
                "refused",
                "bad_availability",
            )
            if c[k]
        },
        "kinds": dict(run.hostile.kinds.most_common()),
        "valid_claims_skipped": run.hostile.skipped_valid,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200_000, help="hostile items per transport")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--tree", metavar="DIR", help="take firmware_bridge from DIR (a copy of another version)")
    ap.add_argument(
        "--no-late",
        action="store_true",
        help="hostile frames only: no late tower frames, reboots, restarts or table (as before issue 25)",
    )
    args = ap.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the link's own (rate-limited) log is not the figure here
    decode, link = refusal_speed(args.seed + 2, min(args.frames, 100_000))
    results = [fuzz(t, args.seed + i, args.frames, not args.no_late) for i, t in enumerate(("serial", "mqtt"))]
    ok = all(
        r["escaped"] == 0
        and r["doubled"] == 0
        and r["doubled_at_table"] == 0
        and r["missing"] == 0
        and r["out_of_order"] == 0
        and r["wrong_content"] == 0
        and r["delivered"] == r["real_drops"]
        for r in results
    )
    if args.json:
        print(
            json.dumps({"decode_per_s": round(decode), "link_per_s": round(link), "runs": results, "ok": ok}, indent=1)
        )
        return 0 if ok else 1
    import firmware_bridge

    print(
        f"Tower fuzz, seed {args.seed}: {args.frames:,} hostile items per transport "
        f"(firmware_bridge from {Path(firmware_bridge.__file__).parent})"
    )
    print(
        f"hostile lines refused or taken by a connected link (feed_frame): {link:,.0f}/s; "
        f"baseline, plain framing.decode of the same lines: {decode:,.0f}/s ({decode / link:.1f}x)"
    )
    for r in results:
        fed = "feed_bytes, split and merged" if r["transport"] == "serial" else "feed_frame / feed_availability"
        print(f"\n{r['transport']} ({fed})")
        print(f"  hostile items {r['hostile']:,} in {r['calls']:,} calls with the tower's traffic, {r['seconds']} s")
        print(f"  exceptions escaping: {r['escaped']}   faults caught by the last-resort guard: {r['guard_faults']}")
        print(
            f"  slowest call: {r['slowest_call_ms']} ms, calls over 10 ms: {r['calls_over_10ms']} "
            f"(watchdog: {HANG:g} s per 1,000 items, not triggered)"
        )
        print(
            f"  real drops: made {r['real_drops']:,}, delivered {r['delivered']:,}, doubled {r['doubled']}, "
            f"missing {r['missing']}, out of order {r['out_of_order']}, wrong content {r['wrong_content']}; "
            f"link {r['final_state']}"
        )
        print(
            f"  late tower frames {r['late_frames']:,} (hellos {r['late_hellos']:,}), tower reboots {r['reboots']}, "
            f"app restarts {r['restarts']}"
        )
        print(
            f"  doubled at the link: {r['doubled']}   doubled at the table (the game log): {r['doubled_at_table']}   "
            f"repeats a restarted link handed over that the table caught: {r['caught_by_table']}"
        )
        print(f"  refused by the link: {r['refused']}")
        print(f"  kinds: {r['kinds']} (valid claims skipped: {r['valid_claims_skipped']})")
        for e in r["escaped_examples"]:
            print(f"  escaped: {e}")
    print("\nall goals met" if ok else "\nGOAL MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
