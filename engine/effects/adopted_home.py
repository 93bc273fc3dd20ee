"""Adopted Home (2023): move your Grande to another region.

Rule book, "Explanations of Special cards":
  "Multiple Grandes may be present in one region. However, you are not allowed to throw
   your Grande into the Castillo. You cannot place him in the King's region nor take him
   from there."
The explanation does not restate the card's own line; read with the classic Grande card
("You may relocate your Grande ... The new region becomes your Home region") it moves your
Grande to a region of your choice. A Grande thrown into the Castillo with Competition
stays there until the general scoring: "No one may ever ... take Caballeros from the
Castillo" and "The only time you may open the Castillo's gate is during a general scoring
(...) or a special Castillo scoring"."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions


def _targets(state: GameState, p: int) -> list[str]:
    home = state.grandes[p]
    closed = closed_regions(state)
    if home is None or home in closed or home == state.board.castillo:
        return []
    return [state.board.region_ids[r] for r in state.board.regions if r not in closed and r != home]


def begin(state: GameState, sp: Special) -> None:
    if not _targets(state, sp.player):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("move_grande", (state.players[sp.player],), {"regions": _targets(state, sp.player)})


def moved(state: GameState, sp: Special, e: ev.GrandeMoved) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("move the Grande"))
    if e.region == P.CASTILLO:
        raise P.RuleViolation("grande-castillo", "Adopted Home cannot throw a Grande into the Castillo")
    r = P.region(state, e.region, P.N_("the Grande's new region"))
    home = state.grandes[p]
    if home == state.board.castillo:
        raise P.RuleViolation(
            "grande", "the Grande is in the Castillo: nothing is taken out of it before a scoring opens it"
        )
    P.not_taboo(state, home, P.N_("move a Grande out of"))
    P.not_taboo(state, r, P.N_("move a Grande into"))
    if r == home:
        raise P.RuleViolation("grande", "the Grande already stands in {region}", region=P.area_name(state, r))
    state.grandes[p] = r
    finish_special(state)


register(Effect("adopted_home", begin, ask, steps={ev.GrandeMoved: moved}))
