"""Scoring, itemised: every point comes with a line that says why.

Ties (rule book, País Vasco and Aragón examples): tied players take the points
of the next lower place, and the next players continue below that place.
Two players: only 1st place pays; three players: 1st and 2nd. The King's
bonus and the home bonus (+2 each) go to a sole majority only.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

from .errors import fact_refusal
from .state import GameState

BONUS = 2
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(place: int) -> str:
    return ORDINAL.get(place, f"{place}th")


class ScoreLine(tuple):
    """One scoring line: who gets how many points in which area, and why.

    A tuple, and its reason's words are written the first time they are read: making an
    object and writing the words for every line was most of the cost of a scoring
    (bench/bench_engine.py), and playouts, undo and search never read them. `reason` is
    given as text, or as a `_PlaceWhy` to put into words later."""

    __slots__ = ()

    def __new__(cls, area: str, player: str, points: int, kind: str, place: int, reason: str) -> ScoreLine:
        return tuple.__new__(cls, (area, player, points, kind, place, reason))

    area = property(itemgetter(0), doc='region id or "castillo"')
    player = property(itemgetter(1))
    points = property(itemgetter(2))
    kind = property(itemgetter(3), doc='"place", "king_bonus" or "home_bonus"')
    place = property(itemgetter(4), doc="the place held, 1-based (0 on bonus lines)")

    @property
    def reason(self) -> str:
        why = self[5]
        return why if isinstance(why, str) else why.words(self[1])

    def _key(self) -> tuple:
        return self[:5] + (self.reason,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScoreLine) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"ScoreLine(area={self[0]!r}, player={self[1]!r}, points={self[2]}, "
            f"kind={self[3]!r}, place={self[4]}, reason={self.reason!r})"
        )

    def __reduce__(self):
        return (ScoreLine, self[:5] + (self.reason,))

    def to_dict(self) -> dict:
        return {
            "area": self[0],
            "player": self[1],
            "points": self[2],
            "kind": self[3],
            "place": self[4],
            "reason": self.reason,
        }


class _PlaceWhy(tuple):
    """Why each player of one group of equal counts got their points, kept as the facts
    and put into words only when a line's reason is read: (place, count, seats in the
    group, place paid, places paid, players playing, first only, the mobile scoreboard or
    Scoring tile lying there (as said in the reason), the dummy's seat, pays nothing,
    player ids, names)."""

    __slots__ = ()

    def words(self, player: str) -> str:
        place, count, group, paid, paid_places, n_players, first_only, mobile, dummy, unpaid, ids, names = self
        each = f"{count} Caballero{'s' if count != 1 else ''}"
        if len(group) > 1:
            others = ", ".join(names[ids[q]] for q in group if ids[q] != player)
            why = (
                f"tied for {ordinal(place + 1)} with {others} ({each} each): takes the {ordinal(paid + 1)}-place points"
            )
        else:
            why = f"{ordinal(place + 1)} place with {each}"
        if mobile:
            why += f" ({mobile})"
        if dummy is not None and player == ids[dummy]:
            return why + DUMMY_SCORES_NOTHING
        if unpaid:
            return why + f"; {_unpaid_reason(paid, paid_places, n_players, first_only)}"
        return why


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


def require_scoreboards(state: GameState, areas: Iterable[int]) -> None:
    """Refuse, naming the missing fact, a scoring that needs a scoreboard nobody published
    (the 2023 board's 2-3 player side, the scoring tiles) until the table enters it."""
    for a in areas:
        if state.scoreboard(a) is None:
            aid = state.board.area_id(a)
            tile = state.mobile_at(a)
            missing = getattr(state.board, "missing", {})
            if tile is not None:  # a Scoring tile lies there: its values are the fact
                key = f"scoring_tiles.{tile}"
                raise fact_refusal(
                    "board-fact-missing",
                    missing.get(key),
                    "the Scoring tile {tile} in {area} is not known: enter it from your board (board file: {key})",
                    tile=tile,
                    area=state.board.area_name(a),
                    key=key,
                )
            key = "castillo.scoreboard" if a == state.board.castillo else f"regions.{aid}.scoreboard"
            raise fact_refusal(
                "board-fact-missing",
                missing.get(key),
                "the scoreboard of {area} is not known: enter it from your board (board file: {key})",
                area=state.board.area_name(a),
                key=key,
            )


def _context(state: GameState, first_only: bool) -> tuple:
    """What every area of one scoring shares, looked up once."""
    return (
        _paid_places(state, first_only),
        state.n - (state.dummy is not None),
        state.players,
        state.names,
        state.dummy,
    )


def score_area(state: GameState, area: int, first_only: bool = False, context: tuple | None = None) -> list[ScoreLine]:
    """The lines one area earns now, in place order. Does not change the state."""
    counts = state.counts[area]
    present = sorted([(-c, p) for p, c in enumerate(counts) if c])
    if not present:
        return []
    board = state.board
    area_id = board.area_id(area)
    mobile = state.mobile_at(area)
    if mobile is None:
        values = board.scoreboards[area]
    elif mobile in board.mobile_scoreboards:
        values, mobile = board.mobile_scoreboards[mobile], f"mobile scoreboard {mobile}"
    else:  # 2023: a Scoring tile replaces the printed board
        values, mobile = state.scoreboard(area), f"Scoring tile {mobile}"
    if values is None:
        require_scoreboards(state, (area,))  # refuses, naming the missing fact
    paid_places, players_playing, players, names, dummy = context or _context(state, first_only)
    new_line = tuple.__new__
    lines: list[ScoreLine] = []
    place, i, n_present = 0, 0, len(present)
    while i < n_present:
        neg = present[i][0]
        j = i + 1
        while j < n_present and present[j][0] == neg:
            j += 1
        tied = j - i > 1
        paid = place + 1 if tied else place
        points = values[paid] if paid < paid_places else 0
        group = [q for _, q in present[i:j]]
        why = new_line(
            _PlaceWhy,
            (
                place,
                -neg,
                group,
                paid,
                paid_places,
                players_playing,
                first_only,
                mobile,
                dummy,
                not points,
                players,
                names,
            ),
        )
        for q in group:
            lines.append(
                new_line(ScoreLine, (area_id, players[q], 0 if q == dummy else points, "place", place + 1, why))
            )
        place += 2 if tied else 1
        i = j
    # The bonuses go to a sole majority: in the King's region (the Castillo too, after
    # Rebellion) and where the leader's Grande stands (the Castillo too, after Competition).
    if len(present) == 1 or present[0][0] != present[1][0]:
        leader = present[0][1]
        if leader == dummy:
            return lines
        if area == state.king:
            lines.append(
                ScoreLine(
                    area_id, players[leader], BONUS, "king_bonus", 0, "King's bonus: sole majority in the King's region"
                )
            )
        if state.grandes[leader] == area:
            lines.append(
                ScoreLine(
                    area_id,
                    players[leader],
                    BONUS,
                    "home_bonus",
                    0,
                    "home bonus: sole majority in the region of their Grande",
                )
            )
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
    """Regions whose scoreboard (a mobile one or a Scoring tile if it lies there) is in a
    value group: "As long as a region (or the Castillo) has a Scoring tile, use its values"."""
    regions = state.board.regions
    boards = [state.scoreboard(r) for r in regions]
    if None in boards:
        require_scoreboards(state, regions)  # which regions are in it needs them all: refuses
    tops = state.board.scoring_groups[group]
    return [r for r, values in zip(regions, boards) if values[0] in tops]


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
    context = _context(state, first_only)
    for r in regions:
        lines.extend(score_area(state, r, first_only, context))
    return lines
