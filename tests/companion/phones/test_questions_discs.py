"""The secret disc of every rule system, read from real tables without a server: a seat may pick
the regions the engine lists (remembered after it chose, for a change of mind), a pick that does
not answer the question is refused before the table is touched, the last reveal's picks are read
back from the records."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.phones.questions.discs import allowed_regions, disc_answer, disc_purpose, last_reveal
from companion.phones.questions.memory import GameMemory
from companion.phones.refusals import Refused
from engine.events import CastilloCounted
from engine.playout import random_event
from tests.companion.phones.conftest import PLAYERS, make_table, to_general_scoring


def at_general_scoring(mode: str = "tracking"):
    table = make_table(mode)
    to_general_scoring(table)
    return table, GameMemory()


def test_a_seat_may_pick_the_regions_the_engine_lists_and_keeps_them_once_it_chose():
    table, memory = at_general_scoring()
    ask, qid = table.asked(), table.question_id()
    assert disc_purpose(ask) == "castillo_destination"
    listed = list(ask.options["regions"]["red"])
    assert allowed_regions(memory, qid, ask, "red", "castillo_destination", table.board) == listed
    table.submit(disc_answer(table, memory, qid, "red", listed[-1]))
    assert table.private("red")["secret_disc"] == listed[-1]
    later = table.asked()
    assert "red" not in later.players  # chosen: the engine waits for the others
    assert allowed_regions(memory, table.question_id(), later, "red", "castillo_destination", table.board) == listed


def test_another_question_forgets_the_listed_regions():
    table, memory = at_general_scoring()
    ask, qid = table.asked(), table.question_id()
    allowed_regions(memory, qid, ask, "red", "castillo_destination", table.board)
    assert memory.question == qid and "red" in memory.allowed
    allowed_regions(memory, "another question", dataclasses.replace(ask, kind="turn_action"), "red", None, table.board)
    assert memory.question == "another question" and memory.allowed == {}


def test_unlisted_regions_are_the_whole_board_except_where_the_board_decides():
    table, memory = at_general_scoring()
    nothing_listed = dataclasses.replace(table.asked(), kind="count_castillo", options={})
    assert allowed_regions(memory, "q", nothing_listed, "red", "special_scoring", table.board) == list(
        table.board.region_ids
    )
    for purpose in ("send_back", "civil_war"):  # depends on the board: only the engine's list
        assert allowed_regions(memory, "q", nothing_listed, "red", purpose, table.board) == []


def test_a_pick_that_answers_nothing_asked_or_names_a_region_not_offered_is_refused():
    table, memory = at_general_scoring()
    qid = table.question_id()
    with pytest.raises(Refused) as refused:
        disc_answer(table, memory, qid, "red", "nowhere")
    assert refused.value.status == 422 and "not one of your choices" in refused.value.message
    table.submit(disc_answer(table, memory, qid, "red", table.asked().options["regions"]["red"][0]))
    for pid in PLAYERS[1:]:
        table.submit(disc_answer(table, memory, qid, pid, table.asked().options["regions"][pid][0]))
    assert table.asked().kind == "reveal_secret_discs"
    assert disc_answer(table, memory, qid, "red", table.board.region_ids[0]).region == table.board.region_ids[0]


def test_in_scoring_mode_the_discs_lock_once_the_castillo_is_counted():
    table, memory = at_general_scoring("scoring")
    qid = table.question_id()
    for pid in PLAYERS:
        table.submit(disc_answer(table, memory, qid, pid, table.asked().options["regions"][pid][0]))
    table.submit(CastilloCounted(counts={"red": 2, "green": 1}))
    assert table.asked().kind == "reveal_secret_discs"
    with pytest.raises(Refused) as refused:
        disc_answer(table, memory, qid, "red", table.board.region_ids[0])
    assert refused.value.status == 409 and "locked" in refused.value.message


def test_the_last_reveal_is_read_back_from_the_records():
    table, memory = at_general_scoring()
    assert last_reveal(table) == {}
    qid = table.question_id()
    picks = {pid: table.asked().options["regions"][pid][0] for pid in PLAYERS}
    for pid, region in picks.items():
        table.submit(disc_answer(table, memory, qid, pid, region))
    table.submit(CastilloCounted(counts={}))
    rng = random.Random(2)
    table.submit(random_event(rng, table.asked()))  # the reveal
    assert last_reveal(table) == picks
