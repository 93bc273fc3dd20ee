"""Competition (2023): throw your Grande into the Castillo.

Rule book, "Explanations of Special cards":
  "Only with this card, you can throw Grandes into the Castillo. When scoring the
   Castillo, you can get the Grande's bonus. Then move your Grande using the Secret disc
   (along with your Caballeros)."
  "Special case: After scoring the Castillo with the "Revelation" card, throw the Grandes
   back into the Castillo."

The player throws their own Grande in ("move your Grande"). Where the rest is applied:
the Grande's bonus in score_area (a Grande whose home is the Castillo), the move with the
disc at the general scoring (engine.stages.scoring.run_general_scoring: the Grande goes where the
disc shows; that disc may not show the King's region, where no Grande may be placed), and
Revelation leaves everything in the Castillo. A Grande in the King's region may not leave
it, and while the King stands by the Castillo (Rebellion) nothing may be thrown in."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import entry_refusal, is_taboo
from ..stages.turn import finish_special
from ..state import GameState, Special


def _possible(state: GameState, p: int) -> bool:
    castillo = state.board.castillo
    home = state.grandes[p]
    return (
        home is not None and home != castillo and not is_taboo(state, home) and entry_refusal(state, castillo) is None
    )


def begin(state: GameState, sp: Special) -> None:
    if not _possible(state, sp.player):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask("move_grande", (state.players[sp.player],), {"regions": [P.CASTILLO]})


def thrown(state: GameState, sp: Special, e: ev.GrandeMoved) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("throw the Grande into the Castillo"))
    if e.region != P.CASTILLO:
        raise P.RuleViolation(
            "grande-castillo",
            "{card} throws your Grande into the Castillo, not to {region}",
            card=P.Card(sp.card.name),
            region=e.region,
        )
    P.not_taboo(state, state.grandes[p], P.N_("move a Grande out of"))
    P.not_taboo(state, state.board.castillo, P.N_("throw a Grande into"))
    state.grandes[p] = state.board.castillo
    finish_special(state)


register(Effect("competition", begin, ask, steps={ev.GrandeMoved: thrown}))
