"""Quarantine (King and Intrigue, Player's Edition): a region closed like the King's.

Rule text: "Any region hosting the quarantine marker may not be changed in any way. It is
taboo just like the King's region. For further details, see the base game rules (King's
region, page 5)." Components: "1 quarantine marker".

The player puts the marker on a region that is not taboo already (the King's region is); a
marker already out is moved (there is one). From then on engine/queries.py counts that region
among the closed ones: nothing is placed, moved, taken or evicted there, no Grande or scoreboard
moves in or out, a disc that sends Caballeros there sends them to the court, as for the King's
region; it is still scored. How long it stays is not published: the card's `until`
(engine/effects/ki_tokens.py), entered by the table."""

from __future__ import annotations

from ..effect_registry import register
from ..errors import N_
from . import ki_tokens

MARKER = "quarantine"

register(ki_tokens.closing_marker(MARKER, N_("the quarantine marker"), check_start=ki_tokens.need_until))
