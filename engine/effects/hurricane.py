"""Hurricane (King and Intrigue, Special cards).

Rule text (a clarification only): "You reveal your secret disc at the beginning of your turn."

The action itself is not published. Read: the player sets their secret disc on a region (not
a taboo one: nothing there may change) and reveals it; the storm strikes that region: every
Caballero there leaves it by the card's `outcome` ("send_back": to the provinces, "to_court":
to the owners' courts). The engine asks the disc as the special action and reveals it at once,
before the turn's placement ("at the beginning of your turn": placing is neither offered nor
accepted until it is done; the Caballeros to the court come first, as in every turn); `outcome`
is not published and is entered by the table (card file:
power_cards[sc_hurricane].params.outcome); until then the card refuses to start, naming it."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..secret_discs import disc_ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

PURPOSE = "hurricane"


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "outcome")


def _regions(state: GameState) -> list[int]:
    closed = closed_regions(state)
    return [r for r in state.board.regions if r not in closed]


def begin(state: GameState, sp: Special) -> None:
    sp.queue = [sp.player]
    if not _regions(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    ids = state.board.region_ids
    return disc_ask(state, sp.queue, sp.discs, {state.players[sp.player]: [ids[r] for r in _regions(state)]}, PURPOSE)


def disc_set(state: GameState, sp: Special, e: ev.SecretDiscSet) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("set the Hurricane's disc"))
    r = P.region(state, e.region, P.N_("a secret disc"))
    P.not_taboo(state, r, P.N_("send the Hurricane to"))
    sp.discs[p] = r


def reveal(state: GameState, sp: Special) -> None:
    r = sp.discs[sp.player]
    for q in range(state.n):
        P.leave_by_outcome(state, sp, q, r, state.counts[r][q])
    P.special_outcome(state, sp, sp.discs)
    finish_special(state)


register(
    Effect(
        "hurricane",
        begin,
        ask,
        steps={ev.SecretDiscSet: disc_set},
        reveal=reveal,
        check_start=check_start,
        first_in_turn=P.N_('"You reveal your secret disc at the beginning of your turn"'),
    )
)
