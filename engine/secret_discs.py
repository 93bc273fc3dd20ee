"""Secret discs a special action or a scoring asks for: who is still to set one, where each may
go, and one disc set (its reveal is the asking stage's or effect's)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from . import events as ev
from .errors import N_, RuleViolation, Said
from .primitives import Ask, name, player, region
from .state import TABLE, GameState, Special

# The regions a seat may set its disc on, and why one it chose breaks the card's rule.
RegionsOf = Callable[[GameState, int], Collection[int]]
Refusal = Callable[[GameState, int, int], Said]


def disc_ask(
    state: GameState, needed: list[int], chosen: dict[int, int], allowed: dict[str, list[str]], purpose: str
) -> Ask:
    waiting = tuple(state.players[p] for p in needed if p not in chosen)
    if waiting:
        return Ask(
            "secret_disc",
            waiting,
            {"purpose": purpose, "regions": allowed, "chosen": [state.players[p] for p in needed if p in chosen]},
        )
    return Ask("reveal_secret_discs", (TABLE,), {"purpose": purpose, "chosen": [state.players[p] for p in needed]})


def each_disc_ask(state: GameState, sp: Special, regions_of: RegionsOf, purpose: str) -> Ask:
    """Every seat in sp.queue sets a secret disc at once, each among regions_of(state, seat)."""
    ids = state.board.region_ids
    allowed = {state.players[q]: [ids[r] for r in regions_of(state, q)] for q in sp.queue}
    return disc_ask(state, sp.queue, sp.discs, allowed, purpose)


def each_disc_set(state: GameState, sp: Special, e: ev.SecretDiscSet, regions_of: RegionsOf, refusal: Refusal) -> None:
    """One of them sets their disc: a seat asked now, on a region regions_of allows (else
    refusal(state, seat, region) says which rule it breaks)."""
    p = player(state, e.player)
    r = region(state, e.region, N_("a secret disc"))
    if p not in sp.queue:
        raise RuleViolation("secret-disc", "{who} is not asked for a secret disc now", who=name(state, p))
    if r not in regions_of(state, p):
        raise RuleViolation("secret-disc", refusal(state, p, r))
    sp.discs[p] = r
