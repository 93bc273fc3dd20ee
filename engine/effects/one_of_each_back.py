"""One of each (classic): "You send 1 Caballero of each other player from any region back to the
provinces." The player chooses, one owner at a time."""

from __future__ import annotations

from .. import court_moves as C
from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def begin(state: GameState, sp: Special) -> None:
    sp.queue = [q for q in P.opponents(state, sp.player) if state.removable_regions(q)]
    if not sp.queue:
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    owners = {state.players[q]: C.send_back_options(state, q, 1, court=False) for q in sp.queue}
    return P.Ask("send_back", (state.players[sp.player],), {"owners": owners})


def sent_back(state: GameState, sp: Special, e: ev.CaballerosSentBack) -> None:
    owner = P.player(state, e.owner)
    P.expect_player(state, e.player, sp.player, P.N_("choose whose Caballeros go back"))
    if owner not in sp.queue:
        raise P.RuleViolation(
            "special-action", "no Caballero of {who} is to be sent back now", who=P.name(state, owner)
        )
    taken = C.check_send_back(state, owner, e, 1, court_ok=False)
    C.do_send_back(state, owner, e.from_court, taken)
    sp.moves += [P.move_line(state, owner, e.from_court, "court", "provinces")]
    sp.moves += [P.move_line(state, owner, c, a, "provinces") for a, c in taken.items()]
    sp.queue.remove(owner)
    if not sp.queue:
        P.special_outcome(state, sp)
        finish_special(state)


register(Effect("one_of_each_back", begin, ask, steps={ev.CaballerosSentBack: sent_back}))
