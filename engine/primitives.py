"""The verbs and checks an effect in engine/effects/ is written with.

They live in engine/flow.py (the classic effects use them too); this module gives them
public names so an effect file reads as a short composition of them. Every check raises
RuleViolation before anything changes."""
from __future__ import annotations

from . import flow as _f
from .flow import Ask  # noqa: F401  (effects build Asks)

# lookups that raise a clear RuleViolation
player = _f._player                  # (state, pid) -> seat
area = _f._area                      # (state, area id) -> area index (regions, Castillo)
region = _f._region                  # (state, region id, what) -> region index
name = _f._name                      # (state, seat) -> player's name
area_name = _f._rname                # (state, area index) -> its name
expect_player = _f._expect_player    # (state, pid, seat expected, what) -> seat
expect_special = _f._expect_special  # (state, effects, what) -> Special
not_taboo = _f._not_taboo            # (state, area, doing): the King's region is taboo
clockwise_from = _f._clockwise_from  # (state, seat) -> seats clockwise from it
opponents = _f._opponents            # (state, seat) -> the others, from its left

# verbs
finish_special = _f._finish_special  # (state): the special action is over
check_placements = _f._check_placements
do_place = _f._do_place
taken_from_regions = _f._taken_from_regions
check_send_back = _f._check_send_back
do_send_back = _f._do_send_back
send_back_options = _f._send_back_options
move_line = _f._move                 # (state, seat, count, source, target) -> an Outcome move
special_outcome = _f._special_outcome
special_title = _f._special_title
record_scoring = _f._record          # (state, title, lines)
disc_ask = _f._disc_ask
movable_targets = _f._move_targets   # areas Caballeros may be moved or thrown to
