"""Table snapshots: the board as a table enters it at scoring time.

`elgrande score` and the scoring-only mode read one, score it with the same
functions a tracked game uses, and give back the table after the scoring.
"""

from __future__ import annotations

from typing import Literal, NoReturn, cast

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from .board.build import classic_board
from .board.errors import BoardFileError, CardFileError, DataFileError, RuleSetError
from .board.load import load_board
from .board.model import CASTILLO, Board
from .errors import RuleViolation
from .queries import LIMIT_MARKERS, is_taboo
from .scoring import (
    ScoreLine,
    apply_lines,
    gained,
    regions_by_total,
    regions_in_group,
    require_scoreboards,
    score_area,
    score_regions,
)
from .state import GameState, ScoringRecord, new_state

SPECIAL_KINDS = ("4", "5", "6-7", "castillo", "first-only", "most", "least")  # and region:ID


RulesId = Literal["classic", "2023", "king-intrigue"]


class SnapshotError(ValueError):
    """A snapshot that breaks a rule or a limit; the message names which."""


class TableFileError(SnapshotError):
    """A mistake in the table's board or card file, not in the snapshot: `file` is "board" or
    "cards", so a command names the file it read (e.g. --board's path)."""

    def __init__(self, message: str, file: str) -> None:
        super().__init__(message)
        self.file = file


class TableSnapshot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rules: RulesId = "classic"
    dummy: str | None = Field(None, description="2023, 2 players: the dummy's colour, one of players")
    players: list[str] = Field(description="2-5 player ids in seat order (the dummy's colour too)")
    king: str = Field(description="a region; 2023 also 'castillo' (Rebellion), 'france' or 'portugal' (Exile)")
    grandes: dict[str, str] = Field(default_factory=dict)
    # Counts and scores are whole numbers as typed: "3" or 3.0 is refused (strict), naming the field.
    regions: dict[str, dict[str, StrictInt]] = Field(default_factory=dict)
    castillo: dict[str, StrictInt] = Field(default_factory=dict)
    secret_discs: dict[str, str] = Field(default_factory=dict)
    # classic: "8-4-0"/"4-0-0" -> area; 2023: a Scoring tile ("tile_a"/"tile_b") -> area
    mobile_scoreboards: dict[str, str] = Field(default_factory=dict)
    scores: dict[str, StrictInt] = Field(default_factory=dict)
    court: dict[str, StrictInt] = Field(default_factory=dict)
    # King and Intrigue: the regions a 2x marker lies on, scored twice at a general scoring
    # (left out of the snapshot written back while none lies).
    double_scoring: list[str] = Field(default_factory=list, max_length=2, exclude_if=lambda v: not v)
    # King and Intrigue, Player's Edition: the two regions the Alliance markers lie on, and the
    # region the Castillo was relocated to (both back in the supply / in place after a general scoring).
    alliance: list[str] = Field(default_factory=list, max_length=2, exclude_if=lambda v: not v)
    castillo_at: str | None = Field(None, exclude_if=lambda v: v is None)
    # King and Intrigue, Special cards (Revolt): the mobile scoreboards lying reversed (0/4/8).
    reversed: list[Literal["8-4-0", "4-0-0"]] = Field(default_factory=list, max_length=2, exclude_if=lambda v: not v)
    # King and Intrigue tokens at a general scoring: the region under the quarantine marker (a
    # disc to it sends to the court, as the King's), the King's Guard's region (the King's bonus
    # there too), the Mistress in front of a player (no King's bonus), the bridge's owner (1 point).
    quarantine: str | None = Field(None, exclude_if=lambda v: v is None)
    kings_guard: str | None = Field(None, exclude_if=lambda v: v is None)
    mistress: str | None = Field(None, exclude_if=lambda v: v is None)
    bridge: str | None = Field(None, exclude_if=lambda v: v is None)
    bridge_regions: list[str] = Field(default_factory=list, max_length=2, exclude_if=lambda v: not v)
    # Table for Six: the regions under a limit table (3 at most). What a general scoring's discs
    # bring beyond its seats goes back to the court before the region is scored.
    limit_tables: list[str] = Field(default_factory=list, max_length=3, exclude_if=lambda v: not v)

    @property
    def playing(self) -> int:
        """Players at the table, the dummy not counted: what picks the board's side."""
        return len(self.players) - (self.dummy is not None)


def _fail(message: str) -> NoReturn:
    raise ValueError(message)


def check_snapshot(snap: TableSnapshot, board: Board) -> None:
    players = snap.players
    if not board.min_players <= snap.playing <= board.max_players:
        _fail(
            f"players: {snap.playing} given; El Grande takes {board.min_players} to {board.max_players}"
            + (" (the dummy not counted)" if snap.dummy else "")
        )
    if len(set(players)) != len(players):
        _fail(f"players: ids must differ, got {players}")
    if snap.dummy is not None and (snap.rules != "2023" or snap.playing != 2 or snap.dummy not in players):
        _fail("dummy: only the 2-player game of the 2023 rules has a dummy, and its colour is one of players")
    if snap.rules == "2023" and snap.playing == 2 and snap.dummy is None:
        _fail("dummy: the 2-player game of the 2023 rules has a dummy: name its colour (one of players)")
    known = set(players)
    regions = set(board.region_ids)

    def player(pid: str, where: str) -> None:
        if pid not in known:
            _fail(f"{where}: unknown player {pid!r} (players: {', '.join(players)})")

    def region(rid: str, where: str, castillo_ok: bool = False) -> None:
        if rid not in regions and not (castillo_ok and rid == CASTILLO):
            _fail(
                f"{where}: unknown region {rid!r} (regions: {', '.join(board.region_ids)}"
                + (", castillo" if castillo_ok else "")
                + ")"
            )

    def count(c: int, where: str) -> None:
        if c < 0:
            _fail(f"{where}: a count cannot be negative ({c})")

    if snap.rules == "2023":
        kings = [*board.region_ids, CASTILLO, *board.space_ids]
        if snap.king not in kings:
            _fail(f"king: unknown place {snap.king!r} (regions, castillo, {', '.join(board.space_ids)})")
    else:
        region(snap.king, "king")
    for pid, rid in snap.grandes.items():
        player(pid, "grandes")
        if pid == snap.dummy:
            _fail(f"grandes.{pid}: the dummy has no Grande")
        region(rid, f"grandes.{pid}", castillo_ok=snap.rules == "2023")  # Competition
    totals = {pid: 0 for pid in players}
    for rid, row in snap.regions.items():
        region(rid, "regions")
        for pid, c in row.items():
            player(pid, f"regions.{rid}")
            count(c, f"regions.{rid}.{pid}")
            totals[pid] += c
    for section in ("castillo", "court"):
        for pid, c in getattr(snap, section).items():
            player(pid, section)
            count(c, f"{section}.{pid}")
            totals[pid] += c
    if snap.bridge in totals:  # King and Intrigue: one of theirs stands on the bridge
        totals[snap.bridge] += 1
    for pid, total in totals.items():
        if total > board.caballeros_per_player:
            _fail(f"{pid} has {total} Caballeros on the table; each player has only {board.caballeros_per_player}")
    for pid, rid in snap.secret_discs.items():
        player(pid, "secret_discs")
        region(rid, f"secret_discs.{pid}")
    pieces = list(board.mobile_scoreboards) + list(getattr(board, "scoring_tiles", {}))
    what = "Scoring tile" if snap.rules == "2023" else "mobile scoreboard"
    for sid, rid in snap.mobile_scoreboards.items():
        if sid not in pieces:
            _fail(f"mobile_scoreboards: {sid!r} is not a {what} of the {snap.rules} rules ({', '.join(pieces)})")
        region(rid, f"mobile_scoreboards.{sid}", castillo_ok=True)
    if len(set(snap.mobile_scoreboards.values())) < len(snap.mobile_scoreboards):
        _fail(f"mobile_scoreboards: two {what}s may not lie in the same area")
    for pid in snap.scores:
        player(pid, "scores")
    if snap.double_scoring and snap.rules != "king-intrigue":
        _fail("double_scoring: only the King and Intrigue rules have 2x markers")
    if snap.reversed and snap.rules != "king-intrigue":
        _fail("reversed: only the King and Intrigue rules (Revolt) turn a mobile scoreboard over")
    if (snap.alliance or snap.castillo_at) and snap.rules != "king-intrigue":
        _fail(
            f"{'alliance' if snap.alliance else 'castillo_at'}: only the King and Intrigue rules (Player's "
            "Edition) have Alliance markers and a relocated Castillo"
        )
    if snap.alliance and (len(snap.alliance) != 2 or snap.alliance[0] == snap.alliance[1]):
        _fail("alliance: the two Alliance markers lie on two different regions")
    # No marker is *placed* in the King's region, but the King may come to a marked region later
    # ("If the King is moved to the region where the Castillo is located, it has no effect on the
    # Castillo"; an allied King's region scores his bonus): a snapshot shows the board as it lies.
    for rid in snap.alliance + ([snap.castillo_at] if snap.castillo_at else []):
        region(rid, "alliance" if rid in snap.alliance else "castillo_at")
    for rid in snap.double_scoring:
        region(rid, "double_scoring")
    if len(set(snap.double_scoring)) < len(snap.double_scoring):
        _fail("double_scoring: one 2x marker per region")
    tokens = {k: getattr(snap, k) for k in ("quarantine", "kings_guard", "mistress", "bridge") if getattr(snap, k)}
    if tokens and snap.rules != "king-intrigue":
        _fail(f"{next(iter(tokens))}: only the King and Intrigue rules have that token")
    for key in ("quarantine", "kings_guard"):
        if key in tokens:
            region(tokens[key], key)
    for key in ("mistress", "bridge"):
        if key in tokens:
            player(tokens[key], key)
    if bool(snap.bridge) != bool(snap.bridge_regions) or (snap.bridge_regions and len(snap.bridge_regions) != 2):
        _fail("bridge, bridge_regions: the bridge's owner and its two regions are given together")
    for rid in snap.bridge_regions:
        region(rid, "bridge_regions")
    if (
        snap.bridge_regions
        and board.area_index[snap.bridge_regions[1]] not in board.neighbours[board.area_index[snap.bridge_regions[0]]]
    ):
        _fail("bridge_regions: the bridge joins two adjacent regions")
    if snap.limit_tables and snap.rules != "king-intrigue":
        _fail("limit_tables: only the King and Intrigue rules (Special cards: Table for Six) have limit tables")
    for rid in snap.limit_tables:
        region(rid, "limit_tables")
    if len(set(snap.limit_tables)) < len(snap.limit_tables):
        _fail("limit_tables: one limit table per region")


def snapshot_board(snap: TableSnapshot, board_file: dict | None = None, cards_file: dict | None = None) -> Board:
    """The board a snapshot is scored on: its rule set's side for its players, completed by
    the table's own files. SnapshotError names what is wrong."""
    if snap.rules == "classic" and board_file is None and cards_file is None:
        return classic_board()
    try:
        return load_board(snap.rules, snap.playing, board_file, cards_file)
    except CardFileError as exc:
        raise TableFileError(str(exc), "cards") from None
    except BoardFileError as exc:
        raise TableFileError(str(exc), "board") from None
    except (RuleSetError, DataFileError) as exc:
        raise SnapshotError(str(exc)) from None


def load_snapshot(
    data: object, board: Board | None = None, board_file: dict | None = None, cards_file: dict | None = None
) -> TableSnapshot:
    """Validate parsed JSON against its board; raises SnapshotError with one clear line."""
    if not isinstance(data, dict):
        raise SnapshotError(
            f'a snapshot is one JSON object {{"players": [...], "king": ..., ...}}, not {_json_kind(data)}'
        )
    try:
        snap = TableSnapshot.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "int_type":
            msg = f"must be a whole number (a count or score as digits, not in quotes), not {err['input']!r}"
        raise SnapshotError(f"{where}: {msg}" if where else msg) from None
    board = board or snapshot_board(snap, board_file, cards_file)  # TableFileError: the files' mistake
    try:
        check_snapshot(snap, board)
    except ValueError as exc:
        raise SnapshotError(str(exc)) from None
    return snap


def _json_kind(data: object) -> str:
    return {list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(type(data), "a number")


def state_from_snapshot(snap: TableSnapshot, board: Board | None = None) -> GameState:
    from .rules import rule_set

    board = board or snapshot_board(snap)
    idx = board.area_index
    n = len(snap.players)
    dummy = snap.players.index(snap.dummy) if snap.dummy else None
    homes = [idx[snap.grandes[pid]] if pid in snap.grandes else -1 for pid in snap.players]
    state = new_state(
        board,
        snap.players,
        {pid: pid.replace("_", " ").title() for pid in snap.players},
        "full",
        idx[snap.king],
        [max(h, 0) for h in homes],
        0,
        rules=rule_set(snap.rules, [], snap.playing),
        dummy=dummy,
    )
    state.grandes = homes  # -1: no Grande entered, so no home bonus
    state.counts = [[0] * n for _ in range(board.castillo + 1)]
    for rid, row in snap.regions.items():
        for pid, c in row.items():
            state.counts[idx[rid]][snap.players.index(pid)] = c
    for pid, c in snap.castillo.items():
        state.counts[board.castillo][snap.players.index(pid)] = c
    state.court = [snap.court.get(pid, 0) for pid in snap.players]
    for p in range(n):
        state.provinces[p] = board.caballeros_per_player - state.court[p] - sum(r[p] for r in state.counts)
    state.scores = [snap.scores.get(pid, 0) for pid in snap.players]
    for sid, rid in snap.mobile_scoreboards.items():
        state.mobile[sid] = idx[rid]
    state.markers = {f"double_{i + 1}": idx[rid] for i, rid in enumerate(snap.double_scoring)}
    state.markers.update({f"alliance_{i + 1}": idx[rid] for i, rid in enumerate(snap.alliance)})
    if snap.castillo_at:
        state.markers["castillo_at"] = idx[snap.castillo_at]
    state.markers.update({f"reversed_{sid}": True for sid in snap.reversed})
    for key in ("quarantine", "kings_guard"):
        if getattr(snap, key):
            state.markers[key] = idx[getattr(snap, key)]
    if snap.mistress:
        state.markers["mistress"] = snap.mistress
    if snap.bridge:  # the owner's Caballero stands on it (among their 30)
        state.aside["bridge"] = snap.players.index(snap.bridge)
        state.provinces[state.aside["bridge"]] -= 1
        state.markers["bridge_1"], state.markers["bridge_2"] = (idx[r] for r in snap.bridge_regions)
    state.markers.update({m: idx[rid] for m, rid in zip(LIMIT_MARKERS, snap.limit_tables)})
    return state


def snapshot_from_state(state: GameState) -> TableSnapshot:
    board = state.board
    pids = state.players
    return TableSnapshot.model_construct(
        rules=cast(RulesId, state.rules.id),  # a RuleSet's id is one of TableSnapshot's rules
        dummy=None if state.dummy is None else pids[state.dummy],
        players=list(pids),
        king=board.area_id(state.king),
        grandes={pid: board.area_id(g) for pid, g in zip(pids, state.grandes) if g is not None and g >= 0},
        regions={
            rid: {pids[p]: c for p, c in enumerate(state.counts[r]) if c}
            for r, rid in enumerate(board.region_ids)
            if any(state.counts[r])
        },
        castillo={pids[p]: c for p, c in enumerate(state.counts[board.castillo]) if c},
        secret_discs={},
        mobile_scoreboards={sid: board.area_id(a) for sid, a in state.mobile.items() if a is not None},
        scores=dict(zip(pids, state.scores)),
        court={pids[p]: c for p, c in enumerate(state.court) if c},
        reversed=[k.removeprefix("reversed_") for k, v in state.markers.items() if k.startswith("reversed_") and v],
        quarantine=_where(state, "quarantine"),
        kings_guard=_where(state, "kings_guard"),
        mistress=state.markers.get("mistress"),
        bridge=None if state.aside.get("bridge") is None else pids[state.aside["bridge"]],
        bridge_regions=[
            board.area_id(state.markers[m]) for m in ("bridge_1", "bridge_2") if state.markers.get(m) is not None
        ],
        limit_tables=[board.area_id(state.markers[m]) for m in LIMIT_MARKERS if state.markers.get(m) is not None],
    )


def _where(state: GameState, marker: str) -> str | None:
    a = state.markers.get(marker)
    return None if a is None else state.board.area_id(a)


def _special_regions(state: GameState, kind: str) -> tuple[list[int], bool]:
    """Regions a special scoring covers, and whether it pays 1st place only."""
    board = state.board
    if kind.startswith("region:"):
        rid = kind.split(":", 1)[1]
        if rid not in board.region_ids:
            raise SnapshotError(f"--special region:{rid}: unknown region (regions: {', '.join(board.region_ids)})")
        return [board.area_index[rid]], False
    if kind in board.scoring_groups:
        return regions_in_group(state, kind), False
    if kind == "castillo":
        return [board.castillo], False
    if kind == "first-only":
        return list(board.regions), True
    if kind in ("most", "least"):
        return regions_by_total(state, kind == "most"), False
    raise SnapshotError(f"--special {kind}: unknown kind (one of {', '.join(SPECIAL_KINDS)}, region:ID)")


def score_snapshot(
    snap: TableSnapshot, special: str | None = None, board: Board | None = None
) -> tuple[dict[str, int], list[ScoreLine], TableSnapshot]:
    """Score a table: a general scoring, or the special scoring `special` names.
    Returns points gained per player, the itemised lines, and the table after."""
    state = state_from_snapshot(snap, board)
    board = state.board
    try:
        if special is not None:
            areas, first_only = _special_regions(state, special)
            lines = _reversed(state, score_regions(state, areas, first_only))
            if state.markers.get("mistress") is not None:  # King and Intrigue: no King's bonus this round
                lines = [ln for ln in lines if ln.kind != "king_bonus"]
        else:
            lines = _general_scoring(state, snap)
    except RuleViolation as exc:  # a scoreboard or tile the table has not entered
        raise SnapshotError(exc.detail) from None
    apply_lines(state, lines)
    return gained(state, lines), lines, snapshot_from_state(state)


def _reversed(state: GameState, lines: list[ScoreLine]) -> list[ScoreLine]:
    """King and Intrigue, Revolt: an area under a reversed mobile scoreboard scored from the fewest."""
    if not any(k.startswith("reversed_") and v for k, v in state.markers.items()):
        return lines
    from .effects.revolt import reversed_at, reversed_lines

    out, done = [], set()
    for line in lines:
        a = state.board.area_index[line.area]
        if reversed_at(state, a) is None:
            out.append(line)
        elif a not in done:
            done.add(a)
            out += reversed_lines(state, a)
    return out


def _general_scoring(state: GameState, snap: TableSnapshot) -> list[ScoreLine]:
    """The Castillo scored, its Caballeros sent where each disc says, then every region.
    2023: while the King stands by the Castillo (Rebellion) nothing leaves it; a Grande in
    it (Competition) goes with its owner's disc; the dummy sets no disc, and its Caballeros
    in the Castillo go back to its supply."""
    board = state.board
    castillo = board.castillo
    require_scoreboards(state, range(castillo + 1))
    stays = state.king == castillo
    movers = [
        p
        for p in range(state.n)
        if p != state.dummy and not stays and (state.counts[castillo][p] or state.grandes[p] == castillo)
    ]
    for p in movers:
        pid = state.players[p]
        if pid not in snap.secret_discs:
            what = "Caballeros" if state.counts[castillo][p] else "a Grande"
            raise SnapshotError(
                f"secret_discs: {pid} has {what} in the Castillo but no secret disc "
                "(general scoring: each of them goes to the region on the disc)"
            )
    at = state.markers.get("castillo_at")
    if at is not None:  # King and Intrigue, Relocate: on the scoreboard of the region it stands in
        from .effects.relocate import castillo_lines

        lines = castillo_lines(state, at)
    else:
        lines = _reversed(state, score_area(state, castillo))
    limited = {state.markers[m] for m in LIMIT_MARKERS if state.markers.get(m) is not None}
    arrived = {r: state.counts[r][:] for r in limited}  # Table for Six: the seats taken before the discs
    for p in movers:
        k = state.counts[castillo][p]
        dest = board.area_index[snap.secret_discs[state.players[p]]]
        state.counts[castillo][p] = 0
        if state.grandes[p] == castillo:
            state.grandes[p] = dest
        if is_taboo(state, dest):  # the King's region (or a quarantined one) is taboo: back to the court
            state.court[p] += k
        else:
            state.counts[dest][p] += k
    if state.dummy is not None and not stays:
        state.provinces[state.dummy] += state.counts[castillo][state.dummy]
        state.counts[castillo][state.dummy] = 0
    if limited:  # "these newer, excess Caballeros are returned to the players' Courts"
        from .effects.table_for_six import excess_returned

        excess_returned(state, arrived)
    pair = (state.markers.get("alliance_1"), state.markers.get("alliance_2"))
    if None in pair:
        lines += _reversed(state, score_regions(state, list(board.regions)))
    else:  # King and Intrigue, Alliance: the two marked regions scored as one
        from .effects.alliance import alliance_lines

        lines += _reversed(state, score_regions(state, [r for r in board.regions if r not in pair]))
        first, second = pair
        assert first is not None and second is not None
        lines += alliance_lines(state, first, second)
    if state.markers or state.aside:  # King and Intrigue: the tokens, then each 2x marker's region once more
        from .rules.king_intrigue.general_scoring import double_lines, tokens_at_scoring

        record = ScoringRecord(0, "", lines, [])
        tokens_at_scoring(state, record, apply=False)
        lines = record.lines
        lines += double_lines(state, lines)
        kept = ("reversed_", "quarantine", "kings_guard", "mistress", "bridge_", "limit_")  # on the table still
        state.markers = {k: v for k, v in state.markers.items() if k.startswith(kept)}
    return lines
