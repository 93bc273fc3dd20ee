"""The rule systems the engine plays, each a package with its round and its parts; importing
this registers them all (their stages, hooks and card effects)."""

from __future__ import annotations

from .. import (
    card_entry,
    correction,
    effects,  # noqa: F401  (every card effect, listed there)
)
from .. import events as ev
from ..hooks import ROUNDS, register_events
from .classic import round as _classic  # noqa: F401
from .edition_2023 import round as _edition_2023  # noqa: F401
from .king_intrigue import round as _king_intrigue  # noqa: F401

# What the table may send at any stage: a correction, a card set or board completed.
register_events(
    {
        ev.TableCorrected: correction.check_and_apply,
        ev.CardSetCompleted: card_entry.apply_completion,
        ev.BoardFactsEntered: card_entry.apply_board_facts,
    }
)

SYSTEMS = dict(ROUNDS)  # rule system -> its round (a tuple of stages)
