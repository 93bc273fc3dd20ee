"""The board under bad input: organiser requests that are wrong say what is wrong (never a
traceback, never a change); a table that publishes garbage, a state naming another table, or an
outsized payload on its own topic (or one whose names are not text or whose scores are not whole
numbers from 0 to 1000) is counted and ignored, and the board goes on."""

from __future__ import annotations

import http.client
import json
import time

import pytest

from companion.club.board import ClubBoard
from companion.club.topics import state_topic
from companion.club.tournament import Journal, Tournament
from tests.companion.club.conftest import CLUB, TOKEN, USERS, Listener
from tests.companion.club.test_publisher import until


@pytest.fixture
def board(club_broker, tmp_path):
    b = ClubBoard(
        club_broker.url,
        CLUB,
        Tournament(Journal(tmp_path / "t.jsonl")),
        TOKEN,
        username="club-board",
        password=USERS["club-board"],
        ca_file=club_broker.ca,
    ).start()
    assert b.connected.wait(10)
    yield b
    b.stop()


def post(board, path, body: bytes, token=TOKEN):
    c = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10)
    c.request("POST", path, body=body, headers={"Authorization": f"Bearer {token}"})
    r = c.getresponse()
    out = r.status, json.loads(r.read())
    c.close()
    return out


@pytest.mark.parametrize(
    "path, body, status, words",
    [
        ("/api/players", b"not json", 400, "one JSON object"),
        ("/api/players", b"[1, 2]", 400, "one JSON object"),
        ("/api/players", b'{"name": ""}', 409, "printable characters"),
        ("/api/rounds", b'{"tables": "t1"}', 409, "give the tables to seat"),
        ("/api/rounds", b'{"tables": ["a/b"]}', 409, "table id 'a/b'"),
        ("/api/rounds", b'{"tables": ["t1"]}', 409, "0 players: a table needs at least 3"),
        ("/api/rounds", b'{"tables": ["t1"], "seed": "x"}', 409, "seed: a whole number"),
        ("/api/corrections", b'{"table": "t1"}', 409, "name the result"),
        ("/api/withdrawals", b'{"name": 7}', 409, "name the player"),
        ("/api/withdrawals", b'{"name": "Ann"}', 409, "'Ann' is not registered"),
        ("/api/withdrawals", b'{"name": "Ann", "back": "yes"}', 409, '"back": true seats a withdrawn player'),
        ("/api/corrections", b'{"table": "t1", "game": "g"}', 409, "no result of game 'g'"),
        ("/api/players", b'{"name": "' + b"x" * 20000 + b'"}', 413, "too large"),
    ],
)
def test_bad_organiser_requests_say_what_is_wrong(board, path, body, status, words):
    got = post(board, path, body)
    assert got[0] == status and words in got[1]["error"], got
    assert board.tournament.players == [] and board.tournament.rounds == []


def test_a_table_sending_garbage_is_counted_and_the_board_goes_on(board, club_broker):
    table = Listener(club_broker, user="table-1", topic="nothing/here")
    try:
        good = {
            "table": "table-1",
            "game": "g",
            "version": 3,
            "ts": time.time(),
            "heartbeat": 10,
            "rules": "classic",
            "mode": "tracking",
            "round": 2,
            "rounds": 9,
            "phase": "turn",
            "players": [],
            "over": False,
            "seated": {"event": board.tournament.event, "round": 0, "round_id": ""},
        }
        for payload in (
            b"\xff\xfe garbage",
            b"{}",
            json.dumps({**good, "table": "table-2"}).encode(),
            json.dumps({**good, "extra": "secret?"}).encode(),
            b"{" + b" " * 70000 + b"}",
            json.dumps({**good, "version": -1}).encode(),
            *(
                json.dumps(
                    {
                        **good,
                        "over": True,
                        "players": [{"id": "red", "name": name, "score": score}],
                        "standings": [{"name": name, "score": score, "rank": 1}],
                    }
                ).encode()
                for name, score in (({"x": [1]}, 80), (None, 80), ("Ann", 10**15), ("Ann", "80"))
            ),
        ):
            table.client.publish(state_topic(CLUB, "table-1"), payload, qos=1).wait_for_publish(5)
        table.client.publish(state_topic(CLUB, "table-1"), json.dumps(good), qos=1).wait_for_publish(5)
        until(lambda: board.snapshot() and board.snapshot()[0].get("version") == 3, "the good state")
        assert board.counters["bad"] == 10  # names that are not text, scores past 1000 or not numbers too
        assert board.tournament.results == {} and board.tournament.refused == {}
        older = {**good, "version": 2}
        table.client.publish(state_topic(CLUB, "table-1"), json.dumps(older), qos=1).wait_for_publish(5)
        until(lambda: board.counters["old"] == 1, "the older version refused")
        assert board.snapshot()[0]["version"] == 3 and board.snapshot()[0]["status"] == "live"
    finally:
        table.close()


def test_an_old_retained_state_is_stale_at_once(club_broker, tmp_path):
    tournament = Tournament()
    table = Listener(club_broker, user="table-2", topic="nothing/here")
    state = {
        "table": "table-2",
        "game": "g",
        "version": 9,
        "ts": time.time() - 120,
        "heartbeat": 10,
        "rules": "classic",
        "mode": "tracking",
        "round": 4,
        "rounds": 9,
        "phase": "turn",
        "players": [],
        "over": False,
        "seated": {"event": tournament.event, "round": 0, "round_id": ""},
    }
    table.client.publish(state_topic(CLUB, "table-2"), json.dumps(state), qos=1, retain=True).wait_for_publish(5)
    table.close()
    b = ClubBoard(
        club_broker.url,
        CLUB,
        tournament,
        TOKEN,
        username="club-board",
        password=USERS["club-board"],
        ca_file=club_broker.ca,
    ).start()
    try:
        until(lambda: b.snapshot(), "the retained state")
        assert b.snapshot()[0]["status"] == "stale" and b.snapshot()[0]["version"] == 9
    finally:
        b.stop()
