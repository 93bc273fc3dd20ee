"""TODO docstring: score_first_only."""
from __future__ import annotations

from ..helpers import new_game, put, score, turn_with
from .classic import start


def test_special_scoring_first_place_only_ties_get_nothing():
    g = new_game()
    put(g, "blue", "galicia", 2)  # Galicia: red 2, blue 2: tied
    put(g, "green", "aragon", 1)  # Aragón: blue 2, green 1
    pid = turn_with(g, "score_first_place_only")
    start(g, pid)
    assert score(g, "red") == 0
    assert score(g, "blue") == 5 + 2  # Aragón's 1st place and home bonus
    assert score(g, "green") == 4 + 2  # Sevilla
