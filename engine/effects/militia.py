"""Militia (2023): Caballeros from your court to any region(s) but the King's.

Rule book, "Explanations of Special cards":
  "You may split your Caballeros or put them both in one region. You do not have to place
   them in neighbor regions of the King's region. However, you cannot place them in the
   Castillo or directly in the King's region."
and "Place Caballeros": "You may only use Caballeros from your Court."

The number comes from the card (`count`; the book's "both" says 2). Once begun it is
carried out as far as it goes ("If you perform the Special action, you must perform as
much of the action as possible"): exactly `count` Caballeros, or all the court holds."""

from __future__ import annotations

import random
from typing import Any

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..events import Event
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

ASK = "place_anywhere"


def _due(state: GameState, sp: Special) -> int:
    return min(sp.card.params["count"], state.court[sp.player])


def _areas(state: GameState) -> list[str]:
    closed = closed_regions(state)
    return [state.board.region_ids[r] for r in state.board.regions if r not in closed]


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "count")


def begin(state: GameState, sp: Special) -> None:
    if not _due(state, sp):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(ASK, (state.players[sp.player],), {"count": _due(state, sp), "areas": _areas(state)})


def placed(state: GameState, sp: Special, e: ev.ExtraCaballerosPlaced) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("place the Militia"))

    def region_not_kings(a: int) -> None:
        if a == state.board.castillo:
            raise P.RuleViolation("militia", "Militia cannot place Caballeros in the Castillo")
        P.not_taboo(state, a, P.N_("place Caballeros in"))

    due = _due(state, sp)
    placed = P.check_placements(state, p, e.placements, due, region_not_kings)
    if sum(placed.values()) != due:
        raise P.RuleViolation(
            "militia",
            P.plural(
                "Militia places {due} Caballero from the court (as many as it can), not {placed}",
                "Militia places {due} Caballeros from the court (as many as it can), not {placed}",
                "due",
            ),
            due=due,
            placed=sum(placed.values()),
        )
    P.do_place(state, p, placed)
    finish_special(state)


def _choose(rng: random.Random, pid: str, o: dict[str, Any]) -> Event:
    out: dict[str, int] = {}
    for _ in range(o["count"]):
        a = rng.choice(o["areas"])
        out[a] = out.get(a, 0) + 1
    return ev.ExtraCaballerosPlaced(player=pid, placements=out)


CHOOSERS = {ASK: _choose}

register(Effect("militia", begin, ask, steps={ev.ExtraCaballerosPlaced: placed}, check_start=check_start))
