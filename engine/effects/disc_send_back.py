"""Secret Disc (classic): "Each of your fellow players selects a region with their Secret Disk.
They must then send all (or `count`) of their Caballeros from that region back to the
provinces." A region must hold enough of theirs when one does; never the King's."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..secret_discs import disc_ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def regions_of(state: GameState, sp: Special, q: int) -> list[int]:
    own = state.removable_regions(q)
    need = sp.card.params.get("count")
    if need:
        enough = [r for r, c in own.items() if c >= need]
        if enough:
            return enough
    return list(own)


def begin(state: GameState, sp: Special) -> None:
    sp.queue = [q for q in P.choosers(state, P.opponents(state, sp.player)) if regions_of(state, sp, q)]
    if not sp.queue:
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    ids = state.board.region_ids
    allowed = {state.players[q]: [ids[r] for r in regions_of(state, sp, q)] for q in sp.queue}
    return disc_ask(state, sp.queue, sp.discs, allowed, "send_back")


def disc_set(state: GameState, sp: Special, e: ev.SecretDiscSet) -> None:
    p = P.player(state, e.player)
    r = P.region(state, e.region, P.N_("a secret disc"))
    if p not in sp.queue:
        raise P.RuleViolation("secret-disc", "{who} is not asked for a secret disc now", who=P.name(state, p))
    if r not in regions_of(state, sp, p):
        raise P.RuleViolation(
            "secret-disc",
            "{who} cannot pick {region}: the region must hold enough of their Caballeros and not be the King's",
            who=P.name(state, p),
            region=P.area_name(state, r),
        )
    sp.discs[p] = r


def reveal(state: GameState, sp: Special) -> None:
    limit = sp.card.params.get("count")
    for q in sp.queue:
        r = sp.discs[q]
        k = state.counts[r][q] if limit is None else min(limit, state.counts[r][q])
        state.counts[r][q] -= k
        state.provinces[q] += k
        sp.moves.append(P.move_line(state, q, k, r, "provinces"))
    P.special_outcome(state, sp, sp.discs)
    finish_special(state)


register(Effect("disc_send_back", begin, ask, steps={ev.SecretDiscSet: disc_set}, reveal=reveal))
