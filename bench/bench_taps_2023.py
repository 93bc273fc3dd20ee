"""Tablet taps of 2023 games, step by step, entered through the prompts only (no Kivy).

Run: .venv/bin/python bench/bench_taps_2023.py      (about 40 s)

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
    (2, (), False),
    (3, ("new-regency",), False),
    (4, ("power-shift",), False),
    (4, ("power-shift",), True),
    (5, ("new-regency", "old-hands", "power-shift"), False),
]


LEARNING = (4, ("new-regency", "power-shift"))  # players, modules: a first game from an empty data folder


def learning_games(seed: int = 0, data_dir=None) -> list[list]:
    """Two whole 9-round games at one table from an empty data folder (ELGRANDE_DATA_DIR, or
    `data_dir`, left with what was kept): the first learns the box (companion.table_rules.card_learning) as
    it turns up and, once over, names the cards left in the stacks (and reads the numbers of
    cards nobody played); the second starts from what the first kept in Your cards and Your
    board. The box is the self-play stand-in set (a different shuffle each game); the Modifier
    cards are the stand-in set (chosen explicitly, as the new-game screen offers). Returns each
    game's steps (Step.entry: its entry taps)."""
    from engine.playout import standin_files

    players, modules = LEARNING
    colours = ["purple", "blue", "green", "orange", "red"][:players]
    box_board, box_cards = standin_files("2023", players)
    logs = []
    before = os.environ.get("ELGRANDE_DATA_DIR")
    # nothing entered yet
    os.environ["ELGRANDE_DATA_DIR"] = str(data_dir or tempfile.mkdtemp(prefix="bench-learning-"))
    try:
        for game in range(2):
            logs.append(_learning_game(seed * 10 + game, players, modules, colours, box_board, box_cards))
    finally:
        if before is None:
            os.environ.pop("ELGRANDE_DATA_DIR", None)
        else:
            os.environ["ELGRANDE_DATA_DIR"] = before
    return logs


def _learning_game(seed: int, players: int, modules, colours, box_board, box_cards) -> list:
    from companion.table.authority import Table
    from companion.table.setup import TableSetup
    from companion.table_rules.new_game import game_files
    from companion.table_rules.rules_choice import RulesChoice
    from engine import events as ev
    from tests.companion.tablet_driver import Box, TabletDriver

    files = game_files(RulesChoice("2023", modules, stand_in_modifiers=True), players)
    setup = ev.GameSetup(
        players=colours,
        names={p: p.title() for p in colours},
        king="castilla",
        homes=dict(zip(colours, ["galicia", "aragon", "sevilla", "valencia", "granada"])),
        start_player=colours[0],
        rules="2023",
        modules=list(modules),
        variant="full",
        board_file=files.board_file,
        cards_file=files.cards_file,
        stand_in_modifiers=True,
    )
    table = Table.new(TableSetup(game=setup, mode="tracking", tower={"kind": "simulated"}))
    log = TabletDriver(table, seed=seed, box=Box.of(table, box_cards, box_board, seed=seed)).play()
    table.close()
    return log


def learning_figures(seeds=range(3)) -> dict:
    """Over `seeds`: each first game's entry taps in total and the most at one reveal; each card's
    taps at its stack the first time it turns up (named by the rule book, or not); the taps of a
    card's numbers and of a board fact read when first needed; each second game's entry taps; and
    every step's taps without its entry against today's budgets (reveal <= 6, an ordinary turn
    with 3 placed <= 6, a general scoring <= 4 + 2 per player picking a disc on the tablet)."""
    return figures_of([learning_games(seed) for seed in seeds])


def figures_of(pairs: list) -> dict:
    """learning_figures of (first game, second game) step logs."""
    from tests.companion.table.test_authority_2023 import general_scorings, ordinary_turns

    players = LEARNING[0]
    out: dict = {
        "first_total": [],
        "first_most_at_a_reveal": [],
        "end_naming": [],
        "second_total": [],
        "named_card": [],
        "new_card": [],
        "card_facts": [],
        "board_facts": [],
        "reveal": [],
        "turn_3_placed": [],
        "general_scoring": [],
    }
    for first, second in pairs:
        out["first_total"].append(sum(s.entry for s in first))
        out["first_most_at_a_reveal"].append(max(s.entry for s in first if s.kind == "reveal_action_cards"))
        out["second_total"].append(sum(s.entry for s in second))
        out["end_naming"].append(sum(s.entry for s in first if s.kind == "name_cards_left"))
        for step in first:
            if step.kind == "name_cards_left":
                continue
            for kind, taps, _ in step.learned:
                out["named_card" if kind == "named" else "new_card"].append(taps)
            if step.kind in ("card_facts", "board_facts"):
                out[step.kind].append(step.taps)
        for log in (first, second):
            steps = [s for s in log if s.kind not in ("card_facts", "board_facts")]
            out["reveal"] += [s.taps - s.entry for s in steps if s.kind == "reveal_action_cards"]
            out["turn_3_placed"] += [t for t, placed, _ in ordinary_turns(steps) if placed == 3]
            out["general_scoring"] += general_scorings(steps, players)
    return out


def print_learning(seeds=range(3)) -> None:
    f = learning_figures(seeds)
    print(
        f"\nA first 2023 game from an empty data folder ({LEARNING[0]} players, {' and '.join(LEARNING[1])}, "
        f"9 rounds, the box learned as it turns up; {len(f['first_total'])} seeds), entry taps:"
    )
    rows = [
        ("first game, in total", f["first_total"]),
        ("first game, most at one reveal", f["first_most_at_a_reveal"]),
        ("first game over: the cards left named", f["end_naming"]),
        ("a card the rule book names, at its stack", f["named_card"]),
        ("a card it does not name, at its stack", f["new_card"]),
        ("a card's numbers, when played", f["card_facts"]),
        ("a board fact, when needed", f["board_facts"]),
        ("second game, in total", f["second_total"]),
    ]
    for words, taps in rows:
        print(
            f"  {words:44} {' '.join(map(str, taps)) if len(taps) <= 8 else ''}"
            f"{'  max ' + str(max(taps)) if taps else ''}"
        )
    print(
        f"  steps without their entry taps: reveal max {max(f['reveal'])} (budget 6), turn with 3 placed max "
        f"{max(f['turn_3_placed'])} (budget 6), general scoring max {max(f['general_scoring'])} "
        f"(budget {4 + 2 * LEARNING[0]})"
    )


def main() -> int:
    os.environ.setdefault("ELGRANDE_DATA_DIR", tempfile.mkdtemp(prefix="bench-taps-2023-"))
    from tests.companion.table.test_authority_2023 import general_scorings, new_table, ordinary_turns
    from tests.companion.tablet_driver import TabletDriver

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
        for kind in (
            "dummy_region_cards",
            "dummy_power_card",
            "deal_modifiers",
            "pass_modifier",
            "reveal_action_cards",
            "play_power_card",
            "replenish",
            "turn_action",
            "secret_disc",
        ):
            taps = per_kind.get(kind)
            if taps:
                print(f"{name:34} {kind:30} {len(taps):>6} {max(taps):>4} {sum(taps) / len(taps):>5.2f}")
        for first, words in ((True, "3 placed first"), (False, "3 placed after special")):
            three = [t for t, placed, before in turns if placed == 3 and before == first]
            print(
                f"{name:34} {'turn, ' + words:30} {len(three):>6} {max(three, default=0):>4} "
                f"{sum(three) / max(1, len(three)):>5.2f}   budget 6"
            )
        print(
            f"{name:34} {'general scoring':30} {len(scorings):>6} {max(scorings):>4} "
            f"{sum(scorings) / len(scorings):>5.2f}   budget {4 + (0 if phones else 2 * players)}"
        )
    print_learning()
    return 0


if __name__ == "__main__":
    sys.exit(main())
