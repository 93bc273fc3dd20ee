"""Tablet taps of 2023 games, step by step, entered through the prompts only (no Kivy).

Run: .venv/bin/python bench/bench_taps_2023.py      (about 10 s)

A headless tablet (tests/companion/tablet_driver.py) plays whole games: the engine's random
chooser decides what the table does, the driver finds the taps the prompts need for it and
counts them the way the app's screens take them. Deterministic (seeded): the figures are
compared with the classic table's budgets (issue 13: "ordinary turn <= 6, power phase 1 per
player, general scoring <= 4 plus <= 2 per player picking on the tablet"), not with a baseline.
"""
from __future__ import annotations

import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAMES = [  # (players, modules, phones)
    (2, (), False), (3, ("new-regency",), False), (4, ("power-shift",), False), (4, ("power-shift",), True),
    (5, ("new-regency", "old-hands", "power-shift"), False),
]


def main() -> int:
    os.environ.setdefault("ELGRANDE_DATA_DIR", tempfile.mkdtemp(prefix="bench-taps-2023-"))
    from tests.companion.tablet_driver import TabletDriver
    from tests.companion.test_table_2023 import general_scorings, new_table, ordinary_turns

    print(f"{'game':34} {'step':30} {'times':>6} {'max':>4} {'mean':>5}")
    for players, modules, phones in GAMES:
        name = f"{players}p {'+'.join(modules) or 'base'}{' phones' if phones else ''}"
        per_kind: dict[str, list[int]] = defaultdict(list)
        scorings, turns = [], []
        for seed in range(3):
            table = new_table(players, modules, variant="full")
            log = TabletDriver(table, seed=seed, phones=phones).play()
            for step in log:
                per_kind[step.kind].append(step.taps)
            scorings += general_scorings(log, players)
            turns += ordinary_turns(log)
            table.close()
        for kind in ("dummy_region_cards", "dummy_power_card", "deal_modifiers", "pass_modifier", "reveal_action_cards",
                     "play_power_card", "replenish", "turn_action", "secret_disc"):
            taps = per_kind.get(kind)
            if taps:
                print(f"{name:34} {kind:30} {len(taps):>6} {max(taps):>4} {sum(taps) / len(taps):>5.2f}")
        for first, words in ((True, "3 placed first"), (False, "3 placed after special")):
            three = [t for t, placed, before in turns if placed == 3 and before == first]
            print(f"{name:34} {'turn, ' + words:30} {len(three):>6} {max(three, default=0):>4} "
                  f"{sum(three) / max(1, len(three)):>5.2f}   budget 6")
        print(f"{name:34} {'general scoring':30} {len(scorings):>6} {max(scorings):>4} "
              f"{sum(scorings) / len(scorings):>5.2f}   budget {4 + (0 if phones else 2 * players)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
