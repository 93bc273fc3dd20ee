"""Old Hands: "for each ♣ card you are adding, return 1 random card from the corresponding
stack back to the box. [...] Then, add the new Action cards to their corresponding stacks."
The table draws the random cards and names them (GameSetup.removed_cards); the ♣ cards
here are test stand-ins (tables.py): one for stack 1, two for stack 2, one for stack 4."""

from __future__ import annotations

import pytest

from engine.errors import RuleViolation
from engine.game import Game
from tests.engine.rules.tables import CLUBS, REGENCY, board, game, setup

FOUR = ["red", "yellow", "green", "blue"]
ALL_REMOVED = ["intrigue_any_3", "decay_all", "one_of_each_back", "grande"]  # stacks 1, 2, 2, 4


def start(players=FOUR, modules=("old-hands",), **more) -> Game:
    return Game(setup(players, modules, **more), board(REGENCY + CLUBS))


def refused_setup(text: str, players=FOUR, modules=("old-hands",), **more) -> str:
    with pytest.raises(RuleViolation) as info:
        start(players, modules, **more)
    assert info.value.rule == "setup" and text in info.value.detail, info.value.detail
    return info.value.detail


def test_all_four_clubs_each_replace_one_card_of_their_stack():
    """ "If you were to add all 4 cards, return 1 random card from stack 1, 2 random cards
    from stack 2, and 1 random card from stack 4 back to the box.\""""
    g = start(removed_cards=ALL_REMOVED)
    undrawn = g.state.stacks_undrawn
    assert undrawn[0]["club_intrigue"] == 1 and "intrigue_any_3" not in undrawn[0]
    assert undrawn[1]["club_angry"] == 1 and undrawn[1]["club_one_of_each"] == 1
    assert "decay_all" not in undrawn[1] and "one_of_each_back" not in undrawn[1]
    assert undrawn[3]["club_grande"] == 1 and undrawn[3]["grande"] == 1  # one of two Grande cards
    assert [sum(u.values()) for u in undrawn] == [11, 11, 11, 11]  # each stack keeps its size
    assert "club_intrigue" in g.asked().options["stacks"][1]


def test_the_table_chooses_which_clubs_to_add():
    """ "You can choose which cards to add, or even play with them all.\""""
    g = start(added_cards=["club_grande"], removed_cards=["mobile_scoreboard"])
    undrawn = g.state.stacks_undrawn
    assert undrawn[3]["club_grande"] == 1 and undrawn[3]["mobile_scoreboard"] == 2
    assert "club_intrigue" not in undrawn[0] and "club_angry" not in undrawn[1]


def test_one_card_returned_per_club_added_from_its_own_stack():
    msg = refused_setup("one card goes back to the box for each Old Hands card added", removed_cards=ALL_REMOVED[:3])
    assert "1 from stack 4" in msg and "removed_cards names" in msg
    refused_setup("1 from stack 1", added_cards=["club_intrigue"], removed_cards=["decay_all"])


def test_no_card_returned_is_refused_naming_the_rule():
    refused_setup("one card goes back to the box for each Old Hands card added")


def test_only_base_cards_of_stacks_1_to_4_go_back_to_the_box():
    refused_setup("not a card of stacks 1 to 4", added_cards=["club_grande"], removed_cards=["club_grande"])
    refused_setup("not a card of stacks 1 to 4", added_cards=["club_grande"], removed_cards=["kings_card"])
    refused_setup("is not a card of this card set", added_cards=["club_grande"], removed_cards=["nonsense"])
    refused_setup(
        "the set has 1", added_cards=["club_angry", "club_one_of_each"], removed_cards=["decay_all", "decay_all"]
    )


def test_only_club_cards_are_added():
    refused_setup("is not an Old Hands card", added_cards=["grande"], removed_cards=["mobile_scoreboard"])


def test_removed_cards_need_the_module():
    refused_setup("removed_cards is for the old-hands module", modules=(), removed_cards=["grande"])
    refused_setup("the old-hands module is not chosen", modules=(), added_cards=["club_grande"])


def test_with_four_stacks_a_printed_three_answers_for_a_stack_two_club():
    """ "Shuffle the Action cards as usual" comes first: with four stacks (2 players) stacks
    2 and 3 are one, and a card of it returned to the box answers for a ♣ card of stack 2."""
    g = start(players=["red", "yellow"], added_cards=["club_angry"], removed_cards=["score_castillo"])
    merged = g.state.stacks_undrawn[1]
    assert merged["club_angry"] == 1 and merged["score_castillo"] == 1  # one of two left
    assert sum(merged.values()) == 11 + 11


def test_a_club_card_whose_stack_is_unknown_is_refused_naming_the_fact():
    from tests.engine.rules.tables import card

    unknown = card("club_mystery", 1, "grande", {}, 4, "old-hands")
    import dataclasses

    unknown = dataclasses.replace(unknown, stack=None)
    with pytest.raises(RuleViolation) as info:
        Game(
            setup(FOUR, ("old-hands",), added_cards=["club_mystery"], removed_cards=["grande"]),
            board(REGENCY + CLUBS + [unknown]),
        )
    assert "cards[club_mystery].stack" in info.value.detail


def test_without_the_module_the_clubs_stay_in_the_box():
    g = game(FOUR)
    assert not any(cid.startswith("club") for u in g.state.stacks_undrawn for cid in u)
