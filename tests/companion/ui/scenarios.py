"""Scenarios for app_driver.py: what a table does, tap by tap."""
from __future__ import annotations


def _wait_for(d, what, seconds=5.0, step=0.05):
    """Yield until what() is true."""
    waited = 0.0
    while not what():
        if waited > seconds:
            raise AssertionError(f"waited {seconds} s for {what.__doc__ or what}")
        yield step
        waited += step


def _pick_secret_discs(d, regions):
    for pid, region in regions.items():
        name = d.model.name(pid)
        d.tap(f"{name} picks here")
        yield 0.1
        if pid == list(regions)[0]:
            d.shot("private_pick_pass")
        d.tap(f"I am {name}")
        yield 0.1
        if pid == list(regions)[0]:
            d.shot("private_pick_regions")
        d.tap(d.model.area_name(region), exact=True)
        yield 0.1


def _walk_scoring(d, name):
    scoring = d.screen("scoring")
    yield from _wait_for(d, lambda: d.current == "scoring" and scoring.record is not None)
    yield 0.2  # let the layout place the new buttons before tapping them
    d.shot(f"{name}_summary")
    d.tap("Next region")
    yield 0.2
    d.shot(f"{name}_region")
    d.tap("Done: back to the table")
    yield 0.1


def scoring_only_short_game(d):
    """A whole short game in scoring-only mode with the simulated tower."""
    yield 0.3
    d.shot("home")
    d.tap("New game")
    yield 0.2
    setup = d.screen("setup")
    setup.mode, setup.variant = "Scoring only", "Short game (6 rounds)"
    setup.king = "Castilla la Nueva"
    homes = {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla", "blue": "Valencia"}
    for colour, home in homes.items():
        setup.rows[colour].home = home
    setup.rows["red"].name = "Ana"
    yield 0.2
    d.shot("setup")
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table")
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")
    table = d.screen("table")
    # Round 2: cubes thrown into the tower: the Castillo pulses, no count is shown
    sim = {getattr(w, "sim_colour", None): w for w in table.ids.sim_drops.children}
    for colour in ("red", "red", "blue", "uncertain"):
        d.tap_widget(sim[colour])
        yield 0.05
    yield from _wait_for(d, lambda: d.model.public.get("drops_total") == 4)
    yield from _wait_for(d, lambda: bool(table.drops_text))
    d.shot("table")
    d.tap("to check")
    yield 0.2
    d.shot("tower_panel")
    d.tap("Green", exact=True)
    yield 0.1
    d.tap("Close")
    yield 0.1
    assert d.model.table.hidden_tallies() == {"red": 2, "yellow": 0, "green": 1, "blue": 1}
    # Enter the board: Ana (red) adds two Caballeros in Castilla la Vieja
    d.tap("Enter the board")
    yield 0.1
    d.tap("Ana: add")
    d.tap_area("castilla_la_vieja")
    d.tap_area("castilla_la_vieja")
    yield 0.1
    d.shot("board_entry")
    d.tap("Save the board")
    yield 0.1
    assert d.model.public["game"]["regions"]["castilla_la_vieja"] == {"red": 2}
    d.tap("Round finished")
    yield 0.1
    # Round 3: a special scoring of the Castillo (from the tower's count), then the general scoring
    d.tap("Special scoring")
    yield 0.1
    d.tap("the Castillo", exact=True)
    yield from _walk_scoring(d, "special")
    d.tap("Round finished")
    yield 0.1
    assert d.ask().kind == "secret_disc"
    d.shot("discs_waiting")
    yield from _pick_secret_discs(d, {"red": "valencia", "yellow": "galicia", "green": "sevilla", "blue": "aragon"})
    d.tap("Open the Castillo")
    yield 0.2
    d.shot("castillo_open")
    scoring = d.screen("scoring")
    assert scoring.counts == {"red": 2, "yellow": 0, "green": 1, "blue": 1}
    d.tap("Counts match")
    yield from _walk_scoring(d, "general")
    assert d.model.public["game"]["regions"]["valencia"].get("red") == 2  # moved from the Castillo
    assert d.model.table.hidden_tallies() == {"red": 0, "yellow": 0, "green": 0, "blue": 0}
    # Rounds 5 and 6, then 8 and 9: two more general scorings with empty Castillos
    for _ in range(2):
        d.tap("Round finished")
        yield 0.1
        d.tap("Round finished")
        yield 0.1
        yield from _pick_secret_discs(d, {"red": "galicia", "yellow": "galicia", "green": "galicia", "blue": "galicia"})
        d.tap("Open the Castillo")
        yield 0.2
        d.tap("Counts match")
        yield from _wait_for(d, lambda: d.screen("scoring").record is not None)
        yield 0.2
        d.tap("Done")
        yield 0.2
    yield from _wait_for(d, lambda: d.current == "end")
    yield 0.3
    d.shot("end")
    public = d.model.public["game"]
    d.facts = {"scores": {p["id"]: p["score"] for p in public["players"]}, "winners": public["winners"],
               "scorings": len(public["scorings"])}
