"""The tower firmware's heap over a long night, on the host MicroPython with a board's heap size.

    .venv/bin/python bench/bench_firmware_memory.py [--drops 2000] [--seed 1] [--smallest]
                                                   [--micropython PATH]

The trace (hardware/tools/tracegen.py long_game): a calibration, drops acknowledged as they
go by a host on the broker, 3 short broker outages, a 10-minute outage (simulated time)
during which 256 drops fill the ring, the reconnection that publishes them all again, a
host's replay from 1 (older than the ring: replay_gap, then the whole ring), a second
calibration, the rest of the drops. It runs through the real firmware modules
(hardware/firmware/fakes/harness.py) under `micropython -X heapsize=...`:

- Pico W: 160 KiB (hardware/README.md, "Memory", says where the figures come from), and a
  TLS session held while connected: on the rp2 port mbedTLS takes its memory from
  MicroPython's heap, 16 KiB in and 4 KiB out record buffers
  (extmod/mbedtls/mbedtls_config_common.h) plus 8 KiB modelled for the session and
  handshake, allocated at each connection and freed when it drops, and 4 KiB held for the
  SSL context with its CA. (The host's own TLS does not use MicroPython's heap, so it is
  modelled, not measured.)
- ESP32: 112 KiB, the esp32 port's initial 56 KiB heap grown once (MICROPY_GC_SPLIT_HEAP_AUTO);
  its TLS uses ESP-IDF's heap, not MicroPython's.

Figures: the lowest free heap right after a collection (every 50 loop passes and after every
trace event), what was going on then, the largest block still free then (the largest
allocation that would still succeed), and the run's checks: no MemoryError (the harness
would stop), no fault frame naming one, no broker connection lost other than the outages,
no drop lost (every drop published, the ring never overwrote an unacknowledged one), every
replayed frame byte for byte the first one. `--smallest` also finds, by bisection, the
smallest heap each run fits in, to 2 KiB (about 5 runs each).
A 64-bit host spends more heap than a board on the same objects (8-byte pointers, 32-byte
heap blocks against 4 and 16): the figures are on the safe side.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hardware" / "tools"))

import towersim
import tracegen

KIB = 1024
TLS_SESSION = [16384 + 333, 4096 + 333] + [512] * 16  # record buffers (+ mbedTLS's overhead), session
TLS_CONTEXT = 4 * KIB
BOARDS = {
    "pico_w": {
        "heap": 160 * KIB,
        "session": TLS_SESSION,
        "ballast": TLS_CONTEXT,
        "what": "Pico W, 160 KiB, TLS in the heap",
    },
    "esp32": {"heap": 112 * KIB, "session": None, "ballast": 0, "what": "ESP32, 112 KiB, TLS outside it"},
}
OUTAGES = 3 + 1  # long_game's short outages and the long one


def long_trace(drops: int, seed: int, board: dict, colours=None) -> tracegen.TraceBuilder:
    tb = tracegen.TraceBuilder(seed=seed, mqtt={"up": True}, glitches=0)
    tb.meta["host_acks"] = True
    tb.meta["mem"] = {"every": 50, "ballast": board["ballast"], "session": board["session"]}
    return tracegen.long_game(tb, drops=drops, colours=colours or tracegen.COLOURS)


def checks(run: towersim.Run) -> dict:
    """What must hold whatever the heap: nothing lost, nothing failed."""
    published: dict[int, str] = {}
    differing = 0
    for _, topic, payload, _, _ in run.pubs:
        if topic.endswith("/drop"):
            seq = towersim.decode_frame(payload)["seq"]
            differing += seq in published and published[seq] != payload
            published.setdefault(seq, payload)
    faults = run.of_type("fault")
    up_again = [ok for _, ok in run.connects].count(True)
    mem = run.mem
    return {
        "drops": mem["last_seq"],
        "unpublished": len(set(range(1, mem["last_seq"] + 1)) - set(published)),
        "ring_lost": mem["ring_lost"],
        "hb_lost": max([f["lost"] for f in run.of_type("hb")] or [0]),
        "replays_differing": differing,
        "memory_faults": sum("MemoryError" in f["msg"] or f["code"] == "internal_error" for f in faults),
        "connections": up_again,
        "connections_expected": OUTAGES + 1,
    }


MICROPYTHON = None  # --micropython


def run_board(drops: int, seed: int, board: dict, heap: int, timeout: float = 1800):
    tb = long_trace(drops, seed, board)
    started = time.perf_counter()
    run, _ = towersim.run_builder(tb, timeout=timeout, heapsize=heap, micropython=MICROPYTHON)
    return run, time.perf_counter() - started


def fits(drops: int, seed: int, board: dict, heap: int) -> bool:
    try:
        run, _ = run_board(drops, seed, board, heap)
    except RuntimeError:  # MemoryError (or any other failure) stops the harness
        return False
    c = checks(run)
    return not (
        c["unpublished"]
        or c["ring_lost"]
        or c["memory_faults"]
        or c["replays_differing"]
        or c["connections"] != c["connections_expected"]
    )


def smallest(drops: int, seed: int, board: dict) -> int:
    low, high = board["heap"] - 32 * KIB, board["heap"]
    while not fits(drops, seed, board, high):  # it does not fit: how much would it need?
        low, high = high, high + 32 * KIB
    while high - low > 2 * KIB:
        mid = (low + high) // 2
        if fits(drops, seed, board, mid):
            high = mid
        else:
            low = mid
    return high


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drops", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smallest", action="store_true", help="also bisect the smallest heap each run fits in")
    ap.add_argument(
        "--micropython",
        help="the MicroPython to run on (default: the test one, 64-bit); a 32-bit "
        'build lays objects out as the boards do (hardware/README.md, "Memory", how to build one)',
    )
    args = ap.parse_args(argv)
    global MICROPYTHON
    MICROPYTHON = args.micropython
    print(
        f"Tower firmware memory: a long night of {args.drops} drops (seed {args.seed}) on "
        f"{args.micropython or towersim.find_micropython()}"
    )
    ok = True
    for board in BOARDS.values():
        try:
            run, took = run_board(args.drops, args.seed, board, board["heap"])
        except RuntimeError as e:
            print(f"\n{board['what']}: DOES NOT FIT\n{str(e)[-800:]}")
            if args.smallest:
                print(
                    f"  smallest heap the night fits in (-X heapsize, to 2 KiB): "
                    f"{smallest(args.drops, args.seed, board) / KIB:g} KiB, against the board's {board['heap'] / KIB:g}"
                )
            ok = False
            continue
        m, c = run.mem, checks(run)
        good = (
            not (c["unpublished"] or c["ring_lost"] or c["hb_lost"] or c["memory_faults"] or c["replays_differing"])
            and c["connections"] == c["connections_expected"]
        )
        ok = ok and good
        print(f"\n{board['what']} (heap {m['heap']:,} bytes; run {took:.0f} s, {m['samples']:,} samples)")
        print(
            f"  free after start-up: {m['first_free']:,} bytes; lowest free after a collection: "
            f"{m['lowest_free']:,} bytes ({m['lowest_free'] / m['heap']:.0%} of the heap)"
        )
        print(
            f"  then: {m['lowest_where']} at {m['lowest_at_us'] / 1e6:.1f} s of the night, ring holding "
            f"{m['ring_held_then']} drops, control frames queued {m['queued_bytes_then']} bytes; "
            f"largest block still free {m['largest_free_then']:,} bytes"
        )
        print(
            f"  drops {c['drops']}, unpublished {c['unpublished']}, overwritten unacknowledged {c['ring_lost']} "
            f"(heartbeats' lost: {c['hb_lost']}), replayed frames differing {c['replays_differing']}, "
            f"MemoryError or internal_error faults {c['memory_faults']}, broker connections "
            f"{c['connections']} of {c['connections_expected']}: {'ok' if good else 'MISSED'}"
        )
        if args.smallest:
            print(
                f"  smallest heap the night fits in (-X heapsize, to 2 KiB): "
                f"{smallest(args.drops, args.seed, board) / KIB:g} KiB, against the board's {board['heap'] / KIB:g}"
            )
    print("\nall checks hold" if ok else "\nCHECK MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
