"""The club's topic layout and the one message a table publishes.

    elgrande/club/<club>/tables/<table>/state    retained: the table's public state (StateMessage)
    elgrande/club/<club>/tables/<table>/online   retained: "1" while connected, "0" (the Last Will) after
    elgrande/club/<club>/seating                 retained, by the board: the event and its round's seating

A large event's hall broker bridges its tables' topics to the club broker under its hall's name
(bridge.conf: `topic club/<club>/tables/# out 1 elgrande/ elgrande/halls/<hall>/`):

    elgrande/halls/<hall>/club/<club>/tables/<table>/state (and /online)

so on the club broker a topic says who may have written it: the table itself (its own user: the
first form) or its hall's bridge (the hall's user: the second). The club ACL lets a hall's user
write only its own tables' topics under its own hall (companion/club/halls.py writes it), and the
board takes a hall's message only for a table the hall plan puts in that hall.

A table's game takes the seating (event, round, round id) it finds when it starts (`Seated`) and
carries it in every state: the board counts a result only for this event, that round, and exactly
the players seated at that table then. The round id is a random token published when the round is
seated, so a game that carries it learnt the seating after it was made.

The state is built from the table's public view only, field by field (a whitelist):
no secret disc, no hidden Castillo tally, no cards in hand, no Modifier cards.
"""

from __future__ import annotations

import re
import time
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from companion.words import N_, _

PREFIX = "elgrande/club/"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
NAME_RULE = N_("1 to 64 letters, digits and - _ . : (starting with a letter or digit)")
MAX_PAYLOAD = 64 * 1024  # a 5-player 9-round state is about 3 KB
MAX_SCORE = 1000  # El Grande's scores stay well below 300; corrections take 0 to 1000 too
MAX_SEATING = 256 * 1024  # a 2000-player round's seating is about 60 KB
HEARTBEAT = 10.0  # a table republishes its state at least this often (seconds)


# What a name names, as a refusal says it (check_name's `what`).
NAME_KINDS = {
    "club name": N_("club name"),
    "hall name": N_("hall name"),
    "table id": N_("table id"),
    "hall's table": N_("hall {hall}'s table"),
}


def check_name(value: str | None, what: str, **values) -> str:
    """`value` if it is a topic-safe name, else ValueError in the language in use; `what` is a
    NAME_KINDS key (its values named)."""
    if not value or not NAME.match(value):
        kind = _(NAME_KINDS[what]).format(**values)
        raise ValueError(_("{what} {value}: give {rule}").format(what=kind, value=repr(value), rule=_(NAME_RULE)))
    return value


def state_topic(club: str, table: str) -> str:
    return f"{PREFIX}{club}/tables/{table}/state"


def online_topic(club: str, table: str) -> str:
    return f"{PREFIX}{club}/tables/{table}/online"


def seating_topic(club: str) -> str:
    return f"{PREFIX}{club}/seating"


def table_filter(club: str) -> str:
    return f"{PREFIX}{club}/tables/+/+"


HALLS = "elgrande/halls/"


def hall_prefix(hall: str) -> str:
    """What a hall's bridge puts before a table's topic (bridge.conf's remote prefix)."""
    return f"{HALLS}{hall}/"


def hall_topic(hall: str, topic: str) -> str:
    """A table's topic as the hall's bridge carries it to the club broker."""
    return hall_prefix(hall) + topic.removeprefix("elgrande/")


def hall_table_filter(club: str) -> str:
    return f"{HALLS}+/club/{club}/tables/+/+"


def split_topic(club: str, topic: str) -> tuple[str, str] | None:
    """(table, leaf) of a club topic, or None for anything else."""
    head = f"{PREFIX}{club}/tables/"
    if not topic.startswith(head):
        return None
    parts = topic[len(head) :].split("/")
    if len(parts) != 2 or not NAME.match(parts[0]) or parts[1] not in ("state", "online"):
        return None
    return parts[0], parts[1]


def split_any_topic(club: str, topic: str) -> tuple[str | None, str, str] | None:
    """(hall, table, leaf) of a table's topic, direct (hall None) or through a hall's bridge."""
    if topic.startswith(HALLS):
        hall, _, rest = topic[len(HALLS) :].partition("/")
        where = split_topic(club, "elgrande/" + rest) if NAME.match(hall) else None
        return (hall, *where) if where else None
    where = split_topic(club, topic)
    return (None, *where) if where else None


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


Name = Annotated[str, Field(strict=True, min_length=1, max_length=64)]
Score = Annotated[int, Field(strict=True, ge=0, le=MAX_SCORE)]
RoundNo = Annotated[int, Field(strict=True, ge=0, le=99)]


class PlayerState(_Msg):
    id: str = Field(strict=True, max_length=16)
    name: Name
    score: Score
    history: list[tuple[RoundNo, Score]] = Field(default_factory=list, max_length=40)  # (round, score) per scoring


class Standing(_Msg):
    id: str = Field(default="", strict=True, max_length=16)
    name: Name
    score: Score
    rank: int = Field(strict=True, ge=1, le=6)


class Seated(_Msg):
    """The seating a table's game was started under (from the board's seating message). `late`:
    the table learnt it only after the game had begun (a resumed game, a link down at the start)."""

    event: str = Field(strict=True, max_length=64)
    round: RoundNo
    round_id: str = Field(strict=True, max_length=64)
    late: bool = False


class SeatingMessage(_Msg):
    """The board's retained message: this event, its latest round (0: none seated yet) and who sits
    where. `at` is the board's clock when the round was seated."""

    event: str = Field(strict=True, min_length=1, max_length=64)
    round: RoundNo
    round_id: str = Field(strict=True, max_length=64)
    at: float
    tables: dict[str, list[Name]] = Field(default_factory=dict)


class StateMessage(_Msg):
    """What a table publishes. `version` grows with every change of this table process's game;
    `game` names the game (its log's nonce), so a result is taken once per (table, game)."""

    table: str = Field(max_length=64)
    game: str = Field(max_length=64)
    version: int = Field(ge=0)
    ts: float  # the table's clock when the state was (re)published
    heartbeat: float = Field(gt=0, le=3600)
    rules: str = Field(max_length=32)
    modules: list[str] = Field(default_factory=list, max_length=16)
    mode: str = Field(max_length=16)
    round: RoundNo
    rounds: RoundNo
    phase: str = Field(max_length=64)
    turn: list[str] = Field(default_factory=list, max_length=6)  # whose move it is (names)
    players: list[PlayerState] = Field(max_length=6)
    over: bool
    standings: list[Standing] = Field(default_factory=list, max_length=6)  # over only
    seated: Seated | None = None  # the event and round the game was started under (None: no seating known)


def standings_of(players: list[PlayerState]) -> list[Standing]:
    """Final standings: by score; equal scores share a rank (1, 1, 3, ...)."""
    ordered = sorted(players, key=lambda p: -p.score)
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        rank = i + 1 if i == 0 or p.score != ordered[i - 1].score else out[-1].rank
        out.append(Standing(id=p.id, name=p.name, score=p.score, rank=rank))
    return out


def public_state(
    table,
    table_id: str,
    version: int,
    heartbeat: float = HEARTBEAT,
    now: float | None = None,
    seated: Seated | None = None,
) -> StateMessage:
    """The club message of a companion.table.authority.Table, from its public view only."""
    pub = table.public()
    game = pub.game
    history = table.score_history()
    names = {p["id"]: p["name"] for p in game["players"]}
    asked = game.get("asked") or {}
    over = asked.get("kind") == "game_over"
    players = [
        PlayerState(
            id=p["id"],
            name=str(p["name"])[:64] or p["id"],
            score=min(int(p["score"]), MAX_SCORE),
            history=[(int(r), min(int(s), MAX_SCORE)) for r, s in history.get(p["id"], [])][:40],
        )
        for p in game["players"]
        if p["id"] != game.get("dummy")
    ]
    phase = "game over" if over else f"{game.get('stage', '')}: {asked.get('kind', '')}".strip(": ").replace("_", " ")
    return StateMessage(
        table=table_id,
        game=table.nonce,
        version=version,
        ts=time.time() if now is None else now,
        heartbeat=heartbeat,
        rules=game.get("rules", "classic"),
        modules=list(game.get("modules", [])),
        mode=pub.mode,
        round=int(game.get("round", 0)),
        rounds=max(game.get("rounds") or [9]),
        phase=phase[:64],
        turn=[names.get(p, p) for p in asked.get("players", [])][:6],
        players=players,
        over=over,
        standings=standings_of(players) if over else [],
        seated=seated,
    )
