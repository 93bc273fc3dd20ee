"""The 2023 rule book's example table (purple "you", orange your left neighbour, blue, green)
and its counting: builders shared by the examples' effect tests and tests/engine/test_examples_2023.py."""

from __future__ import annotations

from tests.engine.effects.game2023 import new_game

# Clockwise from "you" (purple): Orange is your left neighbour, then Blue, then Green.
TABLE = ["purple", "orange", "blue", "green"]


HOMES = {"purple": "granada", "orange": "cataluna", "blue": "sevilla", "green": "navarra"}


def _table(king="castilla", **kw):
    return new_game(players=TABLE, homes=HOMES, king=king, **kw)
