"""Hans im Glück's 2023 edition: the classic round, with its modules as parts (engine/hooks.py):

    dummy         the 2-player game's third colour, played by the rules (its own stages)
    new_regency   the ten ♠ cards as a fifth stack
    old_hands     the classic cards added to or removed from the stacks (data checks only)
    power_shift   Modifier cards on the Power cards (its own stages)

Its card effects are engine/effects/ (the 2023 block of engine/effects/__init__.py); its
board and cards are engine/data/board_2023.json and action_cards_2023.json."""

from __future__ import annotations

from ...hooks import register_round
from ..classic.round import ROUND as CLASSIC_ROUND
from . import dummy, new_regency, old_hands, power_shift  # noqa: F401  (their parts)

ROUND = register_round("2023", CLASSIC_ROUND + dummy.PART.stages + power_shift.PART.stages)
