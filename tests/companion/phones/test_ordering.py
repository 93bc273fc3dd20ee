"""A seat's phone answers are taken in the order the player made them (companion/phones/ordering.py).

Real parts: the phone server on a loopback port, aiohttp websockets and http.client, a real table
writing its log to disk. Each test counts what a stale frame must not cause: a change of the
table (its observers' "game" calls), a line in the log, a view sent to the phone.
"""

from __future__ import annotations

import json

import aiohttp

from companion.phones.ordering import MAX_SEQ, STALE, last_sequences
from companion.table.authority import Table
from companion.table.setup import TableSetup
from tests.companion.phones.conftest import http, join, make_table, to_general_scoring, wait_for
from tests.companion.phones.game2023 import setup_2023
from tests.companion.phones.test_phones_2023 import _deal_all, me, seated
from tests.companion.phones.wsclient import frame, phone, quiet, run, until

NEWER = "already has a newer choice"


def log_lines(table: Table) -> int:
    return len(table.path.read_bytes().splitlines())


def changes(table: Table) -> list:
    """The table's changes from now on, as its observers are told them."""
    seen: list = []
    table.subscribe(seen.append)
    return seen


def pick_frame(cred: str, qid: str, region: str, seq: int | None, ref: int) -> dict:
    frame = {"type": "pick", "credential": cred, "question": qid, "region": region, "ref": ref}
    return frame if seq is None else {**frame, "seq": seq}


async def answer(ws, message: dict) -> dict:
    await ws.send_json(message)
    return await until(ws, lambda m: m["type"] in ("result", "error") and m.get("ref") == message["ref"])


def http_pick(server, cred: str, qid: str, region: str, seq: int | None = None) -> tuple[int, dict]:
    body = {"credential": cred, "question": qid, "region": region, **({"seq": seq} if seq is not None else {})}
    status, _, raw = http(server, "POST", "/api/pick", body)
    return status, json.loads(raw)


def disc(table: Table, pid: str):
    return table.private(pid)["secret_disc"]


def general_scoring(start_server, pids=("red",)):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    return table, server, {pid: join(server, pid) for pid in pids}


def test_a_frame_replayed_on_a_new_socket_after_a_reconnect_changes_nothing(start_server):
    table, server, creds = general_scoring(start_server)
    cred = creds["red"]

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await phone(session, server, cred)
            qid = (await frame(ws))["question"]["id"]
            first = pick_frame(cred, qid, "aragon", 1, 1)
            assert (await answer(ws, first))["ok"]
            assert (await answer(ws, pick_frame(cred, qid, "sevilla", 2, 2)))["ok"]
            await until(ws, lambda m: m["type"] == "view" and m["question"]["pick"]["id"] == "sevilla")
            await ws.close()
            wait_for(lambda: not server.seats_status()["red"]["connected"], what="red's socket closed")
            lines, seen = log_lines(table), changes(table)
            # The Wi-Fi comes back: a new socket, and the first pick's frame arrives again on it.
            ws = await phone(session, server, cred)
            view = await frame(ws)
            assert view["question"]["pick"]["id"] == "sevilla" and view["last_seq"] == 2
            refused = await answer(ws, {**first, "ref": 3})
            assert refused["type"] == "error" and refused["status"] == 409 and refused["stale"] is True
            assert refused["last_seq"] == 2 and refused["message"] == STALE and NEWER in refused["message"]
            assert [m for m in await quiet(ws) if json.loads(m.data)["type"] == "view"] == []
            # The same frame once more, over HTTP this time (the page's fallback).
            assert http_pick(server, cred, qid, "aragon", 1) == (409, {"error": STALE})
            assert disc(table, "red") == "sevilla" and log_lines(table) == lines and seen == []

    run(main())


def test_of_two_frames_out_of_order_the_newer_wins(start_server):
    table, server, creds = general_scoring(start_server)
    cred = creds["red"]

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await phone(session, server, cred)
            qid = (await frame(ws))["question"]["id"]
            lines = log_lines(table)
            # The player tapped Valencia (3), then Granada (4); Granada's frame overtook Valencia's.
            await ws.send_json(pick_frame(cred, qid, "granada", 4, 4))
            await ws.send_json(pick_frame(cred, qid, "valencia", 3, 3))
            answers = {}
            while len(answers) < 2:
                m = await until(ws, lambda m: m["type"] in ("result", "error"))
                answers[m["ref"]] = m
            assert answers[4]["type"] == "result" and answers[4]["ok"]
            assert answers[3]["type"] == "error" and answers[3]["stale"] and answers[3]["last_seq"] == 4
            assert disc(table, "red") == "granada" and log_lines(table) == lines + 1
            record = table.records[-1]
            assert record["e"] == {"type": "secret_disc_set", "player": "red", "region": "granada"}
            assert record["phone_seq"] == 4

    run(main())


def test_the_same_frame_fifty_times_writes_one_line(start_server):
    table, server, creds = general_scoring(start_server, ("red", "yellow"))
    qid = table.question_id()

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await phone(session, server, creds["red"])
            await frame(ws)
            lines, seen = log_lines(table), changes(table)
            for i in range(50):
                await ws.send_json(pick_frame(creds["red"], qid, "pais_vasco", 1, 100 + i))
            answers = [
                await until(ws, lambda m, i=i: m["type"] in ("result", "error") and m["ref"] == 100 + i)
                for i in range(50)
            ]
            assert [a["type"] for a in answers] == ["result"] + ["error"] * 49
            assert all(a["stale"] for a in answers[1:])
            assert disc(table, "red") == "pais_vasco" and log_lines(table) == lines + 1 and seen == ["game"]
            # The same choice with a newer number (a page resending what is in force): nothing to write.
            assert (await answer(ws, pick_frame(creds["red"], qid, "pais_vasco", 2, 200)))["ok"]
            assert log_lines(table) == lines + 1 and seen == ["game"]
            view = await until(ws, lambda m: m["type"] == "view" and m["last_seq"] == 2)
            assert view["question"]["pick"]["id"] == "pais_vasco"
            assert (await answer(ws, pick_frame(creds["red"], qid, "aragon", 2, 201)))["stale"]

    run(main())
    # A page from before the numbering (no seq): the same pick 50 times is one line too.
    lines = log_lines(table)
    for _ in range(50):
        assert http_pick(server, creds["yellow"], qid, "granada") == (200, {"ok": True})
    assert disc(table, "yellow") == "granada" and log_lines(table) == lines + 1


def test_an_unnumbered_page_works_until_its_seat_has_a_numbered_choice(start_server):
    table, server, creds = general_scoring(start_server, ("blue",))
    qid, cred = table.question_id(), creds["blue"]
    assert http_pick(server, cred, qid, "aragon") == (200, {"ok": True})
    assert http_pick(server, cred, qid, "granada") == (200, {"ok": True})  # changed: as it came
    assert disc(table, "blue") == "granada"
    assert http_pick(server, cred, qid, "valencia", 1) == (200, {"ok": True})
    # From now on an unnumbered frame can only be an old one (or an old page's): refused, and said so.
    status, body = http_pick(server, cred, qid, "aragon")
    assert status == 409 and NEWER in body["error"] and "reload" in body["error"]
    assert disc(table, "blue") == "valencia"
    # Numbers out of range are malformed, named as such.
    for seq in (0, -1, MAX_SEQ + 1, "7", 1.5, True):
        status, body = http_pick(server, cred, qid, "aragon", seq)
        assert status == 400 and "seq" in body["error"], (seq, body)
    assert disc(table, "blue") == "valencia"


def test_a_restarted_tablet_still_refuses_older_frames(start_server):
    table, server, creds = general_scoring(start_server)
    qid = table.question_id()
    assert http_pick(server, creds["red"], qid, "aragon", 6) == (200, {"ok": True})
    assert http_pick(server, creds["red"], qid, "sevilla", 7) == (200, {"ok": True})
    server.stop()
    path = table.path
    table.close()
    # The tablet restarts: the game resumes from its log; the phone joins again (a new credential).
    resumed = Table.resume(path)
    server = start_server(resumed)
    cred = join(server, "red")
    view = me(server, cred)
    assert view["question"]["pick"]["id"] == "sevilla" and view["last_seq"] == 7
    lines = log_lines(resumed)
    for seq in (6, 7):  # the frames from before the restart, sent again
        status, body = http_pick(server, cred, qid, "aragon", seq)
        assert status == 409 and body["error"] == STALE
    assert disc(resumed, "red") == "sevilla" and log_lines(resumed) == lines
    assert http_pick(server, cred, qid, "granada", 8) == (200, {"ok": True})
    assert disc(resumed, "red") == "granada" and resumed.records[-1]["phone_seq"] == 8


def test_a_choice_the_tablet_undid_does_not_come_back(start_server):
    table, server, creds = general_scoring(start_server)
    qid, cred = table.question_id(), creds["red"]
    assert http_pick(server, cred, qid, "aragon", 1) == (200, {"ok": True})
    table.undo(confirm=True)
    assert disc(table, "red") is None
    status, body = http_pick(server, cred, qid, "aragon", 1)  # the undone frame, delivered again
    assert status == 409 and body["error"] == STALE and disc(table, "red") is None
    assert http_pick(server, cred, qid, "aragon", 2) == (200, {"ok": True})
    assert disc(table, "red") == "aragon"


def test_2023_private_answers_are_ordered_too(start_server):
    table = Table.new(TableSetup(game=setup_2023(4), mode="tracking", tower={"kind": "none"}))  # with its log
    _deal_all(table)
    server, creds = seated(start_server, table)
    cred = creds["purple"]
    qid = me(server, cred)["question"]["id"]

    def choose(values, seq):
        status, _, raw = http(
            server, "POST", "/api/choose", {"credential": cred, "question": qid, "values": values, "seq": seq}
        )
        return status, json.loads(raw)

    def passing():
        return [o["id"] for o in me(server, cred)["question"]["chosen"]]

    assert choose(["card8"], 1) == (200, {"ok": True})
    assert choose(["card1"], 2) == (200, {"ok": True})
    lines = log_lines(table)
    assert choose(["card8"], 1) == (409, {"error": STALE})  # the first answer, arriving late
    for _ in range(50):
        assert choose(["card1"], 2) == (409, {"error": STALE})
    assert choose(["card1"], 3) == (200, {"ok": True})  # the same answer, numbered anew: no line
    assert passing() == ["card1"] and log_lines(table) == lines
    assert table.asked().kind == "pass_modifier"


def test_the_numbers_read_from_a_log_ignore_what_no_table_wrote():
    records = [
        {"t": "event", "e": {"type": "secret_disc_set", "player": "red", "region": "aragon"}, "phone_seq": 3},
        {"t": "event", "e": {"type": "secret_disc_set", "player": "red", "region": "sevilla"}, "phone_seq": 2},
        {"t": "event", "e": {"type": "secret_disc_set", "player": "blue", "region": "sevilla"}, "phone_seq": "9"},
        {"t": "event", "e": {"type": "secret_disc_set", "player": "blue", "region": "sevilla"}, "phone_seq": True},
        {"t": "event", "e": {"type": "secret_disc_set", "player": "green"}, "phone_seq": -4},
        {"t": "event", "e": {"type": "secret_disc_set", "player": "green"}, "phone_seq": 2**60},
        {"t": "event", "e": "not an event", "phone_seq": 5},
        {"t": "drop", "phone_seq": 8},
        {"t": "undo"},
    ]
    assert last_sequences(records) == {"red": 3}
