"""GameState.clone(): a copy that shares nothing that changes."""

import copy
import dataclasses
import random

from engine.board.build import classic_board
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import random_event, random_setup
from engine.views import castillo_tallies, player_view, public_view

SHARED = {"board", "players", "names", "variant", "schedule"}  # never changed once the game starts


def _same(a, b) -> bool:
    return (
        public_view(a) == public_view(b)
        and castillo_tallies(a) == castillo_tallies(b)
        and all(player_view(a, p) == player_view(b, p) for p in a.players)
        and a.provinces == b.provinces
    )


def test_a_clone_equals_its_state_and_plays_on_alone_over_random_games():
    board = classic_board()
    rng = random.Random(8)
    checked = 0
    for _ in range(4):
        state = start_state(random_setup(rng, rng.randint(2, 5), board, variant="short"), board)
        while state.stage != "over":
            twin = state.clone()
            assert _same(twin, state)
            for f in dataclasses.fields(state):  # every mutable part is a copy, not the same object
                value = getattr(state, f.name)
                if f.name not in SHARED and isinstance(value, (list, dict, set)) and value:
                    assert getattr(twin, f.name) is not value, f.name
            before = copy.deepcopy(state)
            event = random_event(rng, asked(state))
            apply_event(twin, event)  # the clone moves on ...
            assert _same(state, before)  # ... and the original did not change
            apply_event(state, event)
            assert _same(twin, state)  # the same event leads both to the same place
            checked += 1
    assert checked > 400


def test_every_game_is_dealt_its_own_stacks_every_copy_less_the_cards_returned_to_the_box():
    """The stacks are worked out once per board and copied for each game: a game's draws never
    reach another game's stacks, and each game lacks exactly the cards its setup returned."""
    from collections import Counter

    from engine.board.load import load_board
    from engine.playout import standin_files

    board_file, cards_file = standin_files("2023", 5)
    board = load_board("2023", 5, board_file, cards_file)
    rng = random.Random(3)
    setups = [
        random_setup(rng, 5, board, "full", "2023", ("old-hands",), board_file, cards_file, standins=True)
        for _ in range(3)
    ]
    assert len({tuple(s.removed_cards) for s in setups}) > 1  # different cards returned to the box
    games = [start_state(s, board) for s in setups]
    for setup, state in zip(setups, games):
        gone = Counter(setup.removed_cards)
        expected = [{}, {}, {}, {}]
        for c in board.cards.values():  # every copy of a base card, less those returned; every ♣ card
            if c.stack in (1, 2, 3, 4) and c.copies and c.module in (None, "old-hands"):
                left = c.copies - gone[c.id]
                if left > 0:
                    expected[c.stack - 1][c.id] = left
        assert state.stacks_undrawn == expected
        for stack, cards in zip(state.stacks_undrawn, expected):
            assert list(stack) == [cid for cid in board.cards if cid in cards]  # in the card set's order
    first = games[0]
    while first.round == 1 or first.stage != "reveal":  # the first game draws its cards ...
        apply_event(first, random_event(rng, asked(first)))
    assert first.stacks_undrawn != games[1].stacks_undrawn
    again = start_state(setups[1], board)  # ... and a new game is dealt as before
    assert again.stacks_undrawn == games[1].stacks_undrawn == start_state(setups[1], board).stacks_undrawn
    assert all(a is not b for a, b in zip(again.stacks_undrawn, games[1].stacks_undrawn))
