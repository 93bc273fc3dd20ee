"""The table completes its card set during a game (issue 12: "a card the set does not list can
be added to the set from the effect vocabulary and the game goes on")."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.game import Game

PLAYERS = ["purple", "blue", "green", "orange"]
# A table that knows stacks 1, 2 and 4 but not the Outposts card it is about to turn up in stack 3.
KNOWN = {
    "rules": "2023",
    "cards": [
        {"id": "intrigue", "stack": 1, "copies": 10},
        {"id": "withdrawal", "stack": 2, "copies": 10},
        {"id": "fiesta", "copies": 2},
        {"id": "coup", "stack": 4, "copies": 8},
    ],
}


def _game(cards_file=KNOWN) -> Game:
    return Game(
        ev.GameSetup(
            players=PLAYERS,
            king="castilla",
            rules="2023",
            start_player="purple",
            homes=dict(zip(PLAYERS, ["galicia", "aragon", "sevilla", "granada"])),
            cards_file=cards_file,
        )
    )


def test_a_card_the_set_does_not_list_is_refused_with_a_pointer_to_completing_the_set():
    g = _game()
    with pytest.raises(RuleViolation) as e:
        g.apply(ev.ActionCardsRevealed(cards=["intrigue", "withdrawal", "outposts", "coup"]))
    assert "outposts" in str(e.value) and "complete the card set" in str(e.value)
    assert g.state.stage == "reveal" and not g.events


def test_the_table_adds_it_once_and_the_game_goes_on():
    g = _game()
    g.apply(ev.CardSetCompleted(cards=[{"id": "outposts", "stack": 3, "copies": 2}]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "withdrawal", "outposts", "coup"]))
    assert g.state.revealed[3] == "outposts" and g.state.stacks_undrawn[2]["outposts"] == 1
    assert g.state.board.cards["outposts"].stack == 3 and "table" in g.state.board.cards["outposts"].source
    # A brand-new card, from the effect vocabulary: a second Militia-like card the book never named.
    g2 = _game()
    g2.apply(
        ev.CardSetCompleted(
            cards=[{"id": "levy", "stack": 3, "copies": 1, "name": "Levy", "effect": "militia", "params": {"count": 3}}]
        )
    )
    g2.apply(ev.ActionCardsRevealed(cards=["intrigue", "withdrawal", "levy", "coup"]))
    assert g2.state.board.cards["levy"].effect == "militia"
    replayed = Game.from_jsonl(g2.to_jsonl())  # the entry is part of the game's log
    assert replayed.state.revealed == g2.state.revealed and replayed.state.board.cards["levy"].name == "Levy"


def test_an_entry_with_a_mistake_is_refused_naming_the_card_and_field_and_changes_nothing():
    g = _game()
    cases = [
        (
            {"id": "levy", "stack": 3, "copies": 1, "name": "Levy", "effect": "militia", "params": {"count": 9}},
            "cards[levy].params.count",
        ),
        ({"id": "levy", "stack": 3, "copies": 1, "effect": "militia", "params": {"count": 2}}, "name"),
        ({"id": "levy", "stack": 3, "copies": 1, "name": "Levy", "effect": "teleport"}, "teleport"),
        ({"id": "outposts", "stack": 3, "copies": 9}, "stack 3"),  # 2 fiesta + 9 > 10 cards
    ]
    for entry, named in cases:
        with pytest.raises(RuleViolation) as e:
            g.apply(ev.CardSetCompleted(cards=[entry]))
        assert named in str(e.value), (entry, str(e.value))
    assert g.state.card_entries == [] and "levy" not in g.state.board.cards and not g.events


def test_a_card_whose_copies_nobody_entered_turns_up_while_its_stack_has_room():
    # Stack 3 holds 10: 2 Fiesta and a card whose copies are unknown leave room for 7 more of it.
    g = _game()
    g.apply(
        ev.CardSetCompleted(
            cards=[{"id": "levy", "stack": 3, "name": "Levy", "effect": "militia", "params": {"count": 2}}]
        )
    )
    assert g.state.board.cards["levy"].copies is None and "cards.levy.copies" in g.state.board.missing
    assert g.state.board.cards["outposts"].stack is None
    for _ in range(8):  # (the rounds between skipped: the stage set back to the reveal)
        g.state.stage = "reveal"
        assert "levy" in _offered(g, 3)
        g.apply(ev.ActionCardsRevealed(cards=["intrigue", "withdrawal", "levy", "coup"]))
    assert g.state.copies_seen["levy"] == 8
    g.state.stage = "reveal"
    assert "levy" not in _offered(g, 3)
    with pytest.raises(RuleViolation) as e:  # 2 Fiesta + 8 Levy fill stack 3's 10 cards
        g.apply(ev.ActionCardsRevealed(cards=["intrigue", "withdrawal", "levy", "coup"]))
    assert "Levy has turned up 8 times from stack 3" in str(e.value)
    with pytest.raises(RuleViolation) as e:  # fewer than have turned up
        g.apply(ev.CardSetCompleted(cards=[{"id": "levy", "copies": 7}]))
    assert "8 have already been turned up" in str(e.value)
    g.apply(ev.CardSetCompleted(cards=[{"id": "levy", "copies": 8}]))  # known now: none left face down
    assert "levy" not in g.state.copies_seen and not g.state.stacks_undrawn[2].get("levy")


def _offered(g: Game, stack: int) -> set[str]:
    return set(g.asked().options["stacks"][stack])


def test_copies_already_turned_up_cannot_be_taken_back_and_no_entry_after_the_game():
    g = _game()
    g.apply(ev.CardSetCompleted(cards=[{"id": "outposts", "stack": 3, "copies": 1}]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "withdrawal", "outposts", "coup"]))
    stage = g.state.stage
    g.state.stage = "over"  # (as after the last scoring)
    with pytest.raises(RuleViolation) as e:
        g.apply(ev.CardSetCompleted(cards=[{"id": "outposts", "copies": 2}]))
    assert "after the game" in str(e.value)
    g.state.stage = stage
    with pytest.raises(RuleViolation) as e:
        g.apply(ev.CardSetCompleted(cards=[{"id": "outposts", "stack": 4}]))
    assert "already been turned up from stack 3" in str(e.value)
    g.apply(ev.CardSetCompleted(cards=[{"id": "outposts", "copies": 2}]))
    assert g.state.stacks_undrawn[2]["outposts"] == 1  # one more face down; the first is out


def test_a_three_player_game_whose_side_nobody_entered_stops_at_a_scoring_and_goes_on_once_entered():
    """The 2-3 player side's scoreboards are not published: the first scoring (a scoring card or
    the general scoring) refuses, naming one missing; the table enters them from its board and
    the same input goes on."""
    import random

    from engine.playout import random_event

    g = Game(
        ev.GameSetup(
            players=PLAYERS[:3],
            king="castilla",
            rules="2023",
            start_player="purple",
            homes=dict(zip(PLAYERS, ["galicia", "aragon", "sevilla"])),
            cards_file=KNOWN,
        )
    )
    g.apply(ev.CardSetCompleted(cards=[{"id": "outposts", "stack": 3, "copies": 8}]))
    rng = random.Random(3)
    refused = None
    while g.state.stage != "over" and refused is None:
        event = random_event(rng, g.asked())
        try:
            g.apply(event)
        except RuleViolation as exc:
            if exc.rule != "board-fact-missing":
                continue
            refused = exc
    assert refused is not None and "2-3 player side is not known" in str(refused)
    scorings = len(g.state.scoring_log)
    side = {
        "regions": [{"id": r, "scoreboard": [4, 2, 0]} for r in g.state.board.region_ids],
        "castillo": {"scoreboard": [5, 3, 1]},
    }
    g.apply(ev.BoardFactsEntered(board=side))
    g.apply(event)  # the same input, now scored
    while len(g.state.scoring_log) == scorings:  # a scoring card scores once its special action runs
        g.apply(random_event(rng, g.asked()))
    assert all(line.points >= 0 for line in g.state.scoring_log[-1].lines)
    assert Game.from_jsonl(g.to_jsonl()).state.scores == g.state.scores  # kept in the game's log


def test_a_refusal_quotes_a_card_name_the_table_typed_whatever_its_characters():
    # a name from "A card not in the list" is the table's text: braces are words, not a template
    g = _game()
    g.apply(
        ev.CardSetCompleted(
            cards=[{"id": "levy", "stack": 3, "name": "Levy {count}", "effect": "militia", "params": {"count": 2}}]
        )
    )
    for _ in range(8):  # its copies unknown: 2 Fiesta + 8 of it fill stack 3's 10 cards
        g.state.stage = "reveal"
        g.apply(ev.ActionCardsRevealed(cards=["intrigue", "withdrawal", "levy", "coup"]))
    g.state.stage = "reveal"
    with pytest.raises(RuleViolation) as e:
        g.apply(ev.ActionCardsRevealed(cards=["intrigue", "withdrawal", "levy", "coup"]))
    assert "Levy {count} has turned up 8 times from stack 3" in str(e.value)


@pytest.mark.parametrize("revision, placement", [(2, 5), (3, None)])
def test_a_spade_card_entered_without_its_caballeros_keeps_its_stacks_in_games_saved_before(revision, placement):
    """Rules revision 3: a ♠ card's Caballeros are printed on it, asked when it is played if
    nobody entered them. A game saved before gave such a card its stack's (5) and replays so."""
    levy = {
        "id": "levy",
        "stack": 5,
        "name": "Levy",
        "effect": "militia",
        "params": {"count": 2},
        "module": "new-regency",
        "copies": 1,
    }
    setup = dict(
        players=PLAYERS,
        king="castilla",
        rules="2023",
        start_player="purple",
        modules=["new-regency"],
        homes=dict(zip(PLAYERS, ["galicia", "aragon", "sevilla", "granada"])),
        revision=revision,
    )
    from_file = Game(ev.GameSetup(**setup, cards_file={"rules": "2023", "cards": [*KNOWN["cards"], levy]}))
    assert from_file.state.board.cards["levy"].placement == placement
    added = Game(ev.GameSetup(**setup, cards_file=KNOWN))
    added.apply(ev.CardSetCompleted(cards=[levy]))  # entered at the table during the game
    assert added.state.board.cards["levy"].placement == placement
