"""GameState.clone(): a copy that shares nothing that changes."""
import copy
import dataclasses
import random

from engine.flow import apply_event, asked
from engine.playout import random_event, random_setup
from engine.game import start_state
from engine.board import classic_board
from engine.views import castillo_tallies, player_view, public_view

SHARED = {"board", "players", "names", "variant", "schedule"}  # never changed once the game starts


def _same(a, b) -> bool:
    return public_view(a) == public_view(b) and castillo_tallies(a) == castillo_tallies(b) and all(
        player_view(a, p) == player_view(b, p) for p in a.players) and a.provinces == b.provinces


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
            apply_event(twin, event)          # the clone moves on ...
            assert _same(state, before)       # ... and the original did not change
            apply_event(state, event)
            assert _same(twin, state)         # the same event leads both to the same place
            checked += 1
    assert checked > 400
