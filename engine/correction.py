"""Table corrections: the position as it really lies on the table.

Two uses of one event (`events.TableCorrected`):
- a correction: the table sees that the board differs from the tablet (a cube
  knocked over, a move entered wrongly two turns ago) and says how it really is;
  nothing after the mistake is undone;
- a start from a position: a game opened in round 4, or moved from scoring-only
  to tracking, begins from the board in front of the table (with the round, the
  Power cards already laid down and who holds a Veto).

Every figure is checked before anything changes: ids exist, nobody owns more than
their 30 Caballeros, two mobile scoreboards never share an area. The provinces
make up the rest. The action stacks after a start are taken as unseen: which cards
came up before the start is not known to the tablet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from .board.model import CASTILLO
from .errors import N_, Place, RuleViolation, Template, plural
from .events import TableCorrected
from .state import GameState

if TYPE_CHECKING:
    from .board.model import Board

VETO_EFFECTS = ("veto", "veto_2023")

# A correction is made between steps, never midway through a special action or a scoring.
CORRECTABLE_STAGES = (
    "reveal",
    "power",
    "replenish",
    "choose_card",
    "turn",
    # 2023: before the dummy's Region cards or Power card; before the deal
    "dummy_regions",
    "dummy_power",
    "modifiers_deal",
)
START_FIELDS = ("round", "start_player", "power_spent", "vetoes")


def _fail(template: Template, **values: Any) -> NoReturn:
    raise RuleViolation("correction", template, **values)


class _Checker:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.board = state.board

    def player(self, pid: str, where: str) -> int:
        if pid not in self.state.players:
            _fail(
                N_("{where}: {player!r} is not a player in this game (players: {players})"),
                where=where,
                player=pid,
                players=self.state.players,
            )
        return self.state.players.index(pid)

    def region(self, rid: str, where: str, castillo_ok: bool = False) -> int:
        if rid == CASTILLO and castillo_ok:
            return self.board.castillo
        if rid not in self.board.region_ids:
            _fail(
                N_("{where}: {region!r} is not a region (regions: {regions})"),
                where=where,
                region=rid,
                regions=self.board.region_ids,
            )
        return self.board.area_index[rid]

    @property
    def edition_2023(self) -> bool:
        return self.state.rules.id == "2023"

    def kings_place(self, rid: str) -> int:
        """2023: the King may also stand by the Castillo (Rebellion) or in France or Portugal (Exile)."""
        board = self.board
        if not self.edition_2023:
            return self.region(rid, "king")
        if rid in board.space_ids and board.space_neighbours[board.space_ids.index(rid)] is None:
            # As Exile: the King is not sent where nobody could place next to him.
            name = board.space_names[board.space_ids.index(rid)]
            given = board.missing.get(f"spaces.{rid}.neighbours")
            if given:
                _fail(N_("king: {given}"), given=given)
            _fail(N_("king: {space} has no known neighbours"), space=Place(name))
        if rid == CASTILLO or rid in board.space_ids or rid in board.region_ids:
            return board.area_index[rid]
        places = [*board.region_ids, CASTILLO, *board.space_ids]
        _fail(N_("king: {place!r} is not a place the King can stand ({places})"), place=rid, places=places)

    def piece(self, sid: str) -> None:
        """A mobile scoreboard (classic) or a Scoring tile whose values the table has entered."""
        board = self.board
        tiles = getattr(board, "scoring_tiles", {})
        known = list(board.mobile_scoreboards) + list(tiles)
        if sid not in known:
            _fail(
                N_("mobile_scoreboards: {piece!r} is not a mobile scoreboard or Scoring tile of this game ({known})")
                if known
                else N_("mobile_scoreboards: {piece!r} is not a mobile scoreboard or Scoring tile of this game (none)"),
                piece=sid,
                known=known,
            )
        if sid in tiles and tiles[sid] is None:
            given = board.missing.get(f"scoring_tiles.{sid}")
            if given:
                _fail(N_("mobile_scoreboards.{tile}: {given}"), tile=sid, given=given)
            _fail(
                N_("mobile_scoreboards.{tile}: enter the Scoring tile {tile}'s values from your tile first"), tile=sid
            )


def check_and_apply(state: GameState, e: TableCorrected) -> None:
    """Check the whole correction first, then apply it: all of it or nothing."""
    if state.stage not in CORRECTABLE_STAGES or state.special is not None:
        _fail(
            N_(
                "the table can correct the board between steps, not now: finish the special action or "
                "the scoring under way first"
            )
        )
    starting = [f for f in START_FIELDS if getattr(e, f) is not None]
    if starting and state.event_count:
        _fail(
            N_("{starting} can only be set where tracking starts, before anything else is entered"), starting=starting
        )
    new = _corrected_position(state, e)
    if starting:
        _check_start(state, e)
    _apply_position(state, new)
    if starting:
        _apply_start(state, e)


def _corrected_position(state: GameState, e: TableCorrected) -> dict:
    c = _Checker(state)
    board = state.board
    n = state.n
    counts = [list(row) for row in state.counts]
    if e.regions is not None:
        for r in board.regions:
            counts[r] = [0] * n
        for rid, row in e.regions.items():
            r = c.region(rid, "regions")
            for pid, k in row.items():
                counts[r][c.player(pid, f"regions.{rid}")] = k
    if e.castillo is not None:
        counts[board.castillo] = [0] * n
        for pid, k in e.castillo.items():
            counts[board.castillo][c.player(pid, "castillo")] = k
    court = list(state.court)
    if e.court is not None:
        court = [0] * n
        for pid, k in e.court.items():
            court[c.player(pid, "court")] = k
    if state.dummy is not None and court[state.dummy]:
        _fail(N_("court: the dummy has no court; its Caballeros off the board wait beside it (the provinces)"))
    for p in range(n):
        total = court[p] + sum(row[p] for row in counts) + sum(1 for q in state.aside.values() if q == p)
        if total > board.caballeros_per_player:
            # Names no hidden figure: the Castillo is part of the total but not shown.
            _fail(
                N_("{who} would have more than {most} Caballeros on the table (regions, court and Castillo together)"),
                who=state.names[state.players[p]],
                most=board.caballeros_per_player,
            )
    king = c.kings_place(e.king) if e.king is not None else state.king
    grandes = list(state.grandes)
    for pid, rid in (e.grandes or {}).items():
        p = c.player(pid, "grandes")
        if p == state.dummy:
            _fail(N_("grandes.{pid}: the dummy has no Grande"), pid=pid)
        # 2023: Competition throws a Grande into the Castillo.
        grandes[p] = c.region(rid, f"grandes.{pid}", castillo_ok=c.edition_2023)
    mobile = dict(state.mobile)
    for sid, at in (e.mobile_scoreboards or {}).items():
        c.piece(sid)
        mobile[sid] = None if at is None else c.region(at, f"mobile_scoreboards.{sid}", castillo_ok=True)
    placed = [a for a in mobile.values() if a is not None]
    if len(set(placed)) < len(placed):
        _fail(
            N_("mobile_scoreboards: the two Scoring tiles may not lie in the same area")
            if c.edition_2023
            else N_("mobile_scoreboards: the two mobile scoreboards may not lie in the same area")
        )
    scores = list(state.scores)
    for pid, v in (e.scores or {}).items():
        scores[c.player(pid, "scores")] = v
    return {"counts": counts, "court": court, "king": king, "grandes": grandes, "mobile": mobile, "scores": scores}


def _apply_position(state: GameState, new: dict) -> None:
    state.counts, state.court = new["counts"], new["court"]
    state.king, state.grandes, state.mobile, state.scores = new["king"], new["grandes"], new["mobile"], new["scores"]
    per_player = state.board.caballeros_per_player
    state.provinces = [
        per_player
        - state.court[p]
        - sum(row[p] for row in state.counts)
        - sum(1 for q in state.aside.values() if q == p)
        for p in range(state.n)
    ]  # the bridge's


def _check_start(state: GameState, e: TableCorrected) -> None:
    c = _Checker(state)
    if e.round is not None and e.round not in state.schedule:
        _fail(N_("round: {round} is not a round of this game (rounds: {rounds})"), round=e.round, rounds=state.schedule)
    if e.start_player is not None:
        c.player(e.start_player, "start_player")
    before = state.schedule.index(e.round) if e.round is not None else 0
    values = set(state.board.replenish)
    for pid, spent in (e.power_spent or {}).items():
        c.player(pid, "power_spent")
        if len(set(spent)) != len(spent) or not set(spent) <= values:
            _fail(
                N_("power_spent.{pid}: each Power card value 1 to 13 at most once, got {spent}"), pid=pid, spent=spent
            )
        if len(spent) > before:
            _fail(
                N_("power_spent.{pid}: {spent} cards laid down, but only {before} rounds came before"),
                pid=pid,
                spent=len(spent),
                before=before,
            )
    holders = e.vetoes or []
    for pid in holders:
        if c.player(pid, "vetoes") == state.dummy:
            _fail(N_("vetoes: the dummy never holds a Veto (it does not use its cards)"))
    copies = veto_copies(state.board)
    if copies is not None and len(holders) > copies:
        _fail(
            plural(
                "vetoes: {holders} holders, but the game has {copies} Veto card",
                "vetoes: {holders} holders, but the game has {copies} Veto cards",
                "copies",
            ),
            holders=len(holders),
            copies=copies,
        )


def _apply_start(state: GameState, e: TableCorrected) -> None:
    if e.round is not None:
        state.round_index = state.schedule.index(e.round)
    if e.start_player is not None:
        state.start_player = state.players.index(e.start_player)
    for pid, spent in (e.power_spent or {}).items():
        p = state.players.index(pid)
        state.hands[p] -= set(spent)
        state.discards[p] |= set(spent)
        state.power_spent[p] |= set(spent)
    veto = next((card for card in state.board.cards.values() if card.effect in VETO_EFFECTS), None)
    for pid in e.vetoes or []:
        # Held until the end of this round at least: when it was taken is not known.
        state.vetoes.append((state.players.index(pid), state.round_index))
        if veto is None or veto.stack is None or veto.stack > 4:
            continue
        undrawn = state.stacks_undrawn[state.rules.table_stack(veto.stack) - 1]
        if undrawn.get(veto.id):
            undrawn[veto.id] -= 1


def veto_copies(board: Board) -> int | None:
    """The Veto cards in the game (None: the table's card set does not say how many)."""
    cards = [card for card in board.cards.values() if card.effect in VETO_EFFECTS]
    if any(card.copies is None for card in cards):
        return None
    return sum(card.copies or 0 for card in cards)  # each known (checked above)
