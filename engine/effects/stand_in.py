"""Stand-in (2023): two pieces change places.

Rule book, "Explanations of Special cards":
  "You are only allowed to swap them, if both are located in the regions (i.e. not in
   France, Portugal, or the Castillo)."

The book does not say which two pieces: the card states it (`swap`):
  king_and_own_grande          the King and your Grande
  king_and_any_grande          the King and a Grande of your choice
  own_grande_and_other_grande  your Grande and another player's
  any_two_grandes              any two Grandes
(only the King goes to France or Portugal, and only Grandes into the Castillo, hence these).
A card without it refuses to start, naming the missing fact.

Both pieces stand in regions, in two different regions (a swap within one region changes
nothing). Two Grandes: neither in the King's region ("No Caballeros, Grandes, or Scoring
tiles may be placed in or removed from the King's region"). The King and a Grande: the King
leaves his region as the Grande enters it, so it is the King's region no longer; a swap
with the King is always that, or the card could never be played."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..events import Event
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special

ASK = "swap_pieces"


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "swap")


def _in_region(state: GameState, a: int) -> bool:
    return a is not None and a in state.board.regions


def _pairs(state: GameState, sp: Special) -> list[tuple[bool, tuple[int, ...]]]:
    """(with the King, Grande owners) of every swap the card allows now."""
    swap, p = sp.card.params["swap"], sp.player
    g = state.grandes
    seats = [q for q in range(state.n) if _in_region(state, g[q])]
    pairs: list[tuple[bool, tuple[int, ...]]] = []
    if swap.startswith("king_and_"):
        if _in_region(state, state.king):
            owners = [p] if swap == "king_and_own_grande" else seats
            pairs += [(True, (q,)) for q in owners if q in seats and g[q] != state.king]
    else:
        free = [q for q in seats if g[q] != state.king]
        firsts = [p] if swap == "own_grande_and_other_grande" else free
        pairs += [
            (False, (a, b))
            for a in firsts
            for b in free
            if a in free and a != b and g[a] != g[b] and (swap != "any_two_grandes" or a < b)
        ]
    return pairs


def begin(state: GameState, sp: Special) -> None:
    if not _pairs(state, sp):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    pairs = [{"king": king, "grandes": [state.players[q] for q in owners]} for king, owners in _pairs(state, sp)]
    return P.Ask(ASK, (state.players[sp.player],), {"pairs": pairs})


def swapped(state: GameState, sp: Special, e: ev.PiecesSwapped) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("swap pieces"))
    owners = tuple(P.player(state, pid) for pid in e.grandes)
    wanted = {(king, tuple(sorted(qs))) for king, qs in _pairs(state, sp)}
    if (e.king, tuple(sorted(owners))) not in wanted:
        raise P.RuleViolation(
            "stand-in",
            "{card} cannot swap {pieces}: it swaps {swap}, both in regions (not France, Portugal or the "
            "Castillo), in two different regions, and no Grande of the King's region",
            card=P.Card(sp.card.name),
            pieces=_said(state, e.king, owners),
            swap=sp.card.params["swap"].replace("_", " "),
        )
    g = state.grandes
    if e.king:
        (q,) = owners
        state.king, g[q] = g[q], state.king
    else:
        a, b = owners
        g[a], g[b] = g[b], g[a]
    finish_special(state)


def _said(state: GameState, king: bool, owners: Iterable[int]) -> P.Said:
    who = [P.name(state, q) for q in owners]
    if king and len(who) == 1:
        return P.Said(P.N_("the King and {who}'s Grande"), who=who[0])
    if not king and len(who) == 2:
        return P.Said(P.N_("{who}'s Grande and {other}'s Grande"), who=who[0], other=who[1])
    if not king and len(who) == 1:
        return P.Said(P.N_("{who}'s Grande"), who=who[0])
    if king and not who:
        return P.Said(P.N_("the King"))
    return P.Said(P.N_("the King and the Grandes of {who}") if king else P.N_("the Grandes of {who}"), who=who)


def _choose(rng: random.Random, pid: str, o: dict[str, Any]) -> Event:
    pair = rng.choice(o["pairs"])
    return ev.PiecesSwapped(player=pid, king=pair["king"], grandes=pair["grandes"])


CHOOSERS = {ASK: _choose}

register(Effect("stand_in", begin, ask, steps={ev.PiecesSwapped: swapped}, check_start=check_start))
