"""Private card choices on the phones, read from real 2023 tables without a server: the Modifier
cards dealt are asked by face (twins at most twice), an answer is mapped back to free copies, a
deal the set cannot match is refused and counted, a card taken back offers Power cards by value."""

from __future__ import annotations

import pytest

from companion.phones.questions.cards import DEAL_REFUSALS, card_values, cards_ask, faces_of
from companion.phones.questions.memory import GameMemory
from companion.phones.refusals import Refused
from tests.companion.phones.game2023 import find_table, table_2023
from tests.companion.phones.test_phones_2023 import DEALS


def test_the_deal_is_asked_by_face_and_read_once_per_game():
    table, memory = table_2023(), GameMemory()
    faces = faces_of(table, memory)
    assert faces is not None and faces_of(table, memory) is faces
    ask = cards_ask(table.private_question("purple"), faces, table.private("purple"))
    assert (ask.kind, ask.title, ask.count) == ("cards", "Your Modifier cards", 3)
    assert [o.id for o in ask.options] == list(faces.ids)
    assert {o.most for o in ask.options} == {1, 2}  # twins may be tapped twice
    assert all(not o.id.startswith("stand_in") for o in ask.options)


def test_a_game_without_modifier_cards_has_no_faces():
    assert faces_of(table_2023(modules=()), GameMemory()) is None


def test_dealt_faces_become_free_copies_and_a_mistake_is_refused_then_left_to_the_tablet():
    table, memory = table_2023(), GameMemory()
    ask, qid = table.asked(), table.question_id()
    pick = table.private_question("purple")
    ids = card_values(table, memory, ask, pick, qid, "purple", DEALS["purple"])
    table.submit(pick.event(ids))
    assert len(set(ids)) == 3
    ask, pick = table.asked(), table.private_question("blue")
    with pytest.raises(Refused) as refused:
        card_values(table, memory, ask, pick, qid, "blue", ["card1", "card2"])
    assert refused.value.status == 422 and "Pick 3 cards, not 2" in refused.value.message
    for _ in range(DEAL_REFUSALS):  # Ana holds both plain +1: a third is a mistake at the table
        with pytest.raises(Refused) as refused:
            card_values(table, memory, ask, pick, qid, "blue", ["card8", "card5", "card14"])
        assert refused.value.status == 409 and "more of these cards" in refused.value.message
    with pytest.raises(Refused) as refused:
        card_values(table, memory, ask, pick, qid, "blue", DEALS["blue"])
    assert "refused 3 times" in refused.value.message
    assert memory.deal_refused == {(qid, "blue"): DEAL_REFUSALS}
    green = card_values(table, memory, ask, table.private_question("green"), qid, "green", DEALS["green"])
    assert len(green) == 3  # other seats keep their tries


def test_a_card_taken_back_offers_power_cards_by_value_and_modifier_cards_by_face():
    table = find_table(lambda t, a: a.kind == "take_back_power_card" and a.options.get("modifiers"))
    memory, ask = GameMemory(), table.asked()
    pid = ask.players[0]
    pick = table.private_question(pid)
    asked = cards_ask(pick, faces_of(table, memory), table.private(pid))
    ids = [o.id for o in asked.options]
    assert ids[: len(ask.options["cards"])] == [f"power:{c}" for c in ask.options["cards"]]
    assert card_values(table, memory, ask, pick, table.question_id(), pid, [ids[0]]) == [ids[0][len("power:") :]]
    with pytest.raises(Refused) as refused:
        card_values(table, memory, ask, pick, table.question_id(), pid, ["card99"])
    assert refused.value.status == 422 and "not one of your choices" in refused.value.message
