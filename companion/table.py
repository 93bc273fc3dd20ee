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

The tower's own totals (a snapshot per colour since its last emptying) are
compared with the drops the table received since the same emptying; a
disagreement is written to the log ("tower_totals", both counts) and stays a
public fault, with no figure in it, until the Castillo is counted by hand at
the next general scoring (`tower_totals`, `totals_check`).

The log holds one record per accepted input (see RECORD_KINDS); undo appends
an "undo" record, so the file is only ever appended to. Replaying the records
rebuilds exactly the same table: same state, same hidden tallies.
"""
from __future__ import annotations

import copy

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from engine import events as ev
from engine.board import CASTILLO, Board
from engine.errors import RuleViolation
from engine.events import GameSetup
from engine import card_entry
from engine.flow import Ask, apply_event, asked
from engine.freeplay import FREE_EVENT_ADAPTER, KI_MARKERS, FreeState, free_apply, free_asked, free_state
from engine.game import board_for, start_state
from engine.views import castillo_tallies, player_view, public_view
from firmware_bridge.adapter import TowerDrop
from firmware_bridge.messages import COLOURS

from .board_entry import ki_markers
from .club.config import ClubConfig
from .store import (FORMAT, Damage, GameLog, LoadedLog, LogDamaged, copy_aside, log_paths, modified, rewrite_log,
                    scan_log)
from .undo_words import PRIVATE_CHOICES, again_words, scoring_words, step_words

log = logging.getLogger("companion.table")

Mode = Literal["tracking", "scoring"]
RECORD_KINDS = ("event", "drop", "assign", "dismiss", "keep", "emptied", "undo", "finished", "opened",
                "tower_totals")
CONSEQUENCES = ("emptied", "finished")  # records an input writes after itself; undone with it
UNDOABLE = ("event", "assign", "dismiss", "keep")
# Events after which everyone has seen something: undoing them asks first.
REVEALING = ("secret_discs_revealed", "castillo_counted", "action_cards_revealed", "special_scored",
             "dummy_region_cards_drawn", "dummy_power_card_revealed")
# Choices several players make at once, in private: one made meanwhile leaves the question open.
SIMULTANEOUS = ("secret_disc_set", "modifiers_dealt", "modifier_passed", "power_cards_chosen")

# Player ids are Caballero colours. The tower reports the classic box's five (COLOURS); the
# 2023 box's are purple, blue, green, orange and a fifth its rule book does not name. A 2023
# table may play any of these; the tower counts only the colours it knows, and a player
# (or the dummy) of another colour enters their Castillo throws by hand.
TABLE_COLOURS = {"classic": COLOURS, "2023": COLOURS + ("purple", "orange", "white")}


def colours_for(rules: str) -> tuple[str, ...]:
    """The colours a table of `rules` may seat (the new-game screen's list)."""
    return TABLE_COLOURS.get(rules, COLOURS)


def _modifier_face(m) -> tuple:
    """What is printed on a Modifier card (the phones' faces group twins the same way)."""
    return m.name, m.value, m.effect, repr(sorted((m.params or {}).items())), m.text


class InputError(Exception):
    """An input the table refuses; the message names what and which rule or limit."""


class NeedsConfirmation(InputError):
    """Undo of something that revealed information: repeat with confirm=True."""


class TowerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["simulated", "serial", "mqtt", "none"] = "simulated"
    port: Optional[str] = None        # serial: device path or pyserial URL
    broker: Optional[str] = None      # mqtt: mqtts://host:port (TLS) or mqtt://host:port
    tower_id: Optional[str] = None    # mqtt: the device id; the only tower whose topics are read
    # mqtt, a locked-down broker (hardware/README.md); all optional, so older saved games load
    username: Optional[str] = None
    password: Optional[str] = Field(default=None, repr=False)
    ca_file: Optional[str] = None     # mqtts: the CA that signed the broker's certificate
    cert_file: Optional[str] = None   # mqtts: an optional client certificate ...
    key_file: Optional[str] = None    # ... and its key

    @model_validator(mode="after")
    def _check(self) -> "TowerConfig":
        if self.kind == "serial" and not self.port:
            raise ValueError("a serial tower needs its port (pick one from the list)")
        if self.kind == "mqtt" and not (self.broker and self.tower_id):
            raise ValueError("an MQTT tower needs the broker address and the tower id")
        return self


class TableSetup(BaseModel):
    """What the new-game screen decides. Player ids are the Caballero colours the
    tower reports, so a drop's colour names its owner."""

    model_config = ConfigDict(extra="forbid")

    game: GameSetup
    mode: Mode = "tracking"
    tower: TowerConfig = Field(default_factory=TowerConfig)
    # A club broker the table publishes its public state to (companion.club); None: no club.
    club: Optional[ClubConfig] = None
    # The colours the tower says it is calibrated for (companion.tower, from its hello); not saved.
    _tower_colours: tuple[str, ...] = PrivateAttr(default=COLOURS)

    def tower_calibrated(self, colours) -> None:
        self._tower_colours = tuple(colours)

    @model_validator(mode="after")
    def _check(self) -> "TableSetup":
        allowed = colours_for(self.game.rules)
        seats = list(self.game.players) + ([self.game.dummy] if self.game.dummy else [])
        wrong = [p for p in seats if p not in allowed]
        if wrong:
            raise ValueError(f"players are named by their Caballero colour ({', '.join(allowed)}); "
                             f"not a colour: {', '.join(wrong)}")
        return self

    def by_hand(self) -> list[str]:
        """Seats (the dummy too) whose colour the tower is not calibrated for: their Castillo
        throws are entered by hand. None without a tower."""
        if self.tower.kind == "none":
            return []
        seats = list(self.game.players) + ([self.game.dummy] if self.game.dummy else [])
        return [p for p in seats if p not in self._tower_colours]

    def colour_notes(self) -> list[str]:
        """What the table is told about colours the tower does not know (public)."""
        notes = []
        for pid in self.by_hand():
            name = self.game.names.get(pid) or pid.title()
            if pid == self.game.dummy:
                # The dummy never places; its Caballeros reach the Castillo only when a player moves them.
                how = "a player who moves them there taps the Castillo" if self.mode == "tracking" else \
                    "enter them in the Castillo when you enter the board"
                notes.append(f"The tower does not know {pid}: the dummy's ({name}) Caballeros in the Castillo "
                             f"are entered by hand ({how}).")
                continue
            how = "tap the Castillo when placing" if self.mode == "tracking" else \
                "enter their count when you enter the board"
            notes.append(f"The tower does not know {pid}: enter {name}'s throws into the Castillo by hand ({how}).")
        if notes:
            notes.append("Or calibrate the tower for this game's colours (tap Tower:, then Calibrate the colours) "
                         "and it counts them.")
        return notes


@dataclass
class DropEntry:
    """A tower drop as the table sees it; `status` was decided when it arrived."""

    key: tuple[str, str, int]
    colour: Optional[str]
    best: Optional[str]
    est: int
    status: str                # expected | flagged | uncertain
    player: Optional[str] = None   # whose tally it counts in (None: waiting for a person)
    count: int = 0
    settled: bool = False      # a person assigned, kept or dismissed it

    @property
    def needs_person(self) -> bool:
        return self.status in ("uncertain", "flagged") and not self.settled

    def public(self) -> dict:
        return {"id": _drop_id(self.key), "status": self.status, "best": self.best,
                "colour": self.colour, "est": self.est}


def _drop_id(key) -> str:
    return f"{key[1]}:{key[2]}"


class TablePublic(BaseModel):
    """The tablet's view: the engine's public view plus the table's public facts."""

    model_config = ConfigDict(frozen=True)

    mode: Mode
    game: dict[str, Any]                  # engine PublicView (tracking) or the scoring-only view
    colours: dict[str, str]
    drops_total: int                      # drives the tower's pulse; counts nothing per colour
    drops_waiting: list[dict]             # uncertain / flagged drops for a one-tap answer
    undo: Optional[str]                   # what undo would take back, in words
    undo_reveals: bool
    # The tower's own totals disagreed with the drops the table received; settled by the hand count
    # at the next Castillo opening. Never a figure: the tallies are secret.
    totals_mismatch: bool = False


class Table:
    """Owns one game. Thread-safe: every input takes the same lock."""

    def __init__(self, setup: TableSetup, game_log: GameLog | None = None, board: Board | None = None):
        self.setup = setup
        self.mode: Mode = setup.mode
        # The game's own board (the 2023 edition's side for its players, with the table's
        # files); in tracking mode `board` follows the game (the card set may be completed).
        self._setup_board = board or board_for(setup.game)
        self._log = game_log
        self._lock = threading.RLock()
        self.cards_left_named = False   # a finished 2023 game's cards left in the stacks, kept in Your cards
        self._observers: list[Callable[[str], None]] = []
        self.drops_again = 0  # drops handed over again that the log already held (not applied twice)
        self.on_tower_empty: Optional[Callable[[str], None]] = None  # set by whoever holds the bridge
        self.warnings: list[str] = []
        self.nonce = "memory"
        self._reset()

    # ---- construction -----------------------------------------------------------

    @classmethod
    def new(cls, setup: TableSetup, folder: Path | None = None, nonce: str | None = None) -> "Table":
        """A new game and its log. `nonce` names the game to the tower (emptying tokens)."""
        try:
            board = board_for(setup.game)
            start_state(setup.game, board, cards_played=setup.mode == "tracking")  # a bad setup: before a file
        except (RuleViolation, ValueError) as exc:  # ValueError: the table's board or card file
            raise InputError(str(exc)) from None
        nonce = nonce or os.urandom(4).hex()
        table = cls(setup, GameLog.create({"setup": setup.model_dump(mode="json"), "version": 1, "nonce": nonce},
                                          folder), board)
        table.nonce = nonce
        return table

    @classmethod
    def resume(cls, path: Path) -> "Table":
        """The game in `path`, ready to go on. A damaged log raises LogDamaged, whose
        message says what is wrong, where, and how much is intact (never a traceback)."""
        loaded = scan_log(path)
        table, damage = _load(path, loaded)
        if damage:
            raise LogDamaged(path, damage)
        table._open_log(path, loaded)
        table._complete_interrupted_input()
        return table

    def _complete_interrupted_input(self) -> None:
        """Some inputs write a second record of their own (the emptying after a general
        scoring's reveal; "finished"). A crash between the two is completed on resume, so
        the game goes on exactly as an uninterrupted run did."""
        with self._lock:
            events = [i for i, r in enumerate(self.effective) if r["t"] == "event"]
            if events and self.effective[events[-1]]["e"].get("type") == "secret_discs_revealed" \
                    and self._general_scoring_done() \
                    and not any(r["t"] == "emptied" for r in self.effective[events[-1] + 1:]):
                self._commit({"t": "emptied", "token": self._empty_token()})
            if self.over and not (self.effective and self.effective[-1]["t"] == "finished"):
                self._commit({"t": "finished"})

    @classmethod
    def resume_intact(cls, path: Path) -> "Table":
        """A damaged game, opened up to its last intact record. The file as it was is
        copied aside first (<name>.damaged-<time>); nothing is deleted."""
        loaded = scan_log(path)
        table, damage = _load(path, loaded)
        if damage is None:
            table._open_log(path, loaded)
            return table
        if table is None or not damage.openable:
            raise LogDamaged(path, damage)
        kept = loaded.records[:damage.kept]
        aside = copy_aside(path)
        good_bytes, chain = rewrite_log(path, loaded.header, kept)
        table._log = GameLog(path, good_bytes, chain)
        table.warnings.append(f"{path.name}: opened up to record {damage.kept}; the file as it was is kept "
                              f"as {aside.name}")
        log.warning(table.warnings[-1])
        return table

    def _open_log(self, path: Path, loaded: LoadedLog) -> None:
        """Append after the intact records: a torn tail is copied aside, then cut; a
        format 1 log is upgraded (rewritten whole, atomically) to the chained format."""
        self.warnings += loaded.warnings
        torn = _size(path) > loaded.good_bytes
        if torn:
            aside = copy_aside(path)
            self.warnings.append(f"{path.name}: the file as it was is kept as {aside.name}")
        if loaded.format != FORMAT:
            good_bytes, chain = rewrite_log(path, loaded.header, loaded.records)
            self._log = GameLog(path, good_bytes, chain)
        else:
            self._log = GameLog(path, loaded.good_bytes if torn else None, loaded.chain)

    def _reset(self) -> None:
        self.records: list[dict] = []        # every record, undo markers included
        self.effective: list[dict] = []      # what is in force after the undos
        self.again: set[str] = set()         # players whose private choice an undo took back
        self.power_rounds: dict[tuple[str, int], int] = {}   # (player, Power card) -> round laid down
        if self.mode == "tracking":
            self.state = start_state(self.setup.game, self._setup_board)
            self.free: FreeState | None = None
        else:
            self.free = free_state(self.setup.game, self._setup_board)
            self.state = None
        self.drops: dict[tuple, DropEntry] = {}
        self.drops_total = 0
        self.tally = {pid: 0 for pid in self.setup.game.players}   # hidden: the tower's count
        self.unplaced = {pid: 0 for pid in self.setup.game.players}  # counted, not yet entered
        self.empty_token: Optional[str] = None  # the last emptying; sent again after a restart
        # Since the last emptying, what the tower said of each drop it sent: (key, colour it was sure
        # of, or None for an uncertain or multiple drop). Its totals count the same way.
        self.received: list[tuple[tuple, Optional[str]]] = []
        self.totals_fault: Optional[dict] = None    # the open "tower_totals" record, if any
        self.totals_settled: Optional[dict] = None  # the last one the hand count settled
        self.castillo_opened = False                # the Castillo was lifted since the last emptying
        self.totals_seen: dict = {}                 # the last comparison (not kept in the log)

    def _replay(self, records: list[dict]) -> Optional[tuple[int, str]]:
        """Rebuild from a log's records. On the first record that cannot be replayed,
        returns (its index, why) with the table as it was before it."""
        try:
            for record in records:
                _check_record(record, self.players)
            self._rebuild(records)
            return None
        except Exception:  # the log is data from disk: any failure is damage, found below
            pass
        self._rebuild([])
        for i, record in enumerate(records):
            try:
                _check_record(record, self.players)
                if record["t"] == "undo":
                    self._rebuild(self.records + [record])
                else:
                    _note_input(self.again, record)
                    self.records.append(record)
                    self.effective.append(record)
                    self._apply_record(record)
            except Exception as exc:
                self._rebuild(records[:i])  # replayed just now: cannot fail
                return i, _why(exc)
        return None  # every record alone replays: the first attempt failed on nothing real

    def _rebuild(self, records: list[dict]) -> None:
        """Apply records from scratch: undo markers take back the last undoable record."""
        effective: list[dict] = []
        again: set[str] = set()
        for record in records:
            if record["t"] == "undo":
                for i in range(len(effective) - 1, -1, -1):
                    if effective[i]["t"] in UNDOABLE:
                        _note_undone(again, effective[i])
                        del effective[i]
                        # What it brought about goes with it: the emptying after a general
                        # scoring's reveal, "finished". Drops and openings stay: they happened.
                        effective[i:] = [r for r in effective[i:] if r["t"] not in CONSEQUENCES]
                        break
            else:
                _note_input(again, record)
                effective.append(record)
        self._reset()
        for record in effective:
            self._apply_record(record)
        self.records = list(records)
        self.effective = effective
        self.again = again

    # ---- observers ----------------------------------------------------------------

    def subscribe(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """callback(what) after each change: "game", "drop", "tower". Returns unsubscribe."""
        self._observers.append(callback)
        return lambda: self._observers.remove(callback) if callback in self._observers else None

    def _notify(self, what: str) -> None:
        for callback in list(self._observers):
            try:
                callback(what)
            except Exception:  # an observer's bug must not undo an accepted input
                log.exception("observer failed")

    # ---- the game's questions -------------------------------------------------------

    def asked(self) -> Ask:
        with self._lock:
            return asked(self.state) if self.state is not None else free_asked(self.free)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.setup.game.players)

    @property
    def board(self) -> Board:
        """The board the game is played on now (a completed card set rebuilds it)."""
        game = self.state or self.free
        return game.board if game is not None else self._setup_board

    @property
    def dummy(self) -> Optional[str]:
        return self.setup.game.dummy

    # ---- what the tablet offers (companion.prompts) ----------------------------------------

    def prompt_builder(self):
        """The prompt builder for this game: its board (followed as the card set grows), the
        colours the tower counts, Power Shift's Modifier cards and the public view (what a
        public prompt may read). The UI and the phones build every prompt with it."""
        from .king_intrigue import KIPromptBuilder
        from .prompts import PromptBuilder

        tower = self.setup.tower.kind != "none"

        def counted():   # read at each prompt: the tower may be calibrated for a colour mid-game
            return frozenset(p for p in self.players if p not in self.setup.by_hand())
        counted = counted if tower else False
        builder = KIPromptBuilder if self.setup.game.rules == "king-intrigue" else PromptBuilder
        return builder(self.names, lambda: self.board, castillo_by_tower=counted,
                       modifiers=self.state.modifiers if self.state is not None else None,
                       public=lambda: self.public().game,
                       played_in=lambda pid, card: self.power_rounds.get((pid, card)))

    def prompt(self):
        """The prompt for what is asked now (the tower's Castillo count prefilled)."""
        with self._lock:
            ask = self.asked()
            prefill = self.castillo_prefill(ask.players[0]) if ask.kind in ("turn_action", "place_extra") \
                and ask.players else 0
            return self.prompt_builder().build(ask, prefill)

    def private_question(self, player: str):
        """What `player` chooses in private now (companion.prompts.PrivatePick: a secret disc,
        their Modifier cards dealt, the one they pass, a card taken back), or None. For their
        phone or the tablet's private screen only: it may hold their own secrets."""
        with self._lock:
            if player not in self.players:
                raise InputError(f"{player!r} is not playing (players: {', '.join(self.players)})")
            return self.prompt_builder().private_pick(self.asked(), player)

    def private_waiting(self) -> list[str]:
        """Who is still to make a private choice now (public: never what)."""
        from .prompts import PRIVATE_KINDS

        with self._lock:
            ask = self.asked()
            if ask.kind in PRIVATE_KINDS or ask.kind == "take_back_power_card":
                return [p for p in ask.players if p in self.players]
            return []

    def chooses_again(self, player: str) -> bool:
        """Whether `player` is asked again for a private choice an undo took back (their phone
        says so: they may think they had answered)."""
        with self._lock:
            if player not in self.again:
                return False
            ask = self.asked()
            return player in self.private_waiting() or (ask.kind == "secret_disc" and player in ask.players)

    def submit_private(self, player: str, values: list[str]) -> None:
        """`player`'s private answer (values of their PrivatePick's options), from their phone
        or the private screen: checked, then submitted as their own input."""
        with self._lock:
            pick = self.private_question(player)
            if pick is None:
                raise InputError(f"no private choice is asked of {self.names.get(player, player)} now")
            try:
                event = pick.event(values)
            except ValueError as exc:
                raise InputError(str(exc)) from None
            self.submit(event, player=player)

    # ---- the card set (2023): completed from the table's own box -------------------------------

    def card_set_open(self) -> bool:
        """Whether a card may be added now: between steps (engine.card_entry's rule)."""
        with self._lock:
            return self.state is not None and self.state.stage not in card_entry.CLOSED_STAGES

    def complete_card_set(self, cards: list[dict]) -> None:
        """Add cards the set does not list (or give a listed card's stack, copies or numbers),
        in the card-file vocabulary: {"id", "stack", "copies", "name", "text", "effect",
        "params", "placement"}. One CardSetCompleted input: checked like a card file, logged,
        undoable; the card is part of this game from then on."""
        if self.state is None:
            raise InputError("the card set is completed in a tracked game; scoring only needs no cards")
        self.submit({"type": "card_set_completed", "cards": list(cards)})

    def reveal_candidates(self) -> dict[int, list]:
        """Per stack, the listed cards whose stack nobody entered that it could hold, by name
        (companion.card_learning): picked at the reveal, their stack is learned."""
        from .card_learning import candidates

        with self._lock:
            if self.state is None or self.state.stage != "reveal":
                return {}
            return {int(s): candidates(self.state, int(s)) for s in self.asked().options.get("stacks", {})}

    def stack_may_hold_more(self, stack: int) -> bool:
        """Whether the table stack may hold a card other than those its set places there (the set
        does not account for all its cards): then no card is picked for it unasked."""
        from engine.card_entry import stack_room

        with self._lock:
            state = self.state
            if state is None or state.rules.id != "2023":
                return False
            printed = [5] if stack == 5 else [p for p in (1, 2, 3, 4) if state.rules.table_stack(p) == stack]
            module = "new-regency" if stack == 5 and state.rules.new_regency else None
            return any((stack_room(state, module, p) or 0) > 0 for p in printed)

    def reveal_learning(self, cards: list[str], learned: list[dict]) -> str:
        """The cards turned up, with the stacks learned from this reveal (card-file entries):
        one CardSetCompleted and the reveal, all or none; the entries kept in Your cards.
        Returns '' or why they were not kept (the game has them either way)."""
        reveal = {"type": "action_cards_revealed", "cards": list(cards)}
        if not learned:
            self.submit(reveal)
            return ""
        self.submit_many([{"type": "card_set_completed", "cards": list(learned)}, reveal])
        from .rule_files import remember_card_entries
        return remember_card_entries(learned)

    def enter_card_facts(self, cid: str, values: dict) -> str:
        """A listed card's numbers read off it when it is played (card_learning.card_facts): one
        CardSetCompleted input, kept in Your cards. '' or why not kept."""
        from .card_learning import facts_entry
        from .rule_files import remember_card_entries

        entry = facts_entry(cid, values)
        self.complete_card_set([entry])
        return remember_card_entries([entry])

    def stacks_left(self) -> list:
        """Once a 2023 game is over: the stacks whose cards left face down the set cannot all
        place (companion.card_learning.StackLeft), until the table names them or in another
        game; [] otherwise."""
        from .card_learning import stacks_left

        with self._lock:
            if self.mode != "tracking" or self.state is None or self.cards_left_named:
                return []
            return stacks_left(self.state)

    def facts_left(self, also=()) -> dict:
        """Once a 2023 game is over: the box's cards whose numbers nobody read (nobody played
        them), card id -> [CardFact]; `also`: cards just named among those left."""
        from .card_learning import facts_left

        with self._lock:
            if not self.stacks_left() and not also:
                return {}
            return facts_left(self.state, also)

    def name_cards_left(self, named: dict[int, list], facts: Optional[dict] = None) -> str:
        """The cards left in the stacks of a finished game, named (stack -> card ids of the set,
        Candidates, or a new card's entry), and the numbers read off cards nobody played (card id
        -> {fact key: value}): the stacks, the cards added, the numbers and the copies now known,
        kept in Your cards, all or nothing, checked like a card file. Not a game input: the game
        is over and its log stays as it was played. '' or why not kept."""
        from .card_learning import end_entries
        from .rule_files import remember_card_entries

        with self._lock:
            if not self.stacks_left():
                raise InputError("no stack's cards are left to name: the game is not over, or the set knows them")
            entries = end_entries(self.state, named, facts)
            why = remember_card_entries(entries) if entries else ""
            if not why:
                self.cards_left_named = True
            return why

    def facts_needed(self) -> list:
        """Board facts nobody published that the step asked now needs (companion.fact_entry):
        the 2-3 side's scoreboards at a general scoring, France's and Portugal's neighbours
        for Exile, a Scoring tile's values, a scoring card's scoreboards. [] when none."""
        from .fact_entry import facts_needed

        with self._lock:
            if self.state is None or self.state.stage in card_entry.CLOSED_STAGES:
                return []
            return facts_needed(self.board, self.asked())

    @staticmethod
    def effect_choices(rules: str = "2023"):
        """The effects a card may have, each with its rule text (companion.prompts.EffectChoice)."""
        from .prompts import effect_choices

        return effect_choices(rules)

    @property
    def names(self) -> dict[str, str]:
        return (self.state or self.free).names

    @property
    def over(self) -> bool:
        return self.asked().kind == "game_over"

    # ---- inputs -------------------------------------------------------------------------

    def submit(self, event: Any, *, player: Optional[str] = None) -> None:
        """A game input (engine or scoring-only event), as a pydantic model or a dict.

        `player` is who sends it when it comes from a phone: a phone may only
        send its own secret disc."""
        with self._lock:
            event = self._parse_event(event)
            if getattr(event, "type", "") == "special_scored" and event.kind == "castillo" and not event.castillo:
                # Scoring only: the Castillo's content is what the tower counted.
                event = event.model_copy(update={"castillo": {p: c for p, c in self.tally.items() if c}})
            if player is not None and getattr(event, "player", None) != player:
                raise InputError(f"{player} may only enter their own choices")
            event = self._held_twin(event)
            try:
                self._apply_event(event)
            except RuleViolation as exc:  # the engine changed nothing
                raise InputError(str(exc)) from None
            self._persist({"t": "event", "e": event.model_dump(mode="json")})
            self._after_event(event)
        self._notify("game")

    def _held_twin(self, event):
        """Power Shift: a Modifier card is tapped by what is printed on it, and twins cannot be
        told apart at the table (a phone names them by face): a copy the player does not hold
        stands for the twin they do hold."""
        mid = getattr(event, "modifier", None)
        if not mid or self.state is None or getattr(event, "type", "") != "power_card_played" \
                or event.player not in self.state.players:
            return event
        mods = self.state.modifiers
        hand = self.state.modifier_hands[self.state.players.index(event.player)] if self.state.modifier_hands else ()
        if mid in hand or mid not in mods:
            return event
        face = _modifier_face(mods[mid])
        twin = next((m for m in sorted(hand) if m in mods and _modifier_face(mods[m]) == face), None)
        return event.model_copy(update={"modifier": twin}) if twin else event

    def submit_many(self, events: list) -> None:
        """Several inputs that one tap stands for ("take 4 and the Grande card"): all of them
        are checked on a copy first, so either all are recorded or none is."""
        with self._lock:
            parsed = [self._held_twin(self._parse_event(e)) for e in events]
            trial = self.state.clone() if self.mode == "tracking" else copy.deepcopy(self.free)
            for event in parsed:
                try:
                    (apply_event if self.mode == "tracking" else free_apply)(trial, event)
                except RuleViolation as exc:
                    raise InputError(str(exc)) from None
            for event in parsed:
                self.submit(event)

    def refusal(self, event: Any) -> Optional[str]:
        """Why the table would refuse `event` now, in the engine's words (naming the rule), or
        None when it would accept it. Tried on a copy: nothing changes, nothing is logged."""
        with self._lock:
            try:
                parsed = self._held_twin(self._parse_event(event))
                trial = self.state.clone() if self.mode == "tracking" else copy.deepcopy(self.free)
                (apply_event if self.mode == "tracking" else free_apply)(trial, parsed)
            except (InputError, RuleViolation) as exc:
                return str(exc)
            return None

    def _parse_event(self, event: Any):
        if isinstance(event, BaseModel):
            return event
        try:
            if self.mode == "tracking":
                return ev.event_from_dict(event)
            return FREE_EVENT_ADAPTER.validate_python(event)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise InputError(f"not a valid input ({where}: {err['msg']})") from None

    def _apply_event(self, event) -> None:
        if self.mode == "tracking":
            apply_event(self.state, event)
            if event.type == "power_card_played":   # public: the card lies face up from then on
                self.power_rounds[(event.player, event.card)] = self.state.round
        else:
            free_apply(self.free, event)
        self._count_entered(event)
        if getattr(event, "type", "") == "castillo_counted":
            self._settle_totals()

    def _settle_totals(self) -> None:
        """The Castillo was counted by hand (or emptied): that count decided; the fault is settled."""
        if self.totals_fault is not None:
            self.totals_settled, self.totals_fault = self.totals_fault, None

    def _after_event(self, event) -> None:
        # After a general scoring's reveal the tower is told the Castillo was emptied.
        if event.type == "secret_discs_revealed" and self._general_scoring_done():
            token = self._empty_token()
            self._commit({"t": "emptied", "token": token})
            if self.on_tower_empty:
                self.on_tower_empty(token)
        if self.over and not (self.effective and self.effective[-1]["t"] == "finished"):
            self._commit({"t": "finished"})

    def _general_scoring_done(self) -> bool:
        """A general scoring just emptied the Castillo. Not while the King stands by it
        (Rebellion): its Caballeros go back under it, and the tower counts on from them."""
        game = self.state or self.free
        logbook = game.scoring_log
        if self.state is not None:
            stays = self.state.king == self.state.board.castillo
        else:
            stays = self.free.castillo_stays
        return bool(logbook) and logbook[-1].title.startswith("General scoring") and not stays

    def _empty_token(self) -> str:
        return f"g{self.nonce}-e{len(self.records)}"

    def tower_drop(self, drop: TowerDrop) -> None:
        """From the bridge thread: one Caballero (or a doubtful something) in the tower."""
        with self._lock:
            if drop.key in self.drops:
                self._drop_again(drop)
                return
            status = self._classify(drop)
            self._commit({"t": "drop", "key": list(drop.key), "colour": drop.colour, "best": drop.best,
                          "est": drop.est if drop.multi else 1, "status": status})
        self._notify("drop")

    def _drop_again(self, drop: TowerDrop) -> None:
        # The second line of defence: the link hands each drop over once per boot it knows, but a
        # restarted app's link starts knowing only the last drop, and late frames of an older boot
        # (a broker's redelivery, a retained hello) may bring earlier drops again. What was
        # applied is in the game log (self.drops is rebuilt from it): counted and logged, not applied.
        self.drops_again += 1
        log.warning("tower drop %s %s was handed over again; the game log already holds it: not counted "
                    "twice (%d caught so far)", drop.key[0], _drop_id(drop.key), self.drops_again)

    def _classify(self, drop: TowerDrop) -> str:
        if drop.colour is None or drop.multi:
            return "uncertain"
        if drop.colour not in self.players:
            if drop.colour == self.dummy and self.mode == "tracking" and self.asked().kind == "move_caballeros":
                return "expected"  # a player moves the dummy's in: the move entered counts it
            return "flagged"  # a colour nobody plays: a stray cube
        return "expected" if self._placing_now(drop.colour) else "flagged"

    def _placing_now(self, colour: str) -> bool:
        """Could a Caballero of this colour go into the Castillo at this step?"""
        ask = self.asked()
        if self.mode == "scoring":
            return ask.kind == "play_round"
        if ask.kind == "turn_action":
            place = ask.options.get("place")
            return bool(place) and ask.players == (colour,)
        if ask.kind == "place_extra":
            return ask.players == (colour,)
        if ask.kind == "move_caballeros":
            return True  # some cards move other players' Caballeros into the Castillo
        return False

    def assign_drop(self, drop_id: str, player: str, count: int = 1) -> None:
        """A person says whose an uncertain (or flagged) drop was, and how many cubes."""
        with self._lock:
            entry = self._drop(drop_id)
            if player not in self.players:
                raise InputError(f"{player!r} is not playing (players: {', '.join(self.players)})")
            if not 0 <= count <= 10:
                raise InputError(f"{count} cubes in one drop: give 0 to 10")
            self._commit({"t": "assign", "drop": list(entry.key), "player": player, "count": count})
        self._notify("drop")

    def keep_drop(self, drop_id: str) -> None:
        """A flagged drop was a real Caballero thrown in: it stays counted."""
        with self._lock:
            entry = self._drop(drop_id)
            if entry.status != "flagged":
                raise InputError("only a drop flagged as outside a placement can be kept as it is")
            self._commit({"t": "keep", "drop": list(entry.key)})
        self._notify("drop")

    def dismiss_drop(self, drop_id: str) -> None:
        """Not a Caballero (a hand, a die, a cube taken back out): it counts for nobody."""
        with self._lock:
            entry = self._drop(drop_id)
            self._commit({"t": "dismiss", "drop": list(entry.key)})
        self._notify("drop")

    def _drop(self, drop_id: str) -> DropEntry:
        for entry in self.drops.values():
            if _drop_id(entry.key) == drop_id:
                if entry.settled:
                    raise InputError(f"drop {drop_id} was already answered (undo to change the answer)")
                return entry
        raise InputError(f"no tower drop {drop_id!r} waits for an answer")

    def undo(self, confirm: bool = False) -> str:
        """Take back the last person-made input. Returns what was undone, in words. Asks first
        (NeedsConfirmation, naming the step people saw) when what it takes back was seen by
        everyone, or was a private choice its player must make again."""
        with self._lock:
            last = self._last_undoable()
            if last is None:
                raise InputError("there is nothing to undo")
            step, why = self._undo_words(last)
            if why and not confirm:
                raise NeedsConfirmation(f"Undo {step}? " + " ".join(w[:1].upper() + w[1:] + "." for w in why))
            self._write({"t": "undo"})
            self._rebuild(self.records + [{"t": "undo"}])
        self._notify("game")
        return step

    def _undo_words(self, last: dict) -> tuple[str, list[str]]:
        """The step undo takes back, as people saw it, and why it asks first ([]: it need not).
        The step is what people saw: a scoring the input brought about (a Veto let pass that
        started the Castillo scoring) is named, not the input."""
        trial = self._without_last_input()
        words = describe(last, self.names, self._disc_purpose(last, trial))
        (scorings, outcomes), (kept_scorings, kept_outcomes) = _shown(self), _shown(trial)
        gone_scorings, gone_outcomes = scorings[len(kept_scorings):], outcomes[len(kept_outcomes):]
        step, why = words, []
        if gone_scorings:
            step = " and ".join(dict.fromkeys(scoring_words(t) for t in gone_scorings))
            why.append("everyone has already seen what it scored; its points and moves are taken back")
        elif gone_outcomes and not self._reveals(last):
            step = " and ".join(dict.fromkeys(_outcome_words(t) for t in gone_outcomes))
            why.append("everyone has already seen what it revealed; what it moved is taken back")
        elif self._reveals(last) or gone_outcomes:
            why.append("everyone has already seen what it revealed")
        if step != words:
            why.append(f"undone with it: {words}")
        if last["t"] == "event":
            again = again_words(last["e"], self.names, self._disc_purpose(last, trial))
            if again:
                why.append(f"{again}, in private (on their phone, or here behind the private screen)")
        if self._opened_since(last):
            # A secret choice re-made after the Castillo's counts were seen is not a secret one.
            disc = last["t"] == "event" and last["e"]["type"] == "secret_disc_set"
            why.append("everyone has already seen the Castillo's counts" +
                       ("; a secret disc chosen again now is chosen knowing them" if disc else ""))
        return step, why

    def _without_last_input(self) -> "Table":
        """The table as it would be after the undo (a log-less replay: a few milliseconds)."""
        trial = Table(self.setup, None, self._setup_board)
        trial._rebuild(self.records + [{"t": "undo"}])
        return trial

    def _disc_purpose(self, record: dict, table: Optional["Table"] = None) -> Optional[str]:
        """What a secret disc (or their reveal) was for: its question's purpose, else None.
        `table`: the table before the record (a reveal's purpose is gone after it)."""
        if record["t"] != "event" or record["e"].get("type") not in ("secret_disc_set", "secret_discs_revealed"):
            return None
        return (table or self).asked().options.get("purpose")

    def open_castillo(self) -> dict[str, int]:
        """The tower's counts, for the Castillo's opening at a scoring. That everyone has
        seen them is written down (an "opened" record): undoing anything from before it,
        a secret disc above all, then asks first, even after a restart."""
        with self._lock:
            if not (self.effective and self.effective[-1]["t"] == "opened"):
                self._commit({"t": "opened", "what": "castillo"})
            return self._tallies()

    def _opened_since(self, record: dict) -> bool:
        after = self.effective[next(i for i in range(len(self.effective) - 1, -1, -1)
                                    if self.effective[i] is record) + 1:]
        return any(r["t"] == "opened" for r in after)

    def _last_undoable(self) -> Optional[dict]:
        return next((r for r in reversed(self.effective) if r["t"] in UNDOABLE), None)

    @staticmethod
    def _reveals(record: dict) -> bool:
        return record["t"] == "event" and record["e"].get("type") in REVEALING

    # ---- commit and apply ------------------------------------------------------------------

    def _commit(self, record: dict) -> None:
        """Durably first, then in memory: what is acted on is always on disk."""
        self._write(record)
        self.records.append(record)
        self.effective.append(record)
        self._apply_record(record)

    def _persist(self, record: dict) -> None:
        """For an event already applied (the engine checks before it changes anything)."""
        try:
            self._write(record)
        except InputError:
            self._rebuild(self.records)  # forget the applied event: it is not on disk
            raise
        _note_input(self.again, record)
        self.records.append(record)
        self.effective.append(record)

    def _write(self, record: dict) -> None:
        if self._log:
            try:
                self._log.append(record)
            except OSError as exc:
                raise InputError(f"could not save to {self._log.path} ({exc.strerror}); "
                                 "nothing was changed: free some space and try again") from None

    def _apply_record(self, record: dict) -> None:
        kind = record["t"]
        if kind == "event":
            event = (ev.event_from_dict(record["e"]) if self.mode == "tracking"
                     else FREE_EVENT_ADAPTER.validate_python(record["e"]))
            self._apply_event(event)
        elif kind == "drop":
            key = tuple(record["key"])
            entry = DropEntry(key, record["colour"], record["best"], record["est"], record["status"])
            if entry.status != "uncertain":
                entry.player, entry.count = entry.colour if entry.colour in self.tally else None, 1
            self.drops[key] = entry
            self.drops_total += 1
            self._count(entry, +1)
            self.received.append((key, entry.colour if entry.status != "uncertain" else None))
        elif kind in ("assign", "dismiss", "keep"):
            entry = self.drops[tuple(record["drop"])]
            self._count(entry, -1)
            if kind == "assign":
                entry.player, entry.count = record["player"], record["count"]
            elif kind == "dismiss":
                entry.player, entry.count = None, 0
            entry.settled = True
            self._count(entry, +1)
        elif kind == "emptied":
            self.tally = {pid: 0 for pid in self.players}
            self.unplaced = {pid: 0 for pid in self.players}
            self.empty_token = record["token"]
            for entry in self.drops.values():
                entry.settled = True  # what was in the tower has been counted by hand
            self.received = []
            self.castillo_opened = False
            self._settle_totals()
        elif kind == "opened":
            self.castillo_opened = True
        elif kind == "tower_totals":
            self.totals_fault = record

    def _count(self, entry: DropEntry, sign: int) -> None:
        if entry.player in self.tally and entry.count:
            self.tally[entry.player] += sign * entry.count
            if entry.status != "flagged":
                # A cube thrown outside a placement (kept) is in the Castillo, but belongs to no
                # turn: it must not be prefilled into that player's next placement.
                self.unplaced[entry.player] = max(0, self.unplaced[entry.player] + sign * entry.count)

    def _count_entered(self, event) -> None:
        """Entered turns that put Caballeros in the Castillo use up the tower's count."""
        put: dict[str, int] = {}
        if isinstance(event, (ev.CaballerosPlaced, ev.ExtraCaballerosPlaced)):
            put[event.player] = event.placements.get(CASTILLO, 0)
        elif isinstance(event, ev.CaballerosMoved) and event.target == CASTILLO:
            put[event.owner] = event.count
        elif (isinstance(event, ev.TableCorrected) and event.castillo is not None) \
                or isinstance(event, ev.CastilloCounted):
            # The Castillo as the table counted it: that is what lies there now (the tower counts
            # on from it), and what the tower saw is in it, with no turn to come.
            counted = event.castillo if isinstance(event, ev.TableCorrected) else event.counts
            for pid in self.players:
                self.tally[pid] = counted.get(pid, 0) if isinstance(event, ev.TableCorrected) \
                    else counted.get(pid, self.tally[pid])
            self.unplaced = {pid: 0 for pid in self.players}
            return
        for pid, k in put.items():
            if pid in self.unplaced:
                self.unplaced[pid] = max(0, self.unplaced[pid] - k)

    # ---- views ---------------------------------------------------------------------------------

    def public(self) -> TablePublic:
        with self._lock:
            last = self._last_undoable()
            return TablePublic(
                mode=self.mode, game=self._game_public(),
                colours={p: p for p in self.players + ((self.dummy,) if self.dummy else ())},
                drops_total=self.drops_total,
                drops_waiting=[d.public() for d in self.drops.values() if d.needs_person],
                undo=describe(last, self.names, self._disc_purpose(last)) if last else None,
                undo_reveals=bool(last and self._reveals(last)),
                totals_mismatch=self.totals_fault is not None)

    def _game_public(self) -> dict:
        if self.state is not None:
            return public_view(self.state).model_dump(mode="json")
        return free_public(self.free)

    def private(self, player: str) -> dict:
        with self._lock:
            if player not in self.players:
                raise InputError(f"{player!r} is not playing")
            if self.state is not None:
                return player_view(self.state, player).model_dump(mode="json")["private"]
            # Scoring only: the tower's count is the player's own Castillo figure.
            return {"player": player, "provinces": None, "castillo": self.tally[player],
                    "power_cards_in_hand": [], "power_cards_discarded": [],
                    "secret_disc": self.free.discs.get(player)}

    def question_id(self) -> str:
        """Names the question now asked; secret discs set meanwhile do not change it, anything
        else does. A phone sends it back with its pick, so a pick made against an old
        question is refused."""
        with self._lock:
            ask = self.asked()
            opened = sum(1 for r in self.effective
                         if r["t"] == "event" and r["e"]["type"] not in SIMULTANEOUS)
            return f"{ask.round}-{ask.stage}-{ask.options.get('purpose', ask.kind)}-{opened}"

    def hidden_tallies(self) -> dict[str, int]:
        """The tower's Castillo count per player: for the reveal step only. A colour the tower
        does not know counts what the entered turns put in (tracking mode)."""
        with self._lock:
            return self._tallies()

    def _tallies(self) -> dict[str, int]:
        tallies = dict(self.tally)
        by_hand = self.setup.by_hand()
        if by_hand and self.state is not None:
            recorded = castillo_tallies(self.state)
            tallies.update({p: recorded[p] for p in by_hand if p in tallies})
        return tallies

    def recorded_castillo(self) -> dict[str, int] | None:
        """What the entered turns put in the Castillo (tracking mode), for the count check."""
        with self._lock:
            return castillo_tallies(self.state) if self.state is not None else None

    def castillo_prefill(self, player: str) -> int:
        """Caballeros of `player` the tower saw go in that no entered turn accounts for yet."""
        with self._lock:
            return self.unplaced.get(player, 0)

    def tower_position(self) -> Optional[tuple[str, str, int]]:
        """The last drop held durably: the bridge resumes after it."""
        with self._lock:
            keys = [d.key for d in self.drops.values()]
            return keys[-1] if keys else None

    # ---- the tower's own totals ------------------------------------------------------------------

    def start_tower_count(self) -> Optional[str]:
        """The emptying token the tower should hold for this game. A game with no drops and no
        emptying yet writes one first ("g<nonce>-s"): the physical Castillo starts empty, and the
        tower's totals are then comparable from the first drop on. None: the game began before
        the tower was emptied for it (an older log); its totals are compared after its next
        general scoring."""
        with self._lock:
            if self.empty_token is None and not self.drops:
                self._commit({"t": "emptied", "token": f"g{self.nonce}-s"[:32]})
            return self.empty_token

    def tower_totals(self, tower: str, totals: Any) -> str:
        """The tower's totals snapshot (firmware_bridge Totals) against the drops the table received
        from that tower since the same emptying, up to the snapshot's sequence number (drops after it
        are not in it). The caller hands it over once every drop up to `totals.seq` was delivered.

        "agree"; "differ": written to the log as a "tower_totals" record with both counts (once for the
        same numbers: a restart sends the same snapshot again) and a public fault until the Castillo is
        counted by hand; "other_emptying": the tower counts since another emptying (it has not taken
        this game's yet, or the game began before it was emptied for it): not compared."""
        with self._lock:
            now = time.time()
            if self.empty_token is None or totals.token != self.empty_token:
                self.totals_seen = {"state": "other_emptying", "at": now, "ours": self.empty_token is not None}
                return "other_emptying"
            mine = self._received_count(tower, totals.boot, totals.seq, totals.drops)
            theirs = {"counts": {c: n for c, n in sorted(totals.counts.items()) if n}, "drops": totals.drops}
            if mine == theirs:
                self.totals_seen = {"state": "agree", "at": now}
                return "agree"
            self.totals_seen = {"state": "differ", "at": now}
            fault = self.totals_fault
            if fault is None or (fault["tower_count"], fault["table_count"]) != (theirs, mine):
                self._commit({"t": "tower_totals", "tower": tower, "boot": totals.boot, "seq": totals.seq,
                              "token": totals.token, "tower_count": theirs, "table_count": mine,
                              "at": int(now)})
        self._notify("tower")
        return "differ"

    def _received_count(self, tower: str, boot: str, seq: int, since_empty: int) -> dict:
        # The tower's `drops` are those since its emptying, numbered up to `seq` in this boot:
        # a drop numbered before them was thrown before the emptying reached the tower (a cube
        # held from before the game started, say), so it is not in the tower's count either.
        first = seq - since_empty
        counts: dict[str, int] = {}
        drops = 0
        for key, colour in self.received:
            if key[0] != tower or (key[1] == boot and not first < key[2] <= seq):
                continue   # another tower's, thrown after the snapshot, or before the emptying
            drops += 1
            if colour is not None:
                counts[colour] = counts.get(colour, 0) + 1
        return {"counts": dict(sorted(counts.items())), "drops": drops}

    def totals_check(self) -> dict:
        """What the tower panel may say (it is on the open table): whether the last snapshot agreed,
        whether a disagreement is open or was settled, and the two counts per colour only once
        the Castillo has been lifted (its counts are shown then anyway)."""
        with self._lock:
            fault, settled = self.totals_fault, self.totals_settled
            shown = fault if fault is not None and self.castillo_opened else None
            return {"seen": dict(self.totals_seen), "fault": fault is not None,
                    "fault_at": fault.get("at") if fault else None,
                    "settled_at": settled.get("at") if settled and fault is None else None,
                    "counts": ({"tower": shown["tower_count"], "table": shown["table_count"]} if shown else None)}

    def score_history(self) -> dict[str, list[tuple[int, int]]]:
        """(round, score) after each scoring, per player: for the end-of-game plot."""
        with self._lock:
            game = self.state or self.free
            logbook = game.scoring_log
            # Worked back from the scores as they stand, so scores entered or corrected on
            # the board (a start from a position) are in the plot, not only scoring lines.
            now = self.public().game["players"]
            totals = {p["id"]: p["score"] for p in now}
            points = []
            for record in reversed(logbook):
                points.append((record.round, dict(totals)))
                for line in record.lines:
                    totals[line.player] -= line.points
            history = {pid: [(0, max(0, totals[pid]))] for pid in self.players}
            for rnd, after in reversed(points):
                for pid in self.players:
                    history[pid].append((rnd, after[pid]))
            return history

    def close(self) -> None:
        if self._log:
            self._log.close()

    @property
    def path(self) -> Optional[Path]:
        return self._log.path if self._log else None


# ---- reading logs back: damage is a message, never a traceback ----------------------------------

DROP_STATUSES = ("expected", "flagged", "uncertain")


def _load(path: Path, loaded: LoadedLog) -> tuple[Optional[Table], Optional[Damage]]:
    """A log-less table replayed from the intact records, and the first damage (store's or replay's)."""
    damage = loaded.damage
    if loaded.header is None:
        return None, damage
    try:
        table = Table(_saved_setup(loaded.header.get("setup")), None)
        nonce = loaded.header.get("nonce", path.stem)
        if not isinstance(nonce, str):
            raise ValueError(f"the nonce is {type(nonce).__name__}, not text")
    except Exception as exc:  # pydantic ValidationError, a refused setup (RuleViolation), ...
        return None, Damage(f"line 1 (the header) does not hold a valid game setup ({_why(exc)})", 1, 0,
                            loaded.total, openable=False)
    table.nonce = nonce
    failure = table._replay(loaded.records)
    if failure:
        i, why = failure
        damage = Damage(f"line {i + 2} (record {i + 1}) cannot be replayed: {why}", i + 2, i, loaded.total)
    return table, damage


def _saved_setup(data: Any) -> TableSetup:
    """A saved game keeps the rules revision it was played under (none written: revision 1)."""
    if isinstance(data, dict) and isinstance(data.get("game"), dict):
        data = {**data, "game": GameSetup.from_saved(data["game"])}
    return TableSetup.model_validate(data)


def _check_record(record: dict, players: tuple[str, ...]) -> None:
    """What the live table would have written; anything else is damage (ValueError)."""
    kind = record.get("t")
    if kind not in RECORD_KINDS:
        raise ValueError(f"unknown record kind {str(kind)[:40]!r}")
    if kind == "event" and not isinstance(record.get("e"), dict):
        raise ValueError("an event record without its event")
    if kind == "drop":
        _check_key(record.get("key"))
        est = record.get("est")
        if not (_is_int(est) and 1 <= est <= 10) or record.get("status") not in DROP_STATUSES:
            raise ValueError("a tower drop with an impossible count or status")
        if not all(record.get(k) is None or isinstance(record.get(k), str) for k in ("colour", "best")):
            raise ValueError("a tower drop whose colour is not a colour name")
    if kind in ("assign", "keep", "dismiss"):
        _check_key(record.get("drop"))
    if kind == "assign":
        count = record.get("count")
        if record.get("player") not in players or not (_is_int(count) and 0 <= count <= 10):
            raise ValueError(f"a drop given to {str(record.get('player'))[:20]!r} x {str(count)[:8]} "
                             f"(players: {', '.join(players)}; 0 to 10 cubes)")
    if kind == "opened" and record.get("what") != "castillo":
        raise ValueError("an opening of something other than the Castillo")
    if kind == "emptied" and not isinstance(record.get("token"), str):
        raise ValueError("an emptying without its token")
    if kind == "tower_totals":
        for side in ("tower_count", "table_count"):
            count = record.get(side)
            if not (isinstance(count, dict) and isinstance(count.get("counts"), dict) and _is_int(count.get("drops"))
                    and all(isinstance(c, str) and _is_int(n) for c, n in count["counts"].items())):
                raise ValueError(f"a tower totals record whose {side} is not a count per colour")


def _check_key(key: Any) -> None:
    if not (isinstance(key, list) and len(key) == 3 and isinstance(key[0], str) and isinstance(key[1], str)
            and _is_int(key[2])):
        raise ValueError("a tower drop's id is not tower, boot and sequence number")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _why(exc: Exception) -> str:
    """An exception from replaying untrusted data, as words."""
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        text = f"{where}: {err['msg']}" if where else err["msg"]
        return text if len(text) <= 160 else text[:157] + "..."
    if isinstance(exc, KeyError):
        return f"it names {str(exc.args[0] if exc.args else exc)[:60]}, which is not in the game"
    if isinstance(exc, (RuleViolation, ValueError, InputError)):
        return str(exc)[:300]
    return f"{type(exc).__name__}: {str(exc)[:200]}"


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def where_in_game(table: Table) -> str:
    """The phase bar's words for where the game stands ("Round 4 - power cards - Ana plays next")."""
    from .prompts import PromptBuilder  # the tablet's own words; prompts has no Kivy

    try:
        if table.setup.game.rules == "king-intrigue":  # its own setup stages and words
            return table.prompt_builder().build(table.asked()).title
        return PromptBuilder(table.names, table.board).build(table.asked()).title
    except Exception:  # a title is a nicety: never let it hide the game
        return f"round {(table.state or table.free).round}"


@dataclass
class GameCheck:
    """A saved game as the home screen lists it. Built by check_game, which never raises."""

    path: Path
    modified: float
    names: list[str]
    records: int                      # intact records (all of them, when not damaged)
    finished: bool
    where: str                        # where the intact records leave the game
    damage: Optional[Damage] = None
    warnings: list[str] = field(default_factory=list)

    @property
    def damaged(self) -> bool:
        return self.damage is not None

    def message(self) -> str:
        """What is wrong and what can be kept; empty when nothing is."""
        if not self.damage:
            return ""
        if not self.damage.openable:
            return f"{self.damage.what}. Nothing of this game can be opened; keep it aside."
        if self.damage.kept == 0:
            return f"{self.damage.what}. {self.damage.intact()}; start the game again from it ({self.where})?"
        return (f"{self.damage.what}. {self.damage.intact()}; "
                f"open the game up to record {self.damage.kept} ({self.where})?")

    def choices(self) -> list[tuple[str, str]]:
        """(label, action): resume | open_intact | keep_aside."""
        if not self.damage:
            return [("Open" if self.finished else "Resume", "resume")]
        label = f"Open up to record {self.damage.kept}" if self.damage.kept else "Start again from its setup"
        opening = [(label, "open_intact")] if self.damage.openable else []
        return opening + [("Keep aside", "keep_aside")]


def check_game(path: Path) -> GameCheck:
    """Read and replay a log without opening it for writing: what it holds, or what is wrong."""
    try:
        return _check_game(path)
    except Exception as exc:  # a bug here must not keep the home screen (and every other game) from opening
        log.exception("checking %s failed", path)
        return GameCheck(path, modified(path), [], 0, False, "",
                         Damage(f"it could not be read ({_why(exc)})", 0, 0, 0, openable=False))


def _check_game(path: Path) -> GameCheck:
    loaded = scan_log(path)
    table, damage = _load(path, loaded)
    names: list[str] = []
    if table is not None:
        names = [table.names.get(p) or p.title() for p in table.players]
    if table is None:
        return GameCheck(path, modified(path), names, 0, False, "", damage, loaded.warnings)
    finished = bool(table.effective) and table.over
    return GameCheck(path, modified(path), names, len(table.records), finished, where_in_game(table), damage,
                     loaded.warnings)


def check_games(folder: Path | None = None) -> list[GameCheck]:
    """Every log in the games folder, newest first, damaged ones included."""
    return [check_game(path) for path in log_paths(folder)]


def free_public(free: FreeState) -> dict:
    ask = free_asked(free)
    table = free.table
    return {
        "rules": free.rules, "dummy": free.dummy,
        "round": free.round, "rounds": list(free.schedule), "variant": free.variant, "stage": free.stage,
        "asked": {"kind": ask.kind, "players": list(ask.players),
                  "options": {k: v for k, v in ask.options.items() if k != "regions"},
                  "vetoes": [], "card": None, "round": ask.round, "stage": ask.stage},
        "players": [{"id": pid, "name": free.names[pid], "score": table.scores.get(pid, 0),
                     "court": table.court.get(pid, 0), "grande": table.grandes.get(pid)}
                    for pid in free.players],
        "king": table.king, "regions": {r: dict(row) for r, row in table.regions.items()},
        "mobile_scoreboards": dict(table.mobile_scoreboards),
        **({"modules": list(free.modules), "markers": ki_markers(table.model_dump(include=set(KI_MARKERS)))}
           if free.rules == "king-intrigue" else {}),   # the map draws them as in a tracked game
        "secret_discs_chosen": [pid for pid in free.players if pid in free.discs],
        "scorings": [{"round": s.round, "title": s.title, "lines": [ln.to_dict() for ln in s.lines],
                      "transfers": list(s.transfers)} for s in free.scoring_log],
        "winners": list(free.winners),
    }


def describe(record: dict, names: dict[str, str], purpose: Optional[str] = None) -> str:
    """A record in words, as the step people saw (companion.undo_words): for the undo button
    and its question. `purpose`: a secret disc's (K&I's setup disc is named so)."""
    kind = record["t"]
    if kind == "event":
        return step_words(record["e"], names, purpose)
    if kind == "assign":
        return f"drop given to {names.get(record['player'], record['player'])}"
    if kind == "dismiss":
        return "drop dismissed"
    if kind == "keep":
        return "flagged drop kept"
    if kind == "opened":
        return "the Castillo opened"
    return kind


def _note_undone(again: set[str], record: dict) -> None:
    """An undo took `record` back: a private choice's player must choose again; anything else
    changes the question, and whoever was to choose again is asked anew."""
    e = record.get("e") or {}
    if record["t"] != "event":
        return
    if e.get("type") not in SIMULTANEOUS:
        again.clear()
    if e.get("type") in PRIVATE_CHOICES:
        again.add(e.get("player"))


def _note_input(again: set[str], record: dict) -> None:
    """A record accepted: a player's private choice made again; any other input moves the game on."""
    if record["t"] != "event" or not again:
        return
    e = record["e"]
    if e.get("type") in SIMULTANEOUS:
        again.discard(e.get("player"))
    else:
        again.clear()


def _shown(table: Table) -> tuple[list[str], list[str]]:
    """The titles of the scorings and of the outcomes everyone has been shown."""
    if table.state is not None:
        return [s.title for s in table.state.scoring_log], [o.title for o in table.state.outcomes]
    return [s.title for s in table.free.scoring_log], []


def _outcome_words(title: str) -> str:
    """An outcome as a step: "Round 2: the dummy's Region cards: ..." is "the dummy's Region cards"."""
    if title.startswith("Round "):
        title = title.split(": ", 1)[-1]
    return title.split(": ", 1)[0]
