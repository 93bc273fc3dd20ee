"""A King and Intrigue game saved and replayed (engine/game.py): the setup keeps the table's card
file, the events replay to the same position; undo and clone work as for the other rule sets."""

from __future__ import annotations

import random

from engine.flow import apply_event
from engine.game import Game
from engine.playout import random_event
from tests.engine.king_intrigue.table import WITH_MODULES, setup


def _random_game(seed: int, n: int, modules) -> Game:
    rng = random.Random(seed)
    game = Game(setup(n, modules=modules, cards_file=WITH_MODULES).model_copy(update={"variant": "short"}))
    while game.state.stage != "over":
        game.apply(random_event(rng, game.asked()))
    return game


def test_a_saved_game_replays_to_the_same_end():
    game = _random_game(3, 4, ["players-edition", "special-cards"])
    text = game.to_jsonl()
    assert '"rules": "king-intrigue"' in text.splitlines()[0] and '"power_cards_chosen"' in text
    again = Game.from_jsonl(text)
    assert again.state.scores == game.state.scores and again.state.winners == game.state.winners
    assert again.state.markers == game.state.markers


def test_undo_and_a_clone_continue_alike():
    rng = random.Random(9)
    game = Game(setup(3, modules=["players-edition"], cards_file=WITH_MODULES))
    for _ in range(60):
        game.apply(random_event(rng, game.asked()))
    twin = game.state.clone()
    last = game.undo()
    game.apply(last)
    assert game.state.scores == twin.scores and game.state.counts == twin.counts
    assert game.state.markers == twin.markers and game.state.hands == twin.hands
    for _ in range(40):
        event = random_event(rng, game.asked())
        game.apply(event)
        apply_event(twin, event)
    assert game.state.counts == twin.counts and game.state.scores == twin.scores


def test_games_with_the_new_tokens_replay_to_the_same_position():
    """Bridge, spies (their moves before a scoring held back and replayed), limit tables,
    taboo tokens: a saved game comes back to the same counts, courts, aside and markers."""
    for seed in range(6):
        game = _random_game(100 + seed, 3 + seed % 3, ["players-edition", "special-cards"])
        again = Game.from_jsonl(game.to_jsonl())
        a, b = again.state, game.state
        assert (a.counts, a.court, a.provinces, a.scores, a.aside, a.markers) == (
            b.counts,
            b.court,
            b.provinces,
            b.scores,
            b.aside,
            b.markers,
        )
        assert a.event_count == b.event_count == len(game.events)
