"""Revolt (King and Intrigue, Special cards): a mobile scoreboard turned to its reversed side.

Rule text: "When reversed, the 8/4/0 mobile scoreboard becomes a 0/4/8 scoreboard, meaning
that the player with the fewest Caballeros (at least one) scores 8 points. The player with
the second fewest Caballeros scores 4 points. The same applies to the 4/0/0 mobile
scoreboard. If another player plays the Revolt card, they may return a mobile scoreboard to
its original position or reverse the other scoreboard. When a player moves a reversed
scoreboard, it remains reversed."

Which side is up is the public marker `reversed_<scoreboard>`. Scoring an area where a
reversed scoreboard lies (`reversed_lines`, applied to every scoring by rules/king_intrigue/round.py)
ranks the players present from the fewest up, ties as usual; the King's and home bonuses
still go to a sole majority (the most Caballeros), as the bonuses are not the scoreboard's.
Read where the text is silent: a scoreboard in the King's region may not be turned (taboo);
one off the board may. In an Alliance's region, and for a relocated Castillo standing on its
region, the reversed scoreboard pays the same way: ranked from the fewest by the counts
those cards score (effects/alliance.py `paid_from`), the bonuses with the majority."""

from __future__ import annotations

import random
from typing import Any

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..events import Event
from ..primitives import Ask
from ..scoring import BONUS, ScoreLine, ordinal
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions

SCOREBOARDS = ("8-4-0", "4-0-0")


def marker(sid: str) -> str:
    return f"reversed_{sid}"


def is_reversed(state: GameState, sid: str) -> bool:
    return bool(state.markers.get(marker(sid)))


def reversed_at(state: GameState, area: int) -> str | None:
    sid = state.mobile_at(area)
    return sid if sid in SCOREBOARDS and is_reversed(state, sid) else None


def _turnable(state: GameState) -> list[str]:
    closed = closed_regions(state)
    return [sid for sid in SCOREBOARDS if state.mobile.get(sid) not in closed]


def begin(state: GameState, sp: Special) -> None:
    if not _turnable(state):
        finish_special(state)


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "turn_scoreboard",
        (state.players[sp.player],),
        {"scoreboards": _turnable(state), "reversed": [s for s in SCOREBOARDS if is_reversed(state, s)]},
    )


def turned(state: GameState, sp: Special, e: ev.ScoreboardTurned) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("turn a mobile scoreboard"))
    if e.scoreboard not in _turnable(state):
        raise P.RuleViolation(
            "mobile-scoreboard",
            "the {scoreboard} scoreboard lies in the King's region: it may not be changed",
            scoreboard=e.scoreboard,
        )
    state.markers[marker(e.scoreboard)] = None if is_reversed(state, e.scoreboard) else True
    finish_special(state)


def reversed_lines(state: GameState, area: int) -> list[ScoreLine]:
    """An area scored on a reversed mobile scoreboard (see the module docstring)."""
    sid = reversed_at(state, area)
    assert sid is not None  # asked for an area with a reversed scoreboard
    values = state.board.mobile_scoreboards[sid]
    counts = state.counts[area]
    present = sorted((c, q) for q, c in enumerate(counts) if c)
    paid_places = state.rules.paid_places(state.n)
    aid = state.board.area_id(area)
    lines: list[ScoreLine] = []
    place, i = 0, 0
    while i < len(present):
        j = i + 1
        while j < len(present) and present[j][0] == present[i][0]:
            j += 1
        paid = place + 1 if j - i > 1 else place
        count = present[i][0]
        why = (
            f"reversed mobile scoreboard {sid} (the fewest score first): {ordinal(place + 1)} with "
            f"{count} Caballero{'s' if count != 1 else ''}"
            + (f", tied: {ordinal(paid + 1)}-place points" if j - i > 1 else "")
        )
        for _, q in present[i:j]:
            lines.append(
                ScoreLine(aid, state.players[q], values[paid] if paid < paid_places else 0, "place", place + 1, why)
            )
        place += 2 if j - i > 1 else 1
        i = j
    most = sorted((-c, q) for q, c in enumerate(counts) if c)
    if most and (len(most) == 1 or most[0][0] != most[1][0]):
        leader = most[0][1]
        if area == state.king:
            lines.append(
                ScoreLine(
                    aid,
                    state.players[leader],
                    BONUS,
                    "king_bonus",
                    0,
                    "King's bonus: sole majority in the King's region",
                )
            )
        if state.grandes[leader] == area:
            lines.append(
                ScoreLine(
                    aid,
                    state.players[leader],
                    BONUS,
                    "home_bonus",
                    0,
                    "home bonus: sole majority in the region of their Grande",
                )
            )
    return lines


def _choose(rng: random.Random, pid: str, o: dict[str, Any]) -> Event:
    return ev.ScoreboardTurned(player=pid, scoreboard=rng.choice(o["scoreboards"]))


CHOOSERS = {"turn_scoreboard": _choose}

register(Effect("revolt", begin, ask, steps={ev.ScoreboardTurned: turned}))
