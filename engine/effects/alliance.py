"""Alliance (King and Intrigue, Player's Edition): two regions scored as one.

Rule text: "You may not place either of the markers in the King's region. During general
scoring, all players count and combine the number of Caballeros they have in the two marked
regions. The rewards for each region are combined (e.g., the player with the most
Caballeros scores first place points according to the scoreboards of both regions, etc.)
If one of the regions is the King's region, or a player's home region, bonus points are
awarded accordingly. After general scoring is completed, remove the alliance markers. If
another player plays the Alliance card before the next general scoring, they may move the
Alliance markers to different regions."

The player names two different regions, one after the other; markers already out are moved
there (skipping the action leaves them). At the general scoring (rules/king_intrigue/round.py) the
two regions' lines are replaced by `alliance_lines`: places by the combined counts (ties as
usual), each place paid from both scoreboards, one line per region; the King's bonus and
the home bonus once each, to a sole leader, when the King or their Grande stands in either."""

from __future__ import annotations

from .. import events as ev
from .. import primitives as P
from ..effect_registry import Effect, register
from ..primitives import Ask
from ..scoring import BONUS, ScoreLine, ordinal
from ..stages.turn import finish_special
from ..state import GameState, Special, closed_regions
from .revolt import reversed_at

MARKERS = ("alliance_1", "alliance_2")


def marked(state: GameState) -> tuple[int, int] | None:
    a, b = (state.markers.get(m) for m in MARKERS)
    return None if a is None or b is None else (a, b)


def _regions(state: GameState, sp: Special) -> list[str]:
    closed = closed_regions(state)
    return [state.board.region_ids[r] for r in state.board.regions if r not in closed and r != sp.source]


def begin(state: GameState, sp: Special) -> None:
    sp.source = None


def ask(state: GameState, sp: Special) -> Ask:
    return P.Ask(
        "choose_region",
        (state.players[sp.player],),
        {"purpose": "alliance" if sp.source is None else "alliance_second", "regions": _regions(state, sp)},
    )


def chosen(state: GameState, sp: Special, e: ev.RegionChosen) -> None:
    P.expect_player(state, e.player, sp.player, P.N_("place the Alliance markers"))
    r = P.region(state, e.region, P.N_("an Alliance marker's region"))
    P.not_taboo(state, r, P.N_("place an Alliance marker in"))
    if r == sp.source:
        raise P.RuleViolation("special-action", "the two Alliance markers go on two different regions")
    if sp.source is None:
        sp.source = r
        return
    state.markers[MARKERS[0]], state.markers[MARKERS[1]] = sp.source, r
    finish_special(state)


def alliance_lines(state: GameState, a: int, b: int) -> list[ScoreLine]:
    """The two regions scored as one (see the module docstring)."""
    names = state.board.region_names
    combined = [state.counts[a][q] + state.counts[b][q] for q in range(state.n)]
    return scored_as_one(
        state,
        combined,
        (paid_from(state, a, a), paid_from(state, b, b)),
        (a, b),
        f"Alliance: {names[a]} + {names[b]} scored as one",
        f"the Alliance ({names[a]} + {names[b]})",
    )


def paid_from(state: GameState, area: int, board_of: int) -> tuple[int, tuple[int, int, int] | None, str | None]:
    """(area, the values it pays, the reversed mobile scoreboard paying them or None) for an
    area scored on `board_of`'s scoreboard: Revolt's reversed side ranks from the fewest, in an
    Alliance or under a relocated Castillo as anywhere."""
    return area, state.scoreboard(board_of), reversed_at(state, board_of)


def _places(counts: list[int], fewest_first: bool) -> list[tuple[int, int, int, list[int]]]:
    """(place, paid place, count, players) per group of equal counts, everyone present (at
    least one) ranked from the most or the fewest; the tied take the next place's points."""
    present = sorted((c if fewest_first else -c, q) for q, c in enumerate(counts) if c)
    out, place, i = [], 0, 0
    while i < len(present):
        j = i + 1
        while j < len(present) and present[j][0] == present[i][0]:
            j += 1
        tied = j - i > 1
        out.append((place, place + 1 if tied else place, abs(present[i][0]), [q for _, q in present[i:j]]))
        place += 2 if tied else 1
        i = j
    return out


def scored_as_one(
    state: GameState, counts: list[int], paid_by: tuple, bonus_areas: tuple, label: str, what: str
) -> list[ScoreLine]:
    """Places by `counts` (ties as usual: the tied take the next place's points), each place
    paid from every (area, scoreboard, reversed) of `paid_by` (see `paid_from`), one line per
    area; a reversed scoreboard ranks from the fewest. The King's bonus and the home bonus once
    each to a sole majority when the King or their Grande stands in `bonus_areas`."""
    paid_places = state.rules.paid_places(state.n)
    lines: list[ScoreLine] = []
    ranked = {False: _places(counts, False)}
    for area, values, reversed_sid in paid_by:
        fewest = reversed_sid is not None
        if fewest not in ranked:
            ranked[fewest] = _places(counts, True)
        side = f"reversed {reversed_sid} (the fewest score first), " if fewest else ""
        aid = state.board.area_id(area)
        for place, paid, count, seats in ranked[fewest]:
            why = (
                f"{label}: {side}{ordinal(place + 1)} place with {count} Caballero{'s' if count != 1 else ''}"
                + (f" (tied: {ordinal(paid + 1)}-place points)" if len(seats) > 1 else "")
                + (
                    f"; with {state.n} players only the first {paid_places} place(s) score"
                    if paid >= paid_places
                    else ""
                )
            )
            points = values[paid] if paid < paid_places else 0
            lines += [ScoreLine(aid, state.players[q], points, "place", place + 1, why) for q in seats]
    most = ranked[False]
    if most and len(most[0][3]) == 1:
        leader = most[0][3][0]
        where = state.board.area_id(paid_by[0][0])
        if state.king in bonus_areas:
            lines.append(
                ScoreLine(
                    where, state.players[leader], BONUS, "king_bonus", 0, f"King's bonus: sole majority of {what}"
                )
            )
        if state.grandes[leader] in bonus_areas:
            lines.append(
                ScoreLine(where, state.players[leader], BONUS, "home_bonus", 0, f"home bonus: sole majority of {what}")
            )
    return lines


register(Effect("alliance", begin, ask, steps={ev.RegionChosen: chosen}))
