"""A game is its setup plus its events: replay, JSON lines, undo, refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.errors import RuleViolation
from engine.game import Game
from engine.playout import play_random_game


def random_game(seed: int, players: int = 4) -> tuple[Game, list]:
    setup, log, _ = play_random_game(random.Random(seed), players)
    return Game(setup), log


@pytest.mark.parametrize("seed", range(5))
def test_replay_rebuilds_exactly_and_jsonl_round_trips(seed):
    setup, log, final = play_random_game(random.Random(seed), 2 + seed % 4)
    game = Game.replay(setup, log)
    assert game.state == final
    text = game.to_jsonl()
    assert len(text.splitlines()) == len(log) + 1
    again = Game.from_jsonl(text)
    assert again.state == final and again.events == log


def test_undo_is_replay_without_the_last_event():
    game, log = random_game(7)
    for event in log[:120]:
        game.apply(event)
    expected = Game.replay(game.setup, log[:119]).state
    assert game.undo() == log[119]
    assert game.state == expected and len(game.events) == 119


def test_undo_with_nothing_to_undo_is_refused():
    game, _ = random_game(1)
    with pytest.raises(RuleViolation):
        game.undo()


ANY_EVENT = st.one_of(
    st.builds(ev.PowerCardPlayed, player=st.sampled_from(["red", "blue", "zed"]), card=st.integers(-1, 15)),
    st.builds(
        ev.CaballerosPlaced,
        player=st.sampled_from(["red", "yellow", "green", "blue"]),
        placements=st.dictionaries(
            st.sampled_from(["galicia", "castillo", "aragon", "granada", "nowhere"]), st.integers(0, 9), max_size=3
        ),
    ),
    st.builds(
        ev.CaballerosMoved,
        player=st.sampled_from(["red", "yellow"]),
        owner=st.sampled_from(["red", "blue"]),
        source=st.sampled_from(["galicia", "castillo", "valencia"]),
        target=st.sampled_from(["aragon", "castillo", "galicia"]),
        count=st.integers(1, 6),
    ),
    st.builds(
        ev.CourtReplenished,
        player=st.sampled_from(["red", "yellow", "green", "blue"]),
        from_provinces=st.integers(0, 8),
        from_regions=st.dictionaries(st.sampled_from(["galicia", "castillo", "sevilla"]), st.integers(0, 3)),
    ),
    st.builds(ev.ActionCardChosen, player=st.sampled_from(["red", "yellow", "green", "blue"]), stack=st.integers(0, 6)),
    st.builds(
        ev.SecretDiscSet,
        player=st.sampled_from(["red", "yellow", "green", "blue"]),
        region=st.sampled_from(["galicia", "castillo", "aragon", "atlantis"]),
    ),
    st.builds(ev.KingMoved, player=st.sampled_from(["red", "blue"]), region=st.sampled_from(["galicia", "sevilla"])),
    st.builds(ev.VetoUsed, player=st.sampled_from(["red", "blue"])),
    st.builds(ev.SpecialActionFinished, player=st.sampled_from(["red", "blue"])),
    st.builds(ev.SecretDiscsRevealed),
)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 50), cut=st.floats(0, 1), event=ANY_EVENT)
def test_a_refused_event_changes_nothing(seed, cut, event):
    game, log = random_game(seed)
    for e in log[: int(cut * len(log))]:
        game.apply(e)
    before = repr(game.state), game.to_jsonl()
    try:
        game.apply(event)
    except RuleViolation as exc:
        assert (repr(game.state), game.to_jsonl()) == before
        assert "rule:" in str(exc)
    else:  # accepted: then replay must agree with it
        assert Game.replay(game.setup, game.events).state == game.state
