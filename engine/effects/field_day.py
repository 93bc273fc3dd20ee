"""Field Day (King and Intrigue, Player's Edition; 13).

Rule text: "If an opponent's Grande is in the King's region, they do not participate. If an
opponent chooses the King's region, their Grande remains where it is."
What the card does (a Dutch translation of the Player's Edition, Wandertag): your opponents
move their Grande to another region, decided in secret: each sets on the secret disc a new
home region for their Grande; several may choose the same region.

Read where the text is silent: the disc may not show the region the Grande stands in
("another region"); a Grande in the Castillo waits for the general scoring's disc and does
not take part."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..queries import is_taboo
from ..secret_discs import each_disc_ask, each_disc_set
from ..stages.turn import finish_special
from ..state import GameState, Special

PURPOSE = "field_day"


def _regions(state: GameState, q: int) -> list[int]:
    return [r for r in state.board.regions if r != state.grandes[q]]


def begin(state: GameState, sp: Special) -> None:
    castillo = state.board.castillo
    sp.queue = [
        q
        for q in P.choosers(state, P.opponents(state, sp.player))
        if state.grandes[q] is not None and state.grandes[q] != castillo and not is_taboo(state, state.grandes[q])
    ]
    if not sp.queue:
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return each_disc_ask(state, sp, _regions, PURPOSE)


def _refusal(state: GameState, p: int, r: int) -> P.Said:
    return P.Said(
        "{who}'s Grande moves to another region, not where it stands ({region})",
        who=P.name(state, p),
        region=P.area_name(state, r),
    )


def disc_set(state: GameState, sp: Special, e: ev.SecretDiscSet) -> None:
    each_disc_set(state, sp, e, _regions, _refusal)


def reveal(state: GameState, sp: Special) -> None:
    for q in sp.queue:
        r = sp.discs[q]
        if not is_taboo(state, r):  # "If an opponent chooses the King's region, their Grande remains where it is"
            state.grandes[q] = r
    moved = "; ".join(
        f"{P.name(state, q)}'s Grande to {P.area_name(state, sp.discs[q])}"
        if not is_taboo(state, sp.discs[q])
        else f"{P.name(state, q)}'s Grande stays ({P.area_name(state, sp.discs[q])} is taboo)"
        if sp.discs[q] != state.king
        else f"{P.name(state, q)}'s Grande stays (the King's region)"
        for q in sp.queue
    )
    P.outcome(state, f"{sp.card.name}, played by {P.name(state, sp.player)}: {moved}", [], sp.discs)
    finish_special(state)


register(Effect("field_day", begin, ask, steps={ev.SecretDiscSet: disc_set}, reveal=reveal))
