"""Engine benchmark (not a test): selfplay throughput, one general scoring of a
full board, replay of a full game. Run: .venv/bin/python bench/bench_engine.py

Shared machines are noisy, so each figure is the best of several repeats, and
a fixed pure-Python workload is timed in the same run as the baseline: the
`x baseline` column says how many baseline loops each figure costs, which
stays comparable across machines and loads. Self-play and the scoring are timed
in this process's CPU time, and classic and 2023 self-play take turns (classic, 2023,
classic, ...) so that both meet the same load; the last line gives the 2023
slowdown and each pair's.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import time

from engine.game import Game
from engine.playout import play_random_game, selfplay
from engine.snapshot import _general_scoring, load_snapshot, state_from_snapshot

REGIONS = [
    "galicia",
    "pais_vasco",
    "aragon",
    "cataluna",
    "castilla_la_vieja",
    "castilla_la_nueva",
    "valencia",
    "sevilla",
    "granada",
]
PLAYERS = ["red", "yellow", "green", "blue", "black"]


# Self-play and the scoring are timed in this process's CPU time: on a machine shared with
# other work, wall time also counts the other programs' turns on the core (on a quiet machine
# the two agree).
cpu_clock = time.process_time


def baseline_loop() -> float:
    """A fixed pure-Python workload (dict and list work like the engine's)."""
    t0 = time.perf_counter()
    d: dict[int, int] = {}
    acc = []
    for i in range(200_000):
        d[i & 255] = d.get(i & 255, 0) + i
        acc.append(i % 7)
    sorted(acc[:5000])
    return time.perf_counter() - t0


def full_board_snapshot(rng: random.Random, extra: dict | None = None):
    regions = {r: {p: rng.randint(0, 5) for p in PLAYERS} for r in REGIONS}
    castillo = {p: rng.randint(1, 4) for p in PLAYERS}
    return load_snapshot(
        {
            "players": PLAYERS,
            "king": "castilla_la_nueva",
            "regions": regions,
            "castillo": castillo,
            "grandes": dict(zip(PLAYERS, ["galicia", "aragon", "valencia", "sevilla", "granada"])),
            "secret_discs": {p: rng.choice(REGIONS) for p in PLAYERS},
            "mobile_scoreboards": {"8-4-0": "cataluna"},
            **(extra or {}),
        }
    )


# King and Intrigue's general scoring on the same board: Alliance (two regions as one), the
# Castillo relocated (on the scoreboard where it stands: the mobile 8-4-0 there), a 2x marker.
KI_SCORING = {
    "rules": "king-intrigue",
    "alliance": ["aragon", "galicia"],
    "castillo_at": "cataluna",
    "double_scoring": ["valencia"],
}


def bench_scoring(repeats: int, extra: dict | None = None) -> float:
    """Microseconds for one general scoring (Castillo, transfer, nine regions) of a full board."""
    snap = full_board_snapshot(random.Random(1), extra)
    base = state_from_snapshot(snap)
    best = float("inf")
    for _ in range(repeats):
        states = [copy.deepcopy(base) for _ in range(200)]
        t0 = cpu_clock()
        for s in states:
            _general_scoring(s, snap)
        best = min(best, (cpu_clock() - t0) / len(states))
    return best * 1e6


EVERY_2023_MODULE = ("new-regency", "old-hands", "power-shift")  # four-stacks: 2-3 players only
KI_MODULES = ("players-edition", "special-cards")  # with self-play's labelled stand-ins


SEEDS = 3  # self-play's game sets: seed 0, 1, 2 (games a set: --games)


def bench_classic_vs_2023(games: int, repeats: int) -> tuple[float, float, float, float, list[float]]:
    """Classic and 2023 with every module, checks off, taken turn about (classic, 2023, classic,
    ...) so that both meet the same load on a shared machine, on the same game sets as before
    (seed r % 3: 0, 1, 2, 0, 1 ...). Each set's best time counts, so that both rule sets are
    timed on the same games (a best over different sets would compare different games).
    Returns each one's games/s over the sets and events a game, and each pair's slowdown (%)."""
    best_c = [float("inf")] * SEEDS
    best_n = [float("inf")] * SEEDS
    events_c = events_n = 0
    pairs = []
    for r in range(max(repeats, SEEDS)):
        seed = r % SEEDS
        t0 = cpu_clock()
        stats = selfplay(games, 5, seed=seed, check=False)
        took_c = cpu_clock() - t0
        events_c += stats.events
        t0 = cpu_clock()
        stats = selfplay(games, 5, seed=seed, check=False, rules="2023", modules=EVERY_2023_MODULE)
        took_n = cpu_clock() - t0
        events_n += stats.events
        best_c[seed], best_n[seed] = min(best_c[seed], took_c), min(best_n[seed], took_n)
        pairs.append((took_n / took_c - 1) * 100)
    played = games * max(repeats, SEEDS)
    return (SEEDS * games / sum(best_c), events_c / played, SEEDS * games / sum(best_n), events_n / played, pairs)


def bench_selfplay(
    games: int, repeats: int, check: bool, rules: str = "classic", modules: tuple[str, ...] = ()
) -> tuple[float, float]:
    best, events = 0.0, 0
    for r in range(repeats):
        t0 = cpu_clock()
        stats = selfplay(games, 5, seed=r, check=check, rules=rules, modules=modules)
        best = max(best, games / (cpu_clock() - t0))
        events = stats.events / stats.games
    return best, events


def bench_replay(repeats: int) -> tuple[float, int]:
    setup, log, _ = play_random_game(random.Random(11), 5)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        Game.replay(setup, log)
        best = min(best, time.perf_counter() - t0)
    return best * 1e3, len(log)


def mid_game_state(rules: str = "classic", modules: tuple[str, ...] = ()):
    """A 5-player game stopped in the middle of round 5, a special action under way if any."""
    from engine.flow import apply_event, asked
    from engine.game import board_for, start_state
    from engine.playout import random_event, random_setup, standin_files

    board_file, cards_file = standin_files(rules, 5)
    probe = random_setup(
        random.Random(0),
        5,
        board_for_rules(rules, board_file, cards_file),
        "full",
        rules,
        modules,
        board_file,
        cards_file,
        standins=True,
    )
    board = board_for(probe)
    rng = random.Random(21)
    state = start_state(
        random_setup(rng, 5, board, "full", rules, modules, board_file, cards_file, standins=True), board
    )
    while state.round < 5 or state.stage not in ("special", "turn"):
        apply_event(state, random_event(rng, asked(state)))
    return state


def board_for_rules(rules: str, board_file, cards_file):
    from engine.board.load import load_board

    return load_board(rules, 5, board_file, cards_file)


def bench_clone(repeats: int, rules: str = "classic", modules: tuple[str, ...] = ()) -> tuple[float, float]:
    """Microseconds for GameState.clone() and, in the same run, copy.deepcopy of a mid-game state."""
    state = mid_game_state(rules, modules)
    best_clone = best_deep = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(500):
            state.clone()
        best_clone = min(best_clone, (time.perf_counter() - t0) / 500)
        t0 = time.perf_counter()
        for _ in range(50):
            copy.deepcopy(state)
        best_deep = min(best_deep, (time.perf_counter() - t0) / 50)
    return best_clone * 1e6, best_deep * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--pair-repeats",
        type=int,
        default=6,
        help="classic/2023 self-play pairs, taken turn about (each game set's best counts)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    base = min(baseline_loop() for _ in range(5))
    gps, events, gps_2023, events_2023, pair_slowdowns = bench_classic_vs_2023(args.games, args.pair_repeats)
    gps_checked, _ = bench_selfplay(args.games // 2, 1, check=True)
    gps_ki, _ = bench_selfplay(args.games, args.repeats, False, "king-intrigue")
    gps_ki_modules, _ = bench_selfplay(args.games, args.repeats, False, "king-intrigue", KI_MODULES)
    scoring_us = bench_scoring(args.repeats + 2)
    scoring_ki_us = bench_scoring(args.repeats + 2, KI_SCORING)
    replay_ms, replay_events = bench_replay(args.repeats + 2)
    clone_us, deepcopy_us = bench_clone(args.repeats + 2)
    clone_2023_us, _ = bench_clone(args.repeats + 2, "2023", EVERY_2023_MODULE)
    base_after = min(baseline_loop() for _ in range(5))
    figures = {
        "baseline_loop_ms": round(statistics.mean([base, base_after]) * 1e3, 2),
        "selfplay_games_per_s_5p_no_checks": round(gps, 1),
        "selfplay_games_per_s_5p_with_checks": round(gps_checked, 1),
        "events_per_game": round(events, 1),
        "selfplay_games_per_s_5p_2023_every_module_no_checks": round(gps_2023, 1),
        "events_per_game_2023": round(events_2023, 1),
        "slowdown_2023_vs_classic_pct": round((gps / gps_2023 - 1) * 100, 1),
        "slowdown_2023_vs_classic_pct_each_pair": [round(x, 1) for x in pair_slowdowns],
        "selfplay_games_per_s_5p_king_intrigue_no_checks": round(gps_ki, 1),
        "selfplay_games_per_s_5p_king_intrigue_both_modules_no_checks": round(gps_ki_modules, 1),
        "general_scoring_full_board_us": round(scoring_us, 1),
        "general_scoring_full_board_king_intrigue_alliance_relocated_us": round(scoring_ki_us, 1),
        "replay_full_game_ms": round(replay_ms, 2),
        "replay_events": replay_events,
        "clone_mid_game_us": round(clone_us, 1),
        "deepcopy_mid_game_us": round(deepcopy_us, 1),
        "clone_mid_game_2023_us": round(clone_2023_us, 1),
    }
    goals = {
        "selfplay_games_per_s_5p_no_checks": (">=", 200),
        "general_scoring_full_board_us": ("<=", 45),
        "slowdown_2023_vs_classic_pct": ("<=", 20),
        "replay_full_game_ms": ("<", 20),
        "clone_mid_game_us": ("<=", 50),
    }
    if args.json:
        print(json.dumps(figures))
        return
    b = figures["baseline_loop_ms"] / 1e3
    print(f"baseline loop (same run, one core): {figures['baseline_loop_ms']} ms")
    print(f"{'figure':<40} {'value':>10}  {'goal':>8}  {'x baseline':>10}")
    rows = [
        ("selfplay 5p, checks off (games/s)", gps, goals["selfplay_games_per_s_5p_no_checks"], 1 / gps / b),
        ("selfplay 5p, checks on (games/s)", gps_checked, None, 1 / gps_checked / b),
        ("selfplay 5p 2023, every module (games/s)", gps_2023, None, 1 / gps_2023 / b),
        (
            "  2023 slower than classic by (%)",
            figures["slowdown_2023_vs_classic_pct"],
            goals["slowdown_2023_vs_classic_pct"],
            0.0,
        ),
        ("selfplay 5p King and Intrigue (games/s)", gps_ki, None, 1 / gps_ki / b),
        ("  with both modules (games/s)", gps_ki_modules, None, 1 / gps_ki_modules / b),
        ("general scoring, full board (us)", scoring_us, goals["general_scoring_full_board_us"], scoring_us / 1e6 / b),
        ("  K&I: Alliance, relocated Castillo, 2x (us)", scoring_ki_us, None, scoring_ki_us / 1e6 / b),
        (f"replay {replay_events} events (ms)", replay_ms, goals["replay_full_game_ms"], replay_ms / 1e3 / b),
        ("clone of a mid-game state (us)", clone_us, goals["clone_mid_game_us"], clone_us / 1e6 / b),
        ("  copy.deepcopy of it, same run (us)", deepcopy_us, None, deepcopy_us / 1e6 / b),
        ("clone of a mid-game 2023 state (us)", clone_2023_us, goals["clone_mid_game_us"], clone_2023_us / 1e6 / b),
    ]
    for name, value, goal, rel in rows:
        g = f"{goal[0]}{goal[1]}" if goal else ""
        print(f"{name:<40} {value:>10.1f}  {g:>8}  {rel:>10.3f}")
    print(
        f"2023 (New Regency, Old Hands, Power Shift; stand-ins) vs classic on the same {SEEDS} sets of "
        f"{args.games} games, {max(args.pair_repeats, SEEDS)} runs each taken turn about, each set's best: "
        f"{gps_2023:.1f} vs {gps:.1f} games/s, {figures['slowdown_2023_vs_classic_pct']} % slower "
        "(goal <= 20 %); each pair: " + ", ".join(f"{x:.1f}" for x in pair_slowdowns) + " %"
    )


if __name__ == "__main__":
    main()
