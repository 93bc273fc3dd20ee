"""Eviction (classic): "Choose a region. All other players must move all of their own
Caballeros out of this region" to the region their Secret Disc shows (back to the court
when it shows the region itself or a taboo one). The region is named first, then the
discs."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import is_taboo
from ..secret_discs import disc_ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions


def begin(state: GameState, sp: Special) -> None:
    """Waits for the player's one choice."""


def ask(state: GameState, sp: Special) -> Ask:
    board = state.board
    if sp.source is None:
        closed = closed_regions(state)
        regions = [board.region_ids[r] for r in board.regions if r not in closed]
        return P.Ask("choose_region", (state.players[sp.player],), {"purpose": "eviction", "regions": regions})
    allowed = {state.players[q]: list(board.region_ids) for q in sp.queue}
    return disc_ask(state, sp.queue, sp.discs, allowed, "eviction_destination")


def region_chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("choose the region"))
    r = P.region(state, e.region, P.N_("the chosen region"))
    if sp.source is not None:
        raise P.RuleViolation("special-action", "the Eviction region has already been named")
    P.not_taboo(state, r, P.N_("evict Caballeros from"))
    sp.source = r
    sp.queue = [q for q in P.choosers(state, P.opponents(state, sp.player)) if state.counts[r][q]]
    if not sp.queue:
        finish_special(state)


def disc_set(state: GameState, sp: Special, e: ev.SecretDiscSet) -> None:
    p = P.player(state, e.player)
    r = P.region(state, e.region, P.N_("a secret disc"))
    if sp.source is None:
        raise P.RuleViolation("phase-order", "the Eviction region must be named first")
    if p not in sp.queue:
        raise P.RuleViolation("secret-disc", "{who} is not asked for a secret disc now", who=P.name(state, p))
    sp.discs[p] = r


def reveal(state: GameState, sp: Special) -> None:
    if sp.source is None:
        raise P.RuleViolation("phase-order", "the Eviction region must be named first")
    src = sp.source
    for q in sp.queue:
        dst = sp.discs[q]
        k = state.counts[src][q]
        state.counts[src][q] = 0
        if dst == src or is_taboo(state, dst):
            state.court[q] += k
            sp.moves.append(P.move_line(state, q, k, src, "court"))
        else:
            state.counts[dst][q] += k
            sp.moves.append(P.move_line(state, q, k, src, dst))
    P.special_outcome(state, sp, sp.discs)
    finish_special(state)


register(
    Effect("eviction", begin, ask, steps={ev.RegionChosen: region_chosen, ev.SecretDiscSet: disc_set}, reveal=reveal)
)
