"""Where the map's marks go (companion/ui/widgets/map_layout.py), without Kivy: over crowded boards
(every colour in every region, all five Grandes in one region, the King and both mobile
scoreboards anywhere, a "+N" being placed everywhere) no mark covers another, every mark
stays on the map, and a region's name, values and counts sit at its label point.

Text is measured here by a generous estimate (wider than the app's font draws it), so a
layout that fits here fits on screen; test_shapes.py checks the real one in the app."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from companion.ui.widgets import map_layout
from companion.words import names, use_language
from engine.board.build import classic_board

MAP = json.loads((Path(__file__).parents[3] / "companion/ui/data/spain_map.json").read_text(encoding="utf-8"))
BOARD = classic_board()
NAMES = {aid: BOARD.area_name(i) for aid, i in BOARD.area_index.items()}
VALUES = {aid: BOARD.scoreboards[i] for aid, i in BOARD.area_index.items()}
PLAYERS = ["red", "yellow", "green", "blue", "black"]
REGIONS = list(MAP["regions"])
AREAS = REGIONS + ["castillo"]


def text_size(text: str, font: float, bold: bool) -> tuple[float, float]:
    return len(text) * font * (0.62 if bold else 0.56), font * 1.25


def tower_box() -> tuple:
    (x, y), r = MAP["castillo"]["center"], MAP["castillo"]["radius"]
    return x - 0.65 * r - 2, y - 1.1 * r - 2, x + 0.65 * r + 2, y + 0.85 * r + 2


def lay_out(game: dict, pending: dict) -> list:
    return map_layout.layout(MAP, game, NAMES, VALUES, pending, "red", text_size, tower_box())


def problems(marks) -> list[str]:
    found = []
    for a, b in itertools.combinations(marks, 2):
        if map_layout._overlap(a.rect, b.rect, -0.5):
            found.append(f"{a.kind} of {a.area} covers {b.kind} of {b.area}")
    for m in marks:
        x0, y0, x1, y1 = m.rect
        if x0 < 0 or y0 < 0 or x1 > MAP["width"] or y1 > MAP["height"]:
            found.append(f"{m.kind} of {m.area} is off the map")
    return found


def crowded(king: str, grandes: dict, mobiles: dict, count: int = 12) -> dict:
    return {
        "king": king,
        "regions": {r: {p: count for p in PLAYERS} for r in REGIONS},
        "players": [{"id": p, "grande": grandes.get(p)} for p in PLAYERS],
        "mobile_scoreboards": mobiles,
    }


def test_nothing_covers_anything_on_the_most_crowded_boards():
    """Every King region x every region holding all five Grandes, with the 8-4-0 on the
    Grandes' region and the 4-0-0 on the King's (or the Castillo), a +3 in every region."""
    checked = 0
    for king, together in itertools.product(REGIONS, REGIONS):
        for other in (king, "castillo"):
            if other == together:
                continue
            game = crowded(king, {p: together for p in PLAYERS}, {"8-4-0": together, "4-0-0": other})
            marks = lay_out(game, {r: 3 for r in REGIONS})
            assert not problems(marks), (king, together, other, problems(marks))
            checked += 1
    assert checked > 150


def test_random_boards():
    rng = random.Random(11)
    for _ in range(150):
        spots = rng.sample(AREAS, 2)
        game = {
            "king": rng.choice(REGIONS),
            "regions": {r: {p: rng.randint(0, 14) for p in rng.sample(PLAYERS, rng.randint(0, 5))} for r in REGIONS},
            "players": [{"id": p, "grande": rng.choice(REGIONS)} for p in PLAYERS],
            "mobile_scoreboards": {"8-4-0": spots[0], "4-0-0": spots[1] if rng.random() < 0.7 else None},
        }
        pending = {r: rng.randint(1, 5) for r in rng.sample(REGIONS, rng.randint(0, 4))}
        marks = lay_out(game, pending)
        assert not problems(marks), (game, pending, problems(marks))


def test_a_region_shows_its_name_values_and_counts_at_its_label():
    game = crowded("castilla_la_nueva", {"red": "galicia"}, {"8-4-0": "galicia", "4-0-0": "castillo"}, count=3)
    marks = lay_out(game, {"valencia": 2})
    by = {(m.kind, m.area): m for m in marks}
    for rid, region in MAP["regions"].items():
        lx, ly = region["label"]
        name, counts = by[("name", rid)], by[("counts", rid)]
        values = by.get(("values", rid)) or by[("mobile", rid)]
        assert name.text == NAMES[rid] and abs(name.x - lx) < 1
        assert name.y < values.y < counts.y and abs(counts.y - ly) < 40  # name, values, counts, top down
        assert [pid for pid, _ in counts.items] == PLAYERS
    assert by[("mobile", "galicia")].text == "8·4·0"  # the mobile one replaces Galicia's 4·2·0
    assert by[("values", "castilla_la_vieja")].text == "6·4·2"
    assert by[("mobile", "castillo")].text == "4·0·0"  # under the Castillo, with its name
    assert by[("name", "castillo")].y < by[("mobile", "castillo")].y
    assert by[("badge", "valencia")].text == "+2"
    king = by[("king", "castilla_la_nueva")]
    assert map_layout.inside(king.x, king.y, MAP["regions"]["castilla_la_nueva"]["polygon"])


def test_a_token_stays_at_its_anchor_when_that_is_free():
    game = {"king": "granada", "regions": {}, "players": [{"id": "red", "grande": "aragon"}], "mobile_scoreboards": {}}
    by = {(m.kind, m.area): m for m in lay_out(game, {})}
    assert (by[("king", "granada")].x, by[("king", "granada")].y) == tuple(MAP["regions"]["granada"]["king"])
    assert (by[("grande", "aragon")].x, by[("grande", "aragon")].y) == tuple(MAP["regions"]["aragon"]["grande"])


def test_the_castillo_name_lies_below_its_glow_ring():
    """The ring a drop lights round the tower covered the word "Castillo" under it (issue 33)."""
    marks = lay_out(crowded("galicia", {}, {}, count=1), {})
    name = next(m for m in marks if m.kind == "name" and m.area == "castillo")
    (_, cy), r = MAP["castillo"]["center"], MAP["castillo"]["radius"]
    assert name.text == "Castillo"
    assert name.rect[1] > cy + map_layout.CASTILLO_RING * r, (name.rect, cy, r)


@pytest.fixture
def german():
    use_language("de")
    yield
    use_language("en")


def test_the_maps_own_words_follow_the_language(german):
    game = {**crowded("aragon", {}, {}), "markers": {"bridge_1": "galicia", "kings_guard": "sevilla"}}
    marks = lay_out(game, {})
    tags = {m.area: m.text for m in marks if m.kind == "marker"}
    assert tags == {"galicia": "Brücke", "sevilla": "Königsgarde"}, tags
    castillo = next(m for m in marks if m.kind == "name" and m.area == "castillo")
    assert castillo.text == names.place("Castillo")
    assert not problems(marks)  # the German words placed as the English ones are


def test_the_maps_words_in_english_stay_as_the_sources_say_them():
    marks = lay_out({**crowded("aragon", {}, {}), "markers": {"bridge_1": "galicia"}}, {})
    assert [m.text for m in marks if m.kind == "marker"] == ["Bridge"]
