"""The tap budgets of a tracked round (issue 11), counted on the real app by the
driver: every tap on the tablet is logged with what the game asked at that moment.
Run by test_tap_budgets.py and bench/bench_taps.py."""

from scenarios import _castillo_entered, _reveal_cards, _start_tracked_three_player_game, _wait_for

from engine.board.model import CASTILLO


def _since(d, mark: int) -> int:
    return len(d.taps) - mark


def tap_budget_round(d):
    """Round 3 of a tracked 3-player game, from the reveal to the end of its general scoring."""
    yield from _start_tracked_three_player_game(d)
    # Tracking starts in round 3 from the position on the table (entered once, not part of the budget)
    d.model.table.submit(
        {"type": "table_corrected", "round": 3, "power_spent": {"red": [13, 1], "yellow": [12, 2], "green": [11, 3]}}
    )
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
    yield from _castillo_entered(d, "yellow", 1)
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
    yield from _wait_for(
        d, lambda: d.screen("scoring").record is not None and "General" in d.screen("scoring").record.title
    )
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


# ---- the 2023 edition: a 4-player Power Shift game (issue 13 item 9) --------------------------

POWER_SHIFT_PLAYERS = ("purple", "blue", "green", "orange")
# Cards whose special action is one pick or none (an ordinary turn), those placing 3 or more first
ORDINARY_EFFECTS = (
    "score_chosen_region",
    "score_group",
    "grande",
    "move_king",
    "exile",
    "competition",
    "your_majesty",
    "chalet",
    "stand_in",
)


def _budget_tablet(d, seed: int):
    """scenarios_2023's tablet (real taps on what the screen shows), steered to ordinary turns:
    a card whose special action is one pick, three Caballeros placed in regions (the simulated
    tower may call a cube's colour uncertain: a throw is another test's), one turn after the
    special action, the next before it."""
    from scenarios_2023 import Tablet

    from engine.playout import random_split

    class BudgetTablet(Tablet):
        def step(self):
            """One step; for a placement, the most the prompt allowed (a full one places itself)."""
            ask, before, scored = self.table.asked(), len(self.steps), len(self.table.state.scoring_log)
            yield from super().step()
            if len(self.steps) == before:
                return
            if ask.kind == "turn_action" and ask.options.get("place"):
                self.steps[-1].limit = ask.options["place"]["max"]
            if len(self.table.state.scoring_log) > scored and ask.kind != "reveal_secret_discs":
                # A special scoring's page shows by itself; its "Done" is read, then closed: counted
                # apart, as the outcome dialogs' Done (a general scoring's Done is in its budget).
                self.steps[-1].read_taps += 1

        def _into_view(self, w):
            """Scrolled until it is on screen, as a person would: towards it, or back to the top
            of the list (the Power cards head it; a long Modifier list under them)."""
            p = w.parent
            while p is not None and p.__class__.__name__ != "ScrollView":
                p = p.parent if p.parent is not p else None
            for attempt in range(8):
                if p is None:
                    return
                x0, y0 = p.to_window(*p.pos)
                cx, cy = w.to_window(*w.center)
                if x0 <= cx <= x0 + p.width and y0 + 4 <= cy <= y0 + p.height - 4:
                    return
                yield 0.05
                if attempt % 2:
                    p.scroll_y = 1
                else:
                    p.scroll_to(w, padding=10, animate=False)
                yield 0.15
            raise AssertionError(f"{w.text!r} could not be scrolled into view")

        def _preferred(self, cards, shown=None):
            def rank(item):
                cid, card = item
                n = card.placement or 0
                return (card.effect not in ORDINARY_EFFECTS, n != 3, n < 3, self.rng.random())

            return min(cards, key=rank)[0]

        def _turn(self, ask):
            o, pid, rng = ask.options, ask.players[0], self.rng
            place, special = o["place"], o["special"]
            do_it = None
            if special:
                do_it = (
                    {"type": "special_action_skipped", "player": pid}
                    if special.get("refused")
                    else {
                        "type": "special_action_started",
                        "player": pid,
                        "option": rng.choice(special["options"]) if special.get("options") else None,
                    }
                )
            placed = None
            if place and place["max"]:
                placed = {
                    "type": "caballeros_placed",
                    "player": pid,
                    "placements": random_split(rng, min(3, place["max"]), [a for a in place["areas"] if a != CASTILLO]),
                }
            self.turns = getattr(self, "turns", 0) + bool(special)  # a turn's first question
            if do_it is not None and (placed is None or self.turns % 2):
                return do_it, []  # the special action first, placed after it
            if placed is not None:
                return placed, [do_it] if do_it is not None else []
            return do_it, []

    return BudgetTablet(d, seed=seed, shots=False)


def _start_power_shift_game(d):
    from companion.table.setup import TableSetup
    from engine.events import GameSetup
    from engine.playout import standin_files

    board_file, cards_file = standin_files("2023", 4)  # the table's files: the self-play stand-ins
    players = list(POWER_SHIFT_PLAYERS)
    game = GameSetup(
        players=players,
        names={p: p.title() for p in players},
        king="castilla",
        homes=dict(zip(players, ("galicia", "aragon", "sevilla", "valencia"))),
        start_player=players[0],
        rules="2023",
        modules=["power-shift"],
        variant="full",
        board_file=board_file,
        cards_file=cards_file,
        stand_in_modifiers=True,
    )
    yield 0.3
    d.model.new_game(TableSetup(game=game, mode="tracking", tower={"kind": "simulated"}))
    d.app.root.current = "table"
    yield from _wait_for(d, lambda: d.current == "table")
    yield 0.3


def tap_budget_power_shift_2023(d):
    """A 4-player 2023 game with Power Shift, tracked on the tablet alone (every private choice
    behind the tablet's private screen), from the Modifier cards' deal to the end of round 3's
    general scoring; every step's taps counted as the app takes them."""
    yield from _start_power_shift_game(d)
    tablet = _budget_tablet(d, seed=int(__import__("os").environ.get("ELGRANDE_BUDGET_SEED", "5")))
    guard = 0
    while tablet.table.asked().round <= 3 and tablet.table.asked().kind != "game_over":
        guard += 1
        assert guard < 400, tablet.table.asked()
        if tablet.table.asked().kind == "reveal_action_cards":
            yield from tablet.reveal_step()
        else:
            yield from tablet.step()
    d.facts = {
        "steps": [s.__dict__ for s in tablet.steps],
        "taps_total": len(d.taps),
        "taps_by_phase": _by_phase(d.taps),
    }
