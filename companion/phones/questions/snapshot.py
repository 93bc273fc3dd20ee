"""One coherent read of the table (under its lock) as the phone views are built from: the
question asked, who takes part, each seat's own secrets, what the last reveal showed."""

from __future__ import annotations

from companion.phones.ordering import SeatOrder
from companion.phones.questions.discs import allowed_regions, disc_purpose, last_reveal
from companion.phones.questions.memory import GameMemory
from companion.phones.questions.private import has_private_choices, question_id, read_private
from companion.phones.views import DISC_KINDS, Snapshot
from companion.plays.bgstats import finished_play_link
from companion.table.authority import Table
from companion.words.catalogue import speaking


def read_tables(
    table: Table, players: tuple[str, ...], memory: GameMemory, order: SeatOrder, languages: list[str]
) -> dict[str, Snapshot]:
    """The table read once per language its phones read (the words a snapshot holds, a card's
    question or a disc's purpose, are made in that language), all under one hold of its lock."""
    with table.lock:
        out = {}
        for code in languages:
            with speaking(code):
                out[code] = read_table(table, players, memory, order)
        return out


def read_table(table: Table, players: tuple[str, ...], memory: GameMemory, order: SeatOrder) -> Snapshot:
    """The table read in one go; `order` gives each seat's last accepted answer number."""
    with table.lock:
        ask = table.asked()
        qid = question_id(table, ask)
        game = table.public().game
        private = {pid: table.private(pid) for pid in players}
        revealed = last_reveal(table) if ask.kind not in DISC_KINDS else {}
        names = dict(table.names)
        edition = read_private(table, ask, players, private, memory, game) if has_private_choices(table) else {}
        again = [p for p in players if table.chooses_again(p)]
        answered = {p: order.last(table, p) for p in players}
    purpose = disc_purpose(ask)
    chosen = list(ask.options.get("chosen", [])) if ask.kind in DISC_KINDS else []
    waiting = list(ask.players) if ask.kind == "secret_disc" else []
    needed = [p for p in players if p in chosen or p in waiting]
    allowed = {p: allowed_regions(memory, qid, ask, p, purpose, table.board) for p in needed}
    rounds = game.get("rounds") or [game.get("round", 0)]
    return Snapshot(
        mode=table.mode,
        players=list(players),
        qid=qid,
        kind=ask.kind,
        purpose=purpose,
        needed=needed,
        chosen=[p for p in players if p in chosen],
        allowed=allowed,
        round=int(game.get("round", 0)),
        rounds=int(rounds[-1]) if rounds else 0,
        king=game.get("king"),
        names=names,
        scores={p["id"]: int(p.get("score", 0)) for p in game.get("players", [])},
        private=private,
        revealed=revealed,
        over=ask.kind == "game_over",
        winners=list(ask.options.get("winners", [])) if ask.kind == "game_over" else [],
        again=again,
        answered=answered,
        play_link=finished_play_link(table) if ask.kind == "game_over" else None,
        **edition,
    )
