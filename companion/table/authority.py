"""The table authority: the one object that owns a game night.

Inputs come from the tablet, the tower bridge and the phones; each is checked
(through the engine for game moves), appended durably to the game's log, and
only then applied. Observers are told after every accepted change, on the
caller's thread: the Kivy app hops to its own thread with Clock.

What it publishes:
- public: the engine's public view plus the table's own public facts (tower
  status, drops waiting for a person, undo);
- private: one player's view (their hand, their Castillo count, their disc);
- hidden: the Castillo tallies the tower counted, for the Castillo reveal only.

The Table is the authority (submit, undo, the lock) and the facade of its parts:
- the game in its mode, tracking or scoring only (companion.table.modes);
- the log: records written and replayed (companion.table.log), and what an input brings about
  with it (companion.table.consequences);
- the Castillo: tower drops, hidden tallies, the tower's own totals (companion.table.castillo);
- what is asked and the private picks (companion.table.private_picks);
- undo's words and question (companion.table.undo);
- who is told of a change (companion.table.observers).
A saved game as the home screen lists it is companion.table.game_check.

An input's path: a method here checks it (the engine, on the game in its mode), then
`self.log.commit` / `persist` writes it durably (companion.storage.game_log.GameLog) and puts it in
force through `apply_record`, which the log holds as a weakref.WeakMethod (no reference cycle), and
the observers are told.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from companion.input_errors import InputError, NeedsConfirmation, StorageRefused
from companion.storage.files import SaveFailed, storage_trouble
from companion.storage.game_log import Damage, GameLog, LoadedLog, LogDamaged, scan_log
from companion.table import private_picks as picks
from companion.table.castillo import Castillo
from companion.table.consequences import complete_interrupted_input, consequences
from companion.table.log import TableLog, why
from companion.table.modes import GameMode, game_for
from companion.table.observers import Observers
from companion.table.setup import Mode, TableSetup, saved_setup
from companion.table.undo import describe, disc_purpose, reveals, undo_asks, undo_question
from companion.table_rules.card_file import remember_card_entries
from companion.table_rules.card_learning import facts_entry
from companion.words import N_, _
from engine.board.model import Board
from engine.errors import RuleViolation
from engine.game import board_for, start_state
from engine.primitives import Ask
from firmware_bridge.adapter import TowerDrop

logger = logging.getLogger("companion.table.authority")

GAME_OVER = N_("This game is over: open it in Replay, or start a new game")  # log.closed: _ where shown


class TablePublic(BaseModel):
    """The tablet's view: the engine's public view plus the table's public facts."""

    model_config = ConfigDict(frozen=True)

    mode: Mode
    game: dict[str, Any]  # engine PublicView (tracking) or the scoring-only view
    colours: dict[str, str]
    drops_total: int  # drives the tower's pulse; counts nothing per colour
    drops_waiting: list[dict]  # uncertain / flagged drops for a one-tap answer
    undo: str | None  # what undo would take back, in words
    undo_reveals: bool
    # The tower's own totals disagreed with the drops the table received; settled by the hand count
    # at the next Castillo opening. Never a figure: the tallies are secret.
    totals_mismatch: bool = False
    read_only: str | None = None  # a finished game opened again: why nothing can be entered


class Table:
    """Owns one game. Thread-safe: every input takes the same lock."""

    def __init__(self, setup: TableSetup, game_log: GameLog | None = None, board: Board | None = None):
        self.setup = setup
        self.mode: Mode = setup.mode
        self.players: tuple[str, ...] = tuple(setup.game.players)  # a game's seats never change
        self.dummy: str | None = setup.game.dummy
        # The game's own board (the 2023 edition's side for its players, with the table's
        # files); in tracking mode `board` follows the game (the card set may be completed).
        self._setup_board = board or board_for(setup.game)
        self._lock = threading.RLock()
        self.cards_left_named = False  # a finished 2023 game's cards left in the stacks, kept in Your cards
        self.observers = Observers()
        self.on_tower_empty: Callable[[str], None] | None = None  # set by whoever holds the bridge
        self.warnings: list[str] = []
        self.nonce = "memory"
        self.started: float | None = None  # Unix time from the log's header (None: an older log)
        self.castillo = Castillo(self.players)
        self.log = TableLog(game_log, self.apply_record, self._restart)
        self._restart()

    def _restart(self) -> None:
        """The parts as at the game's start (the log replays its records onto them)."""
        self.game: GameMode = game_for(self.mode, self.setup.game, self._setup_board)
        self.castillo.reset()
        self.private_notes: dict[str, str] = {}  # player -> why their input was refused, for them alone

    # ---- construction -----------------------------------------------------------

    @classmethod
    def new(
        cls, setup: TableSetup, folder: Path | None = None, nonce: str | None = None, started: int | None = None
    ) -> Table:
        """A new game and its log. `nonce` names the game to the tower (emptying tokens);
        `started` is when it began (Unix time, UTC: now unless given), the date lists and exports show."""
        try:
            board = board_for(setup.game)
            start_state(setup.game, board, cards_played=setup.mode == "tracking")  # a bad setup: before a file
        except RuleViolation as exc:
            raise InputError.of_refusal(exc) from None
        except ValueError as exc:  # the table's board or card file
            raise InputError(str(exc)) from None
        nonce = nonce or os.urandom(4).hex()
        header = {
            "setup": setup.model_dump(mode="json"),
            "version": 1,
            "nonce": nonce,
            "started": round(time.time()) if started is None else started,
        }
        try:
            game_log = GameLog.create(header, folder)
        except SaveFailed as exc:  # a full disk: no game begun, no file left behind
            raise StorageRefused(str(exc)) from None
        except OSError as exc:  # the games folder cannot be made
            raise StorageRefused(storage_trouble(exc)) from None
        table = cls(setup, game_log, board)
        table.nonce = nonce
        table.started = header["started"]
        return table

    @classmethod
    def resume(cls, path: Path) -> Table:
        """The game in `path`, ready to go on. A damaged log raises LogDamaged, whose
        message says what is wrong, where, and how much is intact (never a traceback)."""
        loaded = scan_log(path)
        table, damage = load_saved(path, loaded)
        if damage:
            raise LogDamaged(path, damage)
        table.warnings += table.log.open(path, loaded)
        complete_interrupted_input(table)  # a crash between an input and what it brings about
        if table.over:
            table.log.closed = GAME_OVER
        return table

    @classmethod
    def resume_intact(cls, path: Path) -> Table:
        """A damaged game, opened up to its last intact record. The file as it was is
        copied aside first (<name>.damaged-<time>); nothing is deleted."""
        loaded = scan_log(path)
        table, damage = load_saved(path, loaded)
        if damage is None:
            table.warnings += table.log.open(path, loaded)
            return table
        if table is None or not damage.openable:
            raise LogDamaged(path, damage)
        table.warnings.append(table.log.open_intact(path, loaded, damage))
        logger.warning(table.warnings[-1])
        return table

    # ---- the parts, as the table's own attributes (the UI, phones and tests read them) ---------

    state = property(lambda self: self.game.state, doc="The tracked game's engine state (None: scoring only).")
    free = property(lambda self: self.game.free, doc="The scoring-only game's state (None: tracking).")
    records = property(lambda self: self.log.records)
    effective = property(lambda self: self.log.effective)
    again = property(lambda self: self.log.again)
    _log = property(lambda self: self.log.file, doc="The game's file (companion.ui.platform.lifecycle flushes it).")
    drops = property(lambda self: self.castillo.drops)
    drops_total = property(lambda self: self.castillo.drops_total)
    drops_again = property(lambda self: self.castillo.drops_again)
    empty_token = property(lambda self: self.castillo.empty_token)
    received = property(lambda self: self.castillo.received)
    castillo_opened = property(lambda self: self.castillo.castillo_opened)
    # A finished game opened again is only looked at: every input is refused with this line and
    # nothing is appended to its log (None: the game takes inputs).
    read_only = property(lambda self: _(self.log.closed) if self.log.closed else None)

    @property
    def lock(self) -> threading.RLock:
        """The lock every input holds while it is checked and applied. Lent to the phone server, so
        the question a phone answers is the one it was shown (nothing moves between check and apply)."""
        return self._lock

    @property
    def path(self) -> Path | None:
        return self.log.path

    def close(self) -> None:
        self.log.close()

    # ---- observers ----------------------------------------------------------------

    def subscribe(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """callback(what) after each change: "game", "drop", "tower", "private". Returns unsubscribe."""
        return self.observers.subscribe(callback)

    # ---- the game's questions -------------------------------------------------------

    def asked(self) -> Ask:
        with self._lock:
            return self.game.asked()

    @property
    def board(self) -> Board:
        """The board the game is played on now (a completed card set rebuilds it)."""
        return self.game.current.board

    @property
    def names(self) -> dict[str, str]:
        return self.game.current.names

    @property
    def over(self) -> bool:
        return self.asked().kind == "game_over"

    # ---- what the tablet and the phones ask (companion.table.private_picks) ----------------------

    def prompt_builder(self):
        """The prompt builder for this game; the UI and the phones build every prompt with it."""
        return picks.prompt_builder(self)

    def prompt(self):
        """The prompt for what is asked now (the tower's Castillo count prefilled)."""
        with self._lock:
            return picks.prompt(self)

    def private_question(self, player: str):
        """What `player` chooses in private now, or None. For their phone or the tablet's private
        screen only: it may hold their own secrets."""
        with self._lock:
            return picks.private_question(self, player)

    def private_waiting(self) -> list[str]:
        """Who is still to make a private choice now (public: never what)."""
        with self._lock:
            return picks.private_waiting(self)

    def chooses_again(self, player: str) -> bool:
        """Whether `player` is asked again for a private choice an undo took back (their phone
        says so: they may think they had answered)."""
        with self._lock:
            return picks.chooses_again(self, player)

    def submit_private(self, player: str, values: list[str]) -> None:
        """`player`'s private answer, from their phone or the private screen: checked, then
        submitted as their own input."""
        with self._lock:
            self.submit(picks.private_event(self, player, values), player=player)

    def question_id(self) -> str:
        """Names the question now asked (a phone's pick against an old one is refused)."""
        with self._lock:
            return picks.question_id(self)

    # ---- the card set (2023): completed from the table's own box (companion.table_rules.card_learning) -----

    def complete_card_set(self, cards: list[dict]) -> None:
        """Add cards the set does not list (or give a listed card's stack, copies or numbers),
        in the card-file vocabulary: {"id", "stack", "copies", "name", "text", "effect",
        "params", "placement"}. One CardSetCompleted input: checked like a card file, logged,
        undoable; the card is part of this game from then on."""
        refused = self.game.card_set_refusal()
        if refused:
            raise InputError(refused)
        self.submit({"type": "card_set_completed", "cards": list(cards)})

    def reveal_candidates(self) -> dict[int, list]:
        """Per stack, the listed cards whose stack nobody entered that it could hold, by name:
        picked at the reveal, their stack is learned."""
        with self._lock:
            return self.game.reveal_candidates()

    def stack_may_hold_more(self, stack: int) -> bool:
        """Whether the table stack may hold a card other than those its set places there (the set
        does not account for all its cards): then no card is picked for it unasked."""
        with self._lock:
            return self.game.stack_may_hold_more(stack)

    def reveal_learning(self, cards: list[str], learned: list[dict]) -> str:
        """The cards turned up, with the stacks learned from this reveal (card-file entries):
        one CardSetCompleted and the reveal, all or none; the entries kept in Your cards.
        Returns '' or why they were not kept (the game has them either way)."""
        reveal = {"type": "action_cards_revealed", "cards": list(cards)}
        if not learned:
            self.submit(reveal)
            return ""
        self.submit_many([{"type": "card_set_completed", "cards": list(learned)}, reveal])
        return remember_card_entries(learned)

    def enter_card_facts(self, cid: str, values: dict) -> str:
        """A listed card's numbers read off it when it is played (card_learning.card_facts): one
        CardSetCompleted input, kept in Your cards. '' or why not kept."""
        entry = facts_entry(cid, values)
        self.complete_card_set([entry])
        return remember_card_entries([entry])

    def stacks_left(self) -> list:
        """Once a 2023 game is over: the stacks whose cards left face down the set cannot all
        place (companion.table_rules.card_learning.StackLeft), until the table names them; [] otherwise."""
        with self._lock:
            return [] if self.cards_left_named else self.game.stacks_left()

    def facts_left(self, also=()) -> dict:
        """Once a 2023 game is over: the box's cards whose numbers nobody read (nobody played
        them), card id -> [CardFact]; `also`: cards just named among those left."""
        with self._lock:
            if not self.stacks_left() and not also:
                return {}
            return self.game.facts_left(also)

    def name_cards_left(self, named: dict[int, list], facts: dict | None = None) -> str:
        """The cards left in the stacks of a finished game, named (stack -> card ids of the set,
        Candidates, or a new card's entry), and the numbers read off cards nobody played (card id
        -> {fact key: value}): kept in Your cards, all or nothing, checked like a card file. Not a
        game input: the game is over and its log stays as it was played. '' or why not kept."""
        with self._lock:
            if not self.stacks_left():
                raise InputError(_("no stack's cards are left to name: the game is not over, or the set knows them"))
            entries = self.game.cards_left_entries(named, facts)
            kept = remember_card_entries(entries) if entries else ""
            if not kept:
                self.cards_left_named = True
            return kept

    def facts_needed(self) -> list:
        """Board facts nobody published that the step asked now needs (companion.entry.facts). []
        when none."""
        with self._lock:
            return self.game.facts_needed(self.board)

    # ---- inputs -------------------------------------------------------------------------

    def submit(self, event: Any, *, player: str | None = None, phone_seq: int | None = None) -> None:
        """A game input (engine or scoring-only event), as a pydantic model or a dict.

        `player` is who sends it when it comes from a phone: a phone may only
        send its own secret disc. `phone_seq`: the phone's number for this answer, kept in the
        record so that a restarted tablet still refuses older ones (companion.phones.ordering)."""
        with self._lock:
            self.log.ensure_open()
            event = self.game.castillo_from_tower(self.game.parse_input(event), self.castillo.tally)
            if player is not None and getattr(event, "player", None) != player:
                raise InputError(_("{player} may only enter their own choices").format(player=player))
            event = self.game.held_twin(event)
            try:
                self.game.apply(event)
                self.castillo.entered(event)
            except RuleViolation as exc:  # the engine changed nothing
                raise picks.refused(self, exc) from None
            record = {"t": "event", "e": event.model_dump(mode="json")}
            if phone_seq is not None:
                record["phone_seq"] = phone_seq
            after: list[dict] = []
            self.log.persist(record, lambda: after.extend(consequences(self, event)) or after)
            self.private_notes = {}  # said for the step it was refused at
            token = next((r["token"] for r in after if r["t"] == "emptied"), None)
        if token and self.on_tower_empty:
            self.on_tower_empty(token)
        self.observers.notify("game")

    def submit_many(self, events: list) -> None:
        """Several inputs that one tap stands for ("take 4 and the Grande card"): all of them
        are checked on a copy first, so either all are recorded or none is."""
        with self._lock:
            self.log.ensure_open()
            parsed = [self.game.held_twin(self.game.parse_input(e)) for e in events]
            try:
                self.game.try_on_copy(parsed)
            except RuleViolation as exc:
                raise picks.refused(self, exc) from None
            for event in parsed:
                self.submit(event)

    def refusal(self, event: Any) -> str | None:
        """Why the table would refuse `event` now, in the engine's words (naming the rule), or
        None when it would accept it. Tried on a copy: nothing changes, nothing is logged."""
        with self._lock:
            try:
                self.game.try_on_copy([self.game.held_twin(self.game.parse_input(event))])
            except RuleViolation as exc:
                return str(InputError.of_refusal(exc))
            except InputError as exc:
                return str(exc)
            return None

    def apply_record(self, record: dict) -> None:
        """One record put in force: the log calls it after writing the record (and when it replays
        a game); companion.history.records replays a game with it."""
        if record["t"] == "event":
            event = self.game.parse(record["e"])
            self.game.apply(event)
            self.castillo.entered(event)
        else:
            self.castillo.apply(record)

    def undo(self, confirm: bool = False) -> str:
        """Take back the last person-made input. Returns what was undone, in words. Asks first
        (NeedsConfirmation, naming the step people saw) when what it takes back was seen by
        everyone, or was a private choice its player must make again."""
        with self._lock:
            self.log.ensure_open()
            last = self.log.last_undoable()
            if last is None:
                raise InputError(_("there is nothing to undo"))
            without_it = Table(self.setup, None, self._setup_board)  # a log-less replay: a few milliseconds
            without_it.log.rebuild(self.log.records + [{"t": "undo"}])
            step, why_ask = undo_question(self, without_it, last)
            if why_ask and not confirm:
                raise NeedsConfirmation(undo_asks(step, why_ask))
            self.log.undo()
        self.observers.notify("game")
        return step

    # ---- the Castillo: tower drops and tallies (companion.table.castillo) -----------------------------

    def tower_drop(self, drop: TowerDrop) -> None:
        """From the bridge thread: one Caballero (or a doubtful something) in the tower."""
        with self._lock:
            if self.castillo.handed_again(drop):
                return
            if self.over:  # thrown after the end: taken from the tower, and it changes nothing
                logger.info("a tower drop after the game's end was ignored (%s)", drop.brief())
                return
            self.log.commit(self.castillo.drop_record(drop, self.game, self.dummy))
        self.observers.notify("drop")

    def assign_drop(self, drop_id: str, player: str, count: int = 1) -> None:
        """A person says whose an uncertain (or flagged) drop was, and how many cubes."""
        with self._lock:
            self.log.ensure_open()
            entry = self.castillo.waiting(drop_id)
            if player not in self.players:
                words = _("{player} is not playing (players: {players})")
                raise InputError(words.format(player=repr(player), players=", ".join(self.players)))
            if not 0 <= count <= 10:
                raise InputError(_("{count} cubes in one drop: give 0 to 10").format(count=count))
            self.log.commit({"t": "assign", "drop": list(entry.key), "player": player, "count": count})
        self.observers.notify("drop")

    def keep_drop(self, drop_id: str) -> None:
        """A flagged drop was a real Caballero thrown in: it stays counted."""
        with self._lock:
            self.log.ensure_open()
            entry = self.castillo.waiting(drop_id)
            if entry.status != "flagged":
                raise InputError(_("only a drop flagged as outside a placement can be kept as it is"))
            self.log.commit({"t": "keep", "drop": list(entry.key)})
        self.observers.notify("drop")

    def dismiss_drop(self, drop_id: str) -> None:
        """Not a Caballero (a hand, a die, a cube taken back out): it counts for nobody."""
        with self._lock:
            self.log.ensure_open()
            entry = self.castillo.waiting(drop_id)
            self.log.commit({"t": "dismiss", "drop": list(entry.key)})
        self.observers.notify("drop")

    def open_castillo(self) -> dict[str, int]:
        """The tower's counts, for the Castillo's opening at a scoring. That everyone has
        seen them is written down (an "opened" record): undoing anything from before it,
        a secret disc above all, then asks first, even after a restart."""
        with self._lock:
            if not self.log.last_is("opened") and not self.read_only:  # a finished game's counts: only looked at
                self.log.commit({"t": "opened", "what": "castillo"})
            return self.hidden_tallies()

    def hidden_tallies(self) -> dict[str, int]:
        """The tower's Castillo count per player: for the reveal step only. A colour the tower
        does not know counts what the entered turns put in (tracking mode)."""
        with self._lock:
            by_hand = self.setup.by_hand()
            return self.castillo.tallies(by_hand, self.game.recorded_castillo() if by_hand else None)

    def recorded_castillo(self) -> dict[str, int] | None:
        """What the entered turns put in the Castillo (tracking mode), for the count check."""
        with self._lock:
            return self.game.recorded_castillo()

    def castillo_prefill(self, player: str) -> int:
        """Caballeros of `player` the tower saw go in that no entered turn accounts for yet."""
        with self._lock:
            return self.castillo.unplaced.get(player, 0)

    def tower_position(self) -> tuple[str, str, int] | None:
        """The last drop held durably: the bridge resumes after it."""
        with self._lock:
            return self.castillo.position()

    def start_tower_count(self) -> str | None:
        """The emptying token the tower should hold for this game. A game with no drops and no
        emptying yet writes one first ("g<nonce>-s"): the physical Castillo starts empty, and the
        tower's totals are then comparable from the first drop on. None: the game began before
        the tower was emptied for it (an older log); its totals are compared after its next
        general scoring."""
        with self._lock:
            if self.castillo.empty_token is None and not self.castillo.drops and not self.read_only:
                self.log.commit({"t": "emptied", "token": f"g{self.nonce}-s"[:32]})
            return self.castillo.empty_token

    def tower_totals(self, tower: str, totals: Any) -> str:
        """The tower's totals snapshot (firmware_bridge Totals), handed over once every drop up to
        `totals.seq` was delivered: "agree", "differ" (logged, a public fault until the Castillo is
        counted by hand) or "other_emptying" (companion.table.castillo.Castillo.compare_totals)."""
        with self._lock:
            self.log.ensure_open()
            result, record = self.castillo.compare_totals(tower, totals, time.time())
            if record is not None:
                self.log.commit(record)
        if result == "differ":
            self.observers.notify("tower")
        return result

    def totals_check(self) -> dict:
        """What the tower panel may say about the tower's totals (companion.table.castillo.Castillo.totals_check)."""
        with self._lock:
            return self.castillo.totals_check()

    # ---- views ---------------------------------------------------------------------------------

    def public(self) -> TablePublic:
        with self._lock:
            last = self.log.last_undoable()
            return TablePublic(
                mode=self.mode,
                game=self.game.public(),
                colours={p: p for p in self.players + ((self.dummy,) if self.dummy else ())},
                drops_total=self.castillo.drops_total,
                drops_waiting=self.castillo.waiting_public(),
                undo=describe(last, self.names, disc_purpose(last, self), self.board)
                if last and not self.read_only
                else None,
                undo_reveals=bool(last and reveals(last)) and not self.read_only,
                read_only=self.read_only,
                totals_mismatch=self.castillo.totals_fault is not None,
            )

    def private(self, player: str) -> dict:
        with self._lock:
            if player not in self.players:
                raise InputError(_("{player} is not playing").format(player=repr(player)))
            view = self.game.private(player, self.castillo.tally)
            if player in self.private_notes:  # why their last input was refused, for them alone
                view = {**view, "refused": self.private_notes[player]}
            return view

    def score_history(self) -> dict[str, list[tuple[int, int]]]:
        """(round, score) after each scoring, per player: for the end-of-game plot."""
        with self._lock:
            return self.game.score_history(self.players)


# ---- saved games: read back and replayed; damage is a message, never a traceback ----------------


def load_saved(path: Path, loaded: LoadedLog) -> tuple[Table | None, Damage | None]:
    """A log-less table replayed from the intact records, and the first damage (store's or replay's).
    Resuming and companion.table.game_check read a saved game with it."""
    damage = loaded.damage
    if loaded.header is None:
        return None, damage
    try:
        table = Table(saved_setup(loaded.header.get("setup")), None)
        nonce = loaded.header.get("nonce", path.stem)
        if not isinstance(nonce, str):
            raise ValueError(f"the nonce is {type(nonce).__name__}, not text")
    except Exception as exc:  # pydantic ValidationError, a refused setup (RuleViolation), ...
        return None, Damage(
            f"line 1 (the header) does not hold a valid game setup ({why(exc)})", 1, 0, loaded.total, openable=False
        )
    table.nonce = nonce
    table.started = _started(loaded.header.get("started"))
    failure = table.log.replay(loaded.records, table.players)
    if failure:
        i, reason = failure
        damage = Damage(f"line {i + 2} (record {i + 1}) cannot be replayed: {reason}", i + 2, i, loaded.total)
    return table, damage


def _started(value: Any) -> float | None:
    """The header's start time, if it is one (a hand-edited header may hold anything)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 2**33:
        return float(value)
    return None
