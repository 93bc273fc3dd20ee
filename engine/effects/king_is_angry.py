"""The King is Angry! (classic): "Your fellow players must each send 3 Caballeros back to the
provinces. They can be taken from the court and/or the regions" (`count`), each player in
turn from the active player's left; the dummy is never asked; never from the King's region
or the Castillo. A player with fewer sends back all they can."""

from __future__ import annotations

from .. import court_moves as C
from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special


def _count(state: GameState, sp: Special, q: int) -> int:
    available = state.court[q] + sum(state.removable_regions(q).values())
    return min(sp.card.params["count"], available)


def begin(state: GameState, sp: Special) -> None:
    sp.queue = [q for q in P.choosers(state, P.opponents(state, sp.player)) if _count(state, sp, q)]
    if not sp.queue:
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    q = sp.queue[0]
    owners = {state.players[q]: C.send_back_options(state, q, _count(state, sp, q), court=True)}
    return P.Ask("send_back", (state.players[q],), {"owners": owners})


def sent_back(state: GameState, sp: Special, e: ev.CaballerosSentBack) -> None:
    owner = P.player(state, e.owner)
    P.expect_player(state, e.player, sp.queue[0], P.N_("send Caballeros back"))
    if owner != sp.queue[0]:
        raise P.RuleViolation("special-action", "each player sends back their own Caballeros")
    taken = C.check_send_back(state, owner, e, _count(state, sp, owner), court_ok=True)
    C.do_send_back(state, owner, e.from_court, taken)
    sp.moves += [P.move_line(state, owner, e.from_court, "court", "provinces")]
    sp.moves += [P.move_line(state, owner, c, a, "provinces") for a, c in taken.items()]
    sp.queue.remove(owner)
    if not sp.queue:
        P.special_outcome(state, sp)
        finish_special(state)


register(Effect("king_is_angry", begin, ask, steps={ev.CaballerosSentBack: sent_back}))
