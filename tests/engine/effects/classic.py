"""Builders shared by the classic cards' effect tests (tests/engine/effects/test_<effect>.py)."""

from __future__ import annotations

from engine import events as ev


def moves(g) -> list[tuple]:
    """The last outcome's instructions to the table: (player, count, from, to)."""
    return [(m["player"], m["count"], m["source"], m["target"]) for m in g.state.outcomes[-1].moves]


def start(game, pid, option=None):
    game.apply(ev.SpecialActionStarted(player=pid, option=option))


def move(game, owner, source, target, n=1, pid="red"):
    game.apply(ev.CaballerosMoved(player=pid, owner=owner, source=source, target=target, count=n))
