"""King and Intrigue in scoring-only mode, by taps in the real app (run by app_driver.py under Xvfb,
test_app_ki_scoring.py): New game with King and Intrigue and "Scoring only"; in round 3 the board
entered by taps with a 2x marker and the Alliance markers (a third Alliance marker refused in
words); the general scoring after it, its itemised lines read off the scoring screen. Each screen
is checked by layout_checks.py (touch targets, overlaps, cut words, the map's marks)."""

from __future__ import annotations

from ki_scenarios import _choose_ki
from scenarios import _pick_secret_discs, _wait_for
from shape_scenarios import _look  # settle, check the screen (and the map), keep a picture
from words_match import said

from companion.words import names

PLAYERS = {"red": "Ana", "yellow": "Ben", "green": "Cy"}
HOMES = {"red": "Galicia", "yellow": "Sevilla", "green": "Granada"}


def _new_ki_scoring_game(d):
    """No card numbers entered from the box: scoring only plays no card, so it asks for none."""
    d.facts = {}
    yield 0.3
    d.tap("New game")
    yield 0.2
    yield from _choose_ki(d, players=tuple(PLAYERS))
    setup = d.screen("setup")
    for pid, name in PLAYERS.items():
        setup.rows[pid].name, setup.rows[pid].home = name, HOMES[pid]
    setup.king, setup.variant = "Castilla la Nueva", "Full game (9 rounds)"
    setup.mode = "Scoring only"
    yield 0.1
    d.tap("Start the game", exact=True)
    yield from _wait_for(d, lambda: d.current == "table", 45)  # a loaded machine
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")
    yield from _wait_for(d, lambda: d.has_button("Round finished"))
    yield 0.3  # the side panel laid out: its buttons where they are drawn
    game = d.model.table.setup
    d.facts["setup"] = {"rules": game.game.rules, "mode": game.mode, "modules": sorted(game.game.modules)}


def _enter_the_board(d, shot: str):
    """Caballeros, a 2x marker on Galicia and the Alliance on Aragón and Cataluña, all by taps."""
    table = d.screen("table")
    d.tap("Enter the board")
    yield 0.2
    d.facts["tools"] = sorted(b.text for b in d.widgets() if getattr(b, "tap_action", None) and d.visible(b) and b.text)
    for pid, regions in (
        ("red", ["aragon", "aragon", "aragon", "galicia"]),
        ("yellow", ["cataluna", "aragon"]),
        ("green", ["galicia", "galicia", "cataluna"]),
    ):
        d.tap(said("{who}: add", who=PLAYERS[pid]))
        for region in regions:
            d.tap_area(region)
        yield 0.05
    d.tap("2x marker", exact=True)
    d.tap_area("galicia")
    d.tap("Alliance", exact=True)
    d.tap_area("aragon")
    d.tap_area("cataluna")
    d.tap_area("sevilla")  # a third Alliance marker: refused, in words
    yield 0.1
    d.facts["refused"] = table.message
    d.facts["markers_drawn"] = sorted(f"{m.text} on {m.area}" for m in table.ids.map.placed() if m.kind == "marker")
    yield from _look(d, shot, the_map=True)


def ki_scoring_only_game(d):
    yield from _new_ki_scoring_game(d)
    for round_ in (2, 3):
        d.tap("Round finished")
        yield from _wait_for(d, lambda r=round_: d.model.public["game"]["round"] == r)
        yield 0.1
    yield from _enter_the_board(d, "ki_scoring_board_entry")
    d.tap("Save the board")
    yield from _wait_for(d, lambda: d.screen("table").board_edit is None)
    yield 0.1
    d.facts["markers_saved"] = d.model.public["game"].get("markers")
    yield from _look(d, "ki_scoring_table", the_map=True)
    d.tap("Round finished")
    yield from _wait_for(d, lambda: d.ask().kind == "secret_disc")
    yield 0.1
    yield from _pick_secret_discs(d, {"red": "valencia", "yellow": "valencia", "green": "valencia"})
    d.tap("Open the Castillo")
    yield 0.2
    d.tap("Counts match")
    scoring = d.screen("scoring")
    yield from _wait_for(d, lambda: d.current == "scoring" and scoring.record is not None)
    yield from _look(d, "ki_scoring_summary")
    pages = {}
    while d.has_button("Next region"):
        d.tap("Next region")
        yield 0.15
        rows = [
            w.text
            for w in d.widgets()
            if w.__class__.__name__ == "Label"
            and d.visible(w)
            and w.text
            and ": " in w.text
            and w.parent is not None
            and w.parent.__class__.__name__ == "_LineRow"
        ]
        pages[scoring.subheading.split("  (")[0]] = rows
        if scoring.subheading.startswith(names.place("Galicia")):
            yield from _look(d, "ki_scoring_galicia")
    d.facts["pages"] = pages
    d.tap("Done: back to the table")
    yield 0.2
    game = d.model.public["game"]
    d.facts["lines"] = game["scorings"][-1]["lines"]
    d.facts["markers_after"] = game.get("markers")
    d.facts["scores"] = {p["id"]: p["score"] for p in game["players"]}
    d.facts["log"] = str(d.model.table.path)


def ki_board_entry_shape(d):
    """Only the new-game screen and the board entry with its marker buttons (the other window shapes)."""
    yield from _new_ki_scoring_game(d)
    yield from _enter_the_board(d, "ki_scoring_board_entry")
