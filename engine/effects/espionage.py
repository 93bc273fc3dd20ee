"""Espionage (King and Intrigue, Special cards): a spy waits on the card.

Rule text: "This card has no effect on your use of the secret disc during a special action.
After the next general scoring, discard this card." The text's next clarification, printed
without a card name among the Special cards, reads as this card's: "You may move the Caballero
on this card to a region directly before a region is scored during a special or general
scoring. You may not move this Caballero to the Castillo or the King's region."

Read: the action lays the card in front of the player (public marker `espionage_<player>`) with
one Caballero from their court on it (`state.aside`, counted among their 30; an empty court:
nothing to lay); the spy is not in the Castillo, so no secret disc moves it. Directly before
the next general scoring (before the discs are revealed) rules/king_intrigue/round.py asks each spy's
owner "spy_move": a region that is not taboo (RegionChosen: the spy joins that region before it
is scored) or keep it (SpecialActionSkipped). Directly before a special scoring the same is asked
("spy_move" again), once per scoring, for the regions it scores: the event that would score (a
card's start, a Veto let pass, a region named, discs revealed) is tried on a copy and, when it
scores regions (those its lines name, and the region named or the group's regions even where
nobody stands), held back (state.deferred) until every spy's owner has decided, then applied.
After the next general scoring the card is discarded and a spy still on it goes back to the
court."""

from __future__ import annotations

import random
from typing import Any

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..events import Event
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

PREFIX = "espionage_"


def place(pid: str) -> str:
    return PREFIX + pid


def begin(state: GameState, sp: Special) -> None:
    p = sp.player
    pid = state.players[p]
    if state.court[p] and place(pid) not in state.aside:
        state.court[p] -= 1
        state.aside[place(pid)] = p
        state.markers[place(pid)] = pid
        sp.moves.append(P.move_line(state, p, 1, "court", "espionage"))
        P.special_outcome(state, sp)
    finish_special(state)


def spies(state: GameState) -> list[int]:
    """Seats with a spy on their Espionage card, in seat order."""
    return sorted(q for k, q in state.aside.items() if k.startswith(PREFIX))


def pending(state: GameState) -> list[int]:
    decided = state.markers.get("spies_decided") or ()
    return [q for q in spies(state) if state.players[q] not in decided]


def _regions(state: GameState) -> list[str]:
    """Where a spy may go now: the regions about to be scored (a special scoring held back in
    state.deferred), or at a general scoring every region; never a taboo one or the Castillo."""
    if state.deferred is not None:
        return list(state.deferred[2])
    closed = closed_regions(state)
    return [state.board.region_ids[r] for r in state.board.regions if r not in closed]


def ask(state: GameState) -> Ask:
    q = pending(state)[0]
    return P.Ask("spy_move", (state.players[q],), {"regions": _regions(state)})


def _decided(state: GameState, q: int) -> None:
    state.markers["spies_decided"] = tuple(state.markers.get("spies_decided") or ()) + (state.players[q],)


def moved(state: GameState, e: ev.RegionChosen) -> None:
    q = P.expect_player(state, e.player, pending(state)[0], P.N_("move the spy"))
    r = P.region(state, e.region, P.N_("the spy's region"))
    P.can_enter(state, r, 1, P.N_("move the spy into"))
    if e.region not in _regions(state):
        raise P.RuleViolation(
            "special-action",
            "the spy joins a region directly before it is scored: {regions}, not {region}",
            regions=_regions(state),
            region=P.area_name(state, r),
        )
    del state.aside[place(state.players[q])]
    state.counts[r][q] += 1
    P.outcome(
        state,
        f"Espionage: {P.name(state, q)}'s spy joins {P.area_name(state, r)}",
        [P.move_line(state, q, 1, "espionage", r)],
    )
    _decided(state, q)


def kept(state: GameState, e: ev.SpecialActionSkipped) -> None:
    q = P.expect_player(state, e.player, pending(state)[0], P.N_("keep the spy"))
    _decided(state, q)


def discard(state: GameState) -> None:
    """After the general scoring: every Espionage card discarded, a spy still on it to the court."""
    for key in [k for k in state.aside if k.startswith(PREFIX)]:
        state.court[state.aside.pop(key)] += 1
    for key in [k for k in state.markers if k.startswith(PREFIX) or k == "spies_decided"]:
        state.markers[key] = None


def _choose(rng: random.Random, pid: str, o: dict[str, Any]) -> Event:
    if not o["regions"] or rng.random() < 0.5:
        return ev.SpecialActionSkipped(player=pid)
    return ev.RegionChosen(player=pid, region=rng.choice(o["regions"]))


CHOOSERS = {"spy_move": _choose}

register(Effect("espionage", begin))
