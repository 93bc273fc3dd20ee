"""No response carries what its caller may not see.

Every endpoint and both websockets are called with each seat's credential, a
wrong credential and none, while the discs are being chosen, when all have
chosen, (scoring mode) once the Castillo is counted, and after the reveal.
Picks are distinctive regions; each body and frame is searched raw for the
other seats' picks and checked for Castillo figures other than the caller's own.
A phone the tablet has not confirmed yet is probed the same way: it may see no
pick at all (not even its own), no Castillo figure and no question.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets

import aiohttp
import pytest

from companion.table.authority import Table
from engine.events import CastilloCounted, SecretDiscSet, SecretDiscsRevealed
from engine.freeplay import RoundFinished
from firmware_bridge.adapter import TowerDrop
from tests.companion.phones.conftest import PICK_NAMES, PICKS, PLAYERS, code_of, join, make_table, to_general_scoring
from tests.companion.phones.held_frames import until_frame, until_latest
from tests.companion.phones.wsclient import url

FORBIDDEN_KEYS = {
    "secret_disc",
    "secret_discs",
    "discs",
    "tally",
    "tallies",
    "counts",
    "hidden",
    "provinces",
    "private",
    "castillo_counts",
    "scorings",
    "regions_board",
}
CASTILLO_KEY = re.compile(r'castillo\\?"\s*:\s*(-?\d+)')
# Scoring mode: what the tower counted per seat (each seat may see only its own).
TOWER = {"red": 4, "yellow": 7, "green": 0, "blue": 2}


def needles(pid: str) -> list[str]:
    rid = PICKS[pid]
    return [rid, PICK_NAMES[rid]]


def keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


class Audit:
    def __init__(self, table: Table, own_castillo: dict[str, int]):
        self.table, self.castillo = table, own_castillo
        self.checked = 0

    def check(
        self, caller: str | None, where: str, status: int, raw: str, own_pick: str | None, confirmed: bool = True
    ) -> None:
        """caller: a seat id, or None for a wrong or missing credential; confirmed: the tablet said
        yes to that seat's phone (an unconfirmed one may see nothing of its own either)."""
        assert status < 500, (where, status, raw)
        assert "Traceback" not in raw and 'File "' not in raw, (where, raw)
        others = [p for p in PLAYERS if p != caller] if confirmed else PLAYERS
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        if isinstance(body, dict):
            assert not keys(body) & FORBIDDEN_KEYS, (where, keys(body) & FORBIDDEN_KEYS)
            if body.get("type") == "pending":
                assert caller is not None and not confirmed and body["seat"]["id"] == caller, (where, caller)
                assert set(body) == {"type", "seat", "number", "title", "hint"}, where
            if body.get("type") == "view":
                assert confirmed, (where, "an unconfirmed phone got a view")
                assert caller is not None and body["seat"]["id"] == caller, (where, caller)
                q = body["question"]
                assert q["pick"] is None or q["pick"]["id"] == own_pick, (where, q["pick"], own_pick)
                assert body["facts"]["castillo"] == self.castillo[caller], where
                # last_seq: the number of this seat's own last answer (its page numbers the next above it)
                assert set(body) == {
                    "type",
                    "seq",
                    "seat",
                    "round",
                    "rounds",
                    "question",
                    "facts",
                    "last_seq",
                    "bgstats",
                }
                assert "castillo" not in keys({k: v for k, v in body.items() if k != "facts"}), where
                body = {**body, "question": {**q, "regions": []}}  # the offered regions: all allowed
            else:
                assert "castillo" not in keys(body), where
            text = json.dumps(body, ensure_ascii=False)
        else:
            text = raw
            others = PLAYERS  # a page, an error: no pick at all, not even the caller's
        for pid in others:
            for needle in needles(pid):
                assert needle not in text, (where, caller, pid, needle, text[:400])
        found = [int(n) for n in CASTILLO_KEY.findall(text)]
        if isinstance(body, dict) and body.get("type") == "view":
            assert found == [self.castillo[caller]], (where, found)
        else:
            assert found == [], (where, found)
        self.checked += 1


async def call(session, method, server, path, **kw) -> tuple[int, str]:
    async with session.request(method, url(server, path), **kw) as resp:
        return resp.status, await resp.text()


async def ws_frames(session, server, path: str, first: dict | None, then: list[dict], done=lambda m: False):
    """Open a socket, send `first` then `then`, collect every frame until `done(frame)` or it closes,
    then whatever else comes within a short quiet time."""
    got: list[str] = []
    ws = await session.ws_connect(url(server, path))
    quiet = 1.0
    try:
        if first is not None:
            await ws.send_json(first)
        for m in then:
            await ws.send_json(m)
        while True:
            try:
                msg = await asyncio.wait_for(ws.receive(), quiet)
            except TimeoutError:
                break
            if msg.type != aiohttp.WSMsgType.TEXT:
                got.append(f"close {msg.data} {msg.extra or ''}")
                break
            got.append(msg.data)
            if done(json.loads(msg.data)):
                quiet = 0.03
    finally:
        await ws.close()
    return got


async def probe(
    session, server, audit: Audit, creds: dict, caller: str, spent_code: str, phase: str, confirmed: bool = True
):
    """Call everything as `caller`: a seat id, "wrong" or "none"."""
    table = server.table
    seat = caller if caller in PLAYERS else None
    cred = creds.get(caller, secrets.token_urlsafe(32) if caller == "wrong" else None)
    own = table.private(seat)["secret_disc"] if seat and confirmed else None
    if seat and confirmed and phase == "revealed":
        own = PICKS[seat]  # the phone shows its own revealed pick
    qid = table.question_id()
    auth = {"Authorization": f"Bearer {cred}"} if cred else {}
    pick_region = own or "aragon"  # a seat that picked sends its own pick again; others are refused
    results: list[tuple[str, int, str]] = []
    for method, path, kw in [
        ("GET", "/", {}),
        ("GET", "/phone", {}),
        ("GET", f"/join/{spent_code}", {}),
        ("GET", "/join/x", {}),
        ("GET", "/api/status", {}),
        ("GET", "/api/me", {"headers": auth}),
        ("GET", "/api/me", {"headers": auth, "params": {"seat": "red"}}),
        ("POST", "/api/me", {"headers": auth}),
        ("GET", "/api/secret", {"headers": auth}),
        ("POST", "/api/join", {"json": {"code": spent_code}}),
        ("POST", "/api/join", {"json": {"code": cred or "x"}}),
        (
            "POST",
            "/api/pick",
            {"json": {"credential": cred if own else "x" * 43, "question": qid, "region": pick_region}},
        ),
        ("POST", "/api/pick", {"json": {"credential": cred or "x", "question": qid + "0", "region": "granada"}}),
        ("POST", "/api/pick", {"json": {"credential": cred or "x", "question": qid, "region": "castillo"}}),
        (
            "POST",
            "/api/pick",
            {"json": {"credential": cred or "x", "question": qid, "region": "granada", "player": "yellow"}},
        ),
        ("POST", "/api/pick", {"data": b"{not json"}),
    ]:
        status, text = await call(session, method, server, path, **kw)
        results.append((f"{method} {path}", status, text))
    hello = {"type": "hello", "credential": cred} if cred else {"type": "hello"}
    picks = [
        {"type": "pick", "credential": cred if own else "x", "question": qid, "region": pick_region, "ref": 1},
        {"type": "pick", "credential": cred or "x", "question": "stale", "region": "granada", "ref": 2},
        {
            "type": "pick",
            "credential": creds[next(p for p in PLAYERS if p != seat)] if seat else "x",
            "question": qid,
            "region": "granada",
            "ref": 3,
        },
    ]
    for frame_text in await ws_frames(session, server, "/ws", hello, picks, lambda m: m.get("ref") == 3):
        results.append(("ws /ws", 101, frame_text))
    for frame_text in await ws_frames(
        session, server, "/ws/status", None, [{"type": "hello", "credential": cred}], lambda m: m["type"] == "status"
    ):
        results.append(("ws /ws/status", 101, frame_text))
    if seat and not confirmed:  # its own pick, from its own credential: refused, over HTTP and its socket
        before = table.private(seat)["secret_disc"]
        status, text = await call(
            session, "POST", server, "/api/pick", json={"credential": cred, "question": qid, "region": "aragon"}
        )
        assert status == 403 and "not confirmed" in text, (phase, caller, status, text)
        results.append(("POST /api/pick (own, unconfirmed)", status, text))
        own_pick = {"type": "pick", "credential": cred, "question": qid, "region": "aragon", "ref": 7}
        for frame_text in await ws_frames(session, server, "/ws", hello, [own_pick], lambda m: m.get("ref") == 7):
            assert '"result"' not in frame_text, (phase, caller, frame_text)
            results.append(("ws /ws (own pick, unconfirmed)", 101, frame_text))
        assert table.private(seat)["secret_disc"] == before
    for where, status, text in results:
        audit.check(seat, f"{phase} {caller} {where}", status, text, own, confirmed)
    # What a seat's own socket and pick did must not change what it may see next time.
    if seat and confirmed and phase != "revealed":
        assert table.private(seat)["secret_disc"] == own


@pytest.mark.parametrize("mode", ["scoring", "tracking"])
def test_nothing_leaks_before_or_after_the_reveal(start_server, mode):
    table = make_table(mode)
    if mode == "scoring":
        for pid, k in TOWER.items():
            for _i in range(k):
                table.tower_drop(
                    TowerDrop(tower="t1", boot="b1", seq=len(table.drops) + 1, colour=pid, uncertain=False)
                )
        table.submit(RoundFinished())
    to_general_scoring(table)
    castillo = {pid: table.private(pid)["castillo"] for pid in PLAYERS}
    if mode == "scoring":
        assert castillo == TOWER
    server = start_server(table)
    spent = code_of(server, "red")
    creds = {pid: join(server, pid) for pid in PLAYERS}
    audit = Audit(table, castillo)
    callers = PLAYERS + ["wrong", "none"]

    async def main():
        async with aiohttp.ClientSession() as session:
            # Long-lived sockets: every frame over the whole scoring is audited too.
            held = {pid: await session.ws_connect(url(server, "/ws")) for pid in PLAYERS}
            for pid, ws in held.items():
                await ws.send_json({"type": "hello", "credential": creds[pid]})
            spec = await session.ws_connect(url(server, "/ws/status"))
            frames: dict[str, list[str]] = {pid: [] for pid in PLAYERS + ["spectator"]}

            async def drain(who, ws):
                async for msg in ws:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        frames[who].append(msg.data)

            tasks = [asyncio.ensure_future(drain(pid, ws)) for pid, ws in held.items()]
            tasks.append(asyncio.ensure_future(drain("spectator", spec)))

            table.submit(SecretDiscSet(player="red", region=PICKS["red"]), player="red")
            table.submit(SecretDiscSet(player="yellow", region=PICKS["yellow"]), player="yellow")
            for caller in callers:
                await probe(session, server, audit, creds, caller, spent, "open")
            table.submit(SecretDiscSet(player="green", region=PICKS["green"]), player="green")
            table.submit(SecretDiscSet(player="blue", region="aragon"), player="blue")
            table.submit(SecretDiscSet(player="blue", region=PICKS["blue"]), player="blue")
            for caller in callers:
                await probe(session, server, audit, creds, caller, spent, "all chosen")
            if mode == "scoring":
                table.submit(CastilloCounted(counts=TOWER))
                for caller in callers:
                    await probe(session, server, audit, creds, caller, spent, "counted")
            table.submit(SecretDiscsRevealed())
            revealed_castillo = {pid: table.private(pid)["castillo"] for pid in PLAYERS}
            for pid in PLAYERS:
                await until_latest(
                    frames[pid], pid, "saying the discs are revealed", lambda m: m["question"]["state"] == "revealed"
                )
            for pid in PLAYERS:
                for text in frames[pid]:
                    m = json.loads(text)
                    made = {PICKS[pid]} | ({"aragon"} if pid == "blue" else set())  # blue changed its mind
                    pick = m["question"]["pick"]["id"] if m["question"]["pick"] else None
                    assert pick in made | {None}
                    own = audit.castillo if m["facts"]["castillo"] == castillo[pid] else revealed_castillo
                    Audit(table, own).check(pid, f"held socket {pid}", 101, text, pick)
                assert json.loads(frames[pid][-1])["question"]["state"] == "revealed"
            for text in frames["spectator"]:
                audit.check(None, "held spectator", 101, text, None)
            audit.castillo = revealed_castillo
            for caller in callers:
                await probe(session, server, audit, creds, caller, spent, "revealed")
            for ws in list(held.values()) + [spec]:
                await ws.close()
            await asyncio.gather(*tasks)

    asyncio.run(asyncio.wait_for(main(), 40))
    assert audit.checked > 300


@pytest.mark.parametrize("mode", ["scoring", "tracking"])
def test_an_unconfirmed_phone_sees_nothing_private(start_server, mode):
    """Every seat's phone joined, none confirmed by the tablet: through the whole scoring every
    endpoint and socket shows them nothing private; then one Yes, and only that phone sees its own."""
    table = make_table(mode)
    if mode == "scoring":
        for pid, k in TOWER.items():
            for _i in range(k):
                table.tower_drop(
                    TowerDrop(tower="t1", boot="b1", seq=len(table.drops) + 1, colour=pid, uncertain=False)
                )
        table.submit(RoundFinished())
    to_general_scoring(table)
    castillo = {pid: table.private(pid)["castillo"] for pid in PLAYERS}
    server = start_server(table)
    spent = code_of(server, "red")
    creds = {pid: join(server, pid, confirm=False) for pid in PLAYERS}
    audit = Audit(table, castillo)

    async def main():
        async with aiohttp.ClientSession() as session:
            held = {pid: await session.ws_connect(url(server, "/ws")) for pid in PLAYERS}
            for pid, ws in held.items():
                await ws.send_json({"type": "hello", "credential": creds[pid]})
            frames: dict[str, list[str]] = {pid: [] for pid in PLAYERS}

            async def drain(who, ws):
                async for msg in ws:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        frames[who].append(msg.data)

            tasks = [asyncio.ensure_future(drain(pid, ws)) for pid, ws in held.items()]
            for pid in PLAYERS:
                table.submit(SecretDiscSet(player=pid, region=PICKS[pid]), player=pid)
                for caller in PLAYERS:
                    await probe(session, server, audit, creds, caller, spent, f"after {pid}", confirmed=False)
            if mode == "scoring":
                table.submit(CastilloCounted(counts=TOWER))
            table.submit(SecretDiscsRevealed())
            for caller in PLAYERS:
                await probe(session, server, audit, creds, caller, spent, "revealed", confirmed=False)
            for pid in PLAYERS:
                await until_frame(frames[pid], pid, "saying it waits for the tablet", lambda m: m["type"] == "pending")
            await asyncio.sleep(0.2)  # a window for any further frame, which would be a leak
            for pid in PLAYERS:  # the held sockets: one "waiting for the tablet" frame, nothing else
                assert [json.loads(f)["type"] for f in frames[pid]] == ["pending"], (pid, frames[pid])
                audit.check(pid, f"held unconfirmed {pid}", 101, frames[pid][0], None, confirmed=False)
            # The tablet's Yes for Ana's phone: her socket gets her own view at once; nobody else's changes.
            assert server.confirm("red", server.seats_status()["red"]["awaiting"])
            view = await until_latest(
                frames["red"], "red", "with red's own view after the tablet's Yes", lambda m: m["type"] == "view"
            )
            assert view["type"] == "view" and view["seat"]["id"] == "red"
            assert view["question"]["pick"]["id"] == PICKS["red"]
            assert view["facts"]["castillo"] == table.private("red")["castillo"]
            for pid in PLAYERS[1:]:
                assert len(frames[pid]) == 1, (pid, frames[pid])
            for ws in held.values():
                await ws.close()
            await asyncio.gather(*tasks)

    asyncio.run(asyncio.wait_for(main(), 60))
    assert audit.checked > 150


@pytest.mark.parametrize("mode", ["scoring", "tracking"])
def test_nothing_of_the_last_game_reaches_the_next(start_server, mode):
    """A game night: the same phones (and sockets) go on into the next game. In game 1 each seat
    picked another seat's distinctive region and the tower counted other figures; through game 2's
    general scoring every endpoint and every held socket is audited against game 2 alone, so an
    old pick or an old count shown to anyone fails."""
    first = make_table("scoring")
    for pid, k in TOWER.items():
        for _ in range(k):
            first.tower_drop(TowerDrop(tower="t1", boot="b1", seq=len(first.drops) + 1, colour=pid, uncertain=False))
    first.submit(RoundFinished())
    to_general_scoring(first)
    server = start_server(first)
    creds = {pid: join(server, pid) for pid in PLAYERS}
    server.revoke("red")  # a code of game 1, spent: probed in game 2
    spent = code_of(server, "red")
    creds["red"] = join(server, "red")
    for i, pid in enumerate(PLAYERS):  # game 1: red picks yellow's needle, and so on
        first.submit(SecretDiscSet(player=pid, region=PICKS[PLAYERS[(i + 1) % 4]]), player=pid)
    first.submit(CastilloCounted(counts=TOWER))
    first.submit(SecretDiscsRevealed())
    second = make_table(mode)
    if mode == "scoring":
        later = {"red": 6, "yellow": 1, "green": 3, "blue": 5}
        for pid, k in later.items():
            for _ in range(k):
                second.tower_drop(
                    TowerDrop(tower="t1", boot="b2", seq=len(second.drops) + 1, colour=pid, uncertain=False)
                )
        second.submit(RoundFinished())
    to_general_scoring(second)  # game 2 is played up to its general scoring, then the tablet moves on to it

    async def main():
        async with aiohttp.ClientSession() as session:
            held = {pid: await session.ws_connect(url(server, "/ws")) for pid in PLAYERS}
            for pid, ws in held.items():
                await ws.send_json({"type": "hello", "credential": creds[pid]})
            frames: dict[str, list[str]] = {pid: [] for pid in PLAYERS}

            async def drain(who, ws):
                async for msg in ws:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        frames[who].append(msg.data)

            tasks = [asyncio.ensure_future(drain(pid, ws)) for pid, ws in held.items()]
            for i, pid in enumerate(PLAYERS):  # the hello's answer: game 1's view, before the mark
                await until_frame(
                    frames[pid],
                    pid,
                    "with game 1's revealed view (the answer to hello)",
                    lambda m: (
                        m["type"] == "view"
                        and m["question"]["state"] == "revealed"
                        and m["question"]["pick"]["id"] == PICKS[PLAYERS[(i + 1) % 4]]
                    ),
                )
            mark = {pid: len(frames[pid]) for pid in PLAYERS}
            await asyncio.get_running_loop().run_in_executor(None, server.switch_table, second)
            first.close()
            castillo = {pid: second.private(pid)["castillo"] for pid in PLAYERS}
            assert castillo != {pid: 0 for pid in PLAYERS} or mode == "tracking"
            audit = Audit(second, castillo)
            for caller in PLAYERS + ["wrong", "none"]:
                await probe(session, server, audit, creds, caller, spent, "game 2 open")
            for pid in PLAYERS:
                second.submit(SecretDiscSet(player=pid, region=PICKS[pid]), player=pid)
            for caller in PLAYERS:
                await probe(session, server, audit, creds, caller, spent, "game 2 all chosen")
            for pid in PLAYERS:
                await until_latest(
                    frames[pid],
                    pid,
                    f"with its game 2 pick {PICKS[pid]} and nobody left to choose",
                    lambda m: (
                        m["type"] == "view"
                        and (m["question"]["pick"] or {}).get("id") == PICKS[pid]
                        and not m["question"]["waiting_for"]
                    ),
                )
            for pid in PLAYERS:  # the held sockets, from the switch on: game 2 only
                assert frames[pid][mark[pid] :], pid
                for text in frames[pid][mark[pid] :]:
                    m = json.loads(text)
                    own = m["question"]["pick"]["id"] if m["question"]["pick"] else None
                    assert own in (None, PICKS[pid]), (pid, own)
                    audit.check(pid, f"held socket {pid} after the switch", 101, text, own)
            for ws in held.values():
                await ws.close()
            await asyncio.gather(*tasks)

    asyncio.run(asyncio.wait_for(main(), 60))
