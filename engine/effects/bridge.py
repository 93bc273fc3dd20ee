"""Bridge Construction (King and Intrigue, Player's Edition).

Rule text: "Place the bridge between two adjacent regions. Neither of these regions may be the
King's region. In addition to the 3 Caballeros you will place this turn, you will also place a
Caballero from your Court onto the bridge itself. As long as the bridge remains: directly
before your turn in following rounds, you may freely move your Caballeros between these two
regions. In each general scoring, the player who controls the bridge scores 1 point. If you
remove the Caballero from the bridge, the bridge is returned to the supply. If another player
plays the Bridge card, they take the bridge. If you have a Caballero on the bridge at this
time, return it to your Court."

The player names the two regions one after the other (RegionChosen), neither taboo, the second
adjacent to the first; a Caballero already on the bridge goes back to its owner's court, then
one of the player's comes from their court onto the bridge (`state.aside["bridge"]`: counted
among their 30, off the board). The markers `bridge_1`/`bridge_2` say where it lies. With an
empty court the action, once started, ends at once (no Caballero, no bridge). In following rounds, before
the owner's turn (its first step), rules/king_intrigue/round.py asks "bridge_crossing": any number
of their Caballeros moved between the two regions (CaballerosMoved), then done
(SpecialActionFinished); not while either region is taboo. At each general scoring the owner
scores 1 point (a line of kind "bridge")."""

from __future__ import annotations

import random
from typing import Any

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..events import Event
from ..primitives import Ask
from ..queries import is_taboo
from ..scoring import ScoreLine
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

MARKERS = ("bridge_1", "bridge_2")
PLACE = "bridge"
NEW = "bridge_new"  # built this round: its crossings start in the following rounds
POINTS = 1


def owner(state: GameState) -> int | None:
    return state.aside.get(PLACE)


def ends(state: GameState) -> tuple[int, int] | None:
    a, b = (state.markers.get(m) for m in MARKERS)
    return None if a is None or b is None else (a, b)


def lift(state: GameState) -> None:
    """The Caballero on the bridge back to its owner's court; the bridge to the supply."""
    q = state.aside.pop(PLACE, None)
    if q is not None:
        state.court[q] += 1
    for m in MARKERS + (NEW,):
        state.markers[m] = None


def _firsts(state: GameState) -> list[int]:
    closed = closed_regions(state)
    return [
        r for r in state.board.regions if r not in closed and any(n not in closed for n in state.board.neighbours[r])
    ]


def _seconds(state: GameState, first: int) -> list[int]:
    closed = closed_regions(state)
    return sorted(r for r in state.board.neighbours[first] if r not in closed)


def begin(state: GameState, sp: Special) -> None:
    sp.source = None
    if not state.court[sp.player] or not _firsts(state):  # no Caballero for the bridge: no bridge
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    ids = state.board.region_ids
    regions = _firsts(state) if sp.source is None else _seconds(state, sp.source)
    return P.Ask(
        "choose_region",
        (state.players[sp.player],),
        {"purpose": "bridge" if sp.source is None else "bridge_second", "regions": [ids[r] for r in regions]},
    )


def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("build the bridge"))
    r = P.region(state, e.region, P.N_("an end of the bridge"))
    P.not_taboo(state, r, P.N_("build the bridge to"))
    if sp.source is None:
        if r not in _firsts(state):
            raise P.RuleViolation(
                "special-action", "{region} has no neighbour the bridge may reach", region=P.area_name(state, r)
            )
        sp.source = r
        return
    if r not in _seconds(state, sp.source):
        raise P.RuleViolation(
            "special-action",
            "the bridge joins two adjacent regions: {region} is not next to {source}",
            region=P.area_name(state, r),
            source=P.area_name(state, sp.source),
        )
    before = owner(state)
    lift(state)
    if before is not None:
        sp.moves.append(P.move_line(state, before, 1, PLACE, "court"))
    state.markers[MARKERS[0]], state.markers[MARKERS[1]], state.markers[NEW] = sp.source, r, True
    state.court[p] -= 1
    state.aside[PLACE] = p
    sp.moves.append(P.move_line(state, p, 1, "court", PLACE))
    P.special_outcome(state, sp)
    finish_special(state)


def crossing_open(state: GameState, p: int) -> bool:
    """Directly before p's turn: p owns a bridge built in an earlier round, both ends changeable."""
    if state.aside.get(PLACE) != p:  # the usual answer, found at once
        return False
    pair = ends(state)
    return pair is not None and not state.markers.get(NEW) and not any(is_taboo(state, r) for r in pair)


def crossing_ask(state: GameState) -> Ask:
    p = P.current_turn(state).player
    ids = state.board.region_ids
    pair = ends(state)
    assert pair is not None  # the crossing is offered only with both ends on the board
    a, b = pair
    return P.Ask(
        "bridge_crossing",
        (state.players[p],),
        {"regions": [ids[a], ids[b]], "counts": {ids[a]: state.counts[a][p], ids[b]: state.counts[b][p]}},
    )


def crossed(state: GameState, e: ev.CaballerosMoved) -> None:
    p = P.expect_player(state, e.player, P.current_turn(state).player, P.N_("cross the bridge"))
    pair = ends(state)
    assert pair is not None  # crossed at the crossing only
    src, dst = P.area(state, e.source), P.area(state, e.target)
    if P.player(state, e.owner) != p:
        raise P.RuleViolation("bridge", "the bridge's owner moves only their own Caballeros across it")
    if {src, dst} != set(pair):
        raise P.RuleViolation(
            "bridge",
            "Caballeros cross the bridge between its two regions: {region} and {region2}",
            region=P.area_name(state, pair[0]),
            region2=P.area_name(state, pair[1]),
        )
    if not 1 <= e.count <= state.counts[src][p]:
        raise P.RuleViolation(
            "bridge",
            "{who} has {held} Caballeros in {source}, not {count}",
            who=P.name(state, p),
            held=state.counts[src][p],
            source=P.area_name(state, src),
            count=e.count,
        )
    P.can_enter(state, dst, e.count, P.N_("move Caballeros into"))
    state.counts[src][p] -= e.count
    state.counts[dst][p] += e.count


def score_lines(state: GameState) -> list:
    q, pair = owner(state), ends(state)
    if q is None:
        return []
    assert pair is not None  # an owned bridge lies between two regions
    return [
        ScoreLine(
            state.board.area_id(pair[0]),
            state.players[q],
            POINTS,
            "bridge",
            0,
            "the bridge: 1 point to the player who controls it",
        )
    ]


def _choose_crossing(rng: random.Random, pid: str, o: dict[str, Any]) -> Event:
    movable = [r for r in o["regions"] if o["counts"][r]]
    if not movable or rng.random() < 0.5:
        return ev.SpecialActionFinished(player=pid)
    src = rng.choice(movable)
    dst = next(r for r in o["regions"] if r != src)
    return ev.CaballerosMoved(player=pid, owner=pid, source=src, target=dst, count=rng.randint(1, o["counts"][src]))


CHOOSERS = {"bridge_crossing": _choose_crossing}

register(Effect("bridge", begin, ask, steps={ev.RegionChosen: chosen}))
