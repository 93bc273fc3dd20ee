"""A phone's answer taken into the table: checked against the question asked now and the seat's
answer order, then submitted, all under the table's lock (the question checked is the one
answered). Runs on the phone server's executor; no sockets here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from companion.input_errors import InputError
from companion.phones.inputs import ChooseIn, PickIn
from companion.phones.ordering import SeatOrder, Stale, answer_in_force
from companion.phones.questions.discs import disc_answer
from companion.phones.questions.memory import GameMemory
from companion.phones.questions.private import private_answer, question_id
from companion.phones.refusals import MOVED_ON, NEW_GAME, Refused, StaleAnswer, refused_words
from companion.table.authority import Table
from companion.words import _


@dataclass(frozen=True)
class ServedGame:
    """The table served, its number (+1 per table: work begun for an earlier one is dropped) and
    what is remembered of its questions."""

    table: Table
    generation: int
    memory: GameMemory = field(default_factory=GameMemory)


class Answers:
    def __init__(self, current: Callable[[], ServedGame], changed: Callable[[str], None]):
        self._current = current  # the game served now
        self._changed = changed  # the seat's view shows its new last_seq
        self.order = SeatOrder()  # each seat's last accepted answer number (under the table lock)

    def take(self, game: ServedGame, pid: str, answer: PickIn | ChooseIn) -> None:
        """A seat's answer to the game `game` (the one served when it arrived)."""
        if isinstance(answer, ChooseIn):
            self.choose(game, pid, answer)
        else:
            self.pick(game, pid, answer)

    def pick(self, game: ServedGame, pid: str, pick: PickIn) -> None:
        """A secret disc's region."""
        table = game.table
        with table.lock:
            qid = table.question_id()
            self._still_open(game, pick.question, qid)
            self._check_order(table, pid, pick.seq)
            self._put(table, pid, disc_answer(table, game.memory, qid, pid, pick.region), pick.seq)

    def choose(self, game: ServedGame, pid: str, req: ChooseIn) -> None:
        """A 2023 private answer, checked against the question this seat is asked now."""
        table = game.table
        with table.lock:
            qid = question_id(table, table.asked())
            self._still_open(game, req.question, qid)
            self._check_order(table, pid, req.seq)
            self._put(table, pid, private_answer(table, game.memory, qid, pid, req.values), req.seq)

    def _still_open(self, game: ServedGame, question: str, qid: str) -> None:
        if game is not self._current():
            raise Refused(409, _(NEW_GAME))
        if question != qid:
            raise Refused(409, _(MOVED_ON))

    def _check_order(self, table: Table, pid: str, seq: int | None) -> None:
        """Refuses an answer older than the seat's last accepted one, before the table or its log is touched."""
        try:
            self.order.check(table, pid, seq)
        except Stale as stale:
            raise StaleAnswer(stale) from None

    def _put(self, table: Table, pid: str, event, seq: int | None) -> None:
        """A checked answer put in force with its number. The same answer as the one in force
        writes nothing: a page resending it must not grow the log."""
        if answer_in_force(table, event):
            self.order.accept(table, pid, seq)
            self._changed("order")
            return
        try:
            table.submit(event, player=pid, phone_seq=seq)
        except InputError as exc:
            raise Refused(409, refused_words(exc)) from None
        self.order.accept(table, pid, seq)
