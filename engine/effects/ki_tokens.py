"""King and Intrigue's lasting tokens (not an effect: the effects that lay them share this).

A token is a public marker in `state.markers` (engine/queries.py reads the taboo ones, the
collapsed Castillo and the limit tables). How long the Quarantine marker and the Risk of
Collapse tile stay is not published: their card's `until` says it ("round": to the end of the
round, a general scoring that directly follows included; "general_scoring": to the end of the
next general scoring), entered by the table. The King's Guard and the Mistress last the round
(and the general scoring directly following), as their text says. rules/king_intrigue/round.py
calls `expire` when a round ends and when a general scoring is over."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, Protocol

from .. import primitives as P
from ..board.model import ActionCard, Board
from ..primitives import Ask
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

if TYPE_CHECKING:
    from ..effect_registry import Effect

UNTIL_CHOICES = ("round", "general_scoring")
ROUND_TOKENS = ("kings_guard", "mistress", "bridge_new")  # the text says: this round (+ the scoring after it)
UNTIL_TOKENS = {"quarantine": "quarantine", "risk_of_collapse": "risk_of_collapse"}  # marker -> effect


class WithBoard(Protocol):
    """A game or a scoring-only game (engine/freeplay.py): what card_param reads of it."""

    board: Board


def card_param(state: WithBoard, effect: str, name: str) -> Any:
    """A parameter of the card of this effect in the game's card set (None: not entered)."""
    for card in state.board.cards.values():
        if card.effect == effect:
            return card.params.get(name)
    return None


def expire(state: GameState, when: str) -> None:
    """Tokens whose time is up: when="round" (a round is over: a general scoring after it is
    over too) or "general_scoring"."""
    markers = state.markers
    if when == "round":
        for m in ROUND_TOKENS:
            if markers.get(m) is not None:
                markers[m] = None
    for m, effect in UNTIL_TOKENS.items():
        if markers.get(m) is not None and card_param(state, effect, "until") in (when, "round"):
            markers[m] = None


def need_until(state: GameState, card: ActionCard, p: int) -> None:
    P.need_params(state, card, "until")


def region_choices(state: GameState, exclude: Collection[int | None] = ()) -> list[int]:
    closed = closed_regions(state)
    return [r for r in state.board.regions if r not in closed and r not in exclude]


def closing_marker(
    marker: str, words: str, check_start: Callable[[GameState, ActionCard, int], None] | None = None
) -> Effect:
    """The Effect of a card that puts `marker` (Quarantine, King's Guard) on a region that is
    not taboo already, closing it like the King's region (engine/queries.py reads the marker).
    `words`: the marker in a message ("the quarantine marker")."""
    from .. import events as ev
    from ..effect_registry import Effect

    def begin(state: GameState, sp: Special) -> None:
        if not region_choices(state):
            finish_special(state)

    def ask(state: GameState, sp: Special) -> Ask:
        ids = state.board.region_ids
        return P.Ask(
            "choose_region",
            (state.players[sp.player],),
            {"purpose": marker, "regions": [ids[r] for r in region_choices(state)]},
        )

    def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
        P.expect_player(state, e.player, sp.player, P.Said(P.N_("place {marker}"), marker=P.Said(words)))
        r = P.region(state, e.region, P.Said(P.N_("{marker}'s region"), marker=P.Said(words)))
        P.not_taboo(state, r, P.Said(P.N_("put {marker} on"), marker=P.Said(words)))
        state.markers[marker] = r
        finish_special(state)

    return Effect(marker, begin, ask, steps={ev.RegionChosen: chosen}, check_start=check_start)
