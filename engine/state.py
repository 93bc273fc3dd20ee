"""The game state: plain mutable data, indexed by small integers.

Players are seat indices 0..n-1 (clockwise), areas are region indices 0..R-1
and R for the Castillo (see engine.board.model). Only engine.flow mutates a state,
and only in answer to an event; everything else reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .board.model import ActionCard, Board
from .rules import CLASSIC, RuleSet
from .rules.edition_2023 import old_hands

TABLE = "table"  # who is asked to enter what the physical table revealed


def _read_only(self, *args, **kwargs):
    raise TypeError("a FrozenMap is fixed at setup: it cannot change")


class FrozenMap(dict):
    """A read-only dictionary for data fixed at setup (Power Shift's Modifier cards): shared
    by clones, and deep copies, as the board is. A dict underneath, so that reads (every
    Power card played reads it) cost what a dict's do."""

    __slots__ = ("_sorted",)

    def __init__(self, data=()):
        super().__init__(data)
        self._sorted = None

    def sorted_keys(self) -> tuple:
        """The keys in order, sorted once (the map never changes)."""
        if self._sorted is None:
            self._sorted = tuple(sorted(self))
        return self._sorted

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __copy__(self) -> FrozenMap:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenMap:
        return self

    def __reduce__(self):
        return (FrozenMap, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenMap({dict(self)!r})"


@dataclass(slots=True)
class Turn:
    player: int
    card: ActionCard | None = None
    stack: int = 0
    replenished: bool = False
    placed: bool = False
    special_done: bool = False


@dataclass(slots=True)
class Special:
    """A special action in progress: which card, and how far it has come."""

    card: ActionCard
    effect: str
    player: int
    left: int = 0  # Caballeros still allowed (moves, extra placement)
    own_left: int = 0
    foreign_left: int = 0
    source: int | None = None  # the one region a card restricts to
    queue: list[int] = field(default_factory=list)  # players still to act, in order
    discs: dict[int, int] = field(default_factory=dict)  # secret choices, hidden
    vetoes_pending: list[int] = field(default_factory=list)  # the veto window
    started: bool = False  # steps begun (after the veto window)
    moves: list = field(default_factory=list)  # what it made players move, for the Outcome
    target: int | None = None  # the one region a card moves to (one_target), once chosen


@dataclass(slots=True)
class ScoringRecord:
    round: int
    title: str
    lines: list  # list[ScoreLine]
    transfers: list  # general scoring: Castillo -> region (or court) per player


@dataclass(slots=True)
class Outcome:
    """What the table must now do by hand after an effect the tablet worked out: a reveal
    of secret discs, or one player's action on everyone. Kept as the game's history."""

    round: int
    title: str
    discs: dict  # player id -> region id each revealed disc shows (empty when none)
    moves: list  # {"player", "count", "source", "target"}: area ids, "court" or "provinces"

    def to_dict(self) -> dict:
        return {
            "round": self.round,
            "title": self.title,
            "discs": dict(self.discs),
            "moves": [dict(m) for m in self.moves],
        }


@dataclass(slots=True)
class GameState:
    board: Board
    players: tuple[str, ...]
    names: dict[str, str]
    variant: str
    schedule: tuple[int, ...]
    counts: list[list[int]]  # [area][player] Caballeros, Castillo last
    court: list[int]
    provinces: list[int]
    king: int
    grandes: list[int]
    mobile: dict[str, int | None]  # mobile scoreboard (classic) or Scoring tile (2023) id -> area or None (off board)
    scores: list[int]
    hands: list[set[int]]
    discards: list[set[int]]
    played: list[int | None]
    take_back_played: list[bool]  # took this round's card back: it returns to the hand
    stacks_undrawn: list[dict[str, int]]  # stacks 1..4: card id -> copies not yet seen
    stacks_bottom: list[list[str]]  # stacks 1..4: cards put under, in order
    revealed: dict[int, str | None]  # stack -> face-up card id, None once taken
    vetoes: list[tuple[int, int]]  # (holder, last round index it may be used)
    round_index: int = 0
    stage: str = "reveal"
    start_player: int = 0
    power_order: list[int] = field(default_factory=list)
    power_pos: int = 0
    turn_order: list[int] = field(default_factory=list)
    turn_pos: int = 0
    turn: Turn | None = None
    special: Special | None = None
    scoring_discs: dict[int, int] = field(default_factory=dict)  # general scoring, hidden
    scoring_needed: list[int] = field(default_factory=list)
    scoring_log: list[ScoringRecord] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    event_count: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    # Public knowledge of the Power cards: the values each player laid face up in earlier
    # rounds, and whether they ever took one back (which card stays secret).
    power_spent: list[set[int]] = field(default_factory=list)
    took_back_any: list[bool] = field(default_factory=list)
    veto_on_take: bool = True  # rules revision 2 (see events.RULES_REVISION)
    castillo_after_veto: bool = True  # rules revision 3
    spade_printed: bool = True  # rules revision 3 (engine/board/merge.py _placement_printed)
    rules: RuleSet = CLASSIC  # the rule set and modules (engine/rules)
    dummy: int | None = None  # 2023, 2 players: the dummy's seat (the last)
    discard_pile: list[str] = field(default_factory=list)  # 2023: face up, public
    regency_undrawn: dict[str, int] = field(default_factory=dict)  # New Regency's ♠ stack
    # 2023: cards whose copies the table's set does not know, turned up so far (card id -> times):
    # such a card turns up while its stack may still hold another (engine/card_entry.py).
    copies_seen: dict[str, int] = field(default_factory=dict)
    # The table's own board and card files from the setup (never changed), and the cards it
    # entered during the game (engine/card_entry.py): what `board` is rebuilt from.
    table_files: tuple = (None, None)
    card_entries: list = field(default_factory=list)
    board_entries: list = field(default_factory=list)
    # The 2-player dummy's Region cards drawn since the last reshuffle (public; the rest are
    # the draw pile). All nine are reshuffled after each general scoring (rules/edition_2023/dummy.py).
    region_cards_drawn: list[int] = field(default_factory=list)
    # Power Shift (rules/edition_2023/power_shift.py). `modifiers` is the set in play (id -> Modifier,
    # never changed); the rest are per seat. Hands, passes and discards are secret.
    modifiers: FrozenMap = field(default_factory=FrozenMap)
    modifier_hands: list[set[str]] = field(default_factory=list)
    modifier_passes: dict[int, str] = field(default_factory=dict)  # chosen, not yet passed
    modifier_played: list[str | None] = field(default_factory=list)  # this round, face up
    modifier_discards: list[set[str]] = field(default_factory=list)
    modifier_take_back: list[bool] = field(default_factory=list)  # Empowerment took this round's
    # Public tokens a rule set lays on the board (King and Intrigue: the 2x markers ...):
    # marker id -> where (an area index, or an immutable value), None while in the supply.
    markers: dict = field(default_factory=dict)
    # Caballeros set aside off the board, court and provinces (King and Intrigue: one on the
    # bridge): place id -> the seat whose Caballero stands there. Public.
    aside: dict = field(default_factory=dict)
    # King and Intrigue, Espionage: an event that starts a special scoring, held back while the
    # spies' owners decide (stage, event, region ids it scores); events are never changed: shared.
    deferred: tuple | None = None
    # Seats (the dummy's included): len(players), read in every hot loop, so kept, not computed.
    n: int = field(init=False, default=0)
    seat_of: dict = field(init=False, default_factory=dict)  # player id -> seat

    def __post_init__(self) -> None:
        self.n = len(self.players)
        self.seat_of = {pid: p for p, pid in enumerate(self.players)}

    # --- copying ------------------------------------------------------------
    def clone(self) -> GameState:
        """A copy to change without touching this one (trials, undo, hints, search). Every
        mutable part is copied; what is never changed once made is shared: the board and
        its cards, names, finished scoring records and outcomes. Many times faster than
        copy.deepcopy (bench/bench_engine.py); tests/engine/test_state.py checks it
        changes nothing shared."""
        turn, sp = self.turn, self.special
        return GameState(
            board=self.board,
            players=self.players,
            names=self.names,
            variant=self.variant,
            schedule=self.schedule,
            counts=[row[:] for row in self.counts],
            court=self.court[:],
            provinces=self.provinces[:],
            king=self.king,
            grandes=self.grandes[:],
            mobile=dict(self.mobile),
            scores=self.scores[:],
            hands=[set(h) for h in self.hands],
            discards=[set(d) for d in self.discards],
            played=self.played[:],
            take_back_played=self.take_back_played[:],
            stacks_undrawn=[dict(u) for u in self.stacks_undrawn],
            stacks_bottom=[b[:] for b in self.stacks_bottom],
            revealed=dict(self.revealed),
            vetoes=self.vetoes[:],
            round_index=self.round_index,
            stage=self.stage,
            start_player=self.start_player,
            power_order=self.power_order[:],
            power_pos=self.power_pos,
            turn_order=self.turn_order[:],
            turn_pos=self.turn_pos,
            turn=None
            if turn is None
            else Turn(turn.player, turn.card, turn.stack, turn.replenished, turn.placed, turn.special_done),
            special=None
            if sp is None
            else Special(
                sp.card,
                sp.effect,
                sp.player,
                sp.left,
                sp.own_left,
                sp.foreign_left,
                sp.source,
                sp.queue[:],
                dict(sp.discs),
                sp.vetoes_pending[:],
                sp.started,
                sp.moves[:],
                sp.target,
            ),
            scoring_discs=dict(self.scoring_discs),
            scoring_needed=self.scoring_needed[:],
            scoring_log=self.scoring_log[:],
            winners=self.winners[:],
            event_count=self.event_count,
            outcomes=self.outcomes[:],
            power_spent=[set(p) for p in self.power_spent],
            took_back_any=self.took_back_any[:],
            veto_on_take=self.veto_on_take,
            castillo_after_veto=self.castillo_after_veto,
            spade_printed=self.spade_printed,
            rules=self.rules,
            dummy=self.dummy,
            discard_pile=self.discard_pile[:],
            regency_undrawn=dict(self.regency_undrawn),
            copies_seen=dict(self.copies_seen),
            region_cards_drawn=self.region_cards_drawn[:],
            modifiers=self.modifiers,
            modifier_hands=[set(h) for h in self.modifier_hands],
            modifier_passes=dict(self.modifier_passes),
            modifier_played=self.modifier_played[:],
            modifier_discards=[set(d) for d in self.modifier_discards],
            modifier_take_back=self.modifier_take_back[:],
            table_files=self.table_files,
            card_entries=self.card_entries[:],
            board_entries=self.board_entries[:],
            markers=dict(self.markers),
            aside=dict(self.aside),
            deferred=self.deferred,
        )

    # --- small read helpers -------------------------------------------------
    @property
    def round(self) -> int:
        return self.schedule[min(self.round_index, len(self.schedule) - 1)]

    def player_index(self, pid: str) -> int | None:
        return self.seat_of.get(pid)

    def on_board(self, p: int) -> int:
        """Caballeros of p in the regions (not the Castillo)."""
        return sum(self.counts[r][p] for r in self.board.regions)

    def castillo_count(self, p: int) -> int:
        return self.counts[self.board.castillo][p]

    def removable_regions(self, p: int) -> dict[int, int]:
        """Regions p's Caballeros may be taken from: any but the King's (and, King and
        Intrigue, one under a taboo marker: closed_regions below)."""
        if self.markers and (self.markers.get("quarantine") is not None or self.markers.get("kings_guard") is not None):
            closed = closed_regions(self)
            return {r: self.counts[r][p] for r in self.board.regions if r not in closed and self.counts[r][p]}
        king = self.king
        return {r: self.counts[r][p] for r in self.board.regions if r != king and self.counts[r][p]}

    def mobile_at(self, area: int) -> str | None:
        if area not in self.mobile.values():  # the usual answer, found without a loop
            return None
        for sid, where in self.mobile.items():
            if where == area:
                return sid
        return None

    def scoreboard(self, area: int) -> tuple[int, int, int] | None:
        """The values an area scores with: a mobile scoreboard (classic) or a Scoring tile
        (2023) lying there, else the printed one. None: not published and not entered by
        the table (a tile's values, the 2023 board's 2-3 player side)."""
        sid = self.mobile_at(area)
        if sid is None:
            return self.board.scoreboards[area]
        mobile = self.board.mobile_scoreboards.get(sid)
        return mobile if mobile is not None else self.board.scoring_tiles.get(sid)

    def total_accounted(self, p: int) -> int:
        aside = sum(1 for q in self.aside.values() if q == p) if self.aside else 0
        return self.provinces[p] + self.court[p] + sum(row[p] for row in self.counts) + aside


def _deal_stacks(
    board: Board, rules: RuleSet, removed: tuple[str, ...], added: tuple[str, ...] = ()
) -> tuple[list[dict[str, int]], dict[str, int]]:
    """The face-down stacks 1..4 (merged 2-and-3 under 2 with four stacks) and New
    Regency's ♠ stack, as card id -> copies. Cards of a module come in only with it (Old
    Hands: the ♣ cards `added`, each replacing a `removed` card, checked by
    rules/edition_2023/old_hands.py); a card whose stack no source gives is left out (the table adds it
    when it turns up)."""
    added = old_hands.added_cards(board, rules, added)
    old_hands.check_removed(board, rules, added, removed)
    full, regency = _every_copy(board, rules, added)
    undrawn = [dict(stack) for stack in full]
    for cid in removed:  # base cards of stacks 1-4 (checked), never more than their copies
        card = board.cards[cid]
        if card.stack is None or card.copies is None:
            continue  # never dealt
        stack = undrawn[rules.table_stack(card.stack) - 1]
        if stack[cid] > 1:
            stack[cid] -= 1
        else:
            del stack[cid]
    return undrawn, dict(regency)


_EVERY_COPY: dict[int, tuple[Board, dict]] = {}


def _every_copy(board: Board, rules: RuleSet, added: tuple[str, ...]) -> tuple[list[dict[str, int]], dict[str, int]]:
    """The stacks with every copy of their cards, none returned to the box, worked out once
    per board, rule set and ♣ cards added (self-play deals thousands of games from one
    board). Shared: copy before changing."""
    entry = _EVERY_COPY.get(id(board))
    if entry is None or entry[0] is not board:  # a board seen first (or an id used again)
        if len(_EVERY_COPY) >= 16:
            _EVERY_COPY.clear()
        entry = _EVERY_COPY[id(board)] = (board, {})
    deals = entry[1]
    deal = deals.get((rules, added))
    if deal is None:
        undrawn: list[dict[str, int]] = [{}, {}, {}, {}]
        regency: dict[str, int] = {}
        for c in board.cards.values():
            module = getattr(c, "module", None)
            if c.stack is None or c.copies is None or c.copies <= 0 or (module and module not in rules.modules):
                continue
            if module == old_hands.MODULE and c.id not in added:
                continue
            if module == "new-regency":
                regency[c.id] = c.copies
            elif c.stack in (1, 2, 3, 4):
                stack = undrawn[rules.table_stack(c.stack) - 1]
                stack[c.id] = stack.get(c.id, 0) + c.copies
        deal = deals[(rules, added)] = (undrawn, regency)
    return deal


def first_stage(rules: RuleSet, dummy: int | None) -> str:
    """Power Shift deals its Modifier cards at setup; the 2-player dummy's Region cards
    come at the beginning of each round, before the Action cards are turned up."""
    if rules.power_shift:
        return "modifiers_deal"
    return "dummy_regions" if dummy is not None else "reveal"


def new_state(
    board: Board,
    players: list[str],
    names: dict[str, str],
    variant: str,
    king: int,
    homes: list[int | None],
    start_player: int,
    rules: RuleSet = CLASSIC,
    dummy: int | None = None,
    removed: tuple[str, ...] = (),
    modifiers: Mapping | None = None,
    added: tuple[str, ...] = (),
) -> GameState:
    """The position after setup. The 2-player game's dummy (a seat with no home, Grande or
    court: its 30 Caballeros wait beside the board) is `dummy`, the last seat. `modifiers`:
    Power Shift's Modifier cards (id -> Modifier), when that module is on."""
    n = len(players)
    counts = [[0] * n for _ in range(len(board.region_ids) + 1)]
    for p, home in enumerate(homes):
        if home is not None:
            counts[home][p] = board.home_caballeros
    court = [board.court_caballeros] * n
    provinces = [board.caballeros_per_player - board.court_caballeros - board.home_caballeros] * n
    if dummy is not None:
        court[dummy], provinces[dummy] = 0, board.caballeros_per_player
    undrawn, regency = _deal_stacks(board, rules, removed, added)
    return GameState(
        board=board,
        players=tuple(players),
        names=dict(names),
        variant=variant,
        schedule=board.round_schedules[variant],
        counts=counts,
        court=court,
        provinces=provinces,
        king=king,
        grandes=list(homes),
        mobile={sid: None for sid in (*board.mobile_scoreboards, *getattr(board, "scoring_tiles", {}))},
        scores=[0] * n,
        hands=[set(board.replenish) for _ in range(n)],
        discards=[set() for _ in range(n)],
        played=[None] * n,
        take_back_played=[False] * n,
        stacks_undrawn=undrawn,
        stacks_bottom=[[] for _ in range(4)],
        revealed={},
        vetoes=[],
        start_player=start_player,
        power_spent=[set() for _ in range(n)],
        took_back_any=[False] * n,
        rules=rules,
        dummy=dummy,
        regency_undrawn=regency,
        stage=first_stage(rules, dummy),
        modifiers=FrozenMap(modifiers or {}),
        modifier_hands=[set() for _ in range(n)],
        modifier_played=[None] * n,
        modifier_discards=[set() for _ in range(n)],
        modifier_take_back=[False] * n,
    )


def closed_regions(state: GameState) -> tuple[int, ...]:
    """Areas that may not be changed in any way: the King's, and any under a taboo marker."""
    markers = state.markers
    if not markers:
        return (state.king,)
    quarantine, guard = markers.get("quarantine"), markers.get("kings_guard")
    if quarantine is None and guard is None:
        return (state.king,)
    return (state.king,) + tuple(a for a in (quarantine, guard) if a is not None)
