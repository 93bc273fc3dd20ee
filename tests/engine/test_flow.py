"""The phase flow: who is asked what, in which order, and what is refused."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.helpers import (
    ROUND_2,
    count,
    court,
    finish_round,
    new_game,
    provinces,
    put,
    refused,
    score,
    start_round,
    take_card,
)


def test_a_round_walks_through_its_phases_in_order():
    g = new_game()
    assert g.asked().kind == "reveal_action_cards" and g.asked().players == ("table",)
    refused(g, ev.PowerCardPlayed(player="red", card=5), "phase-order")
    g.apply(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    assert g.state.revealed[5] == "kings_card"  # the King's card is always up
    assert g.asked().kind == "play_power_card" and g.asked().players == ("red",)


def test_reveal_checks_stacks_and_what_is_left():
    g = new_game()
    refused(g, ev.ActionCardsRevealed(cards=["veto", "veto", "score_castillo", "grande"]), "reveal")
    refused(g, ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo"]), "reveal")
    start_round(g)
    finish_round(g)
    refused(
        g, ev.ActionCardsRevealed(cards=["intrigue_any_3", "decay_3", "score_5_regions", "grande"]), "reveal"
    )  # the only "any 3" Intrigue was used and lies under its stack


def test_power_cards_clockwise_distinct_and_once_per_game():
    g = new_game(start="blue")
    g.apply(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    assert g.asked().players == ("blue",)
    refused(g, ev.PowerCardPlayed(player="red", card=3), "turn-order")
    g.apply(ev.PowerCardPlayed(player="blue", card=7))
    msg = refused(g, ev.PowerCardPlayed(player="green", card=7), "power-card-distinct")
    assert "Green" in msg and "7" in msg
    g.apply(ev.PowerCardPlayed(player="green", card=3))
    g.apply(ev.PowerCardPlayed(player="red", card=8))
    assert g.state.turn_order == [0, 1, 2]  # 8, 7, 3
    assert g.asked().kind == "replenish" and g.asked().options["max"] == 2
    finish_round(g)
    assert g.state.start_player == 2  # Green played the lowest card
    g.apply(ev.ActionCardsRevealed(cards=ROUND_2))
    refused(g, ev.PowerCardPlayed(player="green", card=3), "power-card-in-hand")


def test_replenish_up_to_the_card_and_from_regions_only_when_provinces_run_short():
    g = new_game()
    start_round(g, power={"red": 1, "blue": 13, "green": 12})  # Blue, Green, then Red with 6
    take_card(g, "veto")
    from tests.engine.helpers import finish_turn

    finish_turn(g)
    take_card(g, "grande")
    finish_turn(g)
    put(g, "red", "valencia", 18)
    put(g, "red", "castillo", 1)  # 2 left in the provinces
    refused(g, ev.CourtReplenished(player="red", from_provinces=2, from_regions={"valencia": 5}), "replenish-limit")
    refused(
        g, ev.CourtReplenished(player="red", from_provinces=1, from_regions={"valencia": 1}), "replenish-from-board"
    )
    refused(g, ev.CourtReplenished(player="red", from_provinces=2, from_regions={"castillo": 1}), "castillo-no-removal")
    refused(g, ev.CourtReplenished(player="red", from_provinces=3), "replenish-limit")
    g.apply(ev.CourtReplenished(player="red", from_provinces=2, from_regions={"valencia": 3, "galicia": 1}))
    assert court(g, "red") == 13 and provinces(g, "red") == 0 and count(g, "red", "valencia") == 15


def test_placement_only_next_to_the_king_or_into_the_castillo():
    g = new_game()
    start_round(g)
    take_card(g, "score_castillo")  # stack 3: up to 3
    refused(g, ev.CaballerosPlaced(player="red", placements={"galicia": 1}), "placement-area")
    refused(g, ev.CaballerosPlaced(player="red", placements={"castilla_la_nueva": 1}), "kings-region-taboo")
    refused(g, ev.CaballerosPlaced(player="red", placements={"granada": 2, "castillo": 2}), "placement-limit")
    g.apply(ev.CaballerosPlaced(player="red", placements={"granada": 2, "castillo": 1}))
    refused(g, ev.CaballerosPlaced(player="red", placements={"granada": 0}), "either-order")
    assert count(g, "red", "castillo") == 1 and court(g, "red") == 4


def test_special_first_then_placement_and_each_completed_first():
    g = new_game()
    start_round(g)
    take_card(g, "intrigue_any_3")
    g.apply(ev.SpecialActionStarted(player="red"))
    refused(g, ev.CaballerosPlaced(player="red", placements={"granada": 1}), "phase-order")
    g.apply(ev.SpecialActionFinished(player="red"))
    assert g.asked().kind == "turn_action" and g.asked().options["special"] is None
    g.apply(ev.CaballerosPlaced(player="red", placements={"granada": 1}))
    assert g.asked().players == ("blue",)


def test_general_scoring_discs_castillo_transfer_and_regions():
    g = new_game()
    put(g, "red", "castillo", 3)
    put(g, "blue", "castillo", 1)
    for _ in range(3):
        start_round(
            g,
            [
                ["intrigue_any_3", "veto", "score_castillo", "grande"],
                ROUND_2,
                ["intrigue_own_4", "king_is_angry", "score_4_regions", "eviction"],
            ][g.state.round_index],
            power={"red": 13 - g.state.round_index, "blue": 10 - g.state.round_index, "green": 7 - g.state.round_index},
        )
        finish_round(g)
    ask = g.asked()
    # Everyone sets a disc, or the question would tell that Green has none inside
    assert ask.kind == "secret_disc" and set(ask.players) == {"red", "blue", "green"}
    g.apply(ev.SecretDiscSet(player="green", region="galicia"))
    g.apply(ev.SecretDiscSet(player="red", region="valencia"))
    g.apply(ev.SecretDiscSet(player="blue", region="castilla_la_nueva"))  # the King's: back to court
    assert g.asked().kind == "reveal_secret_discs"
    blue_court = court(g, "blue")
    g.apply(ev.SecretDiscsRevealed())
    record = g.state.scoring_log[-1]
    assert record.title == "General scoring after round 3"
    assert record.lines[0].area == "castillo" and record.lines[0].points == 5
    assert count(g, "red", "valencia") == 3 and count(g, "red", "castillo") == 0
    assert court(g, "blue") == blue_court + 1
    assert [t["player"] for t in record.transfers] == ["red", "blue"]  # Green had nothing to move
    # What the table is told to do with its hands, and every disc shown
    outcome = g.state.outcomes[-1]
    assert outcome.discs == {"red": "valencia", "blue": "castilla_la_nueva", "green": "galicia"}
    assert [(m["player"], m["count"], m["source"], m["target"]) for m in outcome.moves] == [
        ("red", 3, "castillo", "valencia"),
        ("blue", 1, "castillo", "court"),
    ]
    assert score(g, "red") == 5 + 4 + 2 + 5  # Castillo, Galicia + home, Valencia
    assert g.state.round == 4 and g.asked().kind == "reveal_action_cards"


def test_short_game_skips_rounds_4_and_7_and_ties_share_the_victory():
    g = new_game(variant="short", homes={"red": "galicia", "blue": "cataluna", "green": "sevilla"})
    assert g.state.round == 2
    rounds = []
    decks = [
        ["intrigue_any_3", "veto", "score_castillo", "grande"],
        ROUND_2,
        ["intrigue_own_4", "king_is_angry", "score_4_regions", "eviction"],
        ["intrigue_foreign_3", "decay_all", "score_most_caballeros", "royal_advisor"],
        ["intrigue_5_from_one_region", "one_of_each_back", "score_least_caballeros", "disc_scoring"],
        ["intrigue_2_own_2_foreign", "disc_2_from_region", "score_6_7_regions", "mobile_scoreboard"],
    ]
    while g.state.stage != "over":
        rounds.append(g.state.round)
        i = g.state.round_index
        start_round(g, decks[i], power={"red": 13 - i, "blue": 7 - i, "green": 12 - i})
        finish_round(g)
    assert rounds == [2, 3, 5, 6, 8, 9]
    assert len(g.state.scoring_log) == 3
    # Nobody placed anything: each sole in a "4" home region, 4 + 2 at each general scoring.
    assert g.asked().kind == "game_over"
    assert g.state.scores == [18, 18, 18]
    assert g.asked().options["winners"] == ["red", "blue", "green"]
    with pytest.raises(RuleViolation) as info:
        g.apply(ev.ActionCardsRevealed(cards=decks[0]))
    assert info.value.rule == "game-over"


def test_setup_is_checked():
    from engine.game import Game

    bad = [
        dict(players=["red"], homes={"red": "galicia"}, king="aragon", start_player="red"),
        dict(players=["red", "blue"], homes={"red": "galicia", "blue": "galicia"}, king="aragon", start_player="red"),
        dict(players=["red", "blue"], homes={"red": "galicia", "blue": "aragon"}, king="aragon", start_player="red"),
        dict(players=["red", "blue"], homes={"red": "galicia", "blue": "sevilla"}, king="aragon", start_player="green"),
    ]
    for setup in bad:
        with pytest.raises(RuleViolation) as info:
            Game(ev.GameSetup(**setup))
        assert info.value.rule == "setup"
