"""Which rule systems ask private choices besides the discs, and what each seat is asked, read
from real tables without a server: every seat's part holds its own secrets only; a classic game
asks nothing new; an answer to nothing asked is refused."""

from __future__ import annotations

import pytest

from companion.phones.questions.memory import GameMemory
from companion.phones.questions.private import has_private_choices, private_answer, question_id, read_private
from companion.phones.refusals import Refused
from companion.table.authority import Table
from companion.table.setup import TableSetup
from tests.companion.phones.conftest import make_table
from tests.companion.phones.game2023 import table_2023
from tests.companion.phones.test_phones_2023 import DEALS
from tests.companion.table.test_authority_king_intrigue import ki_setup


def read(table, memory=None):
    players = tuple(table.players)
    private = {pid: table.private(pid) for pid in players}
    return read_private(table, table.asked(), players, private, memory or GameMemory(), table.public().game)


def test_the_2023_edition_and_king_and_intrigue_ask_private_choices_the_classic_game_does_not():
    assert not has_private_choices(make_table())
    assert has_private_choices(table_2023())
    assert has_private_choices(Table(TableSetup(game=ki_setup(4), mode="tracking", tower={"kind": "none"})))


def test_the_deal_asks_every_seat_its_own_cards_and_says_who_has_answered():
    table = table_2023()
    part = read(table)
    assert part["private_kind"] == "deal_modifiers" and part["private_needed"] == list(table.players)
    assert part["private_chosen"] == [] and set(part["asks"]) == set(table.players)
    assert all(hand == [] for hand in part["hands"].values())
    memory = GameMemory()
    table.submit(private_answer(table, memory, question_id(table, table.asked()), "purple", DEALS["purple"]))
    part = read(table, memory)
    assert part["private_chosen"] == ["purple"]
    assert [o.id for o in part["hands"]["purple"]] == sorted(DEALS["purple"], key=lambda f: int(f[4:]))
    assert all(part["hands"][pid] == [] for pid in table.players if pid != "purple")  # own cards only


def test_an_answer_to_no_private_question_is_refused():
    table = make_table("tracking")
    with pytest.raises(Refused) as refused:
        private_answer(table, GameMemory(), table.question_id(), "red", ["card1"])
    assert refused.value.status == 409 and "No private choice" in refused.value.message
