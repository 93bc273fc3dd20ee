"""The 2023 round where it differs from the classic one: each test quotes the rule book
sentence it checks (sections "Use an Action card", "4. End of the round", "Short game",
"2-player game", "3-player game")."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.board.load import load_board
from engine.game import Game
from tests.engine.rules.tables import ROUND_CARDS, begin_round, finish_round, game, plain_turn, refused, seat, setup

THREE = ["red", "yellow", "green"]
FOUR = ["red", "yellow", "green", "blue"]
FOUR_CARDS = ["intrigue_any_3", "veto", "score_5_regions", "grande"]


def test_used_action_cards_go_face_up_on_the_discard_pile():
    """ "Place your used Action card face up on the discard pile." (classic: under its stack)"""
    g = game(FOUR)
    begin_round(g, FOUR_CARDS)
    plain_turn(g, stack=1)
    assert g.state.discard_pile == ["intrigue_any_3"]
    assert g.state.stacks_bottom == [[], [], [], []]


def test_the_kings_card_goes_back_face_down_after_use_and_is_up_every_round():
    """ "If you used the King's card "Your Majesty", put it back as the 5th stack face down"
    and "Do not discard the King's card, it is available in every round"."""
    g = game(FOUR)
    begin_round(g, FOUR_CARDS)
    plain_turn(g, stack=5)
    s = g.state
    assert s.revealed[5] is None and "kings_card" not in s.discard_pile
    refused(g, ev.ActionCardChosen(player=g.asked().players[0], stack=5), "phase-order")
    finish_round(g)
    assert "kings_card" not in s.discard_pile
    g.apply(ev.ActionCardsRevealed(cards=["intrigue_any_4", "decay_all", "score_castillo", "eviction"]))
    assert s.revealed[5] == "kings_card"


def test_remaining_action_cards_are_discarded_at_the_end_of_the_round():
    """ "Place any remaining Action cards face up on the discard pile." Four players take
    four of the five cards; the one left goes to the pile, not back under its stack."""
    g = game(FOUR)
    begin_round(g, ["intrigue_any_3", "decay_all", "score_5_regions", "grande"])
    for stack in (5, 4, 2, 1):
        plain_turn(g, stack=stack)
    s = g.state
    assert s.discard_pile[-1] == "score_5_regions" and s.stacks_bottom[2] == []
    assert sorted(s.discard_pile) == sorted(["intrigue_any_3", "decay_all", "score_5_regions", "grande"])
    # Never shuffled back: the discarded Decay of Authority (one copy) cannot come up again.
    refused(
        g,
        ev.ActionCardsRevealed(cards=["intrigue_any_4", "decay_all", "score_castillo", "eviction"]),
        "reveal",
        "no decay_all card is left",
    )


def test_the_veto_taken_is_held_and_discarded_when_it_expires():
    """The held Veto is discarded at the end of the next round ("Discard the "Veto" card
    after you have used it, or latest at the end of the next round")."""
    g = game(FOUR)
    begin_round(g, FOUR_CARDS)
    plain_turn(g, stack=2)  # the Veto: held, not yet discarded
    s = g.state
    assert "veto" not in s.discard_pile and len(s.vetoes) == 1
    finish_round(g)
    begin_round(g, ["intrigue_any_4", "decay_all", "score_castillo", "eviction"])
    finish_round(g)
    assert "veto" in s.discard_pile and not s.vetoes


def test_the_lowest_power_card_takes_the_first_player_marker():
    """ "Whoever played the lowest Power card in this round takes the First Player marker",
    and the next round's Power cards start from them."""
    g = game(FOUR, start="red")
    begin_round(g, FOUR_CARDS, power={"red": 9, "yellow": 3, "green": 5, "blue": 8})
    assert g.state.turn_order == [seat(g, p) for p in ("red", "blue", "green", "yellow")]
    finish_round(g)
    assert g.state.start_player == seat(g, "yellow")
    g.apply(ev.ActionCardsRevealed(cards=["intrigue_any_4", "decay_all", "score_castillo", "eviction"]))
    assert g.asked().players == ("yellow",)


def test_the_short_game_starts_on_space_2_and_skips_4_and_7():
    """ "a shorter game that lasts only 6 rounds. During setup, start the Round marker on
    space 2. When advancing the Round marker, skip spaces 4 and 7." The 2023 board's data
    says so; a short game plays rounds 2, 3, 5, 6, 8, 9 and scores after 3, 6 and 9."""
    board = load_board("2023", 4)
    assert board.round_schedules["short"] == (2, 3, 5, 6, 8, 9)
    assert board.general_scoring_after == frozenset({3, 6, 9})
    g = game(FOUR, variant="short")
    s = g.state
    played = []
    cards = iter(
        [
            FOUR_CARDS,
            ["intrigue_any_4", "decay_all", "score_castillo", "eviction"],
            ["intrigue_own_4", "decay_3", "score_4_regions", "power_card_back"],
            ["intrigue_foreign_3", "one_of_each_back", "score_6_7_regions", "the_court"],
            ["intrigue_2_own_2_foreign", "king_is_angry", "score_first_place_only", "mobile_scoreboard"],
            ["intrigue_5_from_one_region", "disc_all_from_region", "score_most_caballeros", "royal_advisor"],
        ]
    )
    while s.stage != "over":
        played.append(s.round)
        begin_round(g, next(cards))
        finish_round(g)
    assert played == [2, 3, 5, 6, 8, 9]
    assert [r.title for r in s.scoring_log] == [f"General scoring after round {r}" for r in (3, 6, 9)]


def test_two_players_always_play_four_stacks():
    """ "Shuffle the Action cards in stacks 2 and 3 and place them face down next to stack 1.
    You will only have 4 stacks to choose from instead of 5." A printed-3 card comes up on
    the merged stack (numbered 2); stack 3 is no more."""
    g = game()
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "valencia"]))
    stacks = g.asked().options["stacks"]
    assert sorted(stacks) == [1, 2, 4]
    assert "score_5_regions" in stacks[2] and "veto" in stacks[2]
    refused(g, ev.ActionCardsRevealed(cards=FOUR_CARDS), "reveal")
    g.apply(ev.ActionCardsRevealed(cards=ROUND_CARDS))
    assert g.state.revealed == {1: "intrigue_any_3", 2: "score_5_regions", 4: "grande", 5: "kings_card"}


def test_three_players_may_choose_four_stacks():
    """3-player game: "Optional: Shuffle the Action cards in stacks 2 and 3 [...] You will
    only have 4 stacks to choose from instead of 5." Without the option: five stacks."""
    plain = game(THREE)
    assert sorted(plain.asked().options["stacks"]) == [1, 2, 3, 4]
    four = game(THREE, modules=["four-stacks"])
    assert sorted(four.asked().options["stacks"]) == [1, 2, 4]
    four.apply(ev.ActionCardsRevealed(cards=ROUND_CARDS))
    assert four.state.revealed[2] == "score_5_regions"


def test_four_stacks_is_not_for_four_or_five_players():
    from engine.errors import RuleViolation

    with pytest.raises(RuleViolation, match="four-stacks is for 2 or 3 players"):
        Game(setup(FOUR, modules=["four-stacks"]))


@pytest.mark.parametrize("players", [2, 3])
def test_two_and_three_players_score_the_first_two_numbers(players):
    """ "Scoring changes: Only the first two numbers on the Scoring board count." A third
    place in the Castillo (5/3/1) scores nothing."""
    g = game((["red", "yellow", "green"])[:players], start="red")
    s = g.state
    castillo = s.board.castillo
    for q, k in enumerate([3, 2, 1][: s.n]):
        s.counts[castillo][q] += k
        s.provinces[q] -= k
    for cards in (
        ROUND_CARDS if players == 2 else FOUR_CARDS,
        ["intrigue_any_4", "decay_all", "eviction"]
        if players == 2
        else ["intrigue_any_4", "decay_all", "score_castillo", "eviction"],
    ):
        begin_round(g, cards, dummy_card=1 + s.round_index)
        finish_round(g)
    begin_round(
        g,
        ["intrigue_own_4", "veto", "grande"]
        if players == 2
        else ["intrigue_own_4", "veto", "score_4_regions", "grande"],
        dummy_card=3,
    )
    finish_round(g)
    lines = [ln for ln in s.scoring_log[0].lines if ln.area == "castillo"]
    assert {(ln.player, ln.place, ln.points) for ln in lines} == {
        (s.players[0], 1, 5),
        (s.players[1], 2, 3),
        (s.players[2], 3, 0),
    }


def test_classic_games_keep_cards_under_their_stacks():
    """The classic game is unchanged: used cards go under their stack, there is no pile."""
    from tests.engine.helpers import new_game, start_round, take_card

    g = new_game()
    start_round(g)
    take_card(g, "intrigue_any_3")
    g.apply(ev.CaballerosPlaced(player="red", placements={}))
    g.apply(ev.SpecialActionSkipped(player="red"))
    assert g.state.stacks_bottom[0] == ["intrigue_any_3"] and g.state.discard_pile == []


def test_classic_logs_are_written_and_replayed_as_before():
    """The new setup fields and PowerCardPlayed.modifier are left out of a classic game's
    lines, so a classic log reads and writes the same; its replay reaches the same state."""
    import json
    import random

    from engine.playout import play_random_game
    from engine.views import public_view

    setup_, log, state = play_random_game(random.Random(5), 3)
    g = Game.replay(setup_, log)
    text = g.to_jsonl()
    first = json.loads(text.splitlines()[0])["setup"]
    assert not {"added_cards", "stand_in_modifiers"} & set(first)
    assert '"modifier"' not in text and "dummy_" not in text
    again = Game.from_jsonl(text)
    assert again.to_jsonl() == text and public_view(again.state) == public_view(state)
