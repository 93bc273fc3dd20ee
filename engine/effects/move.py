"""Intrigue (classic): "You may move any 3 Caballeros on the board" and its siblings: a total,
how many own and how many foreign (`total`, `own`, `foreign`), from one region only
(`one_source`), to one region only (`one_target`). It may stop early (SpecialActionFinished)."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import tokens_out
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions


def movable_sources(state: GameState, sp: Special) -> dict[str, dict[str, int]]:
    """Region -> owner -> Caballeros the current move special may still take."""
    out: dict[str, dict[str, int]] = {}
    regions = [sp.source] if sp.source is not None else state.board.regions
    closed = closed_regions(state)
    for r in regions:
        if r in closed:
            continue
        row = state.counts[r]
        owners = {}
        for q, c in enumerate(row):
            if not c:
                continue
            if sp.effect == "move_all_own":
                if q == sp.player:
                    owners[state.players[q]] = c
                continue
            limit = min(sp.left, sp.own_left if q == sp.player else sp.foreign_left)
            if limit:
                owners[state.players[q]] = min(c, limit)
        if owners:
            out[state.board.region_ids[r]] = owners
    return out


def _targets_now(state: GameState, sp: Special) -> list[str]:
    """Where this move may go: never back into its one source; only to its one target once
    a card that moves to one region (`one_target`) has chosen it."""
    board = state.board
    if sp.target is not None:
        return [board.area_id(sp.target)]
    targets = P.movable_targets(state)
    return targets if sp.source is None else [t for t in targets if t != board.area_id(sp.source)]


def begin(state: GameState, sp: Special) -> None:
    params = sp.card.params
    sp.left, sp.own_left, sp.foreign_left = params["total"], params["own"], params["foreign"]
    if not movable_sources(state, sp):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    options = {
        "left": sp.left,
        "own_left": sp.own_left,
        "foreign_left": sp.foreign_left,
        "sources": movable_sources(state, sp),
        "targets": _targets_now(state, sp),
        "can_finish": sp.effect == "move",
        "one_source": bool(sp.card.params.get("one_source")) or sp.effect == "move_all_own",
    }
    return P.Ask("move_caballeros", (state.players[sp.player],), options)


def moved(state: GameState, sp: Special, e: ev.CaballerosMoved) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("move Caballeros"))
    owner = P.player(state, e.owner)
    src = P.area(state, e.source)
    dst = P.area(state, e.target)
    if src == state.board.castillo:
        raise P.RuleViolation("castillo-no-removal", "Caballeros cannot be moved out of the Castillo")
    P.not_taboo(state, src, P.N_("move Caballeros out of"))
    P.not_taboo(state, dst, P.N_("move Caballeros into"))
    if state.markers and tokens_out(state):
        P.can_enter(state, dst, e.count, P.N_("move Caballeros into"))
    if src == dst:
        raise P.RuleViolation("special-action", "a move needs a different source and target")
    if state.counts[src][owner] < e.count:
        raise P.RuleViolation(
            "special-action",
            "{who} has only {held} Caballeros in {source}",
            who=P.name(state, owner),
            held=state.counts[src][owner],
            source=P.area_name(state, src),
        )
    if sp.source is not None and src != sp.source:
        raise P.RuleViolation(
            "special-action",
            "{card} moves Caballeros from one region only: {source}",
            card=P.Card(sp.card.name),
            source=P.area_name(state, sp.source),
        )
    if sp.target is not None and dst != sp.target:
        raise P.RuleViolation(
            "special-action",
            "{card} moves them all to one region: {target}",
            card=P.Card(sp.card.name),
            target=P.area_name(state, sp.target),
        )
    if sp.effect == "move_all_own":
        if owner != p:
            raise P.RuleViolation("special-action", "this card moves only your own Caballeros")
    else:
        own = owner == p
        limit = sp.own_left if own else sp.foreign_left
        if e.count > min(limit, sp.left):
            raise P.RuleViolation(
                "special-action",
                P.N_("{card} allows {left} more own Caballeros to move, not {count}")
                if own
                else P.N_("{card} allows {left} more foreign Caballeros to move, not {count}"),
                card=P.Card(sp.card.name),
                left=min(limit, sp.left),
                count=e.count,
            )
    state.counts[src][owner] -= e.count
    state.counts[dst][owner] += e.count
    if sp.effect == "move_all_own" or sp.card.params.get("one_source"):
        sp.source = src
    if sp.card.params.get("one_target"):
        sp.target = dst
    if sp.effect == "move_all_own":
        if not state.counts[src][p]:
            finish_special(state)
        return
    sp.left -= e.count
    if owner == p:
        sp.own_left -= e.count
    else:
        sp.foreign_left -= e.count
    if not sp.left or not movable_sources(state, sp):
        finish_special(state)


def stopped(state: GameState, sp: Special, e: ev.SpecialActionFinished) -> None:
    """ "You may move": the player stops before the total is used up."""
    P.expect_player(state, e.player, sp.player, P.N_("finish the special action"))
    finish_special(state)


register(Effect("move", begin, ask, steps={ev.CaballerosMoved: moved, ev.SpecialActionFinished: stopped}))
