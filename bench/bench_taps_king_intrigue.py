"""Tap budgets of a tracked King and Intrigue game, beside the classic game's in the same run.

Run: .venv/bin/python bench/bench_taps_king_intrigue.py     (about 20 s, no display needed)

Whole games are entered through the tablet's prompts only by the headless tablet
(tests/companion/tablet_driver.py: the engine's random chooser decides what the table does,
the prompts say how, every tap counted the way the app takes them); the real app's counts
for the same steps are checked in tests/companion/ui/test_app_king_intrigue.py. Taps are
deterministic for a seed, so the baseline is the classic game's figures from the same driver
in the same run, and the issue's budgets: power phase 1 per player, an ordinary turn <= 6
(3 placed and a one-pick special action), a general scoring <= 4 + 2 per player picking on
the tablet; the 13 kept (leave out 5) <= 6 a player; a box set up on Your cards <= 40 taps.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(3)


def _games(rules: str, players: int, modules=(), phones=False):
    from companion.table.authority import Table
    from companion.table.setup import TableSetup
    from tests.companion.table.test_authority_king_intrigue import ki_setup
    from tests.companion.tablet_driver import TabletDriver

    out = []
    for seed in SEEDS:
        if rules == "king-intrigue":
            game = ki_setup(players, modules, variant="full")
        else:
            from engine import events as ev
            from tests.companion.table.test_authority_king_intrigue import COLOURS, HOMES

            ids = COLOURS[:players]
            game = ev.GameSetup(
                players=ids,
                names={p: p.title() for p in ids},
                king="castilla_la_nueva",
                homes=dict(zip(ids, HOMES)),
                start_player=ids[0],
                variant="full",
            )
        table = Table.new(TableSetup(game=game, mode="tracking", tower={"kind": "none"}))
        out.append(TabletDriver(table, seed=seed, phones=phones).play())
    return out


def _figures(logs, players: int) -> dict:
    from tests.companion.table.test_authority_king_intrigue import _ordinary_turns

    by_kind = defaultdict(list)
    turns, scorings = [], []
    for log in logs:
        for step in log:
            by_kind[step.kind].append(step.taps)
        turns += _ordinary_turns(log)
        running = 0
        for step in log:
            if step.kind == "secret_disc" and step.purpose == "castillo_destination":
                running += step.taps
            if step.kind == "reveal_secret_discs" and step.purpose == "castillo_destination":
                scorings.append(running + step.taps)
                running = 0
    over = [t for t in turns if t[0] > 3 + t[1] + (not t[2])]
    three = [t[0] for t in turns if t[1] == 3 and t[2]]
    return {
        "power card, taps per player (max)": max(by_kind["play_power_card"]),
        "ordinary turns": len(turns),
        "ordinary turns over budget": len(over),
        "ordinary turn with 3 placed, special after (max taps)": max(three) if three else None,
        "general scoring on the tablet (max taps)": max(scorings) if scorings else None,
        "general scoring budget": 4 + 2 * players,
        "setup disc per player (tablet)": max(by_kind["secret_disc"]) if by_kind["secret_disc"] else None,
        "13 kept, per player (tablet)": max(by_kind["choose_power_cards"]) if by_kind["choose_power_cards"] else None,
        "the court taken whole (taps)": min(by_kind["replenish"]),
    }


def _box_setup() -> dict:
    """Your cards' box table: taps to enter a box (the engine tests' numbers, as from a box)."""
    from tests.companion.table.test_authority_king_intrigue import WITH_MODULES
    from tests.companion.tablet_driver import box_table_taps
    from tests.engine.king_intrigue.table import CARDS_FILE

    both = ("players-edition", "special-cards")
    return {
        "the base box, 2-5 players (goal <= 40)": box_table_taps(CARDS_FILE)[0],
        "the base box, a 3-player game": box_table_taps(CARDS_FILE, players=(3,))[0],
        "with both modules, a 3-player game": box_table_taps(WITH_MODULES, players=(3,), modules=both)[0],
    }


def main() -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("ELGRANDE_DATA_DIR", tempfile.mkdtemp(prefix="bench-taps-ki-"))
    start = time.perf_counter()
    rows = []
    for players in (2, 3, 4, 5):
        rows.append((f"classic, {players} players", _figures(_games("classic", players), players)))
        rows.append((f"K&I, {players} players", _figures(_games("king-intrigue", players), players)))
        rows.append(
            (
                f"K&I + both modules, {players} players",
                _figures(_games("king-intrigue", players, ("players-edition", "special-cards")), players),
            )
        )
        rows.append(
            (
                f"K&I, {players} players, phones for the secrets",
                _figures(_games("king-intrigue", players, phones=True), players),
            )
        )
    box = _box_setup()
    print("Your cards (taps to set up a box)")
    for key, value in box.items():
        print(f"  {key}: {value}")
    for name, figures in rows:
        print(name)
        for key, value in figures.items():
            print(f"  {key}: {value}")
    print(f"({len(SEEDS)} full games per row, {time.perf_counter() - start:.1f} s)")
    failed = [
        name
        for name, f in rows
        if f["power card, taps per player (max)"] > 1
        or f["ordinary turns over budget"]
        or (f["general scoring on the tablet (max taps)"] or 0) > f["general scoring budget"]
    ]
    failed += [
        name
        for name, f in rows
        if "+ both" not in name and not name.startswith("classic") and (f["13 kept, per player (tablet)"] or 0) > 6
    ]  # issue 21: "leave out 5" <= 6 a player
    if box["the base box, 2-5 players (goal <= 40)"] > 40:
        failed.append("Your cards: the base box")
    if failed:
        print("over budget:", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
