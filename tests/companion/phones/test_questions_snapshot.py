"""One read of a real table as the phone views are built from, without a server: who takes part
in the open choice, the regions each may pick, each seat's own secrets only, the seats' answer
numbers; a classic game's read carries nothing of the 2023 edition."""

from __future__ import annotations

from companion.phones.ordering import SeatOrder
from companion.phones.questions.memory import GameMemory
from companion.phones.questions.snapshot import read_table
from companion.phones.views import phone_view
from tests.companion.phones.conftest import PLAYERS, make_table, to_general_scoring
from tests.companion.phones.game2023 import table_2023


def test_a_general_scoring_asks_every_seat_and_lists_its_regions():
    table = make_table("tracking")
    to_general_scoring(table)
    snap = read_table(table, tuple(PLAYERS), GameMemory(), SeatOrder())
    assert (snap.kind, snap.purpose, snap.needed, snap.chosen) == ("secret_disc", "castillo_destination", PLAYERS, [])
    assert snap.allowed == {pid: list(table.asked().options["regions"][pid]) for pid in PLAYERS}
    assert snap.qid == table.question_id() and snap.answered == dict.fromkeys(PLAYERS, 0)
    assert (snap.asks, snap.disc_words, snap.hands, snap.private_kind) == ({}, {}, {}, None)
    assert snap.private == {pid: table.private(pid) for pid in PLAYERS}
    view = phone_view(table.board, snap, "red")
    assert view.question.state == "choose" and len(view.question.regions) == len(snap.allowed["red"])


def test_a_2023_deal_is_read_as_every_seat_s_private_question():
    table = table_2023()
    players = tuple(table.players)
    snap = read_table(table, players, GameMemory(), SeatOrder())
    assert snap.private_kind == "deal_modifiers" and set(snap.asks) == set(players)
    assert snap.needed == [] and snap.allowed == {}
