"""The prompt registry (companion/prompts/registry.py, issue 32): every ask kind the engine asks
has its builder registered, found by its kind (no name built at run time), and King and
Intrigue's registry adds to the base game's without losing any."""

from __future__ import annotations

import random

import pytest

from companion.prompts import king_intrigue
from companion.prompts.builder import PromptBuilder
from companion.prompts.king_intrigue import KI_PRIVATE_PICKS, KI_PROMPTS, KIPromptBuilder
from companion.prompts.prompt import PRIVATE_KINDS
from companion.prompts.registry import PRIVATE_PICKS, PROMPTS
from engine import events as ev
from engine.flow import apply_event, asked
from engine.game import board_for, start_state
from engine.playout import random_event, random_setup, self_play_files

GAMES = [
    ("classic", 4, ()),
    ("2023", 2, ("power-shift",)),
    ("2023", 4, ("new-regency", "old-hands", "power-shift")),
    ("king-intrigue", 3, ("players-edition", "special-cards")),
    ("king-intrigue", 5, ("players-edition", "special-cards")),
]


def kinds_asked(rules: str, n: int, modules: tuple, seed: int) -> set[str]:
    """The ask kinds of one random game to its end."""
    rng = random.Random(seed)
    board_file, cards_file, filled = self_play_files(rules, n, None, None, modules)
    probe = ev.GameSetup(
        players=["a", "b", "c", "d", "e"][:n],
        king="x",
        homes={},
        start_player="a",
        rules=rules,
        board_file=board_file,
        cards_file=cards_file,
    )
    board = board_for(probe)
    state = start_state(
        random_setup(rng, n, board, "full", rules, modules, board_file, cards_file, bool(filled)), board
    )
    kinds = set()
    while state.stage != "over":
        ask = asked(state)
        kinds.add(ask.kind)
        apply_event(state, random_event(rng, ask))
    return kinds


@pytest.mark.parametrize(("rules", "n", "modules"), GAMES)
def test_every_ask_kind_of_a_whole_game_has_its_builder_registered(rules, n, modules):
    registry = KIPromptBuilder.prompts if rules == "king-intrigue" else PromptBuilder.prompts
    for seed in range(2):
        missing = kinds_asked(rules, n, modules, seed) - set(registry)
        assert not missing, f"{rules}: no prompt builder registered for {sorted(missing)}"


def test_king_and_intrigue_adds_to_the_base_games_registry_and_overrides_with_its_own():
    assert set(PROMPTS) <= set(KI_PROMPTS) and set(PRIVATE_PICKS) <= set(KI_PRIVATE_PICKS)
    for kind, maker in KI_PROMPTS.items():
        if maker is not PROMPTS.get(kind):
            assert maker.__module__ == king_intrigue.__name__, f"{kind}: overridden outside king_intrigue"


def test_every_choice_made_in_private_has_its_pick_registered():
    assert set(PRIVATE_KINDS) <= set(KI_PRIVATE_PICKS)
    assert "take_back_power_card" in PRIVATE_PICKS  # a card taken back, unseen
