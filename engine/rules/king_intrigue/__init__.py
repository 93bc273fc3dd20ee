"""King and Intrigue, the expansion played on the classic board (modules: players-edition,
special-cards).

    round.py     its setup and round: Power cards carry the special actions, Action cards
                 dealt by rank; its stages, its hooks (engine/hooks.py)
    cards.py     its card set: the Power cards, their effects and parameters, the stand-ins
    its cards    engine/effects/ (the King and Intrigue block of engine/effects/__init__.py)
    its data     engine/data/cards_king_intrigue.json, standins_king_intrigue.json
"""

from __future__ import annotations

# The names the rest of the engine and the companion read (engine.rules.king_intrigue.X).
from .round import (  # noqa: F401
    CHOICE,
    CHOOSE_HAND,
    CHOOSERS,
    DOUBLE_MARKERS,
    SETUP_DISCS,
    _by_rank,
    _tokens_at_scoring,
    action_cards_by_rank,
    adjust_ask,
    after_event,
    before_event,
    double_lines,
    hand_size,
    own_step,
    prepare,
    turn_sources,
)
