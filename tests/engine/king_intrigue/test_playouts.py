"""Random full King and Intrigue games, 2 to 5 players, the invariants checked after every event
(engine.playout.check_invariants), and the no-leak property: the Power cards a player keeps
(13 of 18) and the setup discs are secret until revealed, so no other player's view and not
the public view can tell them apart."""

from __future__ import annotations

import random

import pytest

from engine import events as ev
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import check_invariants, random_event, snapshot_for_checks
from engine.views import player_view, public_view
from tests.engine.king_intrigue.table import ALL, CARDS_FILE, WITH_MODULES, setup


def _play(seed: int, n: int, variant: str = "full", modules=()):
    rng = random.Random(seed)
    cards = WITH_MODULES if modules else CARDS_FILE
    state = start_state(
        setup(
            n, start=["red", "blue", "green", "yellow", "black"][seed % n], modules=modules, cards_file=cards
        ).model_copy(update={"variant": variant})
    )
    kinds = set()
    while state.stage != "over":
        ask = asked(state)
        kinds.add(ask.kind)
        event = random_event(rng, ask)
        before = snapshot_for_checks(state)
        apply_event(state, event)
        check_invariants(state, before, event)
    return state, kinds


MODULE_VALUES = {5, 13, 23, 45, 65, 85, 95, 105, 115, 125, 33, 55, 135, 145, 155, 165, 175, 75, 15, 25}
COMBINATIONS = [(), ("players-edition",), ("special-cards",), ("players-edition", "special-cards")]


@pytest.mark.parametrize("modules", COMBINATIONS, ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_full_games_keep_the_invariants(n, modules):
    for seed in range(2):
        state, kinds = _play(seed, n, "full" if seed == 0 else "short", modules)
        assert state.winners and len(state.scoring_log) >= 3
        assert {"choose_power_cards", "secret_disc", "play_power_card", "replenish", "turn_action"} <= kinds
        joker = 5 in state.discards[0]  # the Joker: a second card the same round
        assert len(state.hands[0]) == 13 - len(state.schedule) - joker


def test_the_module_cards_are_all_played_in_random_games():
    seen = set()
    for seed in range(20):
        state, _ = _play(seed, 4, "short", COMBINATIONS[-1])
        seen |= {c for p in range(4) for c in state.discards[p]} & MODULE_VALUES
    assert seen == MODULE_VALUES


def _twins(n: int = 3):
    """Two games that differ only in red's secret choices so far."""
    return start_state(setup(n)), start_state(setup(n))


def _views(state, others):
    return [public_view(state)] + [player_view(state, pid) for pid in others]


def test_a_setup_disc_is_secret_until_the_reveal():
    a, b = _twins()
    apply_event(a, ev.SecretDiscSet(player="red", region="galicia"))
    apply_event(b, ev.SecretDiscSet(player="red", region="aragon"))
    assert _views(a, ["blue", "green"]) == _views(b, ["blue", "green"])
    assert player_view(a, "red") != player_view(b, "red")


def test_the_13_cards_kept_are_secret():
    a, b = _twins()
    for state in (a, b):
        for pid in ("red", "blue", "green"):
            apply_event(state, ev.SecretDiscSet(player=pid, region="galicia"))
        apply_event(state, ev.SecretDiscsRevealed())
    apply_event(a, ev.PowerCardsChosen(player="red", cards=ALL[:13]))
    apply_event(b, ev.PowerCardsChosen(player="red", cards=ALL[5:]))
    assert _views(a, ["blue", "green"]) == _views(b, ["blue", "green"])
    assert player_view(a, "red").private.power_cards_in_hand == ALL[:13]
    for state in (a, b):
        for pid in ("blue", "green"):
            apply_event(state, ev.PowerCardsChosen(player=pid, cards=ALL[:13]))
    # Red to play: the ask tells the table nothing of red's hand either.
    assert public_view(a).asked == public_view(b).asked and public_view(a).asked.options == {
        "unavailable": [],
        "stacks": {},
    }


def test_the_public_view_shows_the_markers_and_who_holds_which_action_card():
    from engine.game import Game
    from tests.engine.king_intrigue.table import play_powers, through_setup

    game = Game(setup(3))
    through_setup(game)
    assert "action_cards_held" not in public_view(game.state).model_dump()  # none before the cards are played
    play_powers(game, {"red": 90, "blue": 40, "green": 10})
    game.state.markers["double_1"] = game.board.area_index["aragon"]
    view = public_view(game.state)
    assert view.action_cards_held == {"red": "kings_card", "blue": "caballero", "green": "intrigue"}
    assert view.markers == {"double_1": "aragon"}
