"""Mobile Scoreboard (classic): "You may place one Mobile Scoreboard on the board or move one
that is already there." Never into or out of the King's region; one scoreboard to an area."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import is_taboo, taboo_reason
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions


def moves(state: GameState) -> dict[str, list[str]]:
    board = state.board
    moves = {}
    closed = closed_regions(state)
    for sid, where in state.mobile.items():
        if where in closed:
            continue  # taboo: it may not leave the King's region
        occupied = {w for w in state.mobile.values() if w is not None}
        targets = [board.area_id(a) for a in range(board.castillo + 1) if a not in closed and a not in occupied]
        if targets:
            moves[sid] = targets
    return moves


def begin(state: GameState, sp: Special) -> None:
    if not moves(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("place_mobile_scoreboard", (state.players[sp.player],), {"moves": moves(state)})


def placed(state: GameState, sp: Special, e: ev.MobileScoreboardPlaced) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("place a mobile scoreboard"))
    a = P.area(state, e.area)
    where = state.mobile[e.scoreboard]
    if where is not None and is_taboo(state, where):
        raise P.RuleViolation(
            "mobile-scoreboard",
            P.N_("the {scoreboard} scoreboard lies in the King's region and may not leave it")
            if where == state.king
            else P.N_("the {scoreboard} scoreboard may not leave {area}: {why}"),
            scoreboard=e.scoreboard,
            area=P.area_name(state, where),
            why=taboo_reason(state, where),
        )
    P.not_taboo(state, a, P.N_("place a mobile scoreboard in"))
    other = state.mobile_at(a)
    if other is not None:
        raise P.RuleViolation(
            "mobile-scoreboard",
            P.N_("{area} cannot take the {scoreboard} scoreboard: a mobile scoreboard already lies there")
            if other == e.scoreboard
            else P.N_("{area} cannot take the {scoreboard} scoreboard: a mobile scoreboard ({other}) lies there"),
            area=P.area_name(state, a),
            scoreboard=e.scoreboard,
            other=other,
        )
    state.mobile[e.scoreboard] = a
    finish_special(state)


register(Effect("mobile_scoreboard", begin, ask, steps={ev.MobileScoreboardPlaced: placed}))
