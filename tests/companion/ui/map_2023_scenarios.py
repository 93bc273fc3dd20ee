"""The 2023 map in the real app at the window's shape (test_map_2023.py runs this at 1280x800, the
screen catalogue, catalogue_2023_ki.py, at 1920x1200 and 800x1280): the table screen's map is
given each 2023 position of
map_2023_states.py (its board and public view, as the screen gives them), checked by
layout_checks.py (the screen, and no map mark covering or cut by the map's edge) and saved as
a PNG. Then the classic game's own view again: the classic map is drawn as before.

The facts returned: per position, the problems found and the marks placed (kind, area, words,
struck words, the area under the mark's centre) for the test to check what is shown where."""

from __future__ import annotations

from layout_checks import check_screen, map_marks
from map_2023_states import POSITIONS
from scenarios import _wait_for

from companion.table.setup import TableSetup
from companion.ui.widgets import map_layout
from engine.events import GameSetup

PLAYERS = ["red", "yellow", "green", "blue", "black"]
HOMES = {"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia", "black": "cataluna"}


def _marks(m) -> list[dict]:
    to_screen = m._transform()[0]
    shapes = m.shapes()
    areas = {
        **shapes["regions"],
        **shapes.get("spaces", {}),
        "castillo": {"polygon": map_layout._castillo_zone(shapes["castillo"])},
        "dummy": {"polygon": (shapes.get("legend") or {}).get("zone", [])},
    }
    return [
        {
            "kind": mark.kind,
            "area": mark.area,
            "text": mark.text,
            "struck": mark.struck,
            "owner": mark.owner,
            "items": [pid for pid, _ in mark.items],
            "under": m.area_at(*to_screen(mark.x, mark.y)),
            "within": mark.area in areas and map_layout.rect_inside(mark.rect, areas[mark.area]["polygon"]),
        }
        for mark in m.placed()
    ]


def _look(d, m, name: str):
    yield 0.25
    d.facts["problems"][name] = check_screen() + map_marks(m)
    d.facts["marks"][name] = _marks(m)
    d.facts["hits"][name] = {
        aid: m.area_at(*m.area_centre(aid))
        for aid in list(m.shapes()["regions"]) + list(m.shapes().get("spaces", {})) + ["castillo"]
    }
    d.shot(f"map_{name}")


def map_2023(d):
    d.facts = {"problems": {}, "marks": {}, "hits": {}}
    yield 0.3
    game = GameSetup(players=PLAYERS, king="castilla_la_nueva", homes=HOMES, start_player="red")
    d.model.new_game(TableSetup(game=game, mode="scoring"))  # no sheet opens by itself over the map
    d.app.root.current = "table"
    yield from _wait_for(d, lambda: d.current == "table")
    yield 0.5
    m = d.screen("table").ids.map
    classic = dict(m.public)
    d.facts["classic_before"] = _marks(m)
    for build in POSITIONS:
        name, board, public = build()
        m.board, m.public = board, public  # what the table screen gives its map in a 2023 game
        yield from _look(d, m, name)
    m.board, m.public = None, classic  # the classic game again
    yield from _look(d, m, "classic_again")
    d.facts["classic_after"] = d.facts["marks"]["classic_again"]
