"""The classic game (1995, Rio Grande / Hans im Glück): its round, as data. Its card effects
are engine/effects/ (listed first in engine/effects/__init__.py); its board and cards are
engine/data/board_classic.json and action_cards_classic.json."""

from __future__ import annotations

from ...hooks import register_round
from ...stages.end_of_round import OVER
from ...stages.power import POWER
from ...stages.replenish import REPLENISH
from ...stages.reveal import REVEAL
from ...stages.scoring import SCORING
from ...stages.special import SPECIAL
from ...stages.turn import CHOOSE_CARD, TURN
from ...stages.veto_window import VETO_WINDOW

# A round: the reveal, the Power cards, then each player's turn (replenish, choose a card,
# place and the special action, a veto window before it), the end of the round (no stage of
# its own: engine/stages/end_of_round.py) with a general scoring after rounds 3, 6 and 9.
ROUND = register_round("classic", (REVEAL, POWER, REPLENISH, CHOOSE_CARD, TURN, VETO_WINDOW, SPECIAL, SCORING, OVER))
