"""Grande (classic): "You may relocate your Grande" to another region; never out of or into
the King's region."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions


def targets(state: GameState, p: int) -> list[str]:
    closed = closed_regions(state)
    if state.grandes[p] in closed:
        return []
    return [state.board.region_ids[r] for r in state.board.regions if r not in closed and r != state.grandes[p]]


def begin(state: GameState, sp: Special) -> None:
    if not targets(state, sp.player):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("move_grande", (state.players[sp.player],), {"regions": targets(state, sp.player)})


def moved(state: GameState, sp: Special, e: ev.GrandeMoved) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("move the Grande"))
    r = P.region(state, e.region, P.N_("the Grande's new home"))
    home = state.grandes[p]
    assert home is not None  # only the dummy has no Grande, and it plays no card
    P.not_taboo(state, home, P.N_("move a Grande out of"))
    P.not_taboo(state, r, P.N_("move a Grande into"))
    if r == state.grandes[p]:
        raise P.RuleViolation("grande", "the Grande already stands in {region}", region=P.area_name(state, r))
    state.grandes[p] = r
    finish_special(state)


register(Effect("grande", begin, ask, steps={ev.GrandeMoved: moved}))
