"""What the simulated tower's colour sensor reads, modelled as the firmware classifies it.

Typical TCS34725 counts per colour (`REFS`) plus the sensor's noise, and the firmware's
colour model (hardware/firmware/colour.py: features, spreads, distances) for the
nearest colour and the separation a calibration reports.
"""

from __future__ import annotations

import math
import random

from firmware_bridge.messages import ADDED_COLOURS

# Typical TCS34725 counts of each colour under the shroud (what the firmware reports as raw)
REFS = {
    "red": [313, 78, 69, 486],
    "yellow": [420, 300, 110, 850],
    "green": [90, 210, 110, 420],
    "blue": [60, 110, 230, 420],
    "black": [40, 40, 38, 120],
    # modelled, not measured (as hardware/tools/tracegen.py REFLECT)
    "purple": [105, 76, 170, 350],
    "orange": [315, 140, 70, 520],
    "white": [340, 335, 292, 940],
}
AMBIENT = [6, 6, 5, 17]
# The firmware's colour model (hardware/firmware/colour.py), for the distances a calibration reports.
SPREAD_FLOORS = (0.012, 0.012, 0.10)
SMALL_SAMPLE = 1.3


def features(raw: list[int]) -> tuple[float, float, float]:
    r, g, b, c = (max(0, v - a) for v, a in zip(raw, AMBIENT))
    s = max(1, r + g + b)
    return r / s, g / s, math.log(c + 8.0)


def reference(samples: list[tuple[float, float, float]]) -> list[float]:
    """Means, then spreads (widened for a handful of cubes, never below the floors)."""
    means, spreads = [], []
    for axis, floor in enumerate(SPREAD_FLOORS):
        values = [v[axis] for v in samples]
        mean = sum(values) / len(values)
        std = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1))
        means.append(mean)
        spreads.append(math.sqrt((std * SMALL_SAMPLE) ** 2 + floor * floor))
    return means + spreads


def distance(a: list[float], b: list[float]) -> float:
    return math.sqrt(sum(((a[k] - b[k]) / math.hypot(a[3 + k], b[3 + k])) ** 2 for k in range(3)))


def modelled_reference(colour: str) -> list[float]:
    """A colour never taught here: its reference from 5 noisy readings of its cubes (seeded by name)."""
    model = random.Random(colour)
    return reference([features([max(0, v + model.randint(-6, 6)) for v in REFS[colour]]) for _ in range(5)])


def wire_colours(col: str, best: str | None) -> dict[str, str | None]:
    """As the firmware: an added colour goes in xcol/xbest, col says uncertain and best is null."""
    out: dict[str, str | None] = {"col": col, "best": best}
    if col in ADDED_COLOURS:
        out.update(col="uncertain", xcol=col)
    if best in ADDED_COLOURS:
        out.update(best=None, xbest=best)
    return out
