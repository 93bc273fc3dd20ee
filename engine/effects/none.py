"""No action of its own: King and Intrigue's Intrigue card (10), King card (180) and the
Caballero card. Their holder places Caballeros and acts with the Action card dealt by rank
(the Intrigue card's actions, the King's Card's); the Caballero card brings Caballeros only.

The cards' data say `"effect": "none"` (or nothing); King and Intrigue's round
(engine/rules/king_intrigue/round.py, `turn_sources`) offers no special action of the Power
card then. Its test: tests/engine/effects/test_none.py.
"""

from __future__ import annotations

NO_ACTION = "none"  # the 10 and 180 cards: their holder acts with the Intrigue / King's Card
