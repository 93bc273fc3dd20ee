"""Every screen of the app at the window's shape (test_shapes.py runs this at 1280x800,
1920x1200 and 800x1280): each screen is checked by layout_checks.py (touch targets,
overlaps, cut text, the map's marks) and saved as a PNG.

A 5-player tracked game from a crowded position (every region with Caballeros, the King on
Castilla la Nueva, a Grande in each of five regions, the 8-4-0 scoreboard on Galicia and the
4-0-0 on the Castillo, a Veto held, a long name): the cards turned up, the power phase, a
placement in progress with a cube thrown into the tower, the tower and phones panels, a
phone asking to join, the history, a Veto holder asked, a question, the board correction, the
Castillo scoring; then a scoring-only game: its board entry, a secret disc picked on the
tablet, its general scoring, the end of the game, and the home screen listing both games; the
finished one replayed, the player records and the demo game (games_scenarios.py)."""

from __future__ import annotations

from games_scenarios import replay_and_records
from layout_checks import check_screen, map_marks, side_text_px
from scenarios import _castillo_entered, _reveal_cards, _wait_for
from words_match import said, throw_button

from companion import scripted

# red's: one word as long as the setup screen lets a name be (NAME_MAX), the worst to wrap
NAMES = {"red": "Bartholomew-Maximilian", "yellow": "Bo", "green": "Ana", "blue": "Jean-Christophe", "black": "Zé"}
HOMES = {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla", "blue": "Valencia", "black": "Cataluña"}
CROWDED = {
    "regions": {
        "galicia": {"red": 3, "yellow": 2, "green": 1, "blue": 4, "black": 2},
        "pais_vasco": {"red": 1, "yellow": 1, "green": 2, "blue": 1, "black": 1},
        "aragon": {"yellow": 5, "red": 2, "black": 1},
        "cataluna": {"black": 4, "green": 1, "blue": 2, "red": 1, "yellow": 1},
        "castilla_la_vieja": {"red": 2, "yellow": 2, "green": 2, "blue": 2, "black": 2},
        "castilla_la_nueva": {"red": 1, "green": 3, "blue": 1},
        "valencia": {"blue": 5, "yellow": 1, "red": 1, "green": 1, "black": 1},
        "sevilla": {"green": 6, "red": 1, "yellow": 1, "blue": 1, "black": 1},
        "granada": {"red": 2, "yellow": 2, "green": 2, "blue": 1, "black": 3},
    },
    "king": "castilla_la_nueva",
    "grandes": {"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia", "black": "cataluna"},
    "mobile_scoreboards": {"8-4-0": "galicia", "4-0-0": "castillo"},
    "scores": {"red": 21, "yellow": 18, "green": 25, "blue": 9, "black": 14},
    "round": 3,
    "power_spent": {"red": [13, 1], "yellow": [12, 2], "green": [11, 3], "blue": [10, 4], "black": [9, 5]},
    "vetoes": ["yellow"],
}


def _look(d, name: str, the_map: bool = False):
    """Let the layout settle, check what is on screen, keep a picture."""
    yield 0.15
    problems = check_screen()
    if the_map:
        problems += map_marks(d.screen(d.current).ids.map)
    d.facts.setdefault("problems", {})[name] = problems
    d.facts.setdefault("screens", []).append(name)
    if d.current == "table":
        d.facts["side_text_px"] = min(d.facts.get("side_text_px", 1e9), side_text_px(d.screen("table")))
    d.shot(name)


def _setup(d, mode: str, variant: str):
    setup = d.screen("setup")
    setup.mode, setup.variant, setup.king, setup.start = mode, variant, "Castilla la Nueva", "Red"
    for colour, row in setup.rows.items():
        row.plays, row.name, row.home = True, NAMES[colour], HOMES[colour]
    typed = setup.rows["red"].ids.name
    typed.text = ""
    typed.insert_text(NAMES["red"] + "-Smith")  # typing stops at the limit
    assert setup.rows["red"].name == NAMES["red"], setup.rows["red"].name


def _tap_table(d, words: str):
    """A button of the table screen's bottom bar (in a second row when the window is narrow)."""
    d.tap(words, exact=True)
    yield 0.2


def _a_phone_joins(d, pid: str):
    """A phone opens the seat's code (as its page does, over HTTP): the tablet asks whose it is."""
    import json
    import threading
    import urllib.request

    base, _, code = d.model.phones.seat_url(pid).partition("/join/")
    request = urllib.request.Request(
        f"{base}/api/join",
        data=json.dumps({"code": code}).encode(),
        headers={"Content-Type": "application/json", "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile"},
    )
    threading.Thread(target=lambda: urllib.request.urlopen(request, timeout=30).read(), daemon=True).start()
    yield from _wait_for(d, lambda: d.has_button("Yes"))


def _scroll_and_tap(d, words: str):
    """As a person would: scroll the list until the button shows, then tap it."""
    from kivy.uix.scrollview import ScrollView

    button = d.button(words, exact=True)
    scroll = button.parent
    while scroll is not None and not isinstance(scroll, ScrollView):
        scroll = scroll.parent
    if scroll is not None:
        scroll.scroll_to(button, padding=10, animate=False)
        yield 0.15
    d.tap_widget(button)
    yield 0.15


def _no_veto(d):
    """Bo holds a Veto: announced, the special action waits for her answer (the Castillo still shut)."""
    words = said("{who}: no veto", who=NAMES["yellow"])
    assert d.ask().kind == "veto", d.ask().kind
    yield from _wait_for(d, lambda: d.has_button(words))
    yield from _look(d, "veto_question")
    d.tap(words, exact=True)
    yield 0.2


def _teach_a_little(d):
    """The teaching screen over the tower panel: a classic tower knows the table's colours, so
    Teach again; 5 red cubes and a yellow in (red learnt, yellow under way), then stopped."""
    d.tap("Calibrate the colours", exact=True)
    yield 0.2
    yield from _look(d, "teach_known")
    d.tap("Teach again", exact=True)
    teaching = d.model.tower_link.teaching
    for colour in ["red"] * 5 + ["yellow"]:
        yield from _wait_for(d, lambda c=colour: d.has_button(throw_button(c)))
        got = teaching.view().got
        d.tap(throw_button(colour))
        yield from _wait_for(d, lambda got=got: teaching.view().got != got)
    yield 0.2
    yield from _look(d, "teach_throwing")
    d.tap("Stop teaching", exact=True)
    yield 0.1
    d.tap("Back to the game", exact=True)
    yield 0.1


def every_screen(d):
    from companion.ui.screens.setup import NAME_MAX

    assert len(NAMES["red"]) == NAME_MAX and " " not in NAMES["red"]
    d.facts = {}
    yield 0.3
    yield from _look(d, "home")
    d.tap("New game")
    yield 0.2
    _setup(d, "Full tracking", "Full game (9 rounds)")
    yield from _look(d, "setup")
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table")
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")
    d.model.table.submit({"type": "table_corrected", **CROWDED})
    d.model._refresh()
    yield 0.3
    yield from _look(d, "reveal_sheet")
    yield from _reveal_cards(d, ("any 3 Caballeros", "King is Angry", "Score the Castillo", "relocate your Grande"))
    assert d.ask().kind == "play_power_card", d.model.message
    table = d.screen("table")
    yield from _look(d, "table_power", the_map=True)
    d.model.simulate_drop("yellow")  # thrown outside a placement: a drop waits for a person
    yield from _wait_for(d, lambda: bool(table.ids.bar.drops_text))
    for turn in range(5):
        value = next(c.label for c in table.prompt.choices if c.enabled)
        d.tap(value, exact=True)
        yield 0.1
        if turn == 2:
            yield from _look(d, "table_power_three_played")
    assert d.ask().kind == "replenish", d.ask().kind
    yield from _look(d, "table_replenish")
    first = d.ask().players[0]
    d.tap("Score the Castillo")
    yield 0.15
    for area in ("galicia", "valencia", "valencia"):
        d.tap_area(area)
        yield 0.05
    d.model.simulate_drop(first)
    yield from _wait_for(d, lambda: d.model.table.castillo_prefill(first) == 1)
    yield from _castillo_entered(d, first, 1)
    yield from _look(d, "table_placement", the_map=True)
    d.tap(table.ids.bar.drops_text, exact=True)
    yield 0.2
    yield from _look(d, "tower_panel")
    yield from _teach_a_little(d)
    d.tap("Close", exact=True)
    yield 0.1
    yield from _tap_table(d, "Phones")
    yield from _look(d, "phones_panel")
    d.tap("Close", exact=True)
    yield 0.1
    yield from _a_phone_joins(d, "blue")
    yield from _look(d, "phone_check")
    d.tap("Yes", exact=True)
    yield 0.2
    yield from _tap_table(d, "History")
    yield from _look(d, "history")
    d.tap("Close", exact=True)
    yield 0.1
    d.tap("Clear", exact=True)
    yield 0.1
    d.tap("Confirm", exact=True)  # nothing tapped but the tower's cube: placed as counted
    yield 0.2
    d.tap("Do the special action")
    yield 0.2
    yield from _no_veto(d)  # the Veto first: the Castillo is still shut
    d.tap("Open the Castillo")
    yield from _wait_for(d, lambda: d.current == "scoring")
    yield from _look(d, "scoring_castillo")
    d.tap("Counts match: score the Castillo")
    yield 0.2
    yield from _wait_for(d, lambda: d.screen("scoring").record is not None)
    yield from _look(d, "scoring_summary")
    d.tap("Next region")
    yield from _look(d, "scoring_region")
    d.tap("Done: back to the table")
    yield 0.2
    second = d.ask().players[0]
    d.tap("any 3 Caballeros")
    yield 0.2
    d.tap("Confirm", exact=True)
    yield 0.2
    yield from _look(d, "question")
    d.tap("No, go back", exact=True)
    yield 0.1
    assert d.ask().players[0] == second
    yield from _tap_table(d, "Correct the board")
    yield from _wait_for(d, lambda: d.current == "position")
    yield from _look(d, "correction", the_map=True)
    d.tap("Cancel", exact=True)
    yield 0.2
    yield from _end_of_a_game(d)


def _end_of_a_game(d):
    """A scoring-only game to its first general scoring (a disc picked on the tablet), then to
    its end (the rest played by the scripted table, not by taps)."""
    d.app.root.current = "setup"
    yield 0.2
    _setup(d, "Scoring only", "Short game (6 rounds)")
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table" and d.model.table.mode == "scoring")
    yield 0.3
    d.tap("Enter the board")
    yield 0.2
    d.tap(said("{who}: add", who=NAMES["red"]))  # the longest name, in the tool's words too
    d.tap_area("granada")
    yield from _look(d, "board_entry", the_map=True)
    yield from _scroll_and_tap(d, "Cancel")  # at the end of the list: in portrait below the fold
    for _ in range(4):  # to the first general scoring
        if d.ask().kind == "secret_disc":
            break
        d.tap("Round finished")
        yield 0.2
    assert d.ask().kind == "secret_disc", d.ask().kind
    yield from _look(d, "table_discs", the_map=True)
    d.tap(said("{who}: secret disc", who=NAMES["red"]))
    yield 0.2
    yield from _look(d, "secret_pick")
    d.tap("Valencia", exact=True)
    yield 0.1
    for pid in ("yellow", "green", "blue", "black"):
        d.model.table.submit({"type": "secret_disc_set", "player": pid, "region": "galicia"}, player=pid)
    yield 0.2
    d.tap("Open the Castillo")
    yield from _wait_for(d, lambda: d.current == "scoring")
    yield 0.2
    d.tap("Counts match")
    yield from _wait_for(d, lambda: d.screen("scoring").record is not None)
    yield from _look(d, "general_scoring")
    d.tap("Done: back to the table")
    yield 0.2
    scripted.play(d.model.table, seed=3)
    assert d.ask().kind == "game_over", d.ask().kind
    yield 0.2
    d.app.root.current = "end"  # as "Done" on the last scoring would
    yield from _look(d, "end")
    d.app.root.current = "home"
    yield from _look(d, "home_with_games")
    yield from replay_and_records(d)  # the finished game replayed, the player records, the demo game
