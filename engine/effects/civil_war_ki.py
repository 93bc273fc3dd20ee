"""Civil War (King and Intrigue, Player's Edition).

Rule text (clarifications only): "You may not choose the King's region. If you have
Caballeros in the chosen region, they remain there. If you do not have any Caballeros in your
Court, you may not execute this action."

The action itself is not published. Read from the clarifications and the same-named 2023
card (the others lose their Caballeros in a region): the player chooses a region that is not
taboo; every other player's Caballeros there leave it (the card's `outcome`: "send_back" to the
provinces or "to_court"), the player's own stay; then the player places up to the card's
`place` Caballeros from their court there (so a player with an empty court may not start it),
as many as the court and a limit table allow. With an empty court the action, once started,
ends at once with nothing done (it "may not be executed"). `outcome` and `place` are not published: the
table enters them (card file: power_cards[pe_civil_war].params); until then the card refuses
to start, naming them."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import room
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

OUTCOMES = ("send_back", "to_court")


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "outcome", "place")


def _regions(state: GameState) -> list[int]:
    closed = closed_regions(state)
    return [r for r in state.board.regions if r not in closed]


def begin(state: GameState, sp: Special) -> None:
    # "If you do not have any Caballeros in your Court, you may not execute this action": it ends unexecuted.
    if not state.court[sp.player] or not _regions(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    ids = state.board.region_ids
    return P.Ask(
        "choose_region",
        (state.players[sp.player],),
        {"purpose": "civil_war", "regions": [ids[r] for r in _regions(state)]},
    )


def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("choose Civil War's region"))
    r = P.region(state, e.region, P.N_("Civil War's region"))
    P.not_taboo(state, r, P.N_("wage Civil War in"))
    for q in P.opponents(state, p):
        P.leave_by_outcome(state, sp, q, r, state.counts[r][q])
    free = room(state, r)
    k = min(sp.card.params["place"], state.court[p], free if free is not None else state.court[p])
    P.do_place(state, p, {r: k})
    sp.moves.append(P.move_line(state, p, k, "court", r))
    P.special_outcome(state, sp)
    finish_special(state)


register(Effect("civil_war_ki", begin, ask, steps={ev.RegionChosen: chosen}, check_start=check_start))
