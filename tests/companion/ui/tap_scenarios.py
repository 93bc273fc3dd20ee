"""The tap budgets of a tracked round (issue 11), counted on the real app by the
driver: every tap on the tablet is logged with what the game asked at that moment.
Run by test_tap_budgets.py and bench/bench_taps.py."""
from scenarios import _reveal_cards, _start_tracked_three_player_game, _wait_for


def _since(d, mark: int) -> int:
    return len(d.taps) - mark


def tap_budget_round(d):
    """Round 3 of a tracked 3-player game, from the reveal to the end of its general scoring."""
    yield from _start_tracked_three_player_game(d)
    # Tracking starts in round 3 from the position on the table (entered once, not part of the budget)
    d.model.table.submit({"type": "table_corrected", "round": 3,
                          "power_spent": {"red": [13, 1], "yellow": [12, 2], "green": [11, 3]}})
    d.model._refresh()
    budget = {}

    mark = len(d.taps)
    yield from _reveal_cards(d, ("any 3 Caballeros", "King is Angry", "Score the Castillo", "relocate your Grande"))
    budget["reveal five cards"] = _since(d, mark)
    assert d.ask().kind == "play_power_card", d.model.message

    mark = len(d.taps)
    table = d.screen("table")
    greyed = {b.text for b in table.ids.actions.walk() if getattr(b, "disabled", False) and b.text.isdigit()}
    assert {"13", "1"} <= greyed, greyed  # Red's spent cards are shown as unavailable
    for value in ("10", "9", "8"):
        d.tap(value, exact=True)
        yield 0.1
    budget["power cards, per player"] = _since(d, mark) / 3

    # Red: full replenishment and the Grande card (1), three Caballeros (3), "Do the special
    # action" places them first (1), the Grande's new region (1)
    mark = len(d.taps)
    assert d.ask().kind == "replenish" and d.ask().players == ("red",), (d.ask(), d.model.message)
    d.tap("relocate your Grande")
    yield 0.1
    for area in ("castilla_la_vieja", "castilla_la_vieja", "valencia"):
        d.tap_area(area)
        yield 0.05
    d.shot("budget_placing")
    d.tap("Do the special action")
    yield 0.1
    assert d.ask().kind == "move_grande", (d.ask().kind, d.model.message)
    d.tap_area("cataluna")
    yield 0.1
    budget["ordinary turn (Red: replenish, card, 3 placed, Grande)"] = _since(d, mark)
    game = d.model.public["game"]
    assert game["regions"]["castilla_la_vieja"] == {"red": 2} and game["regions"]["valencia"] == {"red": 1}

    # Yellow: a cube thrown into the tower while the regions are tapped: the taps stay
    mark = len(d.taps)
    d.tap("King is Angry")  # places 2
    yield 0.1
    d.tap_area("castilla_la_vieja")
    yield 0.05
    d.tower_drop("yellow")
    yield from _wait_for(d, lambda: d.model.table.castillo_prefill("yellow") == 1)
    yield 0.2
    assert table.entry.get("castilla_la_vieja") == 1 and table.entry.get("castillo") == 1, table.entry
    d.tap("Skip the special action")  # places the two first, never drops them
    yield 0.1
    budget["ordinary turn (Yellow: card, 1 placed + 1 thrown, no special)"] = _since(d, mark)
    game = d.model.public["game"]
    assert game["regions"]["castilla_la_vieja"] == {"red": 2, "yellow": 1}, (game["regions"], d.model.message)
    assert d.model.table.recorded_castillo()["yellow"] == 1 and d.model.table.castillo_prefill("yellow") == 0

    # Green: the Castillo scoring card, counted like a general scoring
    mark = len(d.taps)
    d.tap("Score the Castillo")
    yield 0.1
    d.tap("Confirm", exact=True)  # nothing placed: the tablet asks first
    yield 0.1
    d.tap("No, go back", exact=True)
    yield 0.1
    d.tap("Do the special action")
    yield 0.1
    d.tap("Open the Castillo")
    yield from _wait_for(d, lambda: d.current == "scoring")
    yield 0.2
    d.tap("Counts match: score the Castillo")
    yield from _wait_for(d, lambda: d.screen("scoring").record is not None)
    yield 0.2
    d.tap("Done: back to the table")
    yield 0.1
    d.tap("Confirm", exact=True)
    yield 0.1
    d.tap("Yes", exact=True)  # place nothing and end the turn
    yield 0.2
    budget["Castillo scoring turn (with a wrong Confirm asked about)"] = _since(d, mark)

    # General scoring: Red and Yellow set their discs on their phones, Green on the tablet
    assert d.ask().kind == "secret_disc", d.ask().kind
    for pid, region in (("red", "galicia"), ("yellow", "aragon")):
        d.model.table.submit({"type": "secret_disc_set", "player": pid, "region": region}, player=pid)
    yield 0.2
    mark = len(d.taps)
    d.tap("Green: secret disc")
    yield 0.2
    d.shot("budget_secret_pick")
    d.tap("Granada", exact=True)
    yield 0.1
    tablet_pick = _since(d, mark)
    mark = len(d.taps)
    d.tap("Open the Castillo")
    yield from _wait_for(d, lambda: d.current == "scoring")
    yield 0.2
    d.tap("Counts match: reveal the discs")
    yield from _wait_for(d, lambda: d.screen("scoring").record is not None and "General" in d.screen("scoring").record.title)
    yield 0.2
    d.shot("budget_general_summary")
    d.tap("Done: back to the table")
    yield 0.2
    budget["general scoring, discs from phones"] = _since(d, mark)
    budget["general scoring, per player picking on the tablet"] = tablet_pick
    assert d.ask().kind == "reveal_action_cards" and d.model.public["game"]["round"] == 4
    d.facts = {"budget": budget, "taps_by_phase": _by_phase(d.taps)}


def _by_phase(taps) -> dict:
    counts = {}
    for phase in taps:
        counts[phase] = counts.get(phase, 0) + 1
    return counts
