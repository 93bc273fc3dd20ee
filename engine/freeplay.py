"""Scoring-only games: the table plays freely and enters the board when a
scoring comes. The engine keeps the round track, the scores and the scoring
log, and scores each entered board with the same functions a tracked game uses.

Events (all typed, replayable like a tracked game's):
  BoardEntered      the board as it lies now (regions, King, Grandes, scoreboards; King and
                    Intrigue: its markers and tokens too)
  SpecialScored     an Action card's special scoring, during a round
  RoundFinished     the round is over; after rounds 3, 6 and 9 a general scoring follows
  SecretDiscSet, CastilloCounted, SecretDiscsRevealed   the general scoring itself
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from . import events as ev
from .ask_words import asked_words
from .board.build import classic_board
from .board.model import CASTILLO, Board
from .errors import N_, RuleViolation, Said
from .events import CastilloCounted, Count, GameSetup, Id, SecretDiscSet, SecretDiscsRevealed
from .game import start_state
from .ki_markers import MARKERS, MODULE_NAMES, lasting
from .primitives import Ask
from .snapshot import SPECIAL_KINDS, SnapshotError, TableSnapshot, load_snapshot, score_snapshot
from .state import TABLE, ScoringRecord


class BoardEntered(ev._Event):
    type: Literal["board_entered"] = "board_entered"
    king: Id
    grandes: dict[Id, Id] = Field(default_factory=dict)
    regions: dict[Id, dict[Id, Count]] = Field(default_factory=dict)
    court: dict[Id, Count] = Field(default_factory=dict)
    # classic: the mobile scoreboards "8-4-0", "4-0-0"; 2023: the Scoring tiles (checked by the snapshot)
    mobile_scoreboards: dict[ev.PieceId, Id] = Field(default_factory=dict)
    # King and Intrigue (engine.snapshot.TableSnapshot's fields, checked by it): left out of the
    # log while empty, so a classic or 2023 line is written as before and old logs read as before.
    double_scoring: list[Id] = Field(default_factory=list, max_length=2, exclude_if=lambda v: not v)
    alliance: list[Id] = Field(default_factory=list, max_length=2, exclude_if=lambda v: not v)
    castillo_at: Id | None = Field(None, exclude_if=lambda v: v is None)
    reversed: list[ev.PieceId] = Field(default_factory=list, max_length=2, exclude_if=lambda v: not v)
    quarantine: Id | None = Field(None, exclude_if=lambda v: v is None)
    kings_guard: Id | None = Field(None, exclude_if=lambda v: v is None)
    mistress: Id | None = Field(None, exclude_if=lambda v: v is None)
    bridge: Id | None = Field(None, exclude_if=lambda v: v is None)
    bridge_regions: list[Id] = Field(default_factory=list, max_length=2, exclude_if=lambda v: not v)
    limit_tables: list[Id] = Field(default_factory=list, max_length=3, exclude_if=lambda v: not v)


# King and Intrigue's markers (engine/ki_markers.py: each one's module and how long it stays)
KI_MARKERS = tuple(MARKERS)
UNTIL_GENERAL_SCORING = lasting("general_scoring")
UNTIL_ROUND_END = lasting("round")
MARKER_MODULES = {field: facts.module for field, facts in MARKERS.items() if facts.module}


def _cleared(keys: Iterable[str]) -> dict:
    return {k: TableSnapshot.model_fields[k].get_default(call_default_factory=True) for k in keys}


class SpecialScored(ev._Event):
    """kind: 4, 5, 6-7, castillo, first-only, most, least or region:ID (see engine.snapshot)."""

    type: Literal["special_scored"] = "special_scored"
    kind: Annotated[str, Field(min_length=1, max_length=40)]
    castillo: dict[Id, Count] = Field(default_factory=dict, description="for kind castillo: what it holds")


class RoundFinished(ev._Event):
    type: Literal["round_finished"] = "round_finished"


FreeEvent = Annotated[
    BoardEntered | SpecialScored | RoundFinished | SecretDiscSet | CastilloCounted | SecretDiscsRevealed,
    Field(discriminator="type"),
]
FREE_EVENT_ADAPTER: TypeAdapter[FreeEvent] = TypeAdapter(FreeEvent)


@dataclass(slots=True)
class FreeState:
    board: Board
    players: tuple[str, ...]
    names: dict[str, str]
    variant: str
    schedule: tuple[int, ...]
    table: TableSnapshot  # the board as last entered or scored (Castillo empty)
    round_index: int = 0
    stage: str = "play"  # play -> scoring_discs -> play ... -> over
    discs: dict[str, str] = field(default_factory=dict)
    castillo: dict[str, int] | None = None  # counted when the Castillo is lifted
    scoring_log: list[ScoringRecord] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    rules: str = "classic"
    dummy: str | None = None  # 2023, 2 players: the dummy's colour (a seat in `players`)
    modules: tuple[str, ...] = ()  # King and Intrigue: which markers the table may have (MARKER_MODULES)

    @property
    def choosers(self) -> list[str]:
        """The seats asked a choice (a disc): never the dummy."""
        return [pid for pid in self.players if pid != self.dummy]

    @property
    def castillo_stays(self) -> bool:
        """Rebellion (2023): the King stands by the Castillo; nothing leaves it, no disc is set."""
        return self.table.king == CASTILLO

    @property
    def round(self) -> int:
        return self.schedule[min(self.round_index, len(self.schedule) - 1)]

    @property
    def scores(self) -> list[int]:
        return [self.table.scores.get(pid, 0) for pid in self.players]


def free_state(setup: GameSetup, board: Board | None = None) -> FreeState:
    """The board at the start: the King and each player's Grande with 2 Caballeros at home."""
    board = board or classic_board()
    start = start_state(setup, board, cards_played=False)  # checks the setup as a tracked game would
    # 2023, 2 players: the dummy is a seat of its own (no home, no Grande, no court).
    table = TableSnapshot.model_construct(
        rules=setup.rules,
        dummy=setup.dummy,
        players=list(start.players),
        king=setup.king,
        grandes=dict(setup.homes),
        regions={home: {pid: board.home_caballeros} for pid, home in setup.homes.items()},
        castillo={},
        secret_discs={},
        mobile_scoreboards={},
        scores={pid: 0 for pid in start.players},
        court={pid: board.court_caballeros for pid in setup.players},
    )
    return FreeState(
        board=board,
        players=start.players,
        names=start.names,
        variant=setup.variant,
        schedule=start.schedule,
        table=table,
        rules=setup.rules,
        dummy=setup.dummy,
        modules=tuple(setup.modules),
    )


# --- asked ---------------------------------------------------------------------------


def free_asked(state: FreeState) -> Ask:
    if state.stage == "over":
        return Ask(
            "game_over",
            (),
            {"winners": list(state.winners), "scores": dict(zip(state.players, state.scores))},
            round=state.round,
            stage="over",
        )
    if state.stage == "scoring_discs":
        regions = list(state.board.region_ids)
        choosers = [] if state.castillo_stays else state.choosers
        waiting = tuple(pid for pid in choosers if pid not in state.discs)
        chosen = [pid for pid in choosers if pid in state.discs]
        purpose = "castillo_destination"
        if waiting:
            ask = Ask(
                "secret_disc", waiting, {"purpose": purpose, "regions": {p: regions for p in waiting}, "chosen": chosen}
            )
        elif state.castillo is None:
            ask = Ask("count_castillo", (TABLE,), {"purpose": purpose, "chosen": chosen})
        else:
            ask = Ask("reveal_secret_discs", (TABLE,), {"purpose": purpose, "chosen": chosen})
        if state.castillo_stays:
            ask.options["castillo_stays"] = True
    else:
        ask = Ask(
            "play_round",
            (TABLE,),
            {"special_kinds": list(SPECIAL_KINDS) + ["region:ID"], "general_scoring_next": _general_after(state)},
        )
    ask.round, ask.stage = state.round, state.stage
    return ask


def _general_after(state: FreeState) -> bool:
    return state.round in state.board.general_scoring_after


# --- apply ---------------------------------------------------------------------------


def free_apply(state: FreeState, event: Any) -> None:
    """Check and apply one event; a refused one raises RuleViolation and changes nothing."""
    if state.stage == "over":
        raise RuleViolation("game-over", "the game is over: nothing more can be entered")
    handler = _APPLY.get(type(event))
    if handler is None:
        raise RuleViolation("phase-order", "{event} is not an input of a scoring-only game", event=type(event).__name__)
    handler(state, event)


def _in_stage(state: FreeState, stage: str, what: str) -> None:
    if state.stage != stage:
        now = asked_words(free_asked(state).kind)
        raise RuleViolation(
            "phase-order", "{what} is not possible now: the game waits for {asked}", what=Said(what), asked=now
        )


def _snapshot(state: FreeState, **changes: Any) -> TableSnapshot:
    data = state.table.model_dump()
    data.update(changes)
    try:
        return load_snapshot(data, state.board)
    except SnapshotError as exc:
        raise RuleViolation("board-entry", "the board as entered is impossible: {problem}", problem=str(exc)) from None


def _board_entered(state: FreeState, e: BoardEntered) -> None:
    _in_stage(state, "play", N_("entering the board"))
    missing = [pid for pid in state.choosers if pid not in e.grandes]
    if missing:
        raise RuleViolation("grande", "every Grande stands in a region; missing: {missing}", missing=missing)
    if state.dummy in e.grandes:
        raise RuleViolation("grande", "the dummy ({dummy}) has no Grande", dummy=state.dummy)
    if state.rules == "king-intrigue":
        for key, module in MARKER_MODULES.items():
            if getattr(e, key) and module not in state.modules:
                raise RuleViolation(
                    "board-entry",
                    "{key}: that marker comes with the {module} module, which this game does not play",
                    key=key,
                    module=Said(MODULE_NAMES[module]),
                )
    state.table = _snapshot(
        state,
        king=e.king,
        grandes=dict(e.grandes),
        court=dict(e.court),
        regions={r: dict(row) for r, row in e.regions.items()},
        mobile_scoreboards=dict(e.mobile_scoreboards),
        **{k: copy.deepcopy(getattr(e, k)) for k in KI_MARKERS},
    )


def _special_scored(state: FreeState, e: SpecialScored) -> None:
    _in_stage(state, "play", N_("a special scoring"))
    table = _snapshot(state, castillo=dict(e.castillo)) if e.castillo else state.table
    try:
        _, lines, after = score_snapshot(table, e.kind, state.board)
    except SnapshotError as exc:
        raise RuleViolation("special-action", "{problem}", problem=str(exc).replace("--special ", "")) from None
    # The markers a special scoring leaves where they lie (the 2x "is not doubled" then, it stays).
    kept = {k: getattr(table, k) for k in KI_MARKERS}
    state.table = after.model_copy(update={"castillo": {}, **kept})
    state.scoring_log.append(ScoringRecord(state.round, f"Special scoring: {_kind_title(state, e.kind)}", lines, []))


def _transfers(state: FreeState, after: TableSnapshot) -> list[dict]:
    """What the table does with each player's Castillo Caballeros, as the score did: to the
    region on the disc; to the court from a taboo region (the King's, under the quarantine
    marker or the King's Guard), or those beyond a full limit table's seats (Table for Six).
    The dummy's go back beside the board; with the King by the Castillo nothing leaves it."""
    table = state.table
    taboo = {
        table.quarantine: "the quarantine marker",
        table.kings_guard: "the King's Guard",
        table.king: "the King's region",
    }
    out = []
    assert state.castillo is not None  # counted before its Caballeros go
    for pid, k in state.castillo.items():
        region = state.discs.get(pid)
        if region is None:
            continue
        if region in taboo:
            out.append({"player": pid, "count": k, "region": region, "to_court": True, "why": taboo[region]})
            continue
        back = 0
        if region in table.limit_tables:
            back = table.regions.get(region, {}).get(pid, 0) + k - after.regions.get(region, {}).get(pid, 0)
        if k - back:
            out.append({"player": pid, "count": k - back, "region": region, "to_court": False})
        if back:
            out.append(
                {"player": pid, "count": back, "region": region, "to_court": True, "why": "the limit table is full"}
            )
    return out


def _kind_title(state: FreeState, kind: str) -> str:
    if kind.startswith("region:"):
        rid = kind.split(":", 1)[1]
        return state.board.area_name(state.board.area_index[rid])
    return {
        "castillo": "the Castillo",
        "first-only": "every region, first place only",
        "most": "the regions with the most Caballeros",
        "least": "the regions with the fewest Caballeros",
    }.get(kind, f'all "{kind}" regions')


def _round_finished(state: FreeState, e: RoundFinished) -> None:
    _in_stage(state, "play", N_("finishing the round"))
    if _general_after(state):
        state.stage, state.discs, state.castillo = "scoring_discs", {}, None
    else:
        state.table = state.table.model_copy(update=_cleared(_gone_with_the_round(state)))
        _next_round(state)


def _gone_with_the_round(state: FreeState) -> tuple[str, ...]:
    """King's Guard and the Mistress; the Quarantine marker too when its card says it lasts the
    round (its `until`, from the table's card set: without one it stays to the general scoring)."""
    from .effects.ki_tokens import card_param

    return UNTIL_ROUND_END + (("quarantine",) if card_param(state, "quarantine", "until") == "round" else ())


def _next_round(state: FreeState) -> None:
    if state.round_index + 1 >= len(state.schedule):
        scores = {pid: s for pid, s in zip(state.players, state.scores) if pid != state.dummy}  # it wins nothing
        best = max(scores.values())
        state.winners = [pid for pid, s in scores.items() if s == best]
        state.stage = "over"
    else:
        state.round_index += 1
        state.stage = "play"


def _disc_set(state: FreeState, e: SecretDiscSet) -> None:
    _in_stage(state, "scoring_discs", N_("setting a secret disc"))
    _known_player(state, e.player)
    if e.player == state.dummy:
        raise RuleViolation(
            "secret-disc", "the dummy sets no disc: its Caballeros in the Castillo go back beside the board"
        )
    if state.castillo_stays:
        raise RuleViolation("secret-disc", "the King stands by the Castillo: nothing leaves it, nobody sets a disc")
    if e.region not in state.board.region_ids:
        raise RuleViolation("unknown-id", "{region!r} is not a region (a secret disc shows a region)", region=e.region)
    if state.castillo is not None:
        raise RuleViolation("secret-disc", "the Castillo is already open: the discs are locked")
    state.discs[e.player] = e.region


def _known_player(state: FreeState, pid: str) -> None:
    if pid not in state.players:
        raise RuleViolation(
            "unknown-id",
            "{player!r} is not a player in this game (players: {players})",
            player=pid,
            players=state.players,
        )


def _castillo_counted(state: FreeState, e: CastilloCounted) -> None:
    _in_stage(state, "scoring_discs", N_("counting the Castillo"))
    waiting = [] if state.castillo_stays else [pid for pid in state.choosers if pid not in state.discs]
    if waiting:
        raise RuleViolation(
            "secret-disc",
            "the Castillo is lifted once every disc is set; still to choose: {waiting}",
            waiting=[state.names[p] for p in waiting],
        )
    for pid in e.counts:
        _known_player(state, pid)
    _snapshot(state, castillo=dict(e.counts))  # checks the 30-Caballeros limit
    state.castillo = {pid: c for pid, c in e.counts.items() if c}


def _discs_revealed(state: FreeState, e: SecretDiscsRevealed) -> None:
    _in_stage(state, "scoring_discs", N_("revealing the secret discs"))
    if state.castillo is None:
        raise RuleViolation(
            "phase-order",
            "count the Castillo before the discs are revealed (the tower's count, checked against the cubes)",
        )
    table = _snapshot(state, castillo=dict(state.castillo), secret_discs=dict(state.discs))
    _, lines, after = score_snapshot(table, None, state.board)
    transfers = _transfers(state, after)
    # King and Intrigue: what stays on the table after the scoring (the rest leaves with it).
    stays = {k: getattr(state.table, k) for k in KI_MARKERS if k not in UNTIL_GENERAL_SCORING + UNTIL_ROUND_END}
    state.table = after.model_copy(
        update={"castillo": {}, "secret_discs": {}, **stays, **_cleared(UNTIL_GENERAL_SCORING + UNTIL_ROUND_END)}
    )
    state.scoring_log.append(ScoringRecord(state.round, f"General scoring after round {state.round}", lines, transfers))
    state.discs, state.castillo = {}, None
    _next_round(state)


_APPLY: dict[type, Callable[[FreeState, Any], None]] = {
    BoardEntered: _board_entered,
    SpecialScored: _special_scored,
    RoundFinished: _round_finished,
    SecretDiscSet: _disc_set,
    CastilloCounted: _castillo_counted,
    SecretDiscsRevealed: _discs_revealed,
}

__all__ = [
    "BoardEntered",
    "SpecialScored",
    "RoundFinished",
    "FreeEvent",
    "FREE_EVENT_ADAPTER",
    "FreeState",
    "free_state",
    "free_asked",
    "free_apply",
    "CASTILLO",
]
