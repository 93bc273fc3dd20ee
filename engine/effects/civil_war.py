"""Civil War (2023): each other player chooses a region where they have Caballeros, and
loses them there.

Rule book, "Explanations of Special cards":
  "All other players must choose a region in which they have at least 1 Caballero. If a
   player has no Caballeros in any region, they are lucky (they also need it)."

The book does not say what happens in the chosen region: the card states it (`outcome`:
"send_back" = back to the Province, "to_court" = into the player's court; `count`: how
many, left out = all of them there). Until the table enters it, the card refuses to start,
naming the missing fact.

How the others choose: with the Secret disc, all at once, as the classic card with the same
sentence ("Each of the other players (not yourself) simultaneously selects a region with
the Secret Disk where they have at least 1 Caballero") and the 2023 "Secret disc" section
("All specified players must secretly set the arrow on their Secret disc ... Then,
simultaneously reveal all discs and perform the rest of the card effect").
The King's region is never chosen: "No Caballeros ... may be ... removed from the King's
region"; a player whose only Caballeros stand there is as lucky as one with none. The
2-player dummy is skipped: "if an Action card would require the dummy's action (e.g.
choose a region), skip the dummy"."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..board.model import ActionCard
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..secret_discs import each_disc_ask, each_disc_set
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

PURPOSE = "civil_war"


def check_start(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "outcome")


def _regions(state: GameState, q: int) -> list[int]:
    """The regions q's disc may show: any holding their Caballeros but the King's."""
    closed, counts = closed_regions(state), state.counts
    return [r for r in state.board.regions if r not in closed and counts[r][q]]


def begin(state: GameState, sp: Special) -> None:
    sp.queue = [q for q in P.choosers(state, P.opponents(state, sp.player)) if _regions(state, q)]
    if not sp.queue:
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return each_disc_ask(state, sp, _regions, PURPOSE)


def _refusal(state: GameState, p: int, r: int) -> P.Said:
    return P.Said(
        "{who} cannot pick {region}: Civil War takes a region where they have at least 1 Caballero, not the King's",
        who=P.name(state, p),
        region=P.area_name(state, r),
    )


def disc_set(state: GameState, sp: Special, e: ev.SecretDiscSet) -> None:
    each_disc_set(state, sp, e, _regions, _refusal)


def reveal(state: GameState, sp: Special) -> None:
    limit = sp.card.params.get("count")
    for q in sp.queue:
        r = sp.discs[q]
        P.leave_by_outcome(state, sp, q, r, state.counts[r][q] if limit is None else min(limit, state.counts[r][q]))
    P.special_outcome(state, sp, sp.discs)
    finish_special(state)


register(Effect("civil_war", begin, ask, steps={ev.SecretDiscSet: disc_set}, reveal=reveal, check_start=check_start))
