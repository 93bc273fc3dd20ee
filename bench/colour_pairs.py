"""The players' colours as every eye sees them: per rule system and per vision (normal, and
protanopia, deuteranopia, tritanopia simulated by Machado et al. 2009 at severity 1.0), the
smallest CIEDE2000 between two colours a table can seat, and which two. Goal: >= 10 everywhere.

    PYTHONPATH=. python bench/colour_pairs.py
"""

from __future__ import annotations

from companion.look.colour_vision import VISIONS, closest_pairs, delta_e00, simulate
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
    grounds()
    print("\n| colour | rgb shown | mark | initial |\n|---|---|---|---|")
    for colour, look in PLAYER_LOOKS.items():
        print(f"| {colour} | {', '.join(f'{v:.2f}' for v in look.rgb)} | {look.mark} | {look.initial} |")


def grounds() -> None:
    """Each colour against the map's grounds it stands on (the pieces are opaque, so shown as is;
    each carries an ink outline, which is what parts a colour from a ground close to it)."""
    import os

    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    from companion.ui.widgets import map_view

    places = {"land": map_view.LAND, "King's region": map_view.KING_LAND, "tappable": map_view.TAPPABLE}
    print("\n| ground | closest colour, normal | protanopia | deuteranopia | tritanopia |\n|---|---|---|---|---|")
    for where, ground in places.items():
        cells = []
        for vision in VISIONS:
            seen = simulate(ground, vision)
            d, colour = min((delta_e00(simulate(look.rgb, vision), seen), c) for c, look in PLAYER_LOOKS.items())
            cells.append(f"{d:.1f} ({colour})")
        print(f"| {where} | " + " | ".join(cells) + " |")
    ink = min(delta_e00(simulate(map_view.INK, v), simulate(g, v)) for v in VISIONS for g in places.values())
    print(f"\nthe ink outline against those grounds: at least {ink:.1f} in every vision")


if __name__ == "__main__":
    main()
