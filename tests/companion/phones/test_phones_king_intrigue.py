"""King and Intrigue on the phones: the setup disc and the 13 kept Power cards chosen on each
player's phone, in secret and at the same time; each phone shows its player's own hand; and no
response or websocket frame carries another player's kept cards or disc (the leak method of
test_leaks_2023.py: every endpoint and both websockets called with each seat's credential, a
wrong one and none, at each step; sockets held open through the whole setup audited frame by
frame).

Real parts: the aiohttp phone server on a loopback port, HTTP from http.client and websockets
from aiohttp, a real table playing King and Intrigue with a table's card file."""

from __future__ import annotations

import asyncio
import json
import secrets

import aiohttp
import pytest

from companion.input_errors import InputError, NeedsConfirmation
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine import events as ev
from tests.companion.phones.conftest import http, join, wait_for
from tests.companion.phones.held_frames import until_latest
from tests.companion.phones.test_leaks import FORBIDDEN_KEYS, call, keys, ws_frames
from tests.companion.phones.wsclient import url
from tests.engine.king_intrigue.table import ALL, CARDS_FILE

AGAIN_HINT = "The tablet undid your choice: choose again. "  # a seat that had answered is asked again
PLAYERS = ["red", "yellow", "green"]
NAMES = {"red": "Ana", "yellow": "Bruno", "green": "Carmen"}
KING = "castilla_la_nueva"
DISCS = {"red": "aragon", "yellow": "valencia", "green": "galicia"}
LEFT_OUT = {"red": [10, 20, 30, 40, 50], "yellow": [140, 150, 160, 170, 180], "green": [10, 60, 100, 130, 180]}


def ki_table() -> Table:
    game = ev.GameSetup(
        players=PLAYERS,
        names=NAMES,
        king=KING,
        homes={"red": "sevilla", "yellow": "granada", "green": "cataluna"},
        start_player="red",
        rules="king-intrigue",
        cards_file=CARDS_FILE,
    )
    return Table(TableSetup(game=game, mode="tracking", tower={"kind": "none"}))


def me(server, cred: str) -> dict:
    status, _, body = http(server, "GET", "/api/me", headers={"Authorization": f"Bearer {cred}"})
    assert status == 200, body
    return json.loads(body)


def kept(pid: str) -> list[int]:
    return [v for v in ALL if v not in LEFT_OUT[pid]]


class AuditKI:
    """What each seat may see: its own disc, its own hand (all 18 until it has chosen, then its
    13), the whole set as the options of its own question; nobody else's."""

    def __init__(self, table: Table):
        self.table = table
        self.checked = 0

    def hand(self, pid: str) -> list[int]:
        return self.table.private(pid)["power_cards_in_hand"]

    def check(self, caller, where: str, status: int, raw: str, discs_set: dict, hands=None) -> None:
        assert status < 500, (where, status, raw)
        assert "Traceback" not in raw, (where, raw)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        board = self.table.board
        own_disc = discs_set.get(caller)
        needles = [
            n
            for pid, rid in discs_set.items()
            if pid != caller and rid != own_disc
            for n in (rid, board.area_name(board.area_index[rid]))
        ]
        if not isinstance(body, dict):
            assert not [n for n in needles if n in raw], (where, caller, raw[:300])
            self.checked += 1
            return
        assert not keys(body) & FORBIDDEN_KEYS, (where, keys(body) & FORBIDDEN_KEYS)
        if body.get("type") == "view":
            assert body["seat"]["id"] == caller, (where, caller)
            shown = body["facts"]["power_cards"]
            assert shown in (hands or [self.hand(caller)]), (where, caller, shown)
            q = body["question"]
            offered = [o["id"] for o in q["options"]]
            assert offered in ([], [f"power:{v}" for v in ALL]), (where, offered)
            assert q["chosen"] == [], (where, q["chosen"])  # a pick of cards is never echoed to others
            if q["pick"]:  # its own disc, while choosing or once revealed
                assert q["pick"]["id"] == DISCS[caller], (where, caller, q["pick"])
            body = {**body, "question": {**q, "regions": [], "options": []}}  # what the caller may pick from
        text = json.dumps(body, ensure_ascii=False)
        assert not [n for n in needles if n in text], (where, caller, [n for n in needles if n in text])
        if body.get("type") == "view":
            self.checked += 1
            return
        others = [self.hand(p) for p in PLAYERS if p != caller and len(self.hand(p)) < len(ALL)]
        for hand in others:
            assert json.dumps(hand) not in text.replace(" ", ""), (where, caller, hand)
        assert '"power_cards":' not in text, (where, text[:300])  # a hand only in a seat's own view
        self.checked += 1


async def probe(session, server, audit: AuditKI, creds: dict, caller: str, phase: str, discs_set: dict) -> None:
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
        ("GET", "/api/me", {"headers": auth, "params": {"seat": "yellow"}}),
        ("POST", "/api/choose", {"json": {"credential": cred or "x", "question": qid + "0", "values": ["power:10"]}}),
        ("POST", "/api/choose", {"json": {"credential": cred or "x", "question": qid, "values": ["power:999"]}}),
        (
            "POST",
            "/api/choose",
            {"json": {"credential": cred or "x", "question": qid, "values": ["power:10"], "player": "yellow"}},
        ),
        ("POST", "/api/pick", {"json": {"credential": cred or "x", "question": qid, "region": KING}}),
    ]:
        status, text = await call(session, method, server, path, **kw)
        results.append((f"{method} {path}", status, text))
    hello = {"type": "hello", "credential": cred} if cred else {"type": "hello"}
    frames = [
        {"type": "choose", "credential": cred or "x", "question": "stale", "values": ["power:10"], "ref": 1},
        {"type": "choose", "credential": other if seat else "x", "question": qid, "values": ["power:10"], "ref": 2},
    ]
    for text in await ws_frames(session, server, "/ws", hello, frames, lambda m: m.get("ref") == 2):
        results.append(("ws /ws", 101, text))
    for text in await ws_frames(session, server, "/ws/status", None, [hello], lambda m: m["type"] == "status"):
        results.append(("ws /ws/status", 101, text))
    for where, status, text in results:
        audit.check(seat, f"{phase} {caller} {where}", status, text, discs_set)


def test_the_setup_disc_and_the_thirteen_kept_are_chosen_on_the_phones(start_server):
    table = ki_table()
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in PLAYERS}
    # the setup disc: what it is for, every region but the King's
    view = me(server, creds["red"])
    q = view["question"]
    assert q["state"] == "choose" and q["kind"] == "disc", q
    assert q["title"] == "Setup: where does your first Caballero go?" and "not the King's" in q["hint"]
    assert KING not in [r["id"] for r in q["regions"]] and len(q["regions"]) == 8
    assert view["facts"]["power_cards"] == ALL  # the whole set in hand until the choice
    for pid, region in DISCS.items():
        question = me(server, creds[pid])["question"]["id"]
        status, _, body = http(
            server, "POST", "/api/pick", {"credential": creds[pid], "question": question, "region": region}
        )
        assert status == 200, body
    status, _, body = http(
        server,
        "POST",
        "/api/pick",
        {"credential": creds["red"], "question": me(server, creds["red"])["question"]["id"], "region": KING},
    )
    assert status in (409, 422) and "Traceback" not in body.decode()
    table.submit({"type": "secret_discs_revealed"})  # the tablet reveals them together
    assert table.state.counts[table.board.area_index["aragon"]][0] == 1
    # 13 of 18: tap the 5 left out, Confirm
    q = wait_for(lambda: (v := me(server, creds["yellow"])["question"])["kind"] == "cards" and v, what="the choice")
    assert q["count"] == 5 and [o["id"] for o in q["options"]] == [f"power:{v}" for v in ALL]
    assert q["title"] == "Keep 13 Power cards" and "leave OUT" in q["hint"]
    assert "Veto" in " ".join(o["label"] for o in q["options"])  # the cards by value and name
    status, _, body = http(
        server,
        "POST",
        "/api/choose",
        {"credential": creds["yellow"], "question": q["id"], "values": ["power:10", "power:20"]},
    )
    assert status == 422 and "5" in json.loads(body)["error"]
    for pid in PLAYERS:
        q = me(server, creds[pid])["question"]
        status, _, body = http(
            server,
            "POST",
            "/api/choose",
            {"credential": creds[pid], "question": q["id"], "values": [f"power:{v}" for v in LEFT_OUT[pid]]},
        )
        assert status == 200, body
        if pid != PLAYERS[-1]:
            done = wait_for(
                lambda: (v := me(server, creds[pid]))["question"]["title"] == "Your Power cards are kept" and v,
                what="chosen",
            )
            assert done["facts"]["power_cards"] == kept(pid)
    assert table.asked().kind == "play_power_card"
    for pid in PLAYERS:
        assert table.private(pid)["power_cards_in_hand"] == kept(pid)
        assert wait_for(lambda: me(server, creds[pid])["facts"]["power_cards"] == kept(pid), what="the hand")


def test_no_kept_card_nor_setup_disc_of_another_player_leaks(start_server):
    table = ki_table()
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in PLAYERS}
    audit = AuditKI(table)
    callers = PLAYERS + ["wrong", "none"]

    async def main():
        async with aiohttp.ClientSession() as session:
            held = {pid: await session.ws_connect(url(server, "/ws")) for pid in creds}
            for pid, ws in held.items():
                await ws.send_json({"type": "hello", "credential": creds[pid]})
            held["spectator"] = await session.ws_connect(url(server, "/ws/status"))
            frames: dict[str, list[str]] = {who: [] for who in held}

            async def drain(who, ws):
                async for msg in ws:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        frames[who].append(msg.data)

            tasks = [asyncio.ensure_future(drain(who, ws)) for who, ws in held.items()]
            discs_set = {}
            for pid in ("red", "yellow"):
                table.submit_private(pid, [DISCS[pid]])
                discs_set[pid] = DISCS[pid]
            await asyncio.sleep(0.2)
            for caller in callers:
                await probe(session, server, audit, creds, caller, "discs open", discs_set)
            table.submit_private("green", [DISCS["green"]])
            discs_set["green"] = DISCS["green"]
            table.submit({"type": "secret_discs_revealed"})
            revealed = {}  # turned up together: public now
            for pid in ("red", "yellow"):
                table.submit_private(pid, [str(v) for v in LEFT_OUT[pid]])
            await asyncio.sleep(0.2)
            for caller in callers:
                await probe(session, server, audit, creds, caller, "hands open", revealed)
            table.submit_private("green", [str(v) for v in LEFT_OUT["green"]])
            for pid in PLAYERS:  # each phone shows its kept hand
                await until_latest(
                    frames[pid],
                    pid,
                    f"with its kept Power cards {kept(pid)}",
                    lambda m: m["type"] == "view" and m["facts"]["power_cards"] == kept(pid),
                )
            for caller in callers:
                await probe(session, server, audit, creds, caller, "hands kept", revealed)
            for pid in PLAYERS:
                before_reveal = True
                for text in frames[pid]:
                    body = json.loads(text)
                    audit.check(
                        pid,
                        f"held socket {pid}",
                        101,
                        text,
                        {p: DISCS[p] for p in PLAYERS} if before_reveal else {},
                        [ALL, kept(pid)],
                    )
                    if body.get("type") == "view" and body["question"]["kind"] == "cards":
                        before_reveal = False
            statuses = [json.loads(t) for t in frames["spectator"]]
            assert {s["purpose"] for s in statuses} >= {"setup_caballero", "choose_power_cards"}
            for text in frames["spectator"]:
                audit.check(None, "held spectator", 101, text, {})
            for ws in held.values():
                await ws.close()
            await asyncio.gather(*tasks)

    asyncio.run(asyncio.wait_for(main(), 60))
    assert audit.checked > 60


def _table_at_disc(purpose: str) -> Table:
    """A seeded random K&I game with both modules (every module card) stopped at a `purpose` disc."""
    import random

    from engine.playout import random_event
    from tests.companion.table.test_authority_king_intrigue import BOTH, ki_setup

    for seed in range(60):
        table = Table(TableSetup(game=ki_setup(4, BOTH), mode="tracking", tower={"kind": "none"}))
        rng = random.Random(seed)
        while (ask := table.asked()).kind != "game_over":
            if ask.kind == "secret_disc" and ask.options.get("purpose") == purpose and not ask.options["chosen"]:
                return table
            table.submit(random_event(rng, ask))
    raise AssertionError(f"no seeded game reached a {purpose} disc")


def test_the_module_cards_discs_say_what_they_are_for_on_the_phones(start_server):
    from companion.phones.views import PURPOSE_TEXT

    for purpose in ("field_day", "hurricane"):
        table = _table_at_disc(purpose)
        server = start_server(table)
        creds = {pid: join(server, pid) for pid in table.players}
        ask = table.asked()
        for pid in table.players:
            q = wait_for(
                lambda: (v := me(server, creds[pid])["question"])["kind"] in ("disc", "none") and v, what="the disc"
            )
            if pid in ask.players:
                assert (q["title"], q["hint"]) == PURPOSE_TEXT[purpose]() and q["state"] == "choose"
                assert [r["id"] for r in q["regions"]] == ask.options["regions"][pid]
            else:
                assert q["title"] == "Other players are choosing secretly" and q["regions"] == []
        pid = ask.players[0]
        question = me(server, creds[pid])["question"]["id"]
        status, _, body = http(
            server,
            "POST",
            "/api/pick",
            {"credential": creds[pid], "question": question, "region": ask.options["regions"][pid][0]},
        )
        assert status == 200, body
        assert pid in table.asked().options["chosen"]


def test_a_kept_choice_undone_on_the_tablet_asks_first_and_the_phone_says_choose_again(start_server):
    table = ki_table()
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in PLAYERS}
    for pid, region in DISCS.items():
        table.submit_private(pid, [region])
    table.submit({"type": "secret_discs_revealed"})
    for pid in PLAYERS:
        table.submit_private(pid, [str(v) for v in LEFT_OUT[pid]])
    assert table.asked().kind == "play_power_card"
    assert wait_for(lambda: me(server, creds["green"])["facts"]["power_cards"] == kept("green"), what="the hand")
    with pytest.raises(NeedsConfirmation, match="Carmen will have to choose their 13 kept Power cards again"):
        table.undo()
    assert table.asked().kind == "play_power_card" and table.private("green")["power_cards_in_hand"] == kept("green")
    table.undo(confirm=True)
    q = wait_for(lambda: (v := me(server, creds["green"])["question"])["state"] == "choose" and v, what="asked again")
    assert q["hint"].startswith(AGAIN_HINT) and q["kind"] == "cards", q
    assert not me(server, creds["red"])["question"]["hint"].startswith(AGAIN_HINT)  # only the seat undone
    status, _, body = http(
        server,
        "POST",
        "/api/choose",
        {"credential": creds["green"], "question": q["id"], "values": [f"power:{v}" for v in LEFT_OUT["green"]]},
    )
    assert status == 200, body
    assert table.asked().kind == "play_power_card" and not table.chooses_again("green")


def test_a_card_refused_on_the_tablet_says_why_on_its_players_phone_only(start_server):
    """Ana's Power card 10 tapped on the tablet (she left it out): the table reads only that she
    cannot play it; her phone says why, no other phone does, and it goes with the next step."""
    table = ki_table()
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in PLAYERS}
    for pid, region in DISCS.items():
        table.submit_private(pid, [region])
    table.submit({"type": "secret_discs_revealed"})
    for pid in PLAYERS:
        table.submit_private(pid, [str(v) for v in LEFT_OUT[pid]])
    assert table.asked().kind == "play_power_card" and table.asked().players[0] == "red"
    with pytest.raises(InputError) as refused:
        table.submit({"type": "power_card_played", "player": "red", "card": 10})
    assert "left" not in str(refused.value) and "Ana cannot play Power card 10 now" in str(refused.value)
    why = "You left Power card 10 out of your hand at the start of the game: it is not in your hand."
    q = wait_for(lambda: (v := me(server, creds["red"])["question"])["hint"] == why and v, what="why, on Ana's phone")
    assert q["title"] == "Only you see why the tablet refused your card" and q["state"] == "waiting"
    for pid in ("yellow", "green"):
        assert "Power card 10" not in json.dumps(me(server, creds[pid]))
    table.submit({"type": "power_card_played", "player": "red", "card": kept("red")[-1]})
    wait_for(lambda: me(server, creds["red"])["question"]["hint"] != why, what="the next step")


def _disc_texts_audit(table: Table, caller: str | None, where: str, status: int, raw: str, picks: dict) -> None:
    """One body or frame `caller` got (a seat, or None): no other seat's disc by id or name (but
    where the caller picked the same region), no private key, its own pick at most."""
    assert status < 500 and "Traceback" not in raw, (where, status, raw[:300])
    own = picks.get(caller)
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    text = raw
    if isinstance(body, dict):
        assert not keys(body) & FORBIDDEN_KEYS, (where, keys(body) & FORBIDDEN_KEYS)
        if body.get("type") == "view":
            assert body["seat"]["id"] == caller, (where, caller)
            q = body["question"]
            assert q["pick"] is None or q["pick"]["id"] == own, (where, caller, q["pick"], own)
            body = {**body, "question": {**q, "regions": [], "options": []}}  # what the caller may pick from
        text = json.dumps(body, ensure_ascii=False)
    board = table.board
    for pid, rid in picks.items():
        if pid != caller and rid != own:
            for needle in (rid, board.area_name(board.area_index[rid])):
                assert needle not in text, (where, caller, pid, needle, text[:400])


@pytest.mark.parametrize("purpose", ["castillo_destination", "field_day", "hurricane"])
def test_no_scoring_or_module_card_disc_of_another_player_leaks(start_server, purpose):
    """The discs of a King and Intrigue general scoring and of the module cards (Field Day,
    Hurricane), audited like the classic ones (test_leaks.py): every endpoint and both websockets
    called with each seat's credential, a wrong one and none, while the discs are chosen and once
    all are; sockets held open through the whole choice audited frame by frame."""
    table = _table_at_disc(purpose)
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in table.players}
    ask = table.asked()
    choosers = list(ask.players)
    assert choosers, ask
    callers = list(table.players) + ["wrong", "none"]

    async def probe_all(session, picks: dict, phase: str) -> int:
        qid = table.question_id()
        checked = 0
        for caller in callers:
            seat = caller if caller in creds else None
            cred = creds.get(caller, secrets.token_urlsafe(32) if caller == "wrong" else None)
            auth = {"Authorization": f"Bearer {cred}"} if cred else {}
            other = next(p for p in table.players if p != seat)
            results = []
            for method, path, kw in [
                ("GET", "/", {}),
                ("GET", "/api/status", {}),
                ("GET", "/api/me", {"headers": auth}),
                ("GET", "/api/me", {"headers": auth, "params": {"seat": other}}),
                ("POST", "/api/pick", {"json": {"credential": cred or "x", "question": qid + "0", "region": KING}}),
                (
                    "POST",
                    "/api/pick",
                    {"json": {"credential": cred or "x", "question": qid, "region": KING, "player": other}},
                ),
            ]:
                status, text = await call(session, method, server, path, **kw)
                results.append((f"{method} {path}", status, text))
            hello = {"type": "hello", "credential": cred} if cred else {"type": "hello"}
            frames = [
                {"type": "pick", "credential": cred or "x", "question": "stale", "region": KING, "ref": 1},
                {"type": "pick", "credential": creds[other], "question": qid, "region": KING, "ref": 2},
            ]
            for text in await ws_frames(session, server, "/ws", hello, frames, lambda m: m.get("ref") == 2):
                results.append(("ws /ws", 101, text))
            for text in await ws_frames(session, server, "/ws/status", None, [hello], lambda m: m["type"] == "status"):
                results.append(("ws /ws/status", 101, text))
            for where, status, text in results:
                _disc_texts_audit(table, seat, f"{purpose} {phase} {caller} {where}", status, text, picks)
                checked += 1
        return checked

    async def main():
        async with aiohttp.ClientSession() as session:
            held = {pid: await session.ws_connect(url(server, "/ws")) for pid in creds}
            for pid, ws in held.items():
                await ws.send_json({"type": "hello", "credential": creds[pid]})
            held["spectator"] = await session.ws_connect(url(server, "/ws/status"))
            frames: dict[str, list[str]] = {who: [] for who in held}

            async def drain(who, ws):
                async for msg in ws:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        frames[who].append(msg.data)

            tasks = [asyncio.ensure_future(drain(who, ws)) for who, ws in held.items()]
            for pid in choosers:  # each phone shows the question before anyone picks
                await until_latest(
                    frames[pid],
                    pid,
                    "asking for its disc",
                    lambda m: m["type"] == "view" and m["question"]["state"] == "choose",
                )
            # Distinctive picks: regions no caller has seen named so far (so any later sight is a leak).
            seen = json.dumps(await probe_texts(session), ensure_ascii=False)
            board, picks = table.board, {}
            for pid in choosers:
                fresh = [
                    r
                    for r in ask.options["regions"][pid]
                    if r not in picks.values() and r not in seen and board.area_name(board.area_index[r]) not in seen
                ]
                assert fresh, f"{purpose}: no region for {pid} that no phone has seen named"
                picks[pid] = fresh[0]
            checked = 0
            for pid in choosers[:-1]:
                table.submit_private(pid, [picks[pid]])
            checked += await probe_all(session, {p: picks[p] for p in choosers[:-1]}, "open")
            table.submit_private(choosers[-1], [picks[choosers[-1]]])
            await until_latest(
                frames[choosers[-1]],
                choosers[-1],
                f"with its pick {picks[choosers[-1]]}",
                lambda m: m["type"] == "view" and (m["question"]["pick"] or {}).get("id") == picks[choosers[-1]],
            )
            checked += await probe_all(session, picks, "all chosen")
            for who, texts in frames.items():
                for text in texts:
                    _disc_texts_audit(table, who if who in creds else None, f"{purpose} held {who}", 101, text, picks)
                    checked += 1
            for ws in held.values():
                await ws.close()
            await asyncio.gather(*tasks)
            return checked

    async def probe_texts(session) -> list[str]:
        """Everything the phones and a spectator read before any pick (the regions offered left out)."""
        texts = []
        for _pid, cred in creds.items():
            status, text = await call(session, "GET", server, "/api/me", headers={"Authorization": f"Bearer {cred}"})
            body = json.loads(text)
            if body.get("type") == "view":
                body = {**body, "question": {**body["question"], "regions": [], "options": []}}
            texts.append(json.dumps(body, ensure_ascii=False))
        texts.append((await call(session, "GET", server, "/api/status"))[1])
        return texts

    checked = asyncio.run(asyncio.wait_for(main(), 90))
    assert checked > 60, checked
