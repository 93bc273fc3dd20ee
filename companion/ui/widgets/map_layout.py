"""Where the map's marks go, so that none covers another (no Kivy here: plain geometry).

In map units (the 1000 x 800 frame of data/spain_map.json, y down). Each region gets a
block at its label point: its name, its scoreboard values ("6·4·2", or the mobile
scoreboard lying on it, which replaces them), and a row of Caballero counts. The King, the
Grandes and a "+N" being placed go to their anchor point in the region when it is free, else
to the nearest free spot inside the region. The Castillo gets its name, values and mobile
scoreboard under the tower.

The 2023 board adds: spaces beyond the border (France, Portugal: a name, and the King when
Exile sends him there), the King and Grandes beside the Castillo (Rebellion, Competition),
Scoring tiles in place of the mobile scoreboards (their values, or "values not entered"), a
side that pays fewer places than its boards print (the unpaid numbers struck), unknown
values as "?", and a key for the 2-player dummy's colour.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from companion.words import N_, _
from companion.words import names as printed

CASTILLO = "castillo"
DATA = Path(__file__).parents[1] / "data"
MAP_FILES = {"classic": DATA / "spain_map.json", "2023": DATA / "spain_map_2023.json"}
MAP_FILE = MAP_FILES["classic"]
NAME_FONT = 21  # map units
VALUES_FONT = 16
COUNT_FONT = 19
CHIP = 22  # a Caballero stack's mark: the colour's shape (players.PlayerLook.mark), its count beside it
CHIP_GAP = 3  # between the rows of stacks
STACK_GAP = 4  # between one colour's stack and the next
COUNT_GAP = 2  # between a stack's mark and its count
ROW_W = 150  # a region's stacks wider than this go on two rows
KING_R = 20
GRANDE_R = 16
GRANDE_W, GRANDE_H = 28, 38  # the Grande's tower: taller than wide
BADGE_W, BADGE_H = 62, 26
GAP = 3  # between the lines of a block
# The Castillo's glow after a drop: a ring this many tower radii round its centre (it clears the
# tower's corners, 1.1 radii); the name and values lie below it, never under it
CASTILLO_RING = 1.2
RING_LANE = 6  # map units: the ring's line and a margin, between it and "Castillo"
MARKER_FONT = 14
# King and Intrigue's markers on a region, by key (double_1 -> "double"): what the tag says
MARKER_WORDS = {
    "double": N_("2x"),
    "alliance": N_("Alliance"),
    "castillo_at": N_("Castillo here"),
    "bridge": N_("Bridge"),
    "kings_guard": N_("King's Guard"),
    "limit": N_("Table for Six"),
    "quarantine": N_("Quarantine"),
    "risk_of_collapse": N_("Risk of Collapse"),
}
UNKNOWN = "?"  # a scoreboard value nobody has entered
NOT_ENTERED = N_("values\nnot entered")  # a Scoring tile whose values nobody has entered (two lines: narrow)
CLEAR = 2  # kept free around a token
RINGS = range(0, 200, 6)  # where a token may go: rings around its anchor ...
ANGLES = 16  # ... this many spots on each
TAG_ANGLES = 24  # ... and for a wide King and Intrigue tag, which a coarser search misses room for

TextSize = Callable[[str, float, bool], "tuple[float, float]"]  # (text, font, bold) -> (w, h)


@lru_cache(maxsize=4)
def map_shapes(rules: str = "classic") -> dict:
    """The shapes of a rule set's board. The 2023 map is the classic one renamed (its `base`
    and `rename`) plus its own spaces, room by the Castillo and the dummy's corner."""
    data = json.loads(MAP_FILES.get(rules, MAP_FILE).read_text(encoding="utf-8"))
    if "base" not in data:
        return data
    shapes = json.loads((DATA / data["base"]).read_text(encoding="utf-8"))
    rename = data.get("rename", {})
    shapes["regions"] = {rename.get(rid, rid): region for rid, region in shapes["regions"].items()}
    shapes["castillo"] = {**shapes["castillo"], **data.get("castillo", {})}
    for key in ("spaces", "legend"):
        if key in data:
            shapes[key] = data[key]
    return shapes


@dataclass
class Mark:
    kind: str  # name | values | mobile | counts | king | grande | badge | space | legend | marker
    area: str
    x: float  # centre
    y: float
    w: float
    h: float
    text: str = ""
    owner: str = ""  # a Grande's or a badge's colour
    items: list = field(default_factory=list)  # counts: [(colour, n), ...]
    spots: list = field(default_factory=list)  # counts: each item's (mark's dx, count's dx, dy) from the centre
    struck: str = ""  # values and mobile: the numbers printed but not paid (struck through after `text`)

    @property
    def rect(self) -> tuple[float, float, float, float]:
        return self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2


def values_words(values) -> str:
    return "·".join(str(v) for v in values)


def values_parts(values, paid: int = 3) -> tuple[str, str]:
    """("6·4", "·2") for a board paying 2 places of 6/4/2: what counts, and what is printed but does
    not. Unknown values (None) are "?" each, never guessed."""
    if values is None:
        values = (UNKNOWN,) * 3
    values = [str(v) for v in values]
    shown, struck = values[:paid], values[paid:]
    return "·".join(shown), ("·" + "·".join(struck)) if struck and shown else "·".join(struck)


def mobile_parts(sid: str, tiles: dict | None, paid: int = 3) -> tuple[str, str]:
    """A mobile scoreboard's words ("8·4·0": its id says its values) or a Scoring tile's (its
    values from the board, "values not entered" when nobody has entered them)."""
    if tiles is not None and sid in tiles:
        return (_(NOT_ENTERED), "") if tiles[sid] is None else values_parts(tiles[sid], paid)
    return values_words(sid.split("-")), ""


def reversed_parts(sid: str) -> tuple[str, str]:
    """Revolt: a mobile scoreboard on its reversed side, the fewest (at least one) scoring first:
    "0·4·8 rev." for the 8-4-0 board."""
    return values_words(reversed(sid.split("-"))) + " rev.", ""


def _parts_size(parts: tuple[str, str], font: float, bold: bool, text_size) -> tuple[float, float]:
    lines = [text_size(line, font, bold) for line in parts[0].split("\n")]
    w, h = max(lw for lw, _ in lines), sum(lh for _, lh in lines)
    if parts[1]:
        w += text_size(parts[1], font, bold)[0]
    return w, h


def _overlap(a, b, margin: float = 0.0) -> bool:
    return a[0] < b[2] + margin and b[0] < a[2] + margin and a[1] < b[3] + margin and b[1] < a[3] + margin


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


def rect_inside(rect, polygon) -> bool:
    x0, y0, x1, y1 = rect
    return all(
        inside(x, y, polygon) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1), ((x0 + x1) / 2, (y0 + y1) / 2))
    )


def _values_mark(area: str, values: tuple[str, str], mobile: tuple[str, str] | None, text_size: TextSize) -> Mark:
    """The area's values, or the mobile scoreboard (Scoring tile) lying on it (a box around its words)."""
    if mobile:
        w, h = _parts_size(mobile, VALUES_FONT, True, text_size)
        return Mark("mobile", area, 0, 0, w + 12, h + 4, text=mobile[0], struck=mobile[1])
    w, h = _parts_size(values, VALUES_FONT, False, text_size)
    return Mark("values", area, 0, 0, w, h, text=values[0], struck=values[1])


def _block(
    area: str,
    name: str,
    values: tuple[str, str],
    mobile: tuple[str, str] | None,
    counts: dict,
    x: float,
    y: float,
    text_size: TextSize,
    room: float = ROW_W,
) -> list[Mark]:
    """Name, values (or the mobile scoreboard) and counts, stacked and centred on (x, y); the
    stacks on one row when the region has `room` for it across."""
    marks = []
    nw, nh = text_size(name, NAME_FONT, True)
    shown = _values_mark(area, values, mobile, text_size)
    vh = shown.h
    items = [(pid, n) for pid, n in counts.items() if n]
    top = y - (nh + GAP + vh) + 4  # the name sits just above the label point, the counts below it
    marks.append(Mark("name", area, x, top + nh / 2, nw, nh, text=name))
    vy = top + nh + GAP + vh / 2
    shown.x, shown.y = x, vy
    marks.append(shown)
    if items:
        cw, ch, spots = stack_spots(items, text_size, max(ROW_W, room))
        marks.append(Mark("counts", area, x, vy + vh / 2 + GAP + ch / 2, cw, ch, items=items, spots=spots))
    return marks


def room_across(polygon, x: float, y: float) -> float:
    """How wide a row centred on x may be at height y and stay inside the polygon."""
    crossings = []
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            crossings.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    left = max((c for c in crossings if c <= x), default=x)
    right = min((c for c in crossings if c >= x), default=x)
    return 2 * min(x - left, right - x)


def stack_spots(items: list, text_size: TextSize, row_w: float = ROW_W) -> tuple[float, float, list]:
    """Where each colour's stack (its mark, then its count) goes: one row, or two when one would be
    wider than row_w. Returns the block's width and height and, per item, (mark's dx, count's dx, dy)
    from the block's centre (y down)."""
    widths = [CHIP + COUNT_GAP + text_size(str(n), COUNT_FONT, True)[0] for _, n in items]

    def row_width(row: list[float]) -> float:
        return sum(row) + STACK_GAP * (len(row) - 1)

    split = len(items) if row_width(widths) <= row_w else (len(items) + 1) // 2
    rows = [widths[:split], widths[split:]] if split < len(items) else [widths]
    w = max(row_width(row) for row in rows)
    h = len(rows) * CHIP + (len(rows) - 1) * CHIP_GAP
    spots = []
    for r, row in enumerate(rows):
        left, dy = -row_width(row) / 2, -h / 2 + CHIP / 2 + r * (CHIP + CHIP_GAP)
        for item_w in row:
            spots.append((left + CHIP / 2, left + CHIP + COUNT_GAP + (item_w - CHIP - COUNT_GAP) / 2, dy))
            left += item_w + STACK_GAP
    return w, h, spots


def _place(mark: Mark, anchor, polygon, taken: list[Mark], angles: int = ANGLES) -> Mark:
    """Move `mark` to the free spot nearest its anchor: wholly inside the polygon if it can be, else
    with its centre inside, else (a region too crowded) just beside it."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    bounds = (min(xs), min(ys), max(xs), max(ys))
    reach = max(mark.w, mark.h) + RINGS[-1]
    near = [
        t.rect
        for t in taken
        if _overlap(t.rect, (anchor[0] - reach, anchor[1] - reach, anchor[0] + reach, anchor[1] + reach))
    ]
    for strict in (True, False, None):
        for r in RINGS:
            for k in range(angles if r else 1):
                a = 2 * math.pi * k / angles
                mark.x, mark.y = anchor[0] + r * math.cos(a), anchor[1] + r * math.sin(a)
                rect = mark.rect
                if strict and not (
                    bounds[0] <= rect[0] and rect[2] <= bounds[2] and bounds[1] <= rect[1] and rect[3] <= bounds[3]
                ):
                    continue
                if any(_overlap(rect, t, CLEAR) for t in near):
                    continue
                if strict is None or (rect_inside(rect, polygon) if strict else inside(mark.x, mark.y, polygon)):
                    return mark
    mark.x, mark.y = anchor
    return mark


def layout(
    shapes: dict,
    game: dict,
    names: dict,
    scoreboards: dict,
    pending: dict,
    pending_colour: str,
    text_size: TextSize,
    castillo_box: tuple[float, float, float, float],
    *,
    paid: int = 3,
    tiles: dict | None = None,
    dummy: str = "",
    dummy_name: str = "",
) -> list[Mark]:
    """Every mark of the board, placed. `castillo_box` is the tower's drawn rect (map units);
    `scoreboards` maps an area to its printed values (None: unknown); `paid`: the places a
    scoreboard pays on this side; `tiles`: Scoring tile id -> values (None: not entered);
    `dummy`: the 2-player dummy's colour, keyed as `dummy_name`."""
    markers = game.get("markers") or {}  # King and Intrigue's (views._king_intrigue_public)
    mobiles = {
        where: (reversed_parts(sid) if markers.get(f"reversed_{sid}") else mobile_parts(sid, tiles, paid))
        for sid, where in (game.get("mobile_scoreboards") or {}).items()
        if where
    }
    regions = shapes["regions"]
    marks: list[Mark] = []
    for rid, region in regions.items():
        (x, y), polygon = region["label"], region["polygon"]
        # the stacks' row lies just below the label point: the room it has there, clear of the border
        room = min(room_across(polygon, x, y + dy) for dy in (4 + GAP, 4 + GAP + CHIP)) - 4 * CLEAR
        marks += _block(
            rid,
            names.get(rid, rid),
            values_parts(scoreboards.get(rid, ()), paid),
            mobiles.get(rid),
            game.get("regions", {}).get(rid, {}),
            x,
            y,
            text_size,
            room,
        )
    marks += _castillo_block(
        shapes["castillo"],
        castillo_box,
        values_parts(scoreboards.get(CASTILLO, ()), paid),
        mobiles.get(CASTILLO),
        text_size,
        names.get(CASTILLO) or printed.place("Castillo", game.get("rules")),
    )
    for sid, space in (shapes.get("spaces") or {}).items():
        w, h = text_size(names.get(sid, sid), NAME_FONT, False)
        marks.append(Mark("space", sid, *space["label"], w, h, text=names.get(sid, sid)))
    tower = Mark(
        "tower",
        CASTILLO,
        (castillo_box[0] + castillo_box[2]) / 2,
        (castillo_box[1] + castillo_box[3]) / 2,
        castillo_box[2] - castillo_box[0],
        castillo_box[3] - castillo_box[1],
    )
    taken = marks + [tower]
    king = game.get("king")
    for rid, region in regions.items():
        polygon = region["polygon"]
        if king == rid:
            taken.append(_place(_king(rid), region["king"], polygon, taken))
        owners = [p["id"] for p in game.get("players", []) if p.get("grande") == rid]
        gx, gy = region["grande"]
        for i, pid in enumerate(owners):
            anchor = (gx + (i - (len(owners) - 1) / 2) * (GRANDE_W + 6), gy)
            taken.append(_place(_grande(rid, pid), anchor, polygon, taken))
    _beside_the_castillo(shapes["castillo"], game, taken)
    for sid, space in (shapes.get("spaces") or {}).items():
        if king == sid:
            taken.append(_place(_king(sid), space["king"], space["polygon"], taken))
    if dummy:
        taken.append(_legend(shapes, dummy, dummy_name, text_size, taken))
    for key, rid in sorted(markers.items()):  # King and Intrigue's tokens on a region or the Castillo
        words = MARKER_WORDS.get(key.rstrip("_12"))
        words = _(words) if words else words
        if not words or not isinstance(rid, str) or not (rid in regions or rid == CASTILLO):
            continue
        w, h = text_size(words, MARKER_FONT, True)
        below = _lowest(taken, rid)
        if rid == CASTILLO:
            # above the tower's ring: below it the Castillo's name and values already reach the sea's edge
            (cx, cy), r = shapes["castillo"]["center"], shapes["castillo"]["radius"]
            anchor = (cx, cy - CASTILLO_RING * r - RING_LANE - GAP - h / 2 - 2)
            polygon = _castillo_zone(shapes["castillo"])
        else:
            anchor = (regions[rid]["label"][0], below.y + below.h / 2 + GAP + h / 2 + 2)
            polygon = regions[rid]["polygon"]
        taken.append(_place(Mark("marker", rid, 0, 0, w + 10, h + 4, text=words), anchor, polygon, taken, TAG_ANGLES))
    for rid, region in regions.items():  # last: a badge moves nothing else when it appears
        if pending.get(rid):
            below = _lowest(taken, rid)
            anchor = (region["label"][0], below.y + below.h / 2 + GAP + BADGE_H / 2)
            taken.append(
                _place(
                    Mark("badge", rid, 0, 0, BADGE_W, BADGE_H, text=f"+{pending[rid]}", owner=pending_colour),
                    anchor,
                    region["polygon"],
                    taken,
                )
            )
    return [m for m in taken if m is not tower]


def _king(area: str) -> Mark:
    return Mark("king", area, 0, 0, 2 * KING_R + 4, 2 * KING_R + 4)


def _grande(area: str, pid: str) -> Mark:
    return Mark("grande", area, 0, 0, GRANDE_W + 4, GRANDE_H + 4, owner=pid)


def _castillo_zone(castillo: dict) -> list:
    """The sea around the tower where the King (Rebellion) and Grandes (Competition) stand."""
    if "zone" in castillo:
        return castillo["zone"]
    (x, y), r = castillo["center"], castillo["radius"]
    return [
        [x - 2.5 * r, y - 2.5 * r],
        [x + 2.5 * r, y - 2.5 * r],
        [x + 2.5 * r, y + 2.5 * r],
        [x - 2.5 * r, y + 2.5 * r],
    ]


def _beside_the_castillo(castillo: dict, game: dict, taken: list[Mark]) -> None:
    """The King left of the tower when the Castillo is his region; Grandes thrown in, right of it,
    one above the other."""
    zone = _castillo_zone(castillo)
    (x, y), r = castillo["center"], castillo["radius"]
    if game.get("king") == CASTILLO:
        taken.append(_place(_king(CASTILLO), castillo.get("king", (x - 1.2 * r, y)), zone, taken))
    owners = [p["id"] for p in game.get("players", []) if p.get("grande") == CASTILLO]
    gx, gy = castillo.get("grande", (x + 1.4 * r, y))
    for i, pid in enumerate(owners):
        anchor = (gx, gy + (i - (len(owners) - 1) / 2) * (GRANDE_H + 6))
        taken.append(_place(_grande(CASTILLO, pid), anchor, zone, taken))


def _legend(shapes: dict, dummy: str, words: str, text_size: TextSize, taken: list[Mark]) -> Mark:
    """The dummy's key: its chip and its name, in a corner of the sea."""
    legend = shapes.get("legend") or {"zone": [[0, 690], [300, 690], [300, 795], [0, 795]], "anchor": [130, 752]}
    w, h = text_size(words, VALUES_FONT, True)
    mark = Mark("legend", "dummy", 0, 0, CHIP + 6 + w, max(CHIP, h), text=words, items=[(dummy, 0)])
    return _place(mark, legend["anchor"], legend["zone"], taken)


def _lowest(marks: list[Mark], area: str) -> Mark:
    block = [m for m in marks if m.area == area and m.kind in ("name", "values", "mobile", "counts")]
    return max(block, key=lambda m: m.y + m.h / 2)


def _castillo_block(
    castillo: dict, box, values: tuple[str, str], mobile: tuple[str, str] | None, text_size: TextSize, name: str
) -> list[Mark]:
    """Under the tower: "Castillo", then its values or the mobile scoreboard lying on it."""
    x = castillo["center"][0]
    nw, nh = text_size(name, NAME_FONT, True)
    ring_bottom = castillo["center"][1] + CASTILLO_RING * castillo["radius"] + RING_LANE
    y = max(box[3], ring_bottom) + GAP + nh / 2
    marks = [Mark("name", CASTILLO, x, y, nw, nh, text=name)]
    shown = _values_mark(CASTILLO, values, mobile, text_size)
    shown.x, shown.y = x, y + nh / 2 + GAP + shown.h / 2
    return marks + [shown]
