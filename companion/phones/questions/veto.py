"""The 2023 Veto on the phones: every holder is asked at once when a special action is announced,
and decides in private: use it (the whole special action is prevented) or let it pass."""

from __future__ import annotations

from companion.phones.refusals import Refused
from companion.phones.views import OptionOut, PrivateAsk, seat_name
from companion.prompts.card_words import phone_words
from companion.table.authority import Table
from companion.table.log import SIMULTANEOUS
from companion.words import N_, _, names
from engine.events import VetoUsed, VetoWaived

VETO_ANSWERS = {"use": N_("Use my Veto: prevent it"), "pass": N_("Let it pass")}


def veto_question_id(table: Table, ask) -> str:
    """A question id that another holder's "let it pass" does not change: every holder is asked at
    once, and one answer must not make another's stale."""
    answers = SIMULTANEOUS + ("veto_waived",)
    events = sum(1 for r in table.effective if r["t"] == "event" and r["e"]["type"] not in answers)
    return f"veto-{ask.round}-{ask.options.get('against')}-{ask.card}-{events}"


def veto_ask(table: Table, ask) -> PrivateAsk:
    against = seat_name(table.names, ask.options.get("against")) if ask.options.get("against") else ""
    card = table.board.cards.get(ask.card)
    what = names.card(card.name) if card is not None else str(ask.card)
    title, hint = phone_words("veto_2023", "veto", against=against, card=what)
    return PrivateAsk("veto", title, hint, [OptionOut(id=k, label=_(v)) for k, v in VETO_ANSWERS.items()])


def veto_answer(ask, pid: str, values: list[str]) -> VetoUsed | VetoWaived:
    if pid not in ask.players:
        raise Refused(409, _("No Veto decision is asked of you right now."))
    if values not in (["use"], ["pass"]):
        raise Refused(
            422,
            _(
                "Answer with one of the two buttons: use your Veto (it prevents the whole special action) "
                "or let it pass."
            ),
        )
    return VetoUsed(player=pid) if values == ["use"] else VetoWaived(player=pid)
