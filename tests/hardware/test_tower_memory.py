"""The firmware's heap over a night in short (issue 25), on the test MicroPython with the
Pico W's heap size (`micropython -X heapsize=160K`): a calibration, drops acknowledged as
they go, a broker outage, a longer one during which 256 drops fill the ring, the
reconnection that publishes them again, a host's replay from 1, a second calibration, with
the 2023 box's colours (added colours in xcol/xbest). No MemoryError, no drop lost, every
replayed frame byte for byte the first one, and what the night adds to the heap stays small:
the ring is one buffer allocated at start-up. The full night with the boards' figures (and
TLS) is bench/bench_firmware_memory.py."""

import sys
from pathlib import Path

import towersim
import tracegen

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_firmware_memory as bench

KIB = 1024


def test_a_night_with_the_ring_full_during_an_outage_fits_the_pico_w_heap(micropython):
    tb = tracegen.TraceBuilder(seed=7, mqtt={"up": True}, glitches=0)
    tb.meta["host_acks"] = True
    tb.meta["mem"] = {"every": 50}
    tracegen.long_game(tb, drops=300, outage_s=120, reconnections=1, colours=tracegen.SET_2023)
    run, _ = towersim.run_builder(tb, timeout=120, heapsize=160 * KIB)  # a MemoryError stops the harness
    c = bench.checks(run)
    assert c["drops"] >= 290 and c["unpublished"] == 0 and c["ring_lost"] == c["hb_lost"] == 0
    assert c["replays_differing"] == 0 and c["memory_faults"] == 0
    assert c["connections"] == 3  # the first, and one after each outage: none lost to the heap
    m = run.mem
    # What the night adds to what start-up left (the calibrations' state included) stays
    # small: not the ring, whose 256 frames as strings took about 60 KB of this heap.
    assert m["first_free"] - m["lowest_free"] < 24 * KIB, str(m)
    assert m["lowest_free"] > 40 * KIB and m["largest_free_then"] > 4 * KIB, str(m)
    drops = run.of_type("drop")
    assert any("xcol" in d for d in drops) or any("xbest" in d for d in drops)
