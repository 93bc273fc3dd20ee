"""King and Intrigue at a general scoring: the 2x markers, the Alliance, a relocated Castillo,
Revolt's reversed scoreboards, the Mistress, the King's Guard, the bridge's point and Table for
Six's excess, each within the one event so that no score is ever seen to fall (round.py's steps
call `general_scoring` and `reverse_special`; engine/snapshot.py scores a table's snapshot with
`tokens_at_scoring` and `double_lines`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ... import events as ev
from ...effects import alliance, bridge, espionage, ki_tokens, relocate, revolt, table_for_six
from ...queries import LIMIT_MARKERS
from ...scoring import ScoreLine, apply_lines, score_regions
from ...stages.scoring import apply_discs_revealed
from ...state import GameState

if TYPE_CHECKING:
    from ...state import ScoringRecord

DOUBLE_MARKERS = ("double_1", "double_2")  # "2 Action markers (Double Scoring markers)"


def double_lines(state: GameState, lines: list) -> list:
    """ "The double scoring only occurs during the next general scoring": each marked region's
    points once more (its places and bonuses: the region's whole score). The bridge's point is
    the bridge's, not the region's score: never doubled."""
    marked = {state.markers.get(m) for m in DOUBLE_MARKERS} - {None}
    extra = []
    for line in lines:
        a = state.board.area_index.get(line.area)
        if a is not None and a in marked and line.points and line.kind != bridge.PLACE:
            extra.append(
                ScoreLine(
                    line.area,
                    line.player,
                    line.points,
                    line.kind,
                    line.place,
                    f"2x marker on {state.board.area_name(a)}: its points doubled",
                )
            )
    return extra


def reverse_special(state: GameState, record: ScoringRecord) -> None:
    if state.markers.get("mistress") is not None:
        _drop_kings_bonus(state, record)
    if any(revolt.is_reversed(state, sid) for sid in revolt.SCOREBOARDS):
        _reverse(state, record)
        if revolt.reversed_at(state, state.board.castillo) and any(ln.area == "castillo" for ln in record.lines):
            _replace_lines(state, record, {"castillo"}, revolt.reversed_lines(state, state.board.castillo))


def _reverse(state: GameState, record: ScoringRecord, exclude: Collection[int] = frozenset()) -> None:
    """Regions scored in `record` where a reversed mobile scoreboard lies (Revolt)."""
    for r in {state.board.area_index[ln.area] for ln in record.lines} - set(exclude):
        if r < state.board.castillo and revolt.reversed_at(state, r):
            _replace_lines(state, record, {state.board.region_ids[r]}, revolt.reversed_lines(state, r))


def _replace_lines(state: GameState, record: ScoringRecord, areas: set, lines: list) -> None:
    """A general scoring's lines of `areas` replaced by `lines`, the scores with them (within
    the one event: no score is ever seen to fall)."""
    apart = [ln for ln in record.lines if ln.area in areas]
    apply_lines(state, [ScoreLine(ln.area, ln.player, -ln.points, ln.kind, ln.place, "") for ln in apart])
    apply_lines(state, lines)
    record.lines[:] = [ln for ln in record.lines if ln.area not in areas] + lines


def general_scoring(state: GameState, e: ev.SecretDiscsRevealed) -> None:
    before = len(state.scoring_log)
    pair = alliance.marked(state)
    at = state.markers.get(relocate.MARKER)
    castillo = relocate.castillo_lines(state, at) if at is not None else None  # before it is emptied
    if castillo is None and revolt.reversed_at(state, state.board.castillo):
        castillo = revolt.reversed_lines(state, state.board.castillo)
    limited = limited_now(state)
    apply_discs_revealed(state, e)
    record = state.scoring_log[before]
    if limited:
        _excess_before_scoring(state, record, limited)
    if castillo is not None:  # scored on the scoreboard of the region it stands in, then back in place
        _replace_lines(state, record, {"castillo"}, castillo)
        state.markers[relocate.MARKER] = None
    if pair is not None:  # "all players count and combine the number of Caballeros ... in the two marked regions"
        _replace_lines(state, record, {state.board.region_ids[r] for r in pair}, alliance.alliance_lines(state, *pair))
        for m in alliance.MARKERS:
            state.markers[m] = None  # "After general scoring is completed, remove the alliance markers"
    _reverse(state, record, exclude=set(pair or ()))
    tokens_at_scoring(state, record)
    extra_lines = double_lines(state, record.lines)
    if extra_lines:
        apply_lines(state, extra_lines)
        record.lines.extend(extra_lines)
    for m in DOUBLE_MARKERS:
        state.markers[m] = None  # "return the Region card and the 2x marker to the supply"
    ki_tokens.expire(state, "general_scoring")
    if state.aside or state.markers.get("spies_decided"):
        espionage.discard(state)  # "After the next general scoring, discard this card"
    if state.stage == "over":
        best = max(state.scores)
        state.winners = [q for q in range(state.n) if state.scores[q] == best]


def _excess_before_scoring(state: GameState, record: ScoringRecord, limited: dict[int, list[int]]) -> None:
    """Table for Six: Caballeros the discs brought beyond a limit table's seats "are returned to
    the players' Courts" as they arrive, so the region is scored without them (its lines
    replaced within the one event)."""
    arrived = {r: state.counts[r][:] for r in limited}
    table_for_six.excess_returned(state, limited)
    changed = [r for r in limited if state.counts[r] != arrived[r]]
    if changed:
        _replace_lines(state, record, {state.board.region_ids[r] for r in changed}, score_regions(state, changed))


def tokens_at_scoring(state: GameState, record: ScoringRecord, apply: bool = True) -> None:
    """The Special cards' and Player's Edition's tokens at a general scoring: the King's Guard
    adds the King's bonus to its region; the Mistress takes every King's bonus away; the bridge
    pays its owner 1 point."""
    guard = state.markers.get("kings_guard")
    if guard is not None:
        row = state.counts[guard]
        most = sorted(((-c, q) for q, c in enumerate(row) if c))
        if most and (len(most) == 1 or most[0][0] != most[1][0]):
            line = ScoreLine(
                state.board.area_id(guard),
                state.players[most[0][1]],
                2,
                "king_bonus",
                0,
                "King's bonus: sole majority where the King's Guard stands",
            )
            if apply:
                apply_lines(state, [line])
            record.lines.append(line)
    if state.markers.get("mistress") is not None:
        _drop_kings_bonus(state, record, apply)
    lines = bridge.score_lines(state)
    if lines:
        if apply:
            apply_lines(state, lines)
        record.lines.extend(lines)


def _drop_kings_bonus(state: GameState, record: ScoringRecord, apply: bool = True) -> None:
    """Mistress: "the King's bonus will not be awarded" (within the one event: no score is seen to fall)."""
    dropped = [ln for ln in record.lines if ln.kind == "king_bonus"]
    if dropped and not apply:
        record.lines[:] = [ln for ln in record.lines if ln.kind != "king_bonus"]
    elif dropped:
        apply_lines(state, [ScoreLine(ln.area, ln.player, -ln.points, ln.kind, ln.place, "") for ln in dropped])
        record.lines[:] = [ln for ln in record.lines if ln.kind != "king_bonus"]


def limited_now(state: GameState) -> dict[int, list[int]] | None:
    """Regions under a limit table, with their counts before an event (Table for Six)."""
    markers = state.markers
    out = {r: state.counts[r][:] for m in LIMIT_MARKERS if (r := markers.get(m)) is not None}
    return out or None
