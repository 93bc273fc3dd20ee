"""King's Guard (King and Intrigue, Special cards): the King's marker closes a second region.

Rule text: "Any region hosting the King's marker may not be changed in any way. It is taboo
just like the King's region. For further details, see the base game rules (King's region,
page 5). If the King's marker is placed in a round immediately preceding a general scoring, it
remains on the board during general scoring, adding the King's bonus to the region it
occupies." Components: "1 King's Guard".

The player puts the marker on a region that is not taboo already; engine/queries.py counts it
among the closed regions. Read from the second paragraph: the marker stays to the end of the
round (engine/effects/ki_tokens.py), and through a general scoring that directly follows,
where its region's sole majority also gets the King's bonus (rules/king_intrigue.py)."""
from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from . import ki_tokens

MARKER = "kings_guard"


def begin(state, sp) -> None:
    if not ki_tokens.region_choices(state):
        P.finish_special(state)


def ask(state, sp):
    ids = state.board.region_ids
    return P.Ask("choose_region", (state.players[sp.player],),
                 {"purpose": MARKER, "regions": [ids[r] for r in ki_tokens.region_choices(state)]})


def chosen(state, sp, e: ev.RegionChosen) -> None:
    P.expect_player(state, e.player, sp.player, "place the King's Guard")
    r = P.region(state, e.region, "the King's Guard's region")
    P.not_taboo(state, r, "put the King's Guard on")
    state.markers[MARKER] = r
    P.finish_special(state)


register(Effect(MARKER, begin, ask, steps={ev.RegionChosen: chosen}))
