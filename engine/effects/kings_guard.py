"""King's Guard (King and Intrigue, Special cards): the King's marker closes a second region.

Rule text: "Any region hosting the King's marker may not be changed in any way. It is taboo
just like the King's region. For further details, see the base game rules (King's region,
page 5). If the King's marker is placed in a round immediately preceding a general scoring, it
remains on the board during general scoring, adding the King's bonus to the region it
occupies." Components: "1 King's Guard".

The player puts the marker on a region that is not taboo already; engine/queries.py counts it
among the closed regions. Read from the second paragraph: the marker stays to the end of the
round (engine/effects/ki_tokens.py), and through a general scoring that directly follows,
where its region's sole majority also gets the King's bonus (rules/king_intrigue/round.py)."""

from __future__ import annotations

from ..effect_registry import register
from ..errors import N_
from . import ki_tokens

MARKER = "kings_guard"

register(ki_tokens.closing_marker(MARKER, N_("the King's Guard")))
