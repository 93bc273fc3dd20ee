"""Relocate (King and Intrigue, Player's Edition; 23): the Castillo moves onto a region.

Rule text: "You may not place the Castillo in the King's region. You must move the Castillo
and its contents without revealing the Caballeros within. Once the Castillo has been
relocated, move all Caballeros in the region that the Castillo now occupies into the
Castillo itself. From now on, players may choose to place/move Caballeros in/to the region
(next to the Castillo) or in the Castillo itself. If the King is moved to the region where
the Castillo is located, it has no effect on the Castillo. During general scoring, you will
empty and score the Castillo first, as usual ... Then, score the Castillo according to the
scoreboard in the region it occupies (including any relevant King or home region bonuses).
Finally, return the Castillo to its normal position on the board."

Where it stands is the public marker `castillo_at` (a region). At the general scoring
(rules/king_intrigue/round.py) the Castillo's lines are `castillo_lines`: its Caballeros ranked as
usual and paid from the region's scoreboard (a mobile scoreboard lying there included; a
reversed one, Revolt, ranks them from the fewest, the bonuses staying with the majority), the
King's bonus when the King stands in that region, the home bonus when the leader's Grande
stands there (or in the Castillo). Read where the text is silent: a Castillo scoring card in
between scores with the Castillo's own scoreboard (the text speaks of the general scoring); a
second Relocate moves it on from where it stands."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions
from .alliance import paid_from, scored_as_one

MARKER = "castillo_at"


def _regions(state: GameState) -> list[int]:
    closed = closed_regions(state)
    return [r for r in state.board.regions if r not in closed and r != state.markers.get(MARKER)]


def begin(state: GameState, sp: Special) -> None:
    if not _regions(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "choose_region",
        (state.players[sp.player],),
        {"purpose": "relocate", "regions": [state.board.region_ids[r] for r in _regions(state)]},
    )


def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("relocate the Castillo"))
    r = P.region(state, e.region, P.N_("the Castillo's new place"))
    P.not_taboo(state, r, P.N_("relocate the Castillo to"))
    if r == state.markers.get(MARKER):
        raise P.RuleViolation("special-action", "the Castillo already stands in {region}", region=P.area_name(state, r))
    castillo = state.board.castillo
    state.markers[MARKER] = r
    for q in range(state.n):
        k = state.counts[r][q]
        state.counts[r][q] = 0
        state.counts[castillo][q] += k
        sp.moves.append(P.move_line(state, q, k, r, castillo))
    P.special_outcome(state, sp)
    finish_special(state)


def castillo_lines(state: GameState, region: int) -> list:
    """The Castillo scored on the scoreboard of the region it stands in (module docstring)."""
    castillo = state.board.castillo
    name = state.board.region_names[region]
    return scored_as_one(
        state,
        list(state.counts[castillo]),
        (paid_from(state, castillo, region),),
        (region, castillo),
        f"the Castillo, relocated to {name}, on {name}'s scoreboard",
        f"the Castillo (in {name})",
    )


register(Effect("relocate", begin, ask, steps={ev.RegionChosen: chosen}))
