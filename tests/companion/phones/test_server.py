"""The phone server's HTTP and websocket API against the real table authority."""

from __future__ import annotations

import asyncio
import ipaddress
import json

import aiohttp
import pytest

from companion.phones import PhoneServer, lan_address
from engine.events import CastilloCounted, SecretDiscSet, SecretDiscsRevealed
from tests.companion.phones.conftest import (
    NAMES,
    PICKS,
    PLAYERS,
    code_of,
    http,
    join,
    make_table,
    seat_state,
    status_of,
    to_general_scoring,
    to_special_disc,
    wait_for,
)
from tests.companion.phones.wsclient import frame, phone, pick, quiet, run, spectator, until


def is_view(m):
    return m["type"] == "view"


def test_join_once_then_410(start_server):
    table = make_table()
    server = start_server(table)
    events = []
    server.subscribe(events.append)
    seat_url = server.seat_url("red")
    assert seat_url.startswith(f"http://127.0.0.1:{server.port}/join/")
    code = code_of(server, "red")
    status, headers, body = http(server, "GET", f"/join/{code}")
    assert status == 200 and b"<html" in body and headers["Cache-Control"] == "no-store"
    fresh = server.seats_status()["red"]
    assert fresh["code"] == "open" and 290 < fresh["expires_in"] <= 300
    assert {k: fresh[k] for k in ("joined", "connected", "awaiting")} == {
        "joined": False,
        "connected": False,
        "awaiting": None,
    }
    status, _, body = http(
        server,
        "POST",
        "/api/join",
        {"code": code},
        headers={
            "User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 "
            "(KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
        },
    )
    assert status == 200
    answer = json.loads(body)
    assert answer["seat"] == "red" and len(answer["credential"]) >= 43
    # Joined but not confirmed: the tablet is asked, with the phone's number and what it is.
    phone = server.seats.phone("red")
    assert server.seats_status()["red"] == {
        "joined": False,
        "connected": False,
        "awaiting": phone.serial,
        "code": None,
        "expires_in": None,
    }
    assert server.confirmations() == [
        {
            "seat": "red",
            "phone": phone.serial,
            "question": "Is this Ana's phone?",
            "detail": f"Its screen shows {phone.number} (Chrome on Android)",
        }
    ]
    assert server.seat_url("red") is None  # a phone holds the seat: no code to show until revoked
    assert server.confirm("red", phone.serial + 1) is False  # not the phone the tablet was shown
    assert server.confirm("red", phone.serial) and server.confirmations() == []
    assert seat_state(server, "red") == {"joined": True, "connected": False}
    wait_for(lambda: "seats" in events, what="a seats event")
    # The code is spent: a second use gets a clear 4xx, as a page and through the API.
    status, _, body = http(server, "GET", f"/join/{code}")
    assert status == 410 and b"already used" in body and b"<html" in body
    status, _, body = http(server, "POST", "/api/join", {"code": code})
    assert status == 410 and "already used" in json.loads(body)["error"]
    status, _, body = http(server, "GET", "/join/not-a-code")
    assert status == 410 and b"not valid" in body


def test_the_tablet_question_names_the_seat_a_phone_holds_already(start_server):
    """One phone spends a second seat's code: the tablet's question says whose seat it holds."""
    server = start_server(make_table())
    ana = join(server, "red")

    def joined(pid, held=None):
        body = {"code": code_of(server, pid), **({"credential": held} if held is not None else {})}
        status, _, raw = http(server, "POST", "/api/join", body)
        assert status == 200, raw

    def question(pid):
        return next(c["question"] for c in server.confirmations() if c["seat"] == pid)

    joined("yellow", held=ana)
    assert question("yellow") == "Is this Bruno's phone? This phone already holds Ana's seat."
    joined("green")  # another phone, or a page from before: nothing to name
    joined("blue", held="x" * 43)  # a credential nobody holds
    assert question("green") == "Is this Carmen's phone?" and question("blue") == "Is this Dora's phone?"
    server.revoke("red")  # Ana's seat no longer has that phone: nothing to name either
    assert question("yellow") == "Is this Bruno's phone?"


def test_codes_expire_and_the_tablet_is_told(start_server):
    table = make_table()
    server = PhoneServer(table, host="127.0.0.1", code_lifetime=0.4).start()
    try:
        events = []
        server.subscribe(events.append)
        code = code_of(server, "blue")
        assert http(server, "GET", f"/join/{code}")[0] == 200
        # The tablet hears of the expiry by itself (it redraws the QR code as expired).
        wait_for(lambda: server.seats_status()["blue"]["code"] == "expired", what="the code expired")
        wait_for(lambda: "seats" in events, what="a seats event at the expiry")
        assert server.seat_url("blue") is None
        status, _, body = http(server, "GET", f"/join/{code}")
        assert status == 410 and b"This code has expired" in body and b"ask the tablet for a new one" in body
        status, _, body = http(server, "POST", "/api/join", {"code": code})
        assert status == 410 and json.loads(body)["error"].startswith("This code has expired: ask the tablet")
        # "New code": a fresh one works; the expired one still does not; the one before says replaced.
        new_url = server.revoke("blue")
        assert new_url == server.seat_url("blue") and server.seats_status()["blue"]["code"] == "open"
        newer = server.revoke("blue")
        status, _, body = http(server, "POST", "/api/join", {"code": new_url.rsplit("/", 1)[1]})
        assert status == 410 and "new code" in json.loads(body)["error"]
        assert http(server, "POST", "/api/join", {"code": newer.rsplit("/", 1)[1]})[0] == 200
    finally:
        server.stop()


def test_an_unconfirmed_phone_sees_nothing_and_no_sends_it_away(start_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    cred = join(server, "green", confirm=False)
    qid = table.question_id()

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await phone(session, server, cred)
            waiting = await frame(ws)
            number = server.seats.phone("green").number
            assert (
                waiting
                == {
                    "type": "pending",
                    "seat": {"id": "green", "name": "Carmen", "colour": "Green"},
                    "number": number,
                    "title": "Waiting for the tablet",
                    "hint": waiting["hint"],
                }
                and "Carmen's phone" in waiting["hint"]
            )
            status, _, body = http(server, "GET", "/api/me", headers={"Authorization": "Bearer " + cred})
            assert status == 200 and json.loads(body) == waiting
            err = await pick(ws, cred, qid, "aragon")
            assert err["status"] == 403 and "not confirmed" in err["message"]
            status, _, body = http(
                server, "POST", "/api/pick", {"credential": cred, "question": qid, "region": "aragon"}
            )
            assert status == 403 and table.private("green")["secret_disc"] is None
            assert await quiet(ws) == []  # the socket stays open, and nothing private came
            assert not status_of(server)["seats"][2]["joined"]
            # No: the phone is told and forgotten; the seat gets a new code.
            serial = server.seats_status()["green"]["awaiting"]
            new_url = await asyncio.get_running_loop().run_in_executor(None, server.reject, "green", serial)
            assert new_url and new_url == server.seat_url("green")
            msg = await asyncio.wait_for(ws.receive(), 2)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4401 and "not Carmen's phone" in msg.extra
            assert http(server, "GET", "/api/me", headers={"Authorization": "Bearer " + cred})[0] == 401
            # The next phone joins; Yes: its socket gets the private view at once.
            cred2 = join(server, "green", confirm=False)
            ws2 = await phone(session, server, cred2)
            assert (await frame(ws2))["type"] == "pending"
            serial2 = server.seats_status()["green"]["awaiting"]
            assert server.reject("green", serial) is None  # a stale No changes nothing
            assert server.confirm("green", serial2)
            view = await frame(ws2)
            assert view["type"] == "view" and view["question"]["state"] == "choose"
            assert (await pick(ws2, cred2, view["question"]["id"], "aragon"))["ok"]
            assert table.private("green")["secret_disc"] == "aragon"

    run(main())


def test_a_seat_keeps_its_newest_sockets(start_server):
    server = start_server(make_table())
    cred = join(server, "red")

    async def main():
        async with aiohttp.ClientSession() as session:
            socks = [await phone(session, server, cred) for _ in range(server.limits.sockets_per_seat)]
            for ws in socks:
                assert (await frame(ws))["type"] == "view"
            newest = await phone(session, server, cred)
            assert (await frame(newest))["type"] == "view"
            msg = await asyncio.wait_for(socks[0].receive(), 2)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4409
            assert await quiet(socks[1], 0.1) == []

    run(main())


def test_seat_urls_use_the_lan_address():
    addr = lan_address()
    ipaddress.IPv4Address(addr)
    server = PhoneServer(make_table(), host="0.0.0.0").start()
    try:
        assert server.seat_url("blue").startswith(f"http://{addr}:{server.port}/join/")
        with pytest.raises(KeyError):
            server.seat_url("purple")
    finally:
        server.stop()
        server.stop()  # twice is fine


def test_me_needs_the_right_credential(start_server):
    server = start_server(make_table())
    cred = join(server, "red")
    for headers in (
        {},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic abc"},
        {"Authorization": "Bearer " + "x" * 43},
        {"Authorization": "Bearer " + cred[:-1] + "?"},
    ):
        status, _, body = http(server, "GET", "/api/me", headers=headers)
        assert status == 401
        assert "credential" in json.loads(body)["error"].lower() or "QR code" in json.loads(body)["error"]
    status, _, body = http(server, "GET", "/api/me", headers={"Authorization": "Bearer " + cred})
    view = json.loads(body)
    assert status == 200 and view["seat"] == {"id": "red", "name": "Ana", "colour": "Red"}
    assert view["question"]["state"] == "waiting"


def test_scoring_general_scoring_from_phones(start_server):
    """Pick, change, all chosen, Castillo counted (locked), revealed; stale and late picks refused."""
    table = make_table("scoring")
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in PLAYERS}

    async def main():
        async with aiohttp.ClientSession() as session:
            socks = {pid: await phone(session, server, creds[pid]) for pid in PLAYERS}
            for ws in socks.values():
                assert (await frame(ws))["question"]["state"] == "waiting"
            to_general_scoring(table)
            views = {pid: await until(ws, lambda m: m["question"]["state"] == "choose") for pid, ws in socks.items()}
            red = views["red"]
            assert [r["id"] for r in red["question"]["regions"]] == list(server.board.region_ids)
            assert red["question"]["waiting_for"] == [NAMES[p] for p in PLAYERS]
            qid = red["question"]["id"]
            # Red picks Aragón, then changes to Sevilla.
            assert (await pick(socks["red"], creds["red"], qid, "aragon", 1))["ok"]
            assert (await pick(socks["red"], creds["red"], qid, PICKS["red"], 2))["ok"]
            assert table.private("red")["secret_disc"] == PICKS["red"]
            m = await until(
                socks["red"],
                lambda m: is_view(m) and m["question"]["pick"] and m["question"]["pick"]["id"] == PICKS["red"],
            )
            assert m["question"]["state"] == "choose"
            # A stale question id is refused with a clear message.
            err = await pick(socks["red"], creds["red"], qid + "x", "granada", 3)
            assert err["type"] == "error" and err["status"] == 409 and "no longer open" in err["message"]
            # Someone else's credential on red's socket: refused, and that socket is closed.
            spare = await phone(session, server, creds["red"])
            await frame(spare)
            err = await pick(spare, creds["yellow"], qid, "granada", 9)
            assert err["status"] == 403 and table.private("yellow")["secret_disc"] is None
            assert (await spare.receive()).data == 4403
            for pid in ("yellow", "green", "blue"):
                assert (await pick(socks[pid], creds[pid], qid, PICKS[pid], 1))["ok"]
            status = wait_for(lambda: (s := status_of(server))["choice"] == "all_chosen" and s, what="all chosen")
            assert all(s["chosen"] for s in status["seats"])
            # All have chosen: a change is still allowed until the Castillo is lifted.
            assert (await pick(socks["blue"], creds["blue"], qid, "granada", 2))["ok"]
            assert (await pick(socks["blue"], creds["blue"], qid, PICKS["blue"], 3))["ok"]
            table.submit(CastilloCounted(counts={"red": 2, "green": 1}))
            locked = await until(socks["red"], lambda m: is_view(m) and m["question"]["state"] == "locked")
            assert locked["question"]["pick"]["id"] == PICKS["red"] and locked["question"]["regions"] == []
            wait_for(lambda: status_of(server)["choice"] == "locked", what="locked")
            # The old question id is now stale; the new one is refused too (discs locked).
            err = await pick(socks["red"], creds["red"], qid, "granada", 4)
            assert err["status"] == 409
            err = await pick(socks["red"], creds["red"], locked["question"]["id"], "granada", 5)
            assert err["status"] == 409 and "locked" in err["message"]
            table.submit(SecretDiscsRevealed())
            for pid, ws in socks.items():
                done = await until(ws, lambda m: is_view(m) and m["question"]["state"] == "revealed")
                assert done["question"]["pick"]["id"] == PICKS[pid]
            err = await pick(socks["red"], creds["red"], locked["question"]["id"], "granada", 6)
            assert err["status"] == 409
            assert table.asked().kind == "play_round"

    run(main())


def test_http_pick_and_region_checks(start_server):
    table = make_table("scoring")
    server = start_server(table)
    cred = join(server, "green")
    to_general_scoring(table)
    qid = table.question_id()
    ok = http(server, "POST", "/api/pick", {"credential": cred, "question": qid, "region": "pais_vasco"})
    assert ok[0] == 200 and json.loads(ok[2]) == {"ok": True}
    assert table.private("green")["secret_disc"] == "pais_vasco"
    bad = http(server, "POST", "/api/pick", {"credential": cred, "question": qid, "region": "castillo"})
    assert bad[0] == 422 and "not one of your choices" in json.loads(bad[2])["error"]
    bad = http(server, "POST", "/api/pick", {"credential": "nope" * 11, "question": qid, "region": "aragon"})
    assert bad[0] == 401
    bad = http(server, "POST", "/api/pick", {"question": qid, "region": "aragon"})
    assert bad[0] == 400 and "credential" in json.loads(bad[2])["error"]
    assert table.private("green")["secret_disc"] == "pais_vasco"


def test_send_back_offers_only_allowed_regions_and_others_wait(start_server):
    table, purpose = to_special_disc(("send_back",))
    server = start_server(table)
    ask = table.asked()
    creds = {pid: join(server, pid) for pid in PLAYERS}
    asked = list(ask.players)
    outsider = next(p for p in PLAYERS if p not in asked)

    async def main():
        async with aiohttp.ClientSession() as session:
            for pid in PLAYERS:
                ws = await phone(session, server, creds[pid])
                view = await frame(ws)
                q = view["question"]
                if pid == outsider:
                    assert q["state"] == "waiting" and q["regions"] == [] and q["pick"] is None
                    err = await pick(ws, creds[pid], q["id"], "aragon")
                    assert err["status"] == 409 and "No secret choice" in err["message"]
                    continue
                allowed = ask.options["regions"][pid]
                assert q["state"] == "choose" and [r["id"] for r in q["regions"]] == allowed
                wrong = next(r for r in server.board.region_ids if r not in allowed)
                err = await pick(ws, creds[pid], q["id"], wrong)
                assert err["status"] == 422
                assert (await pick(ws, creds[pid], q["id"], allowed[0], 2))["ok"]
                await ws.close()

    run(main())
    assert purpose == "send_back"


def test_tracking_changes_allowed_until_reveal(start_server):
    """The engine accepts a repeated SecretDiscSet until the reveal (tracking mode)."""
    table = make_table("tracking")
    to_general_scoring(table)
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in PLAYERS}

    async def main():
        async with aiohttp.ClientSession() as session:
            socks = {pid: await phone(session, server, creds[pid]) for pid in PLAYERS}
            qid = (await frame(socks["red"]))["question"]["id"]
            for pid in PLAYERS:
                assert (await pick(socks[pid], creds[pid], qid, PICKS[pid]))["ok"]
            assert table.asked().kind == "reveal_secret_discs"
            # Everyone has chosen: still changeable (the picker stays; the allowed list is remembered).
            m = await until(socks["red"], lambda m: is_view(m) and not m["question"]["waiting_for"])
            assert m["question"]["state"] == "choose" and len(m["question"]["regions"]) == 9
            assert (await pick(socks["red"], creds["red"], qid, "valencia", 7))["ok"]
            assert table.private("red")["secret_disc"] == "valencia"
            castillo = table.private("red")["castillo"]
            table.submit(SecretDiscsRevealed())
            m = await until(socks["red"], lambda m: is_view(m) and m["question"]["state"] == "revealed")
            assert m["question"]["pick"]["id"] == "valencia"
            err = await pick(socks["red"], creds["red"], qid, "granada", 8)
            assert err["status"] == 409
            assert castillo >= 0

    run(main())


def test_no_message_to_anyone_when_another_seat_changes_its_pick(start_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in PLAYERS}

    async def main():
        async with aiohttp.ClientSession() as session:
            red = await phone(session, server, creds["red"])
            blue = await phone(session, server, creds["blue"])
            spec = await spectator(session, server)
            qid = (await frame(red))["question"]["id"]
            await frame(blue)
            await until(spec, lambda m: m["seats"][3]["connected"])
            assert (await pick(blue, creds["blue"], qid, "granada"))["ok"]
            await until(red, lambda m: m["question"]["waiting_for"] == ["Ana", "Bruno", "Carmen"])
            s = await until(spec, lambda m: m["seats"][3]["chosen"])
            for i in range(2, 5):  # blue changes its mind: nothing visible changes for anyone else
                assert (await pick(blue, creds["blue"], qid, ["aragon", "valencia", "sevilla"][i - 2], i))["ok"]
            assert await quiet(red) == [] and await quiet(spec) == []
            assert status_of(server)["seq"] == s["seq"]

    run(main())


def test_revoke_cuts_the_phone_off_at_once(start_server):
    table = make_table("scoring")
    server = start_server(table)
    cred = join(server, "yellow")
    events = []
    server.subscribe(events.append)

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await phone(session, server, cred)
            await frame(ws)
            wait_for(lambda: server.seats_status()["yellow"]["connected"], what="connected")
            new_url = await asyncio.get_running_loop().run_in_executor(None, server.revoke, "yellow")
            # The credential stops working before revoke returns.
            assert http(server, "GET", "/api/me", headers={"Authorization": "Bearer " + cred})[0] == 401
            msg = await asyncio.wait_for(ws.receive(), 2)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4401
            assert new_url and new_url == server.seat_url("yellow")
            wait_for(lambda: seat_state(server, "yellow") == {"joined": False, "connected": False}, what="seat free")
            again = await phone(session, server, cred)
            msg = await asyncio.wait_for(again.receive(), 2)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4401
            # The new code works once.
            cred2 = join(server, "yellow")
            assert cred2 != cred

    run(main())
    assert "seats" in events


def test_reconnect_gets_the_current_view_with_own_pick(start_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    cred = join(server, "red")

    async def main():
        async with aiohttp.ClientSession() as session:
            ws = await phone(session, server, cred)
            view = await frame(ws)
            assert (await pick(ws, cred, view["question"]["id"], "sevilla"))["ok"]
            await ws.close()
            wait_for(lambda: not server.seats_status()["red"]["connected"], what="disconnected")
            ws = await phone(session, server, cred)
            again = await frame(ws)
            assert again["question"]["pick"]["id"] == "sevilla" and again["seq"] > view["seq"]
            assert seat_state(server, "red") == {"joined": True, "connected": True}

    run(main())


def test_status_feed_is_live_and_sequenced(start_server):
    table = make_table("scoring")
    server = start_server(table)

    async def main():
        async with aiohttp.ClientSession() as session:
            spec = await spectator(session, server)
            first = await frame(spec)
            assert first["type"] == "status" and first["choice"] == "none"
            to_general_scoring(table)
            seen = [first]
            await until(spec, lambda m: m["choice"] == "open", seen=seen)
            table.submit(SecretDiscSet(player="red", region="aragon"))
            m = await until(spec, lambda m: m["seats"][0]["chosen"], seen=seen)
            assert m["seats"][0] == {
                "id": "red",
                "name": "Ana",
                "colour": "Red",
                "joined": False,
                "connected": False,
                "asked": True,
                "chosen": True,
            }
            seqs = [s["seq"] for s in seen]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
            assert server.status()["seq"] == seqs[-1]

    run(main())


def test_a_busy_port_is_an_oserror_the_app_can_fall_back_from(start_server):
    first = start_server(make_table())
    with pytest.raises(OSError) as busy:
        PhoneServer(make_table(), host="127.0.0.1", port=first.port).start()
    assert busy.value.errno is not None and busy.value.strerror


def test_the_pause_glue_sees_a_running_phone_server_and_one_stopped():
    """lifecycle.phones_running is what Android's resume asks before restarting the phones: a
    running server must not be restarted (its seats' codes would change), a stopped one must."""
    from companion.ui.platform import lifecycle

    server = PhoneServer(make_table(), host="127.0.0.1").start()
    try:
        assert lifecycle.phones_running(server)
    finally:
        server.stop()
    assert not lifecycle.phones_running(server)
