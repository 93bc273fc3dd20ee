"""The secret disc of every rule system, in phone terms: which regions a seat may pick, the picks
of the last reveal, and a pick checked against the question asked."""

from __future__ import annotations

from companion.phones.questions.memory import GameMemory
from companion.phones.refusals import Refused
from companion.phones.views import DISC_KINDS
from companion.table.authority import Table
from companion.words import _
from engine.board.model import Board
from engine.events import SecretDiscSet


def disc_purpose(ask) -> str | None:
    return ask.options.get("purpose") if ask.kind in DISC_KINDS else None


def allowed_regions(memory: GameMemory, qid: str, ask, pid: str, purpose: str | None, board: Board) -> list[str]:
    """The regions this seat may pick for this question. The engine lists them while the
    seat (or anyone) is still to choose; remembered for a change of pick afterwards (per
    game: two games may ask questions with the same id)."""
    if memory.question != qid:
        memory.question, memory.allowed = qid, {}
    listed = (ask.options.get("regions") or {}).get(pid) if ask.kind == "secret_disc" else None
    if listed is not None:
        memory.allowed[pid] = list(listed)
    if pid in memory.allowed:
        return memory.allowed[pid]
    if purpose in ("send_back", "civil_war"):
        return []  # depends on the board: not known without the engine's list
    return list(board.region_ids)


def last_reveal(table: Table) -> dict[str, str]:
    """The picks of the last secret-disc reveal, from the table's records (undo-aware)."""
    records = getattr(table, "effective", None) or []
    i = len(records) - 1
    while i >= 0 and not (records[i].get("t") == "event" and records[i]["e"].get("type") == "secret_discs_revealed"):
        i -= 1
    picks: dict[str, str] = {}
    for record in reversed(records[: max(i, 0)]):
        if record.get("t") != "event":
            continue
        e = record["e"]
        if e.get("type") == "secret_disc_set":
            picks.setdefault(e["player"], e["region"])
        elif e.get("type") != "castillo_counted":
            break
    return picks if i >= 0 else {}


def disc_answer(table: Table, memory: GameMemory, qid: str, pid: str, region: str) -> SecretDiscSet:
    """A seat's pick as the table's input, or Refused: nothing asked of it, discs locked, a region
    not offered to it (under the table's lock, the question `qid` checked as the one asked)."""
    ask = table.asked()
    purpose = disc_purpose(ask)
    waiting = ask.players if ask.kind == "secret_disc" else ()
    chosen = ask.options.get("chosen", []) if ask.kind in DISC_KINDS else []
    if pid not in waiting and pid not in chosen:
        raise Refused(409, _("No secret choice is asked of you right now."))
    if table.mode == "scoring" and ask.kind == "reveal_secret_discs":
        raise Refused(409, _("The discs are locked: the Castillo has been counted."))
    if region not in allowed_regions(memory, qid, ask, pid, purpose, table.board):
        raise Refused(422, _("That region is not one of your choices; pick one from the list."))
    return SecretDiscSet(player=pid, region=region)
