"""A prompt's build time with the German catalogue against English (issue 34; goal within 5 %).

The asks of a few random classic games (every ask kind they reach) are collected once;
then every one of their prompts is built with English in use and with German in use, in
alternating rounds (so a slow moment of the machine hits both), and the median round of each is
taken. English needs no catalogue (the messages are their own words); German looks each message
up in the merged catalogues, formats its placeholders and names the places and cards.

    PYTHONPATH=$PWD .venv/bin/python bench/bench_prompt_words.py [--rounds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.prompts.builder import PromptBuilder
from companion.words import use_language
from engine.board.build import classic_board
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import random_event, random_setup


def collected_asks(games: int = 6, seed: int = 34) -> list[tuple[PromptBuilder, object]]:
    """(builder, ask) of every step of a few random classic games (2 to 5 players)."""
    rng = random.Random(seed)
    board = classic_board()
    out = []
    for _ in range(games):
        state = start_state(random_setup(rng, rng.randint(2, 5), board, variant="short"), board)
        builder = PromptBuilder(state.names, board)
        while state.stage != "over":
            ask = asked(state)
            out.append((builder, ask))
            apply_event(state, random_event(rng, ask))
    return out


def one_round(asks) -> float:
    start = time.perf_counter()
    for builder, ask in asks:
        builder.build(ask)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    asks = collected_asks()
    use_language("de")
    one_round(asks)  # the German catalogue loaded (and compiled) before timing: start-up is not a prompt
    use_language("en")
    one_round(asks)
    times = {"en": [], "de": []}
    for _ in range(args.rounds):
        for code in ("en", "de"):
            use_language(code)
            times[code].append(one_round(asks))
    use_language("en")
    en, de = statistics.median(times["en"]), statistics.median(times["de"])
    per_en, per_de = en / len(asks) * 1e6, de / len(asks) * 1e6
    print(f"prompts built per round: {len(asks)} (median of {args.rounds} rounds each)")
    print(f"English: {per_en:.1f} µs a prompt")
    print(f"German:  {per_de:.1f} µs a prompt")
    print(f"German / English: {de / en:.3f} ({(de / en - 1) * 100:+.1f} %; goal within 5 %)")


if __name__ == "__main__":
    main()
