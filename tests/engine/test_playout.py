"""Random full games through the engine, checking invariants after every event."""
from __future__ import annotations

from engine.playout import selfplay


def test_200_random_games_keep_every_invariant():
    stats = selfplay(games=200, n_players=5, seed=2024, check=True)
    assert stats.games == 200
    assert stats.scorings >= 200 * 3  # three general scorings at least
    # every classic card was used across the games, and Vetoes were played
    assert len(stats.cards_used) == 33 and stats.vetoes_used > 0


def test_every_player_count_and_the_short_game():
    for n in (2, 3, 4):
        assert selfplay(games=15, n_players=n, seed=n).games == 15
    assert selfplay(games=15, n_players=5, seed=9, variant="short").games == 15


def test_same_seed_same_games():
    a, b = selfplay(20, 4, seed=5), selfplay(20, 4, seed=5)
    assert (a.events, a.win_scores, a.cards_used) == (b.events, b.win_scores, b.cards_used)
    assert selfplay(20, 4, seed=6).win_scores != a.win_scores
