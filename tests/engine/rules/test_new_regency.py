"""New Regency: "return the King's card to the box. Instead, shuffle the 10 Action cards with
the ♠ symbol and place them face down as the 5th stack next to the others. The 5th stack
follows the same rules as the other Action card stacks. At the beginning of each round, you
reveal the top card. At the end of the round, discard the card (whether it was used or not)
and reveal the next one from the stack." (The ♠ cards here are test stand-ins: tables.py.)"""

from __future__ import annotations

from engine import events as ev
from tests.engine.rules.tables import begin_round, finish_round, game, plain_turn, refused

FOUR = ["red", "yellow", "green", "blue"]
CARDS = ["intrigue_any_3", "decay_all", "score_5_regions", "grande"]
NEXT = ["intrigue_any_4", "decay_3", "score_castillo", "eviction"]


def test_the_ten_spade_cards_are_the_fifth_stack_instead_of_the_kings_card():
    """ "return the King's card to the box. Instead, shuffle the 10 Action cards with the ♠
    symbol and place them face down as the 5th stack\""""
    g = game(FOUR, modules=["new-regency"])
    s = g.state
    assert sum(s.regency_undrawn.values()) == 10
    stacks = g.asked().options["stacks"]
    assert sorted(stacks) == [1, 2, 3, 4, 5]
    assert set(stacks[5]) == {"regency_advisor", "regency_majesty", "regency_court"}
    assert "kings_card" not in stacks[5]
    g.apply(ev.ActionCardsRevealed(cards=CARDS + ["regency_majesty"]))
    assert s.revealed[5] == "regency_majesty" and "kings_card" not in s.revealed.values()


def test_without_the_module_no_spade_card_is_dealt_and_the_kings_card_is_up():
    g = game(FOUR)
    assert g.state.regency_undrawn == {}
    assert not any(cid.startswith("regency") for stack in g.asked().options["stacks"].values() for cid in stack)
    g.apply(ev.ActionCardsRevealed(cards=CARDS))
    assert g.state.revealed[5] == "kings_card"


def test_the_fifth_stack_is_revealed_each_round_and_must_be_a_spade_card_still_there():
    """ "At the beginning of each round, you reveal the top card": five cards are entered,
    the fifth a ♠ card still face down."""
    g = game(FOUR, modules=["new-regency"])
    refused(g, ev.ActionCardsRevealed(cards=CARDS), "reveal", "stacks 1, 2, 3, 4 and 5")
    refused(g, ev.ActionCardsRevealed(cards=CARDS + ["kings_card"]), "reveal", "not a New Regency card")
    refused(g, ev.ActionCardsRevealed(cards=CARDS + ["grande"]), "reveal", "not a New Regency card")


def test_a_used_spade_card_is_discarded():
    """ "The 5th stack follows the same rules as the other Action card stacks": used, it goes
    face up on the discard pile (unlike the King's card, never turned face down)."""
    g = game(FOUR, modules=["new-regency"])
    begin_round(g, CARDS + ["regency_court"])
    plain_turn(g, stack=5)
    assert g.state.discard_pile == ["regency_court"] and g.state.revealed[5] is None


def test_an_unused_spade_card_is_discarded_at_the_end_of_the_round_and_never_comes_back():
    """ "At the end of the round, discard the card (whether it was used or not) and reveal
    the next one from the stack." Each copy shows once: after the three copies of one card
    are discarded, a fourth cannot be turned up."""
    g = game(FOUR, modules=["new-regency"])
    s = g.state
    rounds = [CARDS, NEXT, ["intrigue_own_4", "veto", "score_4_regions", "power_card_back"]]
    for cards in rounds:
        begin_round(g, cards + ["regency_majesty"])
        for stack in (4, 3, 2, 1):  # stack 5 left over
            plain_turn(g, stack=stack)
        finish_round(g)
        assert s.discard_pile.count("regency_majesty") == rounds.index(cards) + 1
    assert s.regency_undrawn["regency_majesty"] == 0
    refused(
        g,
        ev.ActionCardsRevealed(
            cards=["intrigue_foreign_3", "king_is_angry", "score_6_7_regions", "the_court", "regency_majesty"]
        ),
        "reveal",
        "no Regency Majesty card is left",
    )


def test_a_spade_card_places_its_own_number_of_caballeros():
    """A ♠ card's Caballeros are printed on it, not given by a stack: Regency Court places 2."""
    g = game(FOUR, modules=["new-regency"])
    begin_round(g, CARDS + ["regency_court"])
    pid = g.asked().players[0]
    g.apply(ev.CourtReplenished(player=pid, from_provinces=0))
    g.apply(ev.ActionCardChosen(player=pid, stack=5))
    assert g.asked().options["place"]["card_allows"] == 2
