"""How the players' colours look to eyes that see fewer hues, and how far apart two colours look.

Pure arithmetic, no UI: simulate(rgb, kind) gives a colour as a protanope, deuteranope or
tritanope sees it (Machado, Oliveira & Fernandes 2009, severity 1.0, applied in linear RGB);
delta_e00(rgb1, rgb2) is the CIEDE2000 difference of two sRGB colours (Sharma, Wu & Dalal
2005's formulation, D65 white). ~2.3 is a just noticeable difference; ~10 tells two small
marks apart at a glance.
"""

from __future__ import annotations

import math
from itertools import combinations

RGB = tuple[float, float, float]
LAB = tuple[float, float, float]

# Machado et al. 2009, Table "severity 1.0": rows map linear (r, g, b) to what the eye sees.
MACHADO_2009: dict[str, tuple[RGB, RGB, RGB]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = ("normal", *MACHADO_2009)  # normal vision, then the three simulations

# sRGB (D65) to XYZ, and the D65 white the Lab conversion divides by.
SRGB_TO_XYZ = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
WHITE_D65 = (0.95047, 1.0, 1.08883)


def to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(c: float) -> float:
    c = min(1.0, max(0.0, c))  # a simulated colour outside the screen's gamut: the nearest shown
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _times(matrix, v) -> RGB:
    return tuple(sum(m * x for m, x in zip(row, v, strict=True)) for row in matrix)  # type: ignore[return-value]


def simulate(rgb: RGB, kind: str) -> RGB:
    """`rgb` (sRGB, 0-1) as seen with `kind` of vision: "normal" or one of MACHADO_2009."""
    if kind == "normal":
        return tuple(rgb)  # type: ignore[return-value]
    seen = _times(MACHADO_2009[kind], [to_linear(c) for c in rgb])
    return tuple(to_srgb(c) for c in seen)  # type: ignore[return-value]


def lab(rgb: RGB) -> LAB:
    """CIE L*a*b* (D65) of an sRGB colour."""
    x, y, z = (v / w for v, w in zip(_times(SRGB_TO_XYZ, [to_linear(c) for c in rgb]), WHITE_D65, strict=True))

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e00_lab(lab1: LAB, lab2: LAB) -> float:
    """CIEDE2000 between two L*a*b* colours (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lp, cp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp = (h1p + h2p) / 2
    else:
        hp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hp - 30))
        + 0.24 * math.cos(math.radians(2 * hp))
        + 0.32 * math.cos(math.radians(3 * hp + 6))
        - 0.20 * math.cos(math.radians(4 * hp - 63))
    )
    d_theta = 30 * math.exp(-(((hp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp**7 / (cp**7 + 25**7))
    sl = 1 + 0.015 * (lp - 50) ** 2 / math.sqrt(20 + (lp - 50) ** 2)
    sc = 1 + 0.045 * cp
    sh = 1 + 0.015 * cp * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def delta_e00(rgb1: RGB, rgb2: RGB) -> float:
    """CIEDE2000 between two sRGB colours (0-1)."""
    return delta_e00_lab(lab(rgb1), lab(rgb2))


def closest_pairs(colours: dict[str, RGB]) -> dict[str, tuple[float, str, str]]:
    """For each vision: the smallest difference between two of `colours`, and which two."""
    worst = {}
    for kind in VISIONS:
        seen = {c: simulate(rgb, kind) for c, rgb in colours.items()}
        worst[kind] = min((delta_e00(seen[a], seen[b]), a, b) for a, b in combinations(seen, 2))
    return worst
