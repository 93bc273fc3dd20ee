"""Benchmark of the Castillo tower firmware on the host MicroPython.

    .venv/bin/python bench/bench_firmware.py [--drops 10000] [--seed 1] [--colours 2023|ID,ID,...] [--taught]

Generates a trace (calibration, then players throwing cubes, a reboot in the
middle; see hardware/tools/tracegen.py), runs it through the real firmware
modules on `micropython` with fake pins, a fake TCS34725 and a fake clock, and
prints the figures of issue #3 against their goals, plus the loop's time per
sample against an empty loop measured in the same run. `--colours` calibrates
and throws another set (`2023`: purple, blue, green, orange, white; the added
colours' readings are modelled, see tracegen.REFLECT); the default is the classic
five, with the very trace this bench always made. `--taught` calibrates the classic
five first and then teaches only the set's other colours, keeping the rest (what the
tablet's teaching does to a tower fresh from a classic game).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hardware" / "tools"))

import towersim
import tracegen


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drops", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--colours",
        help="colours to calibrate and throw: 2023, or ids separated by commas "
        "(default: red, yellow, green, blue, black)",
    )
    ap.add_argument(
        "--taught",
        action="store_true",
        help="calibrate the classic five first, then teach only "
        "the other colours of --colours, keeping the rest (the tablet's teaching)",
    )
    args = ap.parse_args(argv)
    try:
        colours = tracegen.parse_colours(args.colours)
    except ValueError as e:
        ap.error(str(e))

    t0 = time.perf_counter()
    tb = tracegen.standard_trace(args.drops, args.seed, colours=colours, taught=args.taught)
    t1 = time.perf_counter()
    run, truth = towersim.run_builder(tb, timeout=600)
    t2 = time.perf_counter()
    s = towersim.score(run, truth)
    st = run.stats

    per_sample = st["loop_us"] / st["passes"]
    per_busy = st["busy_us"] / max(1, st["busy_passes"])
    baseline = st["baseline_us"] / st["baseline_passes"]
    ok = lambda good: "ok" if good else "MISSED"

    done = [f for f in run.of_type("cal") if f["state"] == "done"][-1]
    print("Castillo tower firmware bench: %d drops, seed %d, %d boots" % (s["drops"], args.seed, len(run.boots)))
    print(
        "  colours %s: calibration sep %.1f spreads%s"
        % (", ".join(done["colours"]), done["sep"] / 10, "  (warn: colours overlap)" if done["warn"] else "")
    )
    if args.taught:
        first = [f for f in run.of_type("cal") if f["state"] == "done"][0]
        taught = [f for f in run.of_type("cal") if f["state"] == "learnt" and f["colour"] not in first["colours"]]
        print(
            "  taught: %s"
            % "; ".join("%s (nearest %s, %.1f spreads)" % (f["colour"], f["near"], f["dist"] / 10) for f in taught)
        )
    print("  trace generated in %.1f s, firmware run on micropython in %.1f s" % (t1 - t0, t2 - t1))
    print(
        "count accuracy, drops >= 15 ms apart : %d / %d = %.3f %%   goal 100 %%  %s"
        % (s["exact"], s["isolated"], 100 * s["count_accuracy"], ok(s["count_accuracy"] == 1.0))
    )
    print(
        "close pairs (< 15 ms): %d cubes, separated or flagged %d, silently merged %d   goal 0  %s"
        % (s["close"], s["close_ok"], s["silently_merged"], ok(s["silently_merged"] == 0))
    )
    print("missed cubes %d, phantom drops %d" % (s["missed"], s["phantoms"]))
    print(
        "colour right, %d colours              : %.3f %%   goal >= 99.5 %%  %s"
        % (len(done["colours"]), 100 * s["colour_right"], ok(s["colour_right"] >= 0.995))
    )
    print(
        "colour wrong and confident            : %.3f %%   goal <= 0.05 %%  %s"
        % (100 * s["colour_wrong_confident"], ok(s["colour_wrong_confident"] <= 0.0005))
    )
    print("colour flagged uncertain              : %.3f %%" % (100 * s["colour_uncertain"]))
    if s["confusion"]:
        print("  confident mistakes:", s["confusion"])
    print(
        "loop time per sample (host micropython): %.1f us all passes, %.1f us while the beam is busy"
        % (per_sample, per_busy)
    )
    print(
        "  baseline, empty loop pass same interpreter: %.2f us  (ratio %.0fx)"
        % (baseline, per_sample / baseline if baseline else float("nan"))
    )
    print("  %d passes, %d of them busy" % (st["passes"], st["busy_passes"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
