"""Private choices besides the discs (the 2023 edition, King and Intrigue): which rule systems ask
them, what each seat is asked now, and an answer checked as the table's input."""

from __future__ import annotations

from typing import Any

from companion.phones.questions.cards import PHONE_PRIVATE_KINDS, card_values, cards_ask, faces_of
from companion.phones.questions.disc_words import castillo_stays, disc_words
from companion.phones.questions.memory import GameMemory
from companion.phones.questions.veto import veto_answer, veto_ask, veto_question_id
from companion.phones.refusals import Refused
from companion.phones.views import DISC_KINDS
from companion.table.authority import Table
from companion.words import _
from engine.board.model import CASTILLO


def has_private_choices(table: Table) -> bool:
    """A rule set with private choices besides the discs (the 2023 edition, King and Intrigue)."""
    return getattr(table.setup.game, "rules", "classic") in ("2023", "king-intrigue")


def question_id(table: Table, ask) -> str:
    """The table's question id; for a 2023 Veto, one that another holder's "let it pass" does
    not change (veto.veto_question_id)."""
    qid = table.question_id()
    if ask.kind != "veto" or not has_private_choices(table):
        return qid
    return veto_question_id(table, ask)


def read_private(
    table: Table, ask, players: tuple[str, ...], private: dict[str, dict], memory: GameMemory, game: dict
) -> dict:
    """Each seat's private question, the words of its disc and its Modifier cards (under the
    table's lock), as Snapshot fields. Every seat's part holds that seat's own secrets only."""
    faces = faces_of(table, memory)
    out: dict[str, Any] = {"asks": {}, "disc_words": {}, "hands": {}}
    if faces is not None:
        out["hands"] = {pid: faces.hand(private[pid].get("modifiers_in_hand") or ()) for pid in players}
    if ask.kind in PHONE_PRIVATE_KINDS:
        needed = (
            list(players)
            if ask.kind == "deal_modifiers"
            else [p for p in players if p in ask.players or p in ask.options.get("chosen", ())]
        )
        out.update(
            private_kind=ask.kind, private_needed=needed, private_chosen=[p for p in needed if p not in ask.players]
        )
        for pid in needed:
            pick = table.private_question(pid)
            if pick is not None:
                out["asks"][pid] = cards_ask(pick, faces, private[pid])
    elif ask.kind == "veto":
        holders = [p for p in ask.players if p in players]
        out.update(private_kind="veto", private_needed=holders)
        for pid in holders:
            out["asks"][pid] = veto_ask(table, ask)
    elif ask.options.get("castillo_stays"):
        out["notice"] = castillo_stays()
    elif ask.kind in DISC_KINDS:
        builder = table.prompt_builder()
        seats = set(ask.options.get("regions") or {}) | set(ask.options.get("chosen", ()))
        in_castillo = {p["id"] for p in game.get("players", []) if p.get("grande") == CASTILLO}
        for pid in players:
            if pid in seats:
                out["disc_words"][pid] = disc_words(table, builder, ask, pid, pid in in_castillo)
    return out


def private_answer(table: Table, memory: GameMemory, qid: str, pid: str, values: list[str]):
    """A seat's private answer as the table's input, or Refused (under the table's lock, the
    question `qid` checked as the one asked)."""
    ask = table.asked()
    if has_private_choices(table) and ask.kind == "veto":
        return veto_answer(ask, pid, values)
    pick = table.private_question(pid) if has_private_choices(table) and ask.kind in PHONE_PRIVATE_KINDS else None
    if pick is None:
        raise Refused(409, _("No private choice is asked of you right now."))
    cards = card_values(table, memory, ask, pick, qid, pid, values)
    try:
        return pick.event(cards)
    except ValueError as exc:
        raise Refused(422, str(exc)) from None
