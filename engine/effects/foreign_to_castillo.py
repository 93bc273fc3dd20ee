"""Into the Castillo (King and Intrigue, the 140 card): foreign Caballeros into the Castillo.

Rule text: "You may choose to forfeit this action entirely. However, if you move any
foreign Caballeros to the Castillo, you must also move 2 of your own Caballeros to the
Castillo. You may not take any Caballeros from the King's region."

How many foreign Caballeros the card moves is not published (`foreign`, entered from the
card); `own` is the text's 2. Caballeros move from the regions (never the King's). A
foreign move is allowed only while your own that must follow can still be moved, so the
action can always be completed; once a foreign Caballero went in, it ends only when your
`own` have gone in too."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import entry_refusal
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "foreign", "own")


def _foreign_moved(sp: Special) -> int:
    return sp.card.params["foreign"] - sp.foreign_left


def _own_movable(state: GameState, p: int) -> int:
    return sum(state.removable_regions(p).values())


def _foreign_allowed(state: GameState, sp: Special) -> bool:
    return sp.foreign_left > 0 and _own_movable(state, sp.player) >= sp.own_left


def _can_finish(sp: Special) -> bool:
    return _foreign_moved(sp) == 0 or sp.own_left == 0


def _sources(state: GameState, sp: Special) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    foreign_ok = _foreign_allowed(state, sp)
    closed = closed_regions(state)
    for r in state.board.regions:
        if r in closed:
            continue
        owners = {}
        for q, c in enumerate(state.counts[r]):
            if not c:
                continue
            limit = sp.own_left if q == sp.player else (sp.foreign_left if foreign_ok else 0)
            if limit:
                owners[state.players[q]] = min(c, limit)
        if owners:
            out[state.board.region_ids[r]] = owners
    return out


def begin(state: GameState, sp: Special) -> None:
    sp.foreign_left, sp.own_left = sp.card.params["foreign"], sp.card.params["own"]
    if not _foreign_allowed(state, sp) or entry_refusal(state, state.board.castillo) is not None:
        finish_special(state)  # no foreign Caballero may go in (or the Castillo is closed): nothing to do


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "move_caballeros",
        (state.players[sp.player],),
        {
            "left": sp.foreign_left + sp.own_left,
            "own_left": sp.own_left,
            "foreign_left": sp.foreign_left,
            "sources": _sources(state, sp),
            "targets": [P.CASTILLO],
            "can_finish": _can_finish(sp),
            "one_source": False,
        },
    )


def moved(state: GameState, sp: Special, e: ev.CaballerosMoved) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("move Caballeros into the Castillo"))
    owner = P.player(state, e.owner)
    src = P.area(state, e.source)
    if P.area(state, e.target) != state.board.castillo:
        raise P.RuleViolation(
            "special-action", "{card} moves Caballeros into the Castillo only", card=P.Card(sp.card.name)
        )
    if src == state.board.castillo:
        raise P.RuleViolation("castillo-no-removal", "Caballeros cannot be moved out of the Castillo")
    P.not_taboo(state, src, P.N_("take Caballeros from"))
    P.can_enter(state, state.board.castillo, e.count, P.N_("move Caballeros into"))
    if state.counts[src][owner] < e.count:
        raise P.RuleViolation(
            "special-action",
            "{who} has only {held} Caballeros in {source}",
            who=P.name(state, owner),
            held=state.counts[src][owner],
            source=P.area_name(state, src),
        )
    if owner == p:
        if e.count > sp.own_left:
            raise P.RuleViolation(
                "special-action",
                "{card} moves {own} of your own Caballeros: {own_left} more, not {count}",
                card=P.Card(sp.card.name),
                own=sp.card.params["own"],
                own_left=sp.own_left,
                count=e.count,
            )
    else:
        if e.count > sp.foreign_left:
            raise P.RuleViolation(
                "special-action",
                "{card} moves {foreign_left} more foreign Caballeros, not {count}",
                card=P.Card(sp.card.name),
                foreign_left=sp.foreign_left,
                count=e.count,
            )
        if _own_movable(state, p) < sp.own_left:
            raise P.RuleViolation(
                "special-action",
                "if you move any foreign Caballeros to the Castillo you must also move {own} of your own, and "
                "{who} cannot",
                own=sp.card.params["own"],
                who=P.name(state, p),
            )
    state.counts[src][owner] -= e.count
    state.counts[state.board.castillo][owner] += e.count
    if owner == p:
        sp.own_left -= e.count
    else:
        sp.foreign_left -= e.count
    if (not sp.foreign_left and not sp.own_left) or (not _sources(state, sp) and _can_finish(sp)):
        finish_special(state)


def finished(state: GameState, sp: Special, e: ev.SpecialActionFinished) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("finish the special action"))
    if not _can_finish(sp):
        raise P.RuleViolation(
            "special-action",
            "{who} moved foreign Caballeros into the Castillo and must also move {own_left} more of their own",
            who=P.name(state, p),
            own_left=sp.own_left,
        )
    finish_special(state)


register(
    Effect(
        "foreign_to_castillo",
        begin,
        ask,
        steps={ev.CaballerosMoved: moved, ev.SpecialActionFinished: finished},
        check_start=check_start,
    )
)
