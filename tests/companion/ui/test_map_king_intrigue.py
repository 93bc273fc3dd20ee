"""King and Intrigue's markers on the map (companion/ui/widgets/map_layout.py), without Kivy: the 2x
markers, the Alliance's two regions and the relocated Castillo as tags on their regions, and a
reversed mobile scoreboard (Revolt) read as its reversed values; on crowded boards no mark covers
another and every tag lies on its region. The screen catalogue draws them in the app at the
three tablet shapes (catalogue_2023_ki.py, ki_scenarios.look_at_ki_screens)."""

from __future__ import annotations

import itertools
import random

from companion.ui.widgets import map_layout
from tests.companion.ui.test_map_layout import MAP, PLAYERS, REGIONS, crowded, lay_out, problems


def _markers(rng: random.Random) -> dict:
    a, b, c, d = rng.sample(REGIONS, 4)
    e, f = rng.sample(REGIONS, 2)
    return {
        "double_1": a,
        "double_2": b,
        "alliance_1": c,
        "alliance_2": d,
        "castillo_at": rng.choice(REGIONS),
        "reversed_8-4-0": True,
        "bridge_1": e,
        "bridge_2": f,
        "bridge_caballero": "red",
        "kings_guard": rng.choice(REGIONS),
        "quarantine": rng.choice(REGIONS),
        "limit_1": rng.choice(REGIONS),
        "risk_of_collapse": "castillo",
        "mistress": "blue",
        "espionage_red": "red",
    }  # the last two: by a player


def test_markers_are_tags_on_their_regions_and_cover_nothing():
    rng = random.Random(14)
    checked = 0
    for king, together in itertools.islice(itertools.product(REGIONS, REGIONS), 0, None, 3):
        markers = _markers(rng)
        game = {
            **crowded(king, {p: together for p in PLAYERS}, {"8-4-0": together, "4-0-0": king}, count=9),
            "markers": markers,
        }
        marks = lay_out(game, {r: 2 for r in REGIONS})
        assert not problems(marks), (king, together, markers, problems(marks))
        tags = [m for m in marks if m.kind == "marker"]
        expected = sorted(
            (rid, map_layout.MARKER_WORDS[key.rstrip("_12")])
            for key, rid in markers.items()
            if key.rstrip("_12") in map_layout.MARKER_WORDS
        )
        assert ("castillo", "Risk of Collapse") in expected and len(expected) == 11
        assert sorted((m.area, m.text) for m in tags) == expected
        checked += 1
    assert checked > 20


def test_on_a_board_as_a_game_has_it_each_tag_lies_on_its_region():
    """Crowded boards may push a tag just beside its region (like a "+N" badge); on boards as a game
    has them (a few colours per region) every tag's centre is on its region."""
    rng = random.Random(5)
    for _ in range(120):
        markers = _markers(rng)
        game = {
            "king": rng.choice(REGIONS),
            "markers": markers,
            "regions": {r: {p: rng.randint(1, 6) for p in rng.sample(PLAYERS, rng.randint(0, 3))} for r in REGIONS},
            "players": [{"id": p, "grande": rng.choice(REGIONS)} for p in PLAYERS[:4]],
            "mobile_scoreboards": {"8-4-0": rng.choice(REGIONS), "4-0-0": None},
        }
        marks = lay_out(game, {})
        assert not problems(marks), problems(marks)
        for m in (m for m in marks if m.kind == "marker" and m.area != "castillo"):
            assert map_layout.inside(m.x, m.y, MAP["regions"][m.area]["polygon"]), (m.area, m.text, game)


def test_a_reversed_scoreboard_reads_its_reversed_values():
    game = {
        "king": "aragon",
        "regions": {},
        "players": [{"id": p} for p in PLAYERS],
        "mobile_scoreboards": {"8-4-0": "galicia", "4-0-0": "valencia"},
        "markers": {"reversed_8-4-0": True},
    }
    marks = {(m.kind, m.area): m for m in lay_out(game, {})}
    assert marks[("mobile", "galicia")].text == "0·4·8 rev."
    assert marks[("mobile", "valencia")].text == "4·0·0"  # not reversed
    game["markers"] = {}
    marks = {(m.kind, m.area): m for m in lay_out(game, {})}
    assert marks[("mobile", "galicia")].text == "8·4·0" and not [m for m in marks.values() if m.kind == "marker"]
