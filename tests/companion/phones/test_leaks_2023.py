"""No response carries another player's 2023 secret.

The method of test_leaks.py, over the 2023 secrets: the Modifier cards each player was dealt,
the card each passes to the left, each hand after the pass, and the discs of Civil War, Coup
and Competition. Every endpoint and both websockets are called with each seat's credential, a
wrong one and none, at each step of a choice and after its reveal (the cards changing hands,
the discs turned up); sockets held open through the whole choice are audited frame by frame.

What is checked in every body and frame:
- no Modifier card id at all (a phone names cards by face, so no copy can be traced);
- a seat's view holds its own hand (by face), its own answer and only the options its own
  question allows (the whole set to enter a deal, its own hand to pass), nothing else;
- no Modifier card's name in any title, hint or status;
- for discs: no other seat's pick, by id or by name; the caller's Castillo figure only.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections import Counter

import aiohttp
import pytest

from companion.phones.views import modifier_faces
from companion.table.authority import Table
from engine.events import SecretDiscSet, SecretDiscsRevealed
from tests.companion.phones.conftest import join
from tests.companion.phones.game2023 import disc_purpose, find_table, grande_in_castillo_scoring, table_2023
from tests.companion.phones.held_frames import until_latest
from tests.companion.phones.test_leaks import FORBIDDEN_KEYS, call, keys, ws_frames
from tests.companion.phones.wsclient import url

CASTILLO_KEY = re.compile(r'castillo\\?"\s*:\s*(-?\d+)')
DEALS = {
    "purple": ["stand_in_plus_1_a", "stand_in_plus_1_b", "stand_in_minus_3_a"],
    "blue": ["stand_in_minus_1_a", "stand_in_plus_3_a", "stand_in_minus_1_b"],
    "green": ["stand_in_minus_2_a", "stand_in_minus_2_b", "stand_in_minus_2_c"],
    "orange": ["stand_in_minus_1_c", "stand_in_minus_1_d", "stand_in_plus_1_c"],
}
PASSES = {
    "purple": "stand_in_minus_3_a",
    "blue": "stand_in_plus_3_a",
    "green": "stand_in_minus_2_b",
    "orange": "stand_in_plus_1_c",
}


class Audit2023:
    """What each seat may see now: its own hand, pass, disc and Castillo figure."""

    def __init__(self, table: Table, discs: dict[str, str] | None = None):
        self.table = table
        self.faces = modifier_faces(table.state.modifiers)
        self.ids = sorted(table.state.modifiers)
        self.labels = sorted({o.label for o in self.faces.options.values()})
        self.discs = discs or {}
        self.checked = 0

    def own(self, pid: str) -> dict:
        mine = self.table.private(pid)
        return {
            "hand": Counter(self.faces.face_of[m] for m in mine["modifiers_in_hand"]),
            "passing": self.faces.face_of.get(mine.get("modifier_passing")),
            "castillo": mine["castillo"],
        }

    def disc_needles(self, caller: str | None) -> list[str]:
        """Other seats' picks, by id and by name (a pick the caller made too is not a needle)."""
        board = self.table.board
        own = self.discs.get(caller)
        out = []
        for pid, rid in self.discs.items():
            if pid != caller and rid != own:
                out += [rid, board.area_name(board.area_index[rid])]
        return out

    def check(self, caller: str | None, where: str, status: int, raw: str, hands=None, castillo=()) -> None:
        """hands: the own hands (Counter of faces) this seat may be shown (before and after a pass);
        castillo: its own Castillo figures it may be shown besides the present one (before a scoring)."""
        assert status < 500, (where, status, raw)
        assert "Traceback" not in raw and 'File "' not in raw, (where, raw)
        for mid in self.ids:
            assert mid not in raw, (where, caller, mid, raw[:300])
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        text = raw
        if isinstance(body, dict):
            assert not keys(body) & FORBIDDEN_KEYS, (where, keys(body) & FORBIDDEN_KEYS)
            words = " ".join(str(body.get(k, "")) for k in ("title", "hint", "error", "message", "purpose"))
            if body.get("type") == "view":
                assert caller is not None and body["seat"]["id"] == caller, (where, caller)
                body = self._check_view(caller, where, body, hands)
                q = body["question"]
                words = q["title"] + " " + q["hint"]
            for label in self.labels:
                assert label not in words, (where, caller, label, words)
            text = json.dumps(body, ensure_ascii=False)
        for needle in self.disc_needles(caller if isinstance(body, dict) and body.get("type") == "view" else None):
            assert needle not in text, (where, caller, needle, text[:400])
        found = [int(n) for n in CASTILLO_KEY.findall(text)]
        if isinstance(body, dict) and body.get("type") == "view":
            assert len(found) == 1 and found[0] in {self.own(caller)["castillo"], *castillo}, (where, found)
        else:
            assert found == [], (where, found)
        self.checked += 1

    def _check_view(self, pid: str, where: str, view: dict, hands) -> dict:
        """The view's card parts are this seat's own; returns it with the offered parts removed."""
        own = self.own(pid)
        hands = hands or [own["hand"]]
        shown = Counter(o["id"] for o in view["facts"]["modifiers"] or [])
        assert shown in hands, (where, pid, shown, hands)
        q = view["question"]
        offered = [o["id"] for o in q["options"]]
        if q["kind"] == "cards" and q["count"] == 3:  # the deal: the whole set, the same for all
            assert offered == list(self.faces.ids), (where, offered)
            assert {o["id"]: o["most"] for o in q["options"]} == {f: len(ids) for f, ids in self.faces.ids.items()}
        elif q["kind"] == "cards" and offered and not offered[0].startswith("power:"):  # the pass: own hand
            assert Counter(offered) in [Counter(set(h)) for h in hands], (where, offered)
        for o in q["chosen"]:
            assert any(o["id"] in hand for hand in hands), (where, pid, q["chosen"])
        if q["kind"] == "disc":
            pick = q["pick"]["id"] if q["pick"] else None
            assert pick in (None, self.discs.get(pid)), (where, pid, pick)
        return {**view, "question": {**q, "regions": [], "options": []}}


async def probe(session, server, audit: Audit2023, creds: dict, caller: str, phase: str) -> None:
    """Everything, called as `caller` (a seat, "wrong" or "none"); answers that change nothing."""
    table = server.table
    seat = caller if caller in creds else None
    cred = creds.get(caller, secrets.token_urlsafe(32) if caller == "wrong" else None)
    auth = {"Authorization": f"Bearer {cred}"} if cred else {}
    qid = table.question_id()
    other = creds[next(p for p in creds if p != seat)]
    results = []
    for method, path, kw in [
        ("GET", "/", {}),
        ("GET", "/api/status", {}),
        ("GET", "/api/me", {"headers": auth}),
        ("GET", "/api/me", {"headers": auth, "params": {"seat": "purple"}}),
        ("POST", "/api/choose", {"json": {"credential": cred or "x", "question": qid + "0", "values": ["card1"]}}),
        ("POST", "/api/choose", {"json": {"credential": cred or "x", "question": qid, "values": ["card99"]}}),
        (
            "POST",
            "/api/choose",
            {"json": {"credential": cred or "x", "question": qid, "values": ["card1"], "player": "blue"}},
        ),
        ("POST", "/api/choose", {"json": {"credential": cred or "x", "question": qid, "values": [DEALS["blue"][0]]}}),
        ("POST", "/api/pick", {"json": {"credential": cred or "x", "question": qid, "region": "castillo"}}),
        ("POST", "/api/choose", {"data": b"{not json"}),
    ]:
        status, text = await call(session, method, server, path, **kw)
        results.append((f"{method} {path}", status, text))
    hello = {"type": "hello", "credential": cred} if cred else {"type": "hello"}
    frames = [
        {"type": "choose", "credential": cred or "x", "question": "stale", "values": ["card1"], "ref": 1},
        {"type": "choose", "credential": cred or "x", "question": qid, "values": ["card99"], "ref": 2},
        {"type": "choose", "credential": other if seat else "x", "question": qid, "values": ["card1"], "ref": 3},
    ]
    for text in await ws_frames(session, server, "/ws", hello, frames, lambda m: m.get("ref") == 3):
        results.append(("ws /ws", 101, text))
    for text in await ws_frames(session, server, "/ws/status", None, [hello], lambda m: m["type"] == "status"):
        results.append(("ws /ws/status", 101, text))
    for where, status, text in results:
        audit.check(seat, f"{phase} {caller} {where}", status, text)


async def settled(session, server, audit: Audit2023, creds: dict) -> None:
    """Until every seat's view shows the table as it is now (views follow the table a moment
    later): a stale view is not a leak, and would only make the checks below flaky."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 5
    for pid, cred in creds.items():
        while True:
            _, text = await call(session, "GET", server, "/api/me", headers={"Authorization": f"Bearer {cred}"})
            view, own = json.loads(text), audit.own(pid)
            shown = Counter(o["id"] for o in view["facts"]["modifiers"] or [])
            chosen = [o["id"] for o in view["question"]["chosen"]]
            q = view["question"]
            disc = server.table.private(pid)["secret_disc"]
            if (
                shown == own["hand"]
                and chosen in ([], [own["passing"]])
                and (own["passing"] is None) == (not chosen)
                and view["facts"]["castillo"] == own["castillo"]
                and (
                    q["state"] not in ("choose", "locked") or q["kind"] != "disc" or (q["pick"] or {}).get("id") == disc
                )
            ):
                break
            assert loop.time() < end, (pid, view)
            await asyncio.sleep(0.02)


async def holding(session, server, creds):
    """Every seat's socket and a spectator, each frame kept: (sockets, frames, drain tasks)."""
    held = {pid: await session.ws_connect(url(server, "/ws")) for pid in creds}
    for pid, ws in held.items():
        await ws.send_json({"type": "hello", "credential": creds[pid]})
    held["spectator"] = await session.ws_connect(url(server, "/ws/status"))
    frames: dict[str, list[str]] = {who: [] for who in held}

    async def drain(who, ws):
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                frames[who].append(msg.data)

    return held, frames, [asyncio.ensure_future(drain(who, ws)) for who, ws in held.items()]


def test_no_modifier_card_of_another_player_leaks_through_the_deal_and_the_pass(start_server):
    table = table_2023()
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in table.players}
    audit = Audit2023(table)
    callers = list(table.players) + ["wrong", "none"]

    async def main():
        async with aiohttp.ClientSession() as session:
            held, frames, tasks = await holding(session, server, creds)
            table.submit_private("purple", DEALS["purple"])
            table.submit_private("blue", DEALS["blue"])
            await settled(session, server, audit, creds)
            for caller in callers:
                await probe(session, server, audit, creds, caller, "deal open")
            table.submit_private("green", DEALS["green"])
            table.submit_private("orange", DEALS["orange"])
            dealt = {pid: audit.own(pid)["hand"] for pid in table.players}
            table.submit_private("purple", [PASSES["purple"]])
            table.submit_private("blue", [DEALS["blue"][0]])
            table.submit_private("blue", [PASSES["blue"]])  # changed its mind
            await settled(session, server, audit, creds)
            for caller in callers:
                await probe(session, server, audit, creds, caller, "pass open")
            table.submit_private("green", [PASSES["green"]])
            table.submit_private("orange", [PASSES["orange"]])
            assert table.asked().kind != "pass_modifier"
            await settled(session, server, audit, creds)
            for caller in callers:
                await probe(session, server, audit, creds, caller, "passed")
            for pid in table.players:  # each phone shows the hand after the pass
                hand = audit.own(pid)["hand"]
                await until_latest(
                    frames[pid],
                    pid,
                    f"with its hand after the pass {dict(hand)}",
                    lambda m: Counter(o["id"] for o in m["facts"]["modifiers"] or []) == hand,
                )
            for pid in table.players:
                hands = [Counter(), dealt[pid], audit.own(pid)["hand"]]
                for text in frames[pid]:
                    audit.check(pid, f"held socket {pid}", 101, text, hands)
            statuses = [json.loads(t) for t in frames["spectator"]]
            assert {s["purpose"] for s in statuses} >= {"deal_modifiers", "pass_modifier"}
            for text in frames["spectator"]:
                audit.check(None, "held spectator", 101, text)
            for ws in held.values():
                await ws.close()
            await asyncio.gather(*tasks)

    asyncio.run(asyncio.wait_for(main(), 60))
    assert audit.checked > 150


def distinct_picks(table: Table, allowed: dict[str, list[str]]) -> dict[str, str]:
    """A region per seat from its own list, all different where the lists allow, avoiding the
    King's region and a region named on the public screen (the one a Coup empties)."""
    public = {table.public().game["king"]}
    last = table.effective[-1]["e"] if table.effective else {}
    if last.get("type") == "region_chosen":
        public.add(last["region"])
    picks: dict[str, str] = {}
    for pid, regions in sorted(allowed.items(), key=lambda kv: len(kv[1])):
        free = [r for r in regions if r not in picks.values() and r not in public]
        picks[pid] = (free or regions)[-1]
    return picks


@pytest.mark.parametrize("case", ["civil_war", "coup", "competition"])
def test_no_disc_of_another_player_leaks_civil_war_coup_competition(start_server, case):
    wanted = {
        "civil_war": disc_purpose("civil_war"),
        "coup": disc_purpose("eviction_destination", "coup"),
        "competition": grande_in_castillo_scoring,
    }[case]
    table = find_table(wanted)
    ask = table.asked()
    picks = distinct_picks(table, ask.options["regions"])
    assert len(picks) >= 2
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in table.players}
    audit = Audit2023(table, picks)
    callers = list(table.players) + ["wrong", "none"]
    order = list(picks)

    async def main():
        async with aiohttp.ClientSession() as session:
            held, frames, tasks = await holding(session, server, creds)
            first = order[0]
            table.submit(SecretDiscSet(player=first, region=picks[first]), player=first)
            await settled(session, server, audit, creds)
            for caller in callers:
                await probe(session, server, audit, creds, caller, f"{case} open")
            for pid in order[1:]:
                table.submit(SecretDiscSet(player=pid, region=picks[pid]), player=pid)
            await settled(session, server, audit, creds)
            for caller in callers:
                await probe(session, server, audit, creds, caller, f"{case} all chosen")
            before = {pid: audit.own(pid)["castillo"] for pid in table.players}
            table.submit(SecretDiscsRevealed())
            await settled(session, server, audit, creds)
            for caller in callers:
                await probe(session, server, audit, creds, caller, f"{case} revealed")
            await asyncio.sleep(0.2)
            for pid in table.players:
                assert frames[pid]
                for text in frames[pid]:
                    audit.check(pid, f"held socket {pid}", 101, text, castillo=(before[pid],))
            for text in frames["spectator"]:
                audit.check(None, "held spectator", 101, text)
            for ws in held.values():
                await ws.close()
            await asyncio.gather(*tasks)

    asyncio.run(asyncio.wait_for(main(), 60))
    assert audit.checked > 100
