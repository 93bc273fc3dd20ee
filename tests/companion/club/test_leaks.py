"""The club topics never carry a secret. Whole games (classic, scoring only, 2023 with Power
Shift, King and Intrigue) are published through the real broker one change at a time; every
state that arrives is checked against what is secret at that moment: the secret discs, the
hidden Castillo tallies, the Power cards and Modifier cards in hand (and kept, discarded or passed)."""

from __future__ import annotations

import json

import pytest

from companion import scripted
from companion.club.publisher import ClubPublisher
from companion.club.topics import StateMessage, state_topic
from companion.table.authority import Table
from companion.table.setup import TableSetup
from tests.companion.club.conftest import CLUB, Listener, club_config
from tests.companion.table.test_authority_2023 import game_setup
from tests.companion.table.test_authority_king_intrigue import ki_setup

KEYS = set(StateMessage.model_fields) | {"id", "name", "score", "history", "rank"}


def tables():
    yield "classic", Table(scripted.scripted_setup(players=4))
    yield "scoring", Table(scripted.scripted_setup(mode="scoring", players=3))
    yield "2023-power-shift", Table(TableSetup(game=game_setup(4, ("power-shift",)), tower={"kind": "none"}))
    yield "king-intrigue", Table(TableSetup(game=ki_setup(4), tower={"kind": "none"}))


def secrets(table: Table) -> tuple[set[str], set[int]]:
    """Strings and the private numbers that must never be published (numbers: checked by key only)."""
    words: set[str] = set(table.board.region_ids)  # a secret disc names a region; the club state names none
    for p in table.players:
        mine = table.private(p)
        for key in ("modifiers_in_hand", "modifiers_discarded"):
            words.update(mine.get(key) or [])
        if mine.get("modifier_passing"):
            words.add(mine["modifier_passing"])
    return words, set(table.hidden_tallies().values())


def strings_and_keys(obj, strings: list, keys: set):
    if isinstance(obj, dict):
        for k, v in obj.items():
            keys.add(k)
            strings_and_keys(v, strings, keys)
    elif isinstance(obj, list):
        for v in obj:
            strings_and_keys(v, strings, keys)
    elif isinstance(obj, str):
        strings.append(obj)


@pytest.mark.parametrize("name, table", list(tables()), ids=lambda v: v if isinstance(v, str) else "")
def test_no_secret_in_any_published_state_over_a_whole_game(club_broker, name, table):
    table.nonce = f"leak-{name}"
    listener = Listener(club_broker)
    pub = ClubPublisher(table, club_config(club_broker, "table-1"), heartbeat=60).start()
    topic = state_topic(CLUB, "table-1")
    checked = 0
    try:
        for _ in range(3000):
            words, _ = secrets(table)
            version = len(table.records)
            listener.wait(
                lambda m, version=version: any(
                    t == topic and json.loads(p).get("version") == version and json.loads(p).get("game") == table.nonce
                    for t, p, _ in m[-5:]
                ),
                what=f"{name} version {version}",
            )
            payload = next(p for t, p, _ in reversed(listener.messages) if t == topic)
            data = json.loads(payload)
            strings, keys = [], set()
            strings_and_keys(data, strings, keys)
            assert keys <= KEYS, f"{name}: unexpected keys {keys - KEYS}"
            assert not words & set(strings), f"{name}: a secret in {payload[:300]!r}"
            assert not any(w in s for s in strings for w in words if len(w) > 3), f"{name}: {payload[:300]!r}"
            checked += 1
            if not scripted.step(table, 11):
                break
        assert data["over"] and data["standings"], f"{name}: the game did not end in the step budget"
        assert checked > 20  # a scoring-only game is short: one input per scoring
    finally:
        pub.stop()
        listener.close()
