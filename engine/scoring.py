"""Scoring, itemised: every point comes with a line that says why.

Ties (rule book, País Vasco and Aragón examples): tied players take the points
of the next lower place, and the next players continue below that place.
Two players: only 1st place pays; three players: 1st and 2nd. The King's
bonus and the home bonus (+2 each) go to a sole majority only.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from .errors import RuleViolation
from .state import GameState

BONUS = 2
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(place: int) -> str:
    return ORDINAL.get(place, f"{place}th")


@dataclass(frozen=True, slots=True)
class ScoreLine:
    area: str       # region id or "castillo"
    player: str
    points: int
    kind: str       # "place", "king_bonus" or "home_bonus"
    place: int      # the place held, 1-based (0 on bonus lines)
    reason: str

    def to_dict(self) -> dict:
        return asdict(self)


def _paid_places(state: GameState, first_only: bool) -> int:
    return 1 if first_only else state.rules.paid_places(state.n)


def _unpaid_reason(paid: int, paid_places: int, n_players: int, first_only: bool) -> str:
    if first_only:
        return "this scoring pays 1st place only"
    if paid >= 3:
        return f"there is no {ordinal(paid + 1)} place on a scoreboard"
    if paid >= paid_places:
        return f"with {n_players} players only the first {paid_places} place(s) score"
    return f"this scoreboard pays nothing for {ordinal(paid + 1)}"


DUMMY_SCORES_NOTHING = "; the dummy scores nothing (it only counts for majorities)"


def require_scoreboards(state: GameState, areas) -> None:
    """Refuse, naming the missing fact, a scoring that needs a scoreboard nobody published
    (the 2023 board's 2-3 player side, the scoring tiles) until the table enters it."""
    for a in areas:
        if state.scoreboard(a) is None:
            aid = state.board.area_id(a)
            key = "castillo.scoreboard" if a == state.board.castillo else f"regions.{aid}.scoreboard"
            missing = getattr(state.board, "missing", {})
            raise RuleViolation("board-fact-missing", missing.get(key) or (
                f"the scoreboard of {state.board.area_name(a)} is not known: enter it from your board "
                f"(board file: {key})"))


def score_area(state: GameState, area: int, first_only: bool = False) -> list[ScoreLine]:
    """The lines one area earns now, in place order. Does not change the state."""
    require_scoreboards(state, (area,))
    counts = state.counts[area]
    present = sorted((-c, p) for p, c in enumerate(counts) if c)
    if not present:
        return []
    board = state.board
    area_id = board.area_id(area)
    values = state.scoreboard(area)
    mobile = state.mobile_at(area)
    board_note = f" (mobile scoreboard {mobile})" if mobile else ""
    paid_places = _paid_places(state, first_only)
    players_playing = state.n - (state.dummy is not None)
    name = state.names
    players = state.players
    lines: list[ScoreLine] = []
    place, i = 0, 0
    while i < len(present):
        neg, _ = present[i]
        j = i
        while j < len(present) and present[j][0] == neg:
            j += 1
        group = [p for _, p in present[i:j]]
        tied = len(group) > 1
        paid = place + 1 if tied else place
        points = values[paid] if paid < paid_places else 0
        for p in group:
            if tied:
                others = ", ".join(name[players[q]] for q in group if q != p)
                why = (f"tied for {ordinal(place + 1)} with {others} ({-neg} Caballero{'s' if -neg != 1 else ''} each): "
                       f"takes the {ordinal(paid + 1)}-place points")
            else:
                why = f"{ordinal(place + 1)} place with {-neg} Caballero{'s' if -neg != 1 else ''}"
            why += board_note
            if p == state.dummy:
                lines.append(ScoreLine(area_id, players[p], 0, "place", place + 1, why + DUMMY_SCORES_NOTHING))
                continue
            if points == 0:
                why += f"; {_unpaid_reason(paid, paid_places, players_playing, first_only)}"
            lines.append(ScoreLine(area_id, players[p], points, "place", place + 1, why))
        place += 2 if tied else 1
        i = j
    # The bonuses go to a sole majority: in the King's region (the Castillo too, after
    # Rebellion) and where the leader's Grande stands (the Castillo too, after Competition).
    if len(present) == 1 or present[0][0] != present[1][0]:
        leader = present[0][1]
        if leader == state.dummy:
            return lines
        if area == state.king:
            lines.append(ScoreLine(area_id, players[leader], BONUS, "king_bonus", 0,
                                   "King's bonus: sole majority in the King's region"))
        if state.grandes[leader] == area:
            lines.append(ScoreLine(area_id, players[leader], BONUS, "home_bonus", 0,
                                   "home bonus: sole majority in the region of their Grande"))
    return lines


def apply_lines(state: GameState, lines: list[ScoreLine]) -> None:
    index = {pid: p for p, pid in enumerate(state.players)}
    for line in lines:
        state.scores[index[line.player]] += line.points


def gained(state: GameState, lines: list[ScoreLine]) -> dict[str, int]:
    """Points per player from these lines, every player included (0 too)."""
    out = {pid: 0 for pid in state.players}
    for line in lines:
        out[line.player] += line.points
    return out


def regions_in_group(state: GameState, group: str) -> list[int]:
    """Regions whose scoreboard (a mobile one if it lies there) is in a value group."""
    tops = state.board.scoring_groups[group]
    return [r for r in state.board.regions if state.scoreboard(r)[0] in tops]


def regions_by_total(state: GameState, most: bool) -> list[int]:
    """The region(s) holding the most, or the fewest (but some), Caballeros."""
    totals = {r: sum(state.counts[r]) for r in state.board.regions}
    totals = {r: t for r, t in totals.items() if t}
    if not totals:
        return []
    best = max(totals.values()) if most else min(totals.values())
    return [r for r, t in totals.items() if t == best]


def score_regions(state: GameState, regions: list[int], first_only: bool = False) -> list[ScoreLine]:
    lines: list[ScoreLine] = []
    for r in regions:
        lines.extend(score_area(state, r, first_only))
    return lines
