"""Special scoring, three regions offered (King and Intrigue, Special cards).

Rule text: "Special Scoring: You give your opponent the choice of 3 regions. Of these 3
regions, your opponent chooses which will be scored."

Read where the text is silent: "your opponent" is the player on your left (the next in
clockwise order); the three regions differ and may include the King's region (as the base
game's "select any one region")."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..scoring import score_area
from ..stages.turn import finish_special
from ..state import GameState, Special

OFFERED = 3


def _chooser(state: GameState, sp: Special) -> int:
    return P.opponents(state, sp.player)[0]


def begin(state: GameState, sp: Special) -> None:
    sp.queue = []  # the regions offered so far


def ask(state: GameState, sp: Special) -> Ask:
    ids = state.board.region_ids
    if len(sp.queue) < OFFERED:
        return P.Ask(
            "choose_region",
            (state.players[sp.player],),
            {"purpose": "offer_for_scoring", "regions": [ids[r] for r in state.board.regions if r not in sp.queue]},
        )
    return P.Ask(
        "choose_region",
        (state.players[_chooser(state, sp)],),
        {"purpose": "special_scoring", "regions": [ids[r] for r in sp.queue]},
    )


def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    r = P.region(state, e.region, P.N_("the region"))
    if len(sp.queue) < OFFERED:
        P.expect_player(state, e.player, sp.player, P.N_("offer a region"))
        if r in sp.queue:
            raise P.RuleViolation(
                "special-action", "{region} is already offered: three different regions", region=P.area_name(state, r)
            )
        sp.queue.append(r)
        return
    P.expect_player(state, e.player, _chooser(state, sp), P.N_("choose which offered region is scored"))
    if r not in sp.queue:
        offered = ", ".join(P.area_name(state, q) for q in sp.queue)
        raise P.RuleViolation("special-action", "choose one of the regions offered: {offered}", offered=offered)
    P.record_scoring(
        state,
        P.special_title(state, sp, f"{P.area_name(state, r)}, chosen by {P.name(state, _chooser(state, sp))}"),
        score_area(state, r),
    )
    finish_special(state)


register(Effect("score_offered_three", begin, ask, steps={ev.RegionChosen: chosen}))
