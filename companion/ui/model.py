"""The app's model: the one thing screens observe.

It holds the table and the tower connection, turns their callbacks (from the
bridge's thread) into Kivy property changes on the UI thread with Clock, and
forwards what screens ask for to the table. Screens never decide a rule: they
draw `prompt` and send back the event it builds.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty

from companion.entry.corrections import correction_history
from companion.input_errors import InputError, NeedsConfirmation
from companion.prompts.builder import PromptBuilder
from companion.storage.game_log import tip_path
from companion.storage.games_folder import keep_aside, log_paths
from companion.table.authority import Table
from companion.table.game_check import GameCheck, check_game
from companion.table.outcomes import OutcomeWords
from companion.table.setup import TableSetup
from companion.tower.connection import TOTALS_MISMATCH, TowerConnection
from companion.words import _, names
from companion.words.colours import player_name
from engine.board.build import classic_board
from engine.board.model import Board
from engine.game import board_for

log = logging.getLogger("companion.ui")
PHONE_PORT = int(os.environ.get("ELGRANDE_PHONE_PORT", "8750"))


def _signature(path: Path) -> tuple:
    try:
        st = path.stat()
        return st.st_size, st.st_mtime_ns, st.st_ino
    except OSError:
        return None


def game_board(table: Table) -> Board:
    """The board a table plays on: the table's own (its rule set, side, and the files the table
    entered), or built from its setup where the table does not hold the one its setup names."""
    board = getattr(table, "board", None)
    setup = table.setup.game
    if board is not None and board.rules == setup.rules:
        return board
    return board_for(setup)


class AppModel(EventDispatcher):
    public = DictProperty({})  # Table.public() as a dict
    prompt = ObjectProperty(None, allownone=True)
    tower = DictProperty({})  # LinkStatus as a dict
    pulses = NumericProperty(0)  # one more per Castillo drop: the tower pulses
    message = StringProperty("")  # the last refusal or notice, for the toast
    scorings_seen = NumericProperty(0)
    outcomes_seen = NumericProperty(0)
    phone_seats = DictProperty({})  # pid -> PhoneServer.seats_status(): joined, connected, awaiting, code
    phone_error = StringProperty("")
    # the club publisher's one status line (companion.club.errors.Reason: English as a string,
    # said in the table's language by club_line), "" without a club
    club_status = StringProperty("")
    phone_lobby = ListProperty([])  # PhoneServer.lobby(): phones of earlier games without a seat
    board = ObjectProperty(classic_board())  # the open game's board (its rule set, side and the table's files)

    __events__ = ("on_scoring", "on_game_over", "on_outcome")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.table: Table | None = None
        self.tower_link: TowerConnection | None = None
        self.club_link = None  # companion.club.publisher.ClubPublisher when the game names a club broker
        self.phones = None
        self.builder: PromptBuilder | None = None
        self._refresh_trigger = Clock.create_trigger(self._refresh, 0)
        self._ask_key = None
        self._checks: dict[Path, tuple] = {}  # path -> (file signatures, GameCheck)
        self._unsubscribe_table = None
        # The last game's tower position: a new game on the same tower starts after it, so the
        # tower's earlier drops are not replayed into it.
        self._tower_after: tuple[str, str, int] | None = None

    # ---- games --------------------------------------------------------------------

    def saved_games(self) -> list[GameCheck]:
        """Every log in the games folder, newest first, damaged ones with what is wrong.
        Each is read and replayed once, then again only when its files change."""
        checks = []
        for path in log_paths():
            key = (_signature(path), _signature(tip_path(path)))
            cached = self._checks.get(path)
            if cached is None or cached[0] != key:
                cached = self._checks[path] = (key, check_game(path))
            checks.append(cached[1])
        return checks

    def last_unfinished(self) -> GameCheck | None:
        return next((g for g in self.saved_games() if not g.damaged and not g.finished), None)

    def new_game(self, setup: TableSetup) -> None:
        self._open(Table.new(setup))

    def resume(self, path: Path) -> None:
        """Raises LogDamaged (a LogError) with what is wrong when the log is damaged."""
        self._open(Table.resume(path))
        self._tell_warnings()
        if self.table.read_only and not self.table.warnings:
            self.message = self.table.read_only

    def open_intact(self, path: Path) -> None:
        """A damaged game up to its last intact record (the file as it was is copied aside)."""
        self._open(Table.resume_intact(path))
        self.message = _("Opened up to record {n}; the damaged file is kept aside").format(n=len(self.table.records))

    def keep_aside(self, path: Path) -> Path:
        """Out of the games list, not deleted: renamed to <name>.damaged-<time>."""
        self._checks.pop(path, None)
        return keep_aside(path)

    def _tell_warnings(self) -> None:
        """The first warning, short enough for the table's toast (all of them are in the log)."""
        if self.table.warnings:
            first = self.table.warnings[0]
            self.message = _("Opened, but {warning}").format(warning=first.split(": ", 1)[-1])

    def _open(self, table: Table) -> None:
        previous = self._close_game()  # still open: the phones leave it for the new table first
        self._ask_key = None
        self._pulsed = table.drops_total  # drops before this session do not pulse
        self.table = table
        self.board = game_board(table)
        # The table's own builder: its board as the card set grows, the colours the tower counts,
        # Power Shift's Modifier cards and the public view (what a public prompt may read).
        self.builder = table.prompt_builder()
        self._unsubscribe_table = table.subscribe(self._changed)
        # A finished game opened again takes no drops: its tower is not listened to.
        self.tower_link = (
            None
            if table.read_only
            else TowerConnection(
                table, table.setup.tower, on_status=self._tower_changed, after=self._tower_after
            ).start()
        )
        self._start_club(table)
        self._start_phones(table)
        if previous is not None:
            previous.close()
        self.scorings_seen = len(self._scorings_of(table))
        self.outcomes_seen = len(self._outcomes_of(table))
        self.outcome_words = OutcomeWords(table.names, table.board, dummy=table.dummy)
        self._refresh()

    @staticmethod
    def _outcomes_of(table: Table) -> list:
        return table.state.outcomes if table.state is not None else []

    def history(self) -> list[tuple[str, object]]:
        """Everything the table may reopen, oldest first: ("scoring", ScoringRecord) and
        ("outcome", Instructions) in the order they happened."""
        if self.table is None:
            return []
        items = [("scoring", r) for r in self._scorings_of(self.table)]
        outcomes = [o for o in self._outcomes_of(self.table) if not o.title.startswith("General scoring")]
        items += [("outcome", self.outcome_words.instructions(o.to_dict())) for o in outcomes]
        items += [("outcome", words) for words in correction_history(self.table)]  # the table's corrections
        order = {"outcome": 0, "scoring": 1}  # a round's general scoring comes at its end
        return sorted(items, key=lambda it: (it[1].round, order[it[0]]))

    @staticmethod
    def _scorings_of(table: Table) -> list:
        return (table.state or table.free).scoring_log

    def _start_club(self, table: Table) -> None:
        from companion.club.publisher import publisher_for

        self.club_status = ""
        self.club_link = publisher_for(table, lambda s: Clock.schedule_once(lambda dt: setattr(self, "club_status", s)))

    def _start_phones(self, table: Table) -> None:
        """The phone page, on the local network; a busy port falls back to any free one. One
        server for the app's lifetime: started with the first game, pointed at each next game's
        table (phones stay joined), stopped when the app closes."""
        from companion.phones.server import PhoneServer

        if self.phones is not None:
            self.phones.switch_table(table)
            self._phones_changed()
            return
        self.phones, self.phone_error = None, ""
        for port in (PHONE_PORT, 0):
            try:
                self.phones = PhoneServer(table, port=port).start()
                break
            except OSError as exc:
                self.phone_error = _("phones: cannot listen on port {port} ({why})").format(port=port, why=exc.strerror)
        if self.phones:
            self.phones.subscribe(lambda what: Clock.schedule_once(self._phones_changed, 0))
            self._phones_changed()

    def _phones_changed(self, *args) -> None:
        if self.phones:
            self.phone_seats = self.phones.seats_status()
            self.phone_lobby = self.phones.lobby()

    def _close_game(self) -> Table | None:
        """Stops the game's tower and lets go of its table, which is returned still open."""
        if self.tower_link:
            self.tower_link.stop()
            self.tower_link = None
        if self.club_link:
            self.club_link.stop()
            self.club_link = None
        table, self.table = self.table, None
        if table is not None:
            self._tower_after = table.tower_position() or self._tower_after
            if self._unsubscribe_table:
                self._unsubscribe_table()
        self._unsubscribe_table = None
        return table

    def close(self) -> None:
        """The app closes: the game, then the phone server."""
        table = self._close_game()
        if getattr(self, "phones", None):
            self.phones.stop()
            self.phones = None
        if table is not None:
            table.close()

    # ---- from other threads: hop to the UI thread -------------------------------------------

    def _changed(self, what: str) -> None:
        if what == "drop":
            # The pulse first, before the next frame and apart from the heavier refresh.
            Clock.schedule_once(self._pulse, -1)
        self._refresh_trigger()

    def _pulse(self, *args) -> None:
        total = self.table.drops_total if self.table else 0
        if total > self._pulsed:
            self.pulses += total - self._pulsed
            self._pulsed = total

    def _tower_changed(self, status) -> None:
        data = status.model_dump(mode="json")
        Clock.schedule_once(lambda dt: self._set_tower(data), 0)

    def _set_tower(self, data: dict) -> None:
        self.tower = data

    def _refresh(self, *args) -> None:
        table = self.table
        if table is None:
            return
        public = table.public().model_dump(mode="json")
        self._follow_board(table)
        self._pulse()
        if public != self.public:
            if public.get("totals_mismatch") and not self.public.get("totals_mismatch"):
                self.message = _(TOTALS_MISMATCH)  # no figure: the tower panel says more once the Castillo is lifted
            self.public = public
        ask = table.asked()
        prefill = self._prefill(ask)
        key = (repr(ask), prefill, tuple(table.private_notes))  # a card refused in private: its "why" offered
        if key != self._ask_key:  # a drop or a phone's disc often leaves the question as it was
            self._ask_key = key
            self.prompt = self.builder.build(ask, prefill)
        scorings = self._scorings_of(table)
        new_scoring = len(scorings) > self.scorings_seen
        if new_scoring:
            self.scorings_seen = len(scorings)
            self.dispatch("on_scoring", scorings[-1])
        elif len(scorings) < self.scorings_seen:  # undone: entered again, its page shows again
            self.scorings_seen = len(scorings)
        outcomes = self._outcomes_of(table)
        if len(outcomes) > self.outcomes_seen:
            new, self.outcomes_seen = outcomes[self.outcomes_seen :], len(outcomes)
            for outcome in new:
                # A scoring's page says what it moved (general scoring) or scored (the disc
                # scoring, which moves nothing): no second dialog over it.
                if outcome.title.startswith("General scoring") or (new_scoring and not outcome.moves):
                    continue
                self.dispatch("on_outcome", self.outcome_words.instructions(outcome.to_dict()))
        elif len(outcomes) < self.outcomes_seen:  # undone
            self.outcomes_seen = len(outcomes)
        if ask.kind == "game_over":
            self.dispatch("on_game_over")

    def _follow_board(self, table: Table) -> None:
        """The table's board again when it has a new one (a fact the table entered mid-game, a
        completed card set): the map shows what the game now plays with."""
        board = getattr(table, "board", None)
        if board is not None and board is not self.board and board.rules == table.setup.game.rules:
            self.board = board
            self.outcome_words.board = board  # a card the table added is named in outcomes too

    def _prefill(self, ask) -> int:
        if ask.kind in ("turn_action", "place_extra") and ask.players:
            return self.table.castillo_prefill(ask.players[0])
        return 0

    def on_scoring(self, record) -> None:
        pass

    def on_game_over(self) -> None:
        pass

    def on_outcome(self, instructions) -> None:
        pass

    def reopen_scoring(self, record) -> None:
        """A past scoring's pages again (from the history)."""
        self.dispatch("on_scoring", record)

    # ---- inputs ---------------------------------------------------------------------------

    def submit(self, event: dict) -> bool:
        """Send one input; a refusal shows its message and changes nothing."""
        return self._input(self.table.submit, event)

    def submit_many(self, events: list[dict]) -> bool:
        """Several inputs for one tap: all recorded, or none and the refusal shown."""
        return self._input(self.table.submit_many, events)

    def _input(self, send, what) -> bool:
        try:
            send(what)
        except InputError as exc:
            self.message = str(exc)
            return False
        self.message = ""
        self.property("message").dispatch(self)  # told even when it was "": a screen's own line ends with its step
        self._refresh()
        return True

    def undo(self, confirm: bool = False) -> str | None:
        """Undo; returns the confirmation question when one is needed."""
        try:
            words = self.table.undo(confirm=confirm)
        except NeedsConfirmation as exc:
            return str(exc)
        except InputError as exc:
            self.message = str(exc)
            return None
        self.message = _("Undone: {what}").format(what=words)
        self._refresh()
        return None

    def why_not_area(self, prompt, area: str, entry=None, source: str = "", owner: str = "") -> str:
        """Why a tap on `area` chooses nothing now, in one line (the engine's words, rule named)."""
        return self.builder.why_not_area(prompt, area, self.table.refusal, entry, source, owner)

    def answer_drop(self, drop_id: str, answer: str) -> None:
        """answer: a player id (whose it was), "keep" or "dismiss"."""
        try:
            if answer == "keep":
                self.table.keep_drop(drop_id)
            elif answer == "dismiss":
                self.table.dismiss_drop(drop_id)
            else:
                self.table.assign_drop(drop_id, answer)
        except InputError as exc:
            self.message = str(exc)
        self._refresh()

    def teach(self, again: bool = False) -> str:
        """Starts teaching the tower this game's colours (companion.tower.teaching); returns why it
        cannot, in one line (also the toast), or ""."""
        link = self.tower_link
        why = link.teaching.start(again) if link else _("This game has no tower to teach.")
        if why:
            self.message = why
        return why or ""

    def simulate_drop(self, colour: str) -> None:
        if self.tower_link and self.tower_link.sim:
            self.tower_link.simulate_drop(colour)

    # ---- reads for screens ------------------------------------------------------------------

    def open_castillo(self) -> dict[str, int]:
        """The tower's counts, for the Castillo's opening; the table notes they were seen."""
        return self.table.open_castillo()

    def recorded_castillo(self) -> dict[str, int] | None:
        return self.table.recorded_castillo()

    def name(self, pid: str) -> str:
        """A player as the table reads them: the name typed, else their colour in the table's
        language (the 2-player dummy: "the dummy (White)" in it)."""
        return player_name(self.table.names, pid) if self.table else pid

    def area_name(self, aid: str) -> str:
        """A region, space or the Castillo as the table's edition prints it, in the table's
        language (the engine's English name is the id of meaning: companion.words.names)."""
        return names.area(self.board, self.board.area_index[aid])

    def card_name(self, cid: str) -> str:
        """A card of the game's set by its printed name in the table's language (a card the
        table added keeps the name typed in)."""
        card = self.board.cards.get(cid)
        return names.card(card.name) if card is not None else cid

    def ask(self):
        return self.table.asked()
