"""The 2023 Veto on the phones, read from a real table without a server: every holder is asked
the same question, whose id another holder's "let it pass" does not change; an answer is one of
the two buttons, from a holder."""

from __future__ import annotations

import pytest

from companion.phones.questions.private import question_id
from companion.phones.questions.veto import VETO_ANSWERS, veto_answer, veto_ask
from companion.phones.refusals import Refused
from engine.events import VetoUsed, VetoWaived
from tests.companion.phones.test_phones_2023 import two_veto_holders


def test_every_holder_is_asked_to_use_it_or_let_it_pass():
    table = two_veto_holders()
    ask = table.asked()
    asked = veto_ask(table, ask)
    against = table.names[ask.options["against"]]
    assert asked.kind == "veto" and asked.title.startswith(f"Veto: stop {against}'s ")
    assert [(o.id, o.label) for o in asked.options] == list(VETO_ANSWERS.items())


def test_one_holder_letting_it_pass_leaves_the_others_question_as_it_was():
    table = two_veto_holders()
    ask = table.asked()
    before = question_id(table, ask)
    first, second = ask.players
    table.submit(veto_answer(ask, first, ["pass"]))
    assert table.asked().kind == "veto" and table.asked().players == (second,)
    assert question_id(table, table.asked()) == before


def test_an_answer_is_a_button_from_a_holder():
    table = two_veto_holders()
    ask = table.asked()
    holder = ask.players[0]
    assert veto_answer(ask, holder, ["use"]) == VetoUsed(player=holder)
    assert veto_answer(ask, holder, ["pass"]) == VetoWaived(player=holder)
    with pytest.raises(Refused) as refused:
        veto_answer(ask, holder, ["use", "pass"])
    assert refused.value.status == 422
    outsider = next(p for p in table.players if p not in ask.players)
    with pytest.raises(Refused) as refused:
        veto_answer(ask, outsider, ["use"])
    assert refused.value.status == 409 and "No Veto decision" in refused.value.message
