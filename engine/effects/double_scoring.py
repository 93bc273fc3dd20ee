"""Double scoring (King and Intrigue, the 130 card): a 2x marker on a region.

Rule text: "The double scoring only occurs during the next general scoring. If a special
scoring occurs in the region before the next general scoring, the score is not doubled.
After the next general scoring, return the Region card and the 2x marker to the supply."
Components: "2 Action markers (Double Scoring markers)".

Read where the text is silent: the marker goes on a region that is not the King's (a
marker changes the region; the King's region is taboo, as for the mobile scoreboard) nor
already marked; with both markers out, the action has nothing to do. The doubling itself
is engine/rules/king_intrigue/general_scoring.py double_lines, at the general scoring."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

MARKERS = ("double_1", "double_2")


def _free_marker(state: GameState) -> str | None:
    return next((m for m in MARKERS if state.markers.get(m) is None), None)


def _regions(state: GameState) -> list[int]:
    marked = {state.markers.get(m) for m in MARKERS}
    closed = closed_regions(state)
    return [r for r in state.board.regions if r not in closed and r not in marked]


def begin(state: GameState, sp: Special) -> None:
    if _free_marker(state) is None or not _regions(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "choose_region",
        (state.players[sp.player],),
        {"purpose": "double_scoring", "regions": [state.board.region_ids[r] for r in _regions(state)]},
    )


def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("choose the region to double"))
    r = P.region(state, e.region, P.N_("the 2x marker's region"))
    P.not_taboo(state, r, P.N_("put the 2x marker on"))
    if r not in _regions(state):
        raise P.RuleViolation("special-action", "{region} already has a 2x marker", region=P.area_name(state, r))
    state.markers[_free_marker(state)] = r
    finish_special(state)


register(Effect("double_scoring", begin, ask, steps={ev.RegionChosen: chosen}))
