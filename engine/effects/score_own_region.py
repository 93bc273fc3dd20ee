"""Special scoring of a region where you stand (King and Intrigue, Special cards).

Rule text: "Special Scoring: You may only choose a region in which you have at least 1
Caballero." (Its sister card, "You may choose a region in which you have no Caballeros", is
the base game's score_chosen_region.) Read as the base game's "select any one region": the
King's region may be named (scoring it changes nothing there)."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..scoring import score_area
from ..stages.turn import finish_special
from ..state import GameState, Special


def _regions(state: GameState, p: int) -> list[int]:
    return [r for r in state.board.regions if state.counts[r][p]]


def begin(state: GameState, sp: Special) -> None:
    if not _regions(state, sp.player):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "choose_region",
        (state.players[sp.player],),
        {"purpose": "special_scoring", "regions": [state.board.region_ids[r] for r in _regions(state, sp.player)]},
    )


def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    p = P.expect_player(state, e.player, sp.player, P.N_("choose the region to score"))
    r = P.region(state, e.region, P.N_("the region to score"))
    if not state.counts[r][p]:
        raise P.RuleViolation(
            "special-action",
            "{card} scores a region where {who} has at least 1 Caballero, not {region}",
            card=P.Card(sp.card.name),
            who=P.name(state, p),
            region=P.area_name(state, r),
        )
    P.record_scoring(state, P.special_title(state, sp, P.area_name(state, r)), score_area(state, r))
    finish_special(state)


register(Effect("score_own_region", begin, ask, steps={ev.RegionChosen: chosen}))
