"""Issue 11's tap budgets of a tracked classic round, counted without the app (issue 23): the
headless tablet (tests/companion/tablet_driver.py) enters each step through the prompts the
table shows and counts its taps the way the app's screens take them. Round 3 of a 3-player
game, as tap_scenarios.tap_budget_round plays it in the real app (bench/bench_taps.py); the
whole game by taps in the real app (test_whole_game.py) holds the same budgets tap by tap."""

import pytest

from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine.events import GameSetup
from tests.companion.tablet_driver import TabletDriver

PLAYERS = {"red": "galicia", "yellow": "aragon", "green": "sevilla"}
CARDS = ["intrigue_any_3", "king_is_angry", "score_castillo", "grande"]  # stacks 1 to 4


@pytest.fixture
def round_3(tmp_path, monkeypatch):
    """A tracked 3-player classic game, entered from the board in round 3 (Power cards 13 and 1,
    12 and 2, 11 and 3 spent): the table and its headless tablet."""
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    game = GameSetup(
        players=list(PLAYERS),
        names={p: p.title() for p in PLAYERS},
        variant="full",
        king="castilla_la_nueva",
        homes=PLAYERS,
        start_player="red",
    )
    table = Table.new(TableSetup(game=game, mode="tracking", tower={"kind": "simulated"}))
    table.submit(
        {"type": "table_corrected", "round": 3, "power_spent": {"red": [13, 1], "yellow": [12, 2], "green": [11, 3]}}
    )
    yield table, TabletDriver(table, seed=3)
    table.close()


def _card(table, words: str) -> list[dict]:
    """The events of the side panel's button for that card: the full replenishment and the card."""
    return next(c for c in table.prompt().choices if c.enabled and words in c.label).events


def test_a_tracked_round_stays_within_its_tap_budgets(round_3):
    table, tablet = round_3
    budget = {}
    budget["reveal five cards"] = tablet.step({"type": "action_cards_revealed", "cards": CARDS}).taps
    assert table.asked().kind == "play_power_card"
    greyed = {c.label for c in table.prompt().choices if not c.enabled and c.label.isdigit()}
    assert {"13", "1"} <= greyed, greyed  # Red's spent cards are shown as unavailable
    taps = [
        tablet.step({"type": "power_card_played", "player": p, "card": c}).taps
        for p, c in (("red", 10), ("yellow", 9), ("green", 8))
    ]
    budget["power cards, per player"] = sum(taps) / 3

    # Red: full replenishment and the Grande card (1), three Caballeros (3), "Do the special
    # action" places them first (1), the Grande's new region (1)
    assert table.asked().kind == "replenish" and table.asked().players == ("red",), table.asked()
    steps = [
        tablet.step(_card(table, "relocate your Grande")),
        tablet.step(
            {"type": "caballeros_placed", "player": "red", "placements": {"castilla_la_vieja": 2, "valencia": 1}}
        ),
        tablet.step({"type": "special_action_started", "player": "red", "option": None}),
    ]
    assert table.asked().kind == "move_grande", table.asked().kind
    steps.append(tablet.step({"type": "grande_moved", "player": "red", "region": "cataluna"}))
    budget["ordinary turn (Red: replenish, card, 3 placed, Grande)"] = sum(s.taps for s in steps)
    game = table.public().game
    assert game["regions"]["castilla_la_vieja"] == {"red": 2} and game["regions"]["valencia"] == {"red": 1}

    # Yellow and Green play on (the tablet's own choices) to the general scoring
    while table.asked().kind != "secret_disc":
        assert table.asked().round == 3, table.asked()
        tablet.step()
    # General scoring: Red and Yellow set their discs on their phones, Green on the tablet
    for pid, region in (("red", "galicia"), ("yellow", "aragon")):
        table.submit({"type": "secret_disc_set", "player": pid, "region": region}, player=pid)
    budget["general scoring, per player picking on the tablet"] = tablet.step(
        {"type": "secret_disc_set", "player": "green", "region": "granada"}
    ).taps
    assert table.asked().kind == "reveal_secret_discs", table.asked().kind
    budget["general scoring, discs from phones"] = tablet.step().taps
    assert table.asked().kind == "reveal_action_cards" and table.public().game["round"] == 4

    assert budget["reveal five cards"] <= 6
    assert budget["power cards, per player"] == 1
    assert budget["ordinary turn (Red: replenish, card, 3 placed, Grande)"] <= 6
    assert budget["general scoring, discs from phones"] <= 4
    assert budget["general scoring, per player picking on the tablet"] <= 2
