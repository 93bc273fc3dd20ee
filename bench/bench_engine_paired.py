"""The engine's speed before and after a change, in one run: two trees, alternating, CPU time.

    git worktree add --detach /tmp/before <commit>
    .venv/bin/python bench/bench_engine_paired.py /tmp/before [AFTER_TREE] [ROUNDS]

Each round times 5-player self-play (100 games, invariant checks off, best of 3) of the classic
game, the 2023 edition with all three modules and King and Intrigue, in each tree, one after the
other on one core (`taskset -c 0`), the order swapped every round so a change in the machine's
load falls on both. Prints each figure and the best and median ratios (goal: within 5 %).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

CODE = r"""
import time, json, sys
from engine.playout import selfplay
kind = sys.argv[1]
kw = dict(check=False)
if kind == "2023": kw.update(rules="2023", modules=("new-regency", "old-hands", "power-shift"))
if kind == "ki": kw.update(rules="king-intrigue")
selfplay(10, 5, 99, **kw)  # warm-up
best = 0
for rep in range(3):
    t = time.process_time(); selfplay(100, 5, 7 + rep, **kw); dt = time.process_time() - t
    best = max(best, 100 / dt)
print(json.dumps(best))
"""
KINDS = ("classic", "2023", "ki")


def games_per_second(tree: str, kind: str) -> float:
    run = subprocess.run(
        ["taskset", "-c", "0", sys.executable, "-c", CODE, kind],
        env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
        cwd=tree,
        capture_output=True,
        text=True,
    )
    if run.returncode:
        raise SystemExit(run.stderr[-2000:])
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> int:
    before = sys.argv[1]
    after = sys.argv[2] if len(sys.argv) > 2 else str(Path(__file__).resolve().parents[1])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    trees = {"before": before, "after": after}
    got: dict[tuple[str, str], list[float]] = {(t, k): [] for t in trees for k in KINDS}
    for i in range(rounds):
        for kind in KINDS:
            for tree in ("before", "after") if i % 2 == 0 else ("after", "before"):
                got[(tree, kind)].append(games_per_second(trees[tree], kind))
    for kind in KINDS:
        b, a = got[("before", kind)], got[("after", kind)]
        print(
            f"{kind:8s} before {' '.join(f'{x:.1f}' for x in b)}  after {' '.join(f'{x:.1f}' for x in a)}  "
            f"best {max(b):.1f} -> {max(a):.1f} ({100 * (max(a) / max(b) - 1):+.1f} %), "
            f"median {statistics.median(b):.1f} -> {statistics.median(a):.1f} "
            f"({100 * (statistics.median(a) / statistics.median(b) - 1):+.1f} %)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
