"""A special action under way: what its effect asks (engine/effects/<effect>.py), and the
events only an effect takes, refused here when no effect under way takes them. The flow
gives an event to the effect under way first (flow.dispatch)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import events as ev
from ..effect_registry import EFFECTS
from ..errors import N_, Card, RuleViolation
from ..hooks import Stage
from ..primitives import (
    Ask,
    expect_player,
    expect_special,
    expect_stage,
    lifting_castillo,
    name,
    veto_holders,
    veto_stops_whole_only,
)
from ..state import GameState

if TYPE_CHECKING:
    from ..events import Event


def ask_special(state: GameState) -> Ask:
    sp, turn = state.special, state.turn
    assert sp is not None and turn is not None  # a special action is a turn's
    effect_ask = EFFECTS[sp.effect].ask
    assert effect_ask is not None  # an effect with a stage of its own asks
    ask = effect_ask(state, sp)
    ask.card = sp.card.id
    holders = veto_holders(state, exclude=sp.player)
    if holders and not veto_stops_whole_only(state) and turn.card is not None and not lifting_castillo(state):
        ask.vetoes = tuple(state.players[q] for q in holders)
    return ask


def apply_special_finished(state: GameState, e: ev.SpecialActionFinished) -> None:
    expect_stage(state, ("special",), N_("finishing a special action"))
    sp = state.special
    assert sp is not None
    p = expect_player(state, e.player, sp.player, N_("finish the special action"))
    # An effect that may stop early (engine/effects/move.py) takes this event as its step.
    raise RuleViolation(
        "special-action",
        "{card} must be carried out fully; {who} cannot stop it here",
        card=Card(sp.card.name),
        who=name(state, p),
    )


def _not_now(what: str) -> Callable[[GameState, Event], None]:
    """An event only an effect takes, when the effect under way (if any) does not: refused,
    naming what the game waits for, or the card's text."""

    def refuse(state: GameState, e: Event) -> None:
        expect_special(state, (), what)

    return refuse


SPECIAL = Stage(
    "special",
    ask_special,
    {
        ev.SpecialActionFinished: apply_special_finished,
        ev.CaballerosMoved: _not_now(N_("moving Caballeros")),
        ev.ExtraCaballerosPlaced: _not_now(N_("placing additional Caballeros")),
        ev.CaballerosSentBack: _not_now(N_("sending Caballeros back")),
        ev.RegionChosen: _not_now(N_("choosing a region")),
        ev.MobileScoreboardPlaced: _not_now(N_("placing a mobile scoreboard")),
        ev.PowerCardTakenBack: _not_now(N_("taking back a Power card")),
        ev.GrandeMoved: _not_now(N_("moving a Grande")),
        ev.KingMoved: _not_now(N_("moving the King")),
    },
)
