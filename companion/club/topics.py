"""The club's topic layout and the one message a table publishes.

    elgrande/club/<club>/tables/<table>/state    retained: the table's public state (StateMessage)
    elgrande/club/<club>/tables/<table>/online   retained: "1" while connected, "0" (the Last Will) after

The state is built from the table's public view only, field by field (a whitelist):
no secret disc, no hidden Castillo tally, no cards in hand, no Modifier cards.
"""
from __future__ import annotations

import re
import time
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field

PREFIX = "elgrande/club/"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
NAME_RULE = "1 to 64 letters, digits and - _ . : (starting with a letter or digit)"
MAX_PAYLOAD = 64 * 1024   # a 5-player 9-round state is about 3 KB
HEARTBEAT = 10.0          # a table republishes its state at least this often (seconds)


def check_name(value: Optional[str], what: str) -> str:
    if not value or not NAME.match(value):
        raise ValueError(f"{what} {value!r}: give {NAME_RULE}")
    return value


def state_topic(club: str, table: str) -> str:
    return f"{PREFIX}{club}/tables/{table}/state"


def online_topic(club: str, table: str) -> str:
    return f"{PREFIX}{club}/tables/{table}/online"


def table_filter(club: str) -> str:
    return f"{PREFIX}{club}/tables/+/+"


def split_topic(club: str, topic: str) -> Optional[tuple[str, str]]:
    """(table, leaf) of a club topic, or None for anything else."""
    head = f"{PREFIX}{club}/tables/"
    if not topic.startswith(head):
        return None
    parts = topic[len(head):].split("/")
    if len(parts) != 2 or not NAME.match(parts[0]) or parts[1] not in ("state", "online"):
        return None
    return parts[0], parts[1]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerState(_Msg):
    id: str = Field(max_length=16)
    name: str = Field(max_length=64)
    score: int
    history: list[tuple[int, int]] = Field(default_factory=list, max_length=40)  # (round, score) per scoring


class StateMessage(_Msg):
    """What a table publishes. `version` grows with every change of this table process's game;
    `game` names the game (its log's nonce), so a result is taken once per (table, game)."""

    table: str = Field(max_length=64)
    game: str = Field(max_length=64)
    version: int = Field(ge=0)
    ts: float                       # the table's clock when the state was (re)published
    heartbeat: float = Field(gt=0, le=3600)
    rules: str = Field(max_length=32)
    modules: list[str] = Field(default_factory=list, max_length=16)
    mode: str = Field(max_length=16)
    round: int
    rounds: int
    phase: str = Field(max_length=64)
    turn: list[str] = Field(default_factory=list, max_length=6)   # whose move it is (names)
    players: list[PlayerState] = Field(max_length=6)
    over: bool
    standings: list[dict[str, Any]] = Field(default_factory=list, max_length=6)  # name, score, rank (over only)


def standings_of(players: list[PlayerState]) -> list[dict[str, Any]]:
    """Final standings: by score; equal scores share a rank (1, 1, 3, ...)."""
    ordered = sorted(players, key=lambda p: -p.score)
    out = []
    for i, p in enumerate(ordered):
        rank = i + 1 if i == 0 or p.score != ordered[i - 1].score else out[-1]["rank"]
        out.append({"id": p.id, "name": p.name, "score": p.score, "rank": rank})
    return out


def public_state(table, table_id: str, version: int, heartbeat: float = HEARTBEAT,
                 now: Optional[float] = None) -> StateMessage:
    """The club message of a companion.table.Table, from its public view only."""
    pub = table.public()
    game = pub.game
    history = table.score_history()
    names = {p["id"]: p["name"] for p in game["players"]}
    asked = game.get("asked") or {}
    over = asked.get("kind") == "game_over"
    players = [PlayerState(id=p["id"], name=str(p["name"])[:64], score=int(p["score"]),
                           history=[(int(r), int(s)) for r, s in history.get(p["id"], [])][:40])
               for p in game["players"] if p["id"] != game.get("dummy")]
    phase = "game over" if over else \
        f"{game.get('stage', '')}: {asked.get('kind', '')}".strip(": ").replace("_", " ")
    return StateMessage(
        table=table_id, game=table.nonce, version=version, ts=time.time() if now is None else now,
        heartbeat=heartbeat, rules=game.get("rules", "classic"), modules=list(game.get("modules", [])),
        mode=pub.mode, round=int(game.get("round", 0)), rounds=max(game.get("rounds") or [9]), phase=phase[:64],
        turn=[names.get(p, p) for p in asked.get("players", [])][:6], players=players, over=over,
        standings=standings_of(players) if over else [])
