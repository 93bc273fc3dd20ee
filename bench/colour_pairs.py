"""The players' colours as every eye sees them: per rule system and per vision (normal, and
protanopia, deuteranopia, tritanopia simulated by Machado et al. 2009 at severity 1.0), the
smallest CIEDE2000 between two colours a table can seat, and which two. Goal: >= 10 everywhere.

    PYTHONPATH=. python bench/colour_pairs.py
"""

from __future__ import annotations

from companion.look.colour_vision import VISIONS, closest_pairs
from companion.look.players import PLAYER_LOOKS
from companion.table.setup import colours_for

SYSTEMS = ("classic", "2023", "king-intrigue")
GOAL = 10.0


def main() -> None:
    print("| rules | colours | " + " | ".join(VISIONS) + " |")
    print("|---|---|" + "---|" * len(VISIONS))
    lowest = None
    for rules in SYSTEMS:
        colours = colours_for(rules)
        worst = closest_pairs({c: PLAYER_LOOKS[c].rgb for c in colours})
        cells = [f"{d:.1f} ({a}/{b})" for d, a, b in (worst[v] for v in VISIONS)]
        print(f"| {rules} | {', '.join(colours)} | " + " | ".join(cells) + " |")
        here = min(worst.values())
        lowest = here if lowest is None or here < lowest else lowest
    assert lowest is not None
    d, a, b = lowest
    print(f"\nworst pair anywhere: {a}/{b} at {d:.1f} (goal {GOAL:g}: {'met' if d >= GOAL else 'NOT met'})")
    print("\n| colour | rgb shown | mark | initial |\n|---|---|---|---|")
    for colour, look in PLAYER_LOOKS.items():
        print(f"| {colour} | {', '.join(f'{v:.2f}' for v in look.rgb)} | {look.mark} | {look.initial} |")


if __name__ == "__main__":
    main()
