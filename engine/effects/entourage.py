"""Entourage (2023): the King moves, and Caballeros of his region go with him.

Rule book, "Explanations of Special cards":
  "You must move 2 Caballeros to the same region as the King. If there are less than 2
   Caballeros in the region, you must move as many Caballeros as possible along with the
   King. You forfeit the others."

"The region" is the one the King leaves: Caballeros go "along with the King". The book
does not print the card's own line, so the card states what the explanation leaves open:
`count` (the book: 2), `king_to` ("any_region" or "adjacent_region": where the King may
go) and `whose` ("own", "opposing" or "any": whose Caballeros go with him; the dummy's are
opposing, "You may move the dummy's Caballeros ... according to the normal rules"). A card
without them refuses to start, naming the missing fact.

The King and his entourage move in one step (EntourageMoved), the one exception the card
makes to "Nothing in the King's region may ever be changed". Caballeros never leave the
Castillo ("You are not allowed to move Caballeros out of the Castillo"), so a King standing
by it (Rebellion), or in France or Portugal, takes nobody along."""

from __future__ import annotations

import random
from typing import Any

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..events import Event
from ..primitives import Ask
from ..queries import kings_neighbours
from ..stages.turn import finish_special
from ..state import GameState, Special

ASK = "move_king_with_entourage"


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "count", "king_to", "whose")


def _eligible(state: GameState, sp: Special) -> dict[int, int]:
    """Seat -> Caballeros in the King's region that may go with him."""
    if state.king not in state.board.regions:
        return {}
    whose = sp.card.params["whose"]
    row = state.counts[state.king]
    return {q: c for q, c in enumerate(row) if c and (whose == "any" or (q == sp.player) == (whose == "own"))}


def _due(state: GameState, sp: Special) -> int:
    return min(sp.card.params["count"], sum(_eligible(state, sp).values()))


def _targets(state: GameState, sp: Special) -> list[int]:
    if sp.card.params["king_to"] == "adjacent_region":
        return sorted(kings_neighbours(state))
    return [r for r in state.board.regions if r != state.king]


def begin(state: GameState, sp: Special) -> None:
    if not _targets(state, sp):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    ids = state.board.region_ids
    return P.Ask(
        ASK,
        (state.players[sp.player],),
        {
            "regions": [ids[r] for r in _targets(state, sp)],
            "from": P.where_id(state, state.king),
            "count": _due(state, sp),
            "caballeros": {state.players[q]: c for q, c in _eligible(state, sp).items()},
        },
    )


def moved(state: GameState, sp: Special, e: ev.EntourageMoved) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("move the King"))
    r = P.region(state, e.region, P.N_("the King's new region"))
    if r not in _targets(state, sp):
        raise P.RuleViolation(
            "king-move-2023",
            P.N_("{card} moves the King to a region next to his, not {region}")
            if sp.card.params["king_to"] == "adjacent_region"
            else P.N_("{card} moves the King to another region, not {region}"),
            card=P.Card(sp.card.name),
            region=P.area_name(state, r),
        )
    eligible = _eligible(state, sp)
    going = {}
    for pid, c in e.caballeros.items():
        if not c:
            continue
        q = P.player(state, pid)
        if c > eligible.get(q, 0):
            whose = {"own": P.N_("your own"), "opposing": P.N_("opposing"), "any": P.N_("any")}[sp.card.params["whose"]]
            raise P.RuleViolation(
                "entourage",
                "{card} takes {whose} Caballeros from the King's region: {who} has {may_go} there that may go, "
                "not {count}",
                card=P.Card(sp.card.name),
                whose=P.Said(whose),
                who=P.name(state, q),
                may_go=eligible.get(q, 0),
                count=c,
            )
        going[q] = c
    due = _due(state, sp)
    if sum(going.values()) != due:
        raise P.RuleViolation(
            "entourage",
            P.plural(
                "{card}: {due} Caballero must go with the King (as many as possible, up to {most}), not {going}",
                "{card}: {due} Caballeros must go with the King (as many as possible, up to {most}), not {going}",
                "due",
            ),
            card=P.Card(sp.card.name),
            due=due,
            most=sp.card.params["count"],
            going=sum(going.values()),
        )
    origin = state.king
    for q, c in going.items():
        state.counts[origin][q] -= c
        state.counts[r][q] += c
        sp.moves.append(P.move_line(state, q, c, origin, r))
    state.king = r
    if sp.moves:
        P.special_outcome(state, sp)
    finish_special(state)


def _choose(rng: random.Random, pid: str, o: dict[str, Any]) -> Event:
    pool = [q for q, c in o["caballeros"].items() for _ in range(c)]
    going: dict[str, int] = {}
    for q in rng.sample(pool, o["count"]):
        going[q] = going.get(q, 0) + 1
    return ev.EntourageMoved(player=pid, region=rng.choice(o["regions"]), caballeros=going)


CHOOSERS = {ASK: _choose}

register(Effect("entourage", begin, ask, steps={ev.EntourageMoved: moved}, check_start=check_start))
