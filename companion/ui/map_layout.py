"""Where the map's marks go, so that none covers another (no Kivy here: plain geometry).

In map units (the 1000 x 800 frame of data/spain_map.json, y down). Each region gets a
block at its label point: its name, its scoreboard values ("6·4·2", or the mobile
scoreboard lying on it, which replaces them), and a row of Caballero counts. The King, the
Grandes and a "+N" being placed go to their anchor point in the region when it is free, else
to the nearest free spot inside the region. The Castillo gets its name, values and mobile
scoreboard under the tower.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

CASTILLO = "castillo"
NAME_FONT = 21        # map units
VALUES_FONT = 16
COUNT_FONT = 19
CHIP = 29             # a Caballero count's square
CHIP_GAP = 3
KING_R = 20
GRANDE_R = 16
BADGE_W, BADGE_H = 48, 26
GAP = 3               # between the lines of a block
CLEAR = 2             # kept free around a token
RINGS = range(0, 200, 6)   # where a token may go: rings around its anchor ...
ANGLES = 16                 # ... this many spots on each

TextSize = Callable[[str, float, bool], "tuple[float, float]"]   # (text, font, bold) -> (w, h)


@dataclass
class Mark:
    kind: str          # name | values | mobile | counts | king | grande | badge
    area: str
    x: float           # centre
    y: float
    w: float
    h: float
    text: str = ""
    owner: str = ""    # a Grande's or a badge's colour
    items: list = field(default_factory=list)   # counts: [(colour, n), ...]

    @property
    def rect(self) -> tuple[float, float, float, float]:
        return self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2


def values_words(values) -> str:
    return "·".join(str(v) for v in values)


def _overlap(a, b, margin: float = 0.0) -> bool:
    return (a[0] < b[2] + margin and b[0] < a[2] + margin and a[1] < b[3] + margin and b[1] < a[3] + margin)


def inside(x: float, y: float, polygon) -> bool:
    """Is (x, y) inside the polygon (even-odd rule)? Also the map's hit test for taps."""
    inside = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _rect_inside(rect, polygon) -> bool:
    x0, y0, x1, y1 = rect
    return all(inside(x, y, polygon) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1), ((x0 + x1) / 2, (y0 + y1) / 2)))


def _block(area: str, name: str, values: str, mobile: str, counts: dict, x: float, y: float,
           text_size: TextSize) -> list[Mark]:
    """Name, values (or the mobile scoreboard) and counts, stacked and centred on (x, y)."""
    marks = []
    nw, nh = text_size(name, NAME_FONT, True)
    if mobile:
        vw, vh = text_size(values_words(mobile.split("-")), VALUES_FONT, True)
        vw, vh = vw + 12, vh + 4
    else:
        vw, vh = text_size(values, VALUES_FONT, False)
    items = [(pid, n) for pid, n in counts.items() if n]
    cw = len(items) * (CHIP + CHIP_GAP) - CHIP_GAP if items else 0
    top = y - (nh + GAP + vh) + 4   # the name sits just above the label point, the counts below it
    marks.append(Mark("name", area, x, top + nh / 2, nw, nh, text=name))
    vy = top + nh + GAP + vh / 2
    if mobile:
        marks.append(Mark("mobile", area, x, vy, vw, vh, text=values_words(mobile.split("-"))))
    else:
        marks.append(Mark("values", area, x, vy, vw, vh, text=values))
    if items:
        marks.append(Mark("counts", area, x, vy + vh / 2 + GAP + CHIP / 2, cw, CHIP, items=items))
    return marks


def _place(mark: Mark, anchor, polygon, taken: list[Mark]) -> Mark:
    """Move `mark` to the free spot nearest its anchor: wholly inside the polygon if it can be, else
    with its centre inside, else (a region too crowded) just beside it."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    bounds = (min(xs), min(ys), max(xs), max(ys))
    reach = max(mark.w, mark.h) + RINGS[-1]
    near = [t.rect for t in taken if _overlap(t.rect, (anchor[0] - reach, anchor[1] - reach, anchor[0] + reach,
                                                        anchor[1] + reach))]
    for strict in (True, False, None):
        for r in RINGS:
            for k in range(ANGLES if r else 1):
                a = 2 * math.pi * k / ANGLES
                mark.x, mark.y = anchor[0] + r * math.cos(a), anchor[1] + r * math.sin(a)
                rect = mark.rect
                if strict and not (bounds[0] <= rect[0] and rect[2] <= bounds[2] and bounds[1] <= rect[1]
                                   and rect[3] <= bounds[3]):
                    continue
                if any(_overlap(rect, t, CLEAR) for t in near):
                    continue
                if strict is None or (_rect_inside(rect, polygon) if strict else inside(mark.x, mark.y, polygon)):
                    return mark
    mark.x, mark.y = anchor
    return mark


def layout(shapes: dict, game: dict, names: dict, scoreboards: dict, pending: dict, pending_colour: str,
           text_size: TextSize, castillo_box: tuple[float, float, float, float]) -> list[Mark]:
    """Every mark of the board, placed. `castillo_box` is the tower's drawn rect (map units);
    `scoreboards` maps an area to its printed values."""
    mobiles = {where: sid for sid, where in (game.get("mobile_scoreboards") or {}).items() if where}
    regions = shapes["regions"]
    marks: list[Mark] = []
    for rid, region in regions.items():
        marks += _block(rid, names.get(rid, rid), values_words(scoreboards.get(rid, ())), mobiles.get(rid, ""),
                        game.get("regions", {}).get(rid, {}), *region["label"], text_size)
    marks += _castillo_block(shapes["castillo"], castillo_box, values_words(scoreboards.get(CASTILLO, ())),
                             mobiles.get(CASTILLO, ""), text_size)
    tower = Mark("tower", CASTILLO, (castillo_box[0] + castillo_box[2]) / 2, (castillo_box[1] + castillo_box[3]) / 2,
                 castillo_box[2] - castillo_box[0], castillo_box[3] - castillo_box[1])
    taken = marks + [tower]
    king = game.get("king")
    for rid, region in regions.items():
        polygon = region["polygon"]
        if king == rid:
            taken.append(_place(Mark("king", rid, 0, 0, 2 * KING_R + 4, 2 * KING_R + 4), region["king"], polygon, taken))
        owners = [p["id"] for p in game.get("players", []) if p.get("grande") == rid]
        gx, gy = region["grande"]
        for i, pid in enumerate(owners):
            anchor = (gx + (i - (len(owners) - 1) / 2) * (2 * GRANDE_R + 6), gy)
            taken.append(_place(Mark("grande", rid, 0, 0, 2 * GRANDE_R + 4, 2 * GRANDE_R + 4, owner=pid), anchor,
                                polygon, taken))
    for rid, region in regions.items():  # last: a badge moves nothing else when it appears
        if pending.get(rid):
            below = _lowest(taken, rid)
            anchor = (region["label"][0], below.y + below.h / 2 + GAP + BADGE_H / 2)
            taken.append(_place(Mark("badge", rid, 0, 0, BADGE_W, BADGE_H, text=f"+{pending[rid]}",
                                     owner=pending_colour), anchor, region["polygon"], taken))
    return [m for m in taken if m is not tower]


def _lowest(marks: list[Mark], area: str) -> Mark:
    block = [m for m in marks if m.area == area and m.kind in ("name", "values", "mobile", "counts")]
    return max(block, key=lambda m: m.y + m.h / 2)


def _castillo_block(castillo: dict, box, values: str, mobile: str, text_size: TextSize) -> list[Mark]:
    """Under the tower: "Castillo", then its values or the mobile scoreboard lying on it."""
    x = castillo["center"][0]
    nw, nh = text_size("Castillo", NAME_FONT, True)
    y = box[3] + GAP + nh / 2
    marks = [Mark("name", CASTILLO, x, y, nw, nh, text="Castillo")]
    if mobile:
        words = values_words(mobile.split("-"))
        vw, vh = text_size(words, VALUES_FONT, True)
        marks.append(Mark("mobile", CASTILLO, x, y + nh / 2 + GAP + (vh + 4) / 2, vw + 12, vh + 4, text=words))
    else:
        vw, vh = text_size(values, VALUES_FONT, False)
        marks.append(Mark("values", CASTILLO, x, y + nh / 2 + GAP + vh / 2, vw, vh, text=values))
    return marks
