"""The 2023 edition on the phones: a player's own Power and Modifier cards, Power Shift's deal
and pass made on the phones at the same time, the discs of Civil War, Coup and Competition
saying what they are for, a card taken back, and the 2023 Veto answered from a holder's phone.

Real parts: the aiohttp phone server on a loopback port, websockets and HTTP from aiohttp and
http.client, a real table playing the 2023 rules (the self-play stand-in board and card files
standing in for a table's own)."""

from __future__ import annotations

import json
import random
from collections import Counter

import aiohttp
import pytest

from companion.phones.views import modifier_faces
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine import events as ev
from tests.companion.phones.conftest import http, join, make_table, wait_for
from tests.companion.phones.game2023 import (
    NAMES,
    disc_purpose,
    find_table,
    grande_in_castillo_scoring,
    play_until,
    setup_2023,
    table_2023,
)
from tests.companion.phones.wsclient import phone, run, until

# Deals that are legal together, by face (see test_faces_group_twins_...): Ana holds both
# copies of the plain +1, Bruno both plain -1.
DEALS = {
    "purple": ["card8", "card8", "card1"],
    "blue": ["card5", "card14", "card5"],
    "green": ["card2", "card3", "card4"],
    "orange": ["card6", "card7", "card9"],
}


def me(server, cred: str) -> dict:
    status, _, body = http(server, "GET", "/api/me", headers={"Authorization": f"Bearer {cred}"})
    assert status == 200, body
    return json.loads(body)


def choose(server, cred: str, question: str, values: list) -> tuple[int, dict]:
    status, _, body = http(server, "POST", "/api/choose", {"credential": cred, "question": question, "values": values})
    return status, json.loads(body)


def faces_of(table: Table, pid: str) -> list[str]:
    faces = modifier_faces(table.state.modifiers)
    return [o.id for o in faces.hand(table.private(pid)["modifiers_in_hand"])]


def seated(start_server, table: Table):
    server = start_server(table)
    return server, {pid: join(server, pid) for pid in table.players}


def test_faces_group_twins_and_name_no_card_id():
    """Cards printed alike are one face: a player cannot tell twins apart, and a face key says
    nothing of which copy anyone holds."""
    table = table_2023()
    faces = modifier_faces(table.state.modifiers)
    assert sum(len(ids) for ids in faces.ids.values()) == 16 and len(faces.ids) == 14
    assert [o.label for o in faces.options.values()][:2] == ["Stand-in −3", "Stand-in −2"]
    assert faces.ids["card8"] == ["stand_in_plus_1_a", "stand_in_plus_1_b"]
    assert faces.options["card9"].note == "Take 1 more Caballero from the Province to your Court."
    assert faces.options["card8"].note == "no ability"
    assert not any(mid in json.dumps([o.model_dump() for o in faces.options.values()]) for mid in table.state.modifiers)


def test_dealt_cards_entered_on_the_phones_at_once_and_shown_to_their_owner(start_server):
    table = table_2023()
    server, creds = seated(start_server, table)

    async def main():
        async with aiohttp.ClientSession() as session:
            sockets = {pid: await phone(session, server, cred) for pid, cred in creds.items()}
            views = {pid: await until(ws, lambda m: m["type"] == "view") for pid, ws in sockets.items()}
            for v in views.values():
                q = v["question"]
                assert q["state"] == "choose" and q["kind"] == "cards" and q["count"] == 3
                assert q["title"] == "Your Modifier cards" and "Nobody else sees them" in q["hint"]
                assert len(q["options"]) == 14 and {o["id"]: o["most"] for o in q["options"]}["card8"] == 2
                assert v["facts"]["modifiers"] == [] and v["facts"]["power_cards"] == list(range(1, 14))
            # Everyone confirms at the same moment.
            for i, (pid, ws) in enumerate(sockets.items()):
                await ws.send_json(
                    {
                        "type": "choose",
                        "credential": creds[pid],
                        "question": views[pid]["question"]["id"],
                        "values": DEALS[pid],
                        "ref": i,
                    }
                )
            for i, ws in enumerate(sockets.values()):
                result = await until(ws, lambda m: m["type"] in ("result", "error") and m.get("ref") == i)
                assert result["type"] == "result", result
            for pid, ws in sockets.items():
                v = await until(
                    ws,
                    lambda m: (
                        m["type"] == "view"
                        and m["facts"]["modifiers"]
                        and m["question"]["kind"] == "cards"
                        and m["question"]["id"].split("-")[1] == "modifiers_pass"
                    ),
                )
                assert sorted(o["id"] for o in v["facts"]["modifiers"]) == sorted(DEALS[pid])
            for ws in sockets.values():
                await ws.close()

    run(main())
    for pid in table.players:
        assert sorted(faces_of(table, pid)) == sorted(DEALS[pid])
    assert table.asked().kind == "pass_modifier"
    # The plain text a player reads: their own cards, each with its ability.
    mods = me(server, creds["orange"])["facts"]["modifiers"]
    assert [(m["label"], m["note"]) for m in mods] == [
        ("Stand-in −1", "Take 1 more Caballero from the Province to your Court."),
        ("Stand-in −1", "Place 1 Caballero from your Court in any region."),
        ("Stand-in +1", "Take 1 more Caballero from the Province to your Court."),
    ]


def test_a_deal_the_cards_cannot_match_is_refused_three_times_then_left_to_the_tablet(start_server):
    table = table_2023()
    server, creds = seated(start_server, table)
    qid = me(server, creds["purple"])["question"]["id"]
    assert choose(server, creds["purple"], qid, DEALS["purple"]) == (200, {"ok": True})
    # Ana entered both plain +1 cards: a third is a mistake somewhere at the table.
    status, body = choose(server, creds["blue"], qid, ["card8", "card5", "card14"])
    assert status == 409 and "more of these cards would be entered than the set has" in body["error"]
    assert "Stand-in +1" in body["error"] and "stand_in" not in body["error"]
    for values, why in (
        (["card1", "card2"], "Pick 3 cards, not 2"),
        (["card1", "card1", "card2"], "only 1"),
        (["card99", "card2", "card3"], "not one of the Modifier cards"),
        (["stand_in_plus_2_a", "card2", "card3"], "not one of the Modifier cards"),
    ):
        status, body = choose(server, creds["blue"], qid, values)
        assert status == 422 and why in body["error"], (values, body)
    for _ in range(2):
        assert choose(server, creds["blue"], qid, ["card1", "card5", "card14"])[0] == 409  # Ana holds the -3
    status, body = choose(server, creds["blue"], qid, DEALS["blue"])  # right, but the phone had its tries
    assert status == 409 and "refused 3 times" in body["error"] and "tablet's private screen" in body["error"]
    assert table.private("blue")["modifiers_in_hand"] == []
    pick = table.private_question("blue")
    table.submit_private("blue", ["stand_in_minus_1_a", "stand_in_minus_1_b", "stand_in_plus_3_a"])
    wait_for(lambda: me(server, creds["blue"])["question"]["state"] == "waiting", what="Bruno's cards entered")
    assert pick is not None and faces_of(table, "blue") == ["card5", "card5", "card14"]
    # Other seats still have all their tries.
    assert choose(server, creds["green"], qid, DEALS["green"]) == (200, {"ok": True})


def _deal_all(table: Table) -> None:
    faces = modifier_faces(table.state.modifiers)
    for pid, values in DEALS.items():
        ids = []
        for face in values:
            ids.append(next(m for m in faces.ids[face] if m not in ids))
        table.submit_private(pid, ids)


def test_the_pass_to_the_left_on_the_phones_at_the_same_time(start_server):
    table = table_2023()
    _deal_all(table)
    before = {pid: faces_of(table, pid) for pid in table.players}
    to = table.asked().options["to"]
    server, creds = seated(start_server, table)
    passes = {"purple": "card1", "blue": "card14", "green": "card3", "orange": "card9"}
    qids = []

    async def main():
        async with aiohttp.ClientSession() as session:
            sockets = {pid: await phone(session, server, cred) for pid, cred in creds.items()}
            views = {pid: await until(ws, lambda m: m["type"] == "view") for pid, ws in sockets.items()}
            for pid, v in views.items():
                q = v["question"]
                assert q["state"] == "choose" and q["count"] == 1 and q["chosen"] == []
                assert NAMES[to[pid]] in q["hint"] and "face down" in q["hint"]
                assert [o["id"] for o in q["options"]] == list(dict.fromkeys(before[pid]))  # twins once
            # Ana first passes her plain +1, then changes her mind; the others answer meanwhile.
            qid = views["purple"]["question"]["id"]
            qids.append(qid)
            await sockets["purple"].send_json(
                {"type": "choose", "credential": creds["purple"], "question": qid, "values": ["card8"], "ref": 1}
            )
            mine = await until(sockets["purple"], lambda m: m["type"] == "view" and m["question"]["chosen"])
            assert [o["id"] for o in mine["question"]["chosen"]] == ["card8"]
            assert table.asked().kind == "pass_modifier" and table.private_waiting() == ["blue", "green", "orange"]
            for i, (pid, ws) in enumerate(sockets.items()):
                await ws.send_json(
                    {
                        "type": "choose",
                        "credential": creds[pid],
                        "question": qid,
                        "values": [passes[pid]],
                        "ref": 10 + i,
                    }
                )
            for i, ws in enumerate(sockets.values()):
                result = await until(ws, lambda m: m["type"] in ("result", "error") and m.get("ref") == 10 + i)
                assert result["type"] == "result", result
            for ws in sockets.values():
                await ws.close()

    run(main())
    assert table.asked().kind != "pass_modifier"
    came_from = {left: right for right, left in to.items()}
    for pid in table.players:
        expected = Counter(before[pid]) - Counter([passes[pid]]) + Counter([passes[came_from[pid]]])
        assert Counter(faces_of(table, pid)) == expected, pid
        wait_for(
            lambda: Counter(o["id"] for o in me(server, creds[pid])["facts"]["modifiers"]) == expected,
            what=f"{pid}'s hand after the pass",
        )
    # Once the cards changed hands, nothing is asked and a late pass is refused as stale.
    assert me(server, creds["blue"])["question"]["state"] == "waiting"
    status, body = choose(server, creds["blue"], qids[0], ["card5"])
    assert status == 409 and "no longer open" in body["error"]


@pytest.mark.parametrize("case", ["civil_war", "coup", "competition"])
def test_the_2023_discs_say_what_they_are_for(start_server, case):
    wanted = {
        "civil_war": disc_purpose("civil_war"),
        "coup": disc_purpose("eviction_destination", "coup"),
        "competition": grande_in_castillo_scoring,
    }[case]
    table = find_table(wanted)
    ask = table.asked()
    server, creds = seated(start_server, table)
    titles = {
        "civil_war": "Civil War: choose a region where you have at least one Caballero",
        "coup": "Coup: where do your Caballeros go?",
        "competition": "General scoring: where do your Castillo Caballeros and your Grande go?",
    }
    in_castillo = {p["id"] for p in table.public().game["players"] if p["grande"] == "castillo"}
    for pid in table.players:
        q = me(server, creds[pid])["question"]
        if pid not in ask.players:
            assert q["state"] == "waiting" and q["regions"] == [], (pid, q)
            continue
        assert q["state"] == "choose" and q["kind"] == "disc"
        assert [r["id"] for r in q["regions"]] == ask.options["regions"][pid]  # the engine's list only
        if case != "competition" or pid in in_castillo:
            assert q["title"] == titles[case], q["title"]
        if case == "civil_war":
            assert "at least one" in q["hint"] and "King's region" in q["hint"]
            king = table.public().game["king"]
            assert king not in ask.options["regions"][pid]
            assert all(table.public().game["regions"][r].get(pid) for r in ask.options["regions"][pid])
        elif case == "coup":
            chosen = table.effective[-1]["e"]
            assert chosen["type"] == "region_chosen"  # the Coup's player chose the region first (public)
            assert (
                f"All your Caballeros in {table.board.area_name(table.board.area_index[chosen['region']])}" in q["hint"]
            ), q["hint"]
        elif pid in in_castillo:
            assert "Grande" in q["hint"] and "King's region" in q["hint"]
            assert table.public().game["king"] not in [r["id"] for r in q["regions"]]
    # The choices go through the phones, then the discs are turned up together.
    for pid in ask.players:
        region = ask.options["regions"][pid][-1]
        status, _, body = http(
            server,
            "POST",
            "/api/pick",
            {"credential": creds[pid], "question": me(server, creds[pid])["question"]["id"], "region": region},
        )
        assert status == 200, body
        assert table.private(pid)["secret_disc"] == region
    assert table.asked().kind in ("reveal_secret_discs", "count_castillo")


def test_with_the_king_by_the_castillo_the_phones_say_no_disc_is_set(start_server):
    """Rebellion: at the general scoring the King stands by the Castillo; nobody sets a disc."""
    table = find_table(lambda t, a: a.options.get("castillo_stays") is True, modules=("new-regency",))
    server, creds = seated(start_server, table)
    for pid in table.players:
        q = me(server, creds[pid])["question"]
        assert (q["state"], q["title"], q["regions"]) == ("waiting", "The King stands by the Castillo", [])
        assert "Nobody sets a disc" in q["hint"] and q["waiting_for"] == []
    status, _, body = http(
        server, "POST", "/api/pick", {"credential": creds["purple"], "question": q["id"], "region": "galicia"}
    )
    assert status == 409 and "No secret choice" in json.loads(body)["error"]


def test_a_card_taken_back_on_the_phone(start_server):
    table = find_table(lambda t, a: a.kind == "take_back_power_card" and a.options.get("modifiers"))
    ask = table.asked()
    pid = ask.players[0]
    server, creds = seated(start_server, table)
    q = me(server, creds[pid])["question"]
    assert q["state"] == "choose" and q["kind"] == "cards" and q["title"] == "Take a card back"
    ids = [o["id"] for o in q["options"]]
    assert ids[: len(ask.options["cards"])] == [f"power:{c}" for c in ask.options["cards"]]
    assert all(not i.startswith("stand_in") for i in ids)
    for other in table.players:
        if other != pid:
            assert me(server, creds[other])["question"]["state"] != "choose"
            assert choose(server, creds[other], q["id"], [ids[0]])[0] == 409
    face = ids[-1]  # a Modifier card, by face
    assert choose(server, creds[pid], q["id"], [face]) == (200, {"ok": True})
    last = table.effective[-1]["e"]
    assert last["type"] == "modifier_taken_back" and last["player"] == pid
    assert modifier_faces(table.state.modifiers).face_of[last["modifier"]] == face
    p = table.players.index(pid)  # back in the hand now, or with this round's card at its end
    assert last["modifier"] in table.private(pid)["modifiers_in_hand"] or table.state.modifier_take_back[p]


def two_veto_holders() -> Table:
    """A 2023 game (no module) whose card file has two Veto cards, tracked from a position where
    Bruno and Carmen hold one each, played until a special action is announced."""
    setup = setup_2023(4, ())
    cards = dict(setup.cards_file)
    cards["cards"] = [
        dict(c, copies={"veto": 2, "withdrawal": 1}.get(c["id"], c.get("copies"))) for c in cards["cards"]
    ]
    setup = setup.model_copy(update={"cards_file": cards})
    for seed in range(40):
        table = Table(TableSetup(game=setup, mode="tracking", tower={"kind": "none"}))
        table.submit(ev.TableCorrected(vetoes=["blue", "green"], round=1))
        if play_until(table, lambda t, a: a.kind == "veto" and len(a.players) == 2, random.Random(seed)):
            return table
    raise AssertionError("no special action announced with two Veto holders")


@pytest.mark.parametrize("answer", ["pass", "use"])
def test_the_2023_veto_asks_every_holder_at_once_on_their_phone(start_server, answer):
    table = two_veto_holders()
    ask = table.asked()
    against, card = ask.options["against"], table.board.cards[ask.card].name
    server, creds = seated(start_server, table)
    views = {pid: me(server, creds[pid]) for pid in table.players}
    for pid in ("blue", "green"):
        q = views[pid]["question"]
        assert q["kind"] == "veto" and q["state"] == "choose"
        assert q["title"] == f"Veto: stop {NAMES[against]}'s {card}?"
        assert "all or nothing" in q["hint"] and "whole special action" in q["hint"]
        assert [o["id"] for o in q["options"]] == ["use", "pass"]
    for pid in ("purple", "orange"):
        assert views[pid]["question"]["kind"] == "disc" and views[pid]["question"]["state"] == "waiting"
        assert choose(server, creds[pid], views[pid]["question"]["id"], ["use"])[0] == 409
    qid = views["blue"]["question"]["id"]
    status, body = choose(server, creds["blue"], qid, ["maybe"])
    assert status == 422 and "use your Veto" in body["error"]

    async def both_at_once():
        async with aiohttp.ClientSession() as session:
            sockets = {pid: await phone(session, server, creds[pid]) for pid in ("blue", "green")}
            for _pid, ws in sockets.items():
                await until(ws, lambda m: m["type"] == "view")
            # Both answer the question as it was put to them; a Veto used goes after the other's
            # "let it pass" (used first, the special action is over and a late answer is moot).
            await sockets["blue"].send_json(
                {"type": "choose", "credential": creds["blue"], "question": qid, "values": ["pass"], "ref": 1}
            )
            if answer == "use":
                await until(sockets["blue"], lambda m: m.get("ref") == 1)
            await sockets["green"].send_json(
                {"type": "choose", "credential": creds["green"], "question": qid, "values": [answer], "ref": 2}
            )
            results = [
                await until(ws, lambda m: m["type"] in ("result", "error") and m.get("ref") == ref)
                for ref, ws in ((1, sockets["blue"]), (2, sockets["green"]))
                if ref == 2 or answer == "pass"
            ]
            for ws in sockets.values():
                await ws.close()
            return results

    results = run(both_at_once())
    assert {r["type"] for r in results} == {"result"}, results  # neither answer made the other stale
    vetoes = [r["e"] for r in table.effective if r["t"] == "event" and r["e"]["type"] in ("veto_used", "veto_waived")]
    assert {(e["type"], e["player"]) for e in vetoes} == (
        {("veto_waived", "blue"), ("veto_waived", "green")}
        if answer == "pass"
        else {("veto_waived", "blue"), ("veto_used", "green")}
    )
    state = table.state
    assert state.stage != "veto_window"
    if answer == "use":  # the whole special action is prevented: nothing of it happened
        assert table.effective[-1]["e"]["type"] == "veto_used" and state.stage != "special"
        assert {q for q, _ in state.vetoes} == {1}
    else:
        assert {q for q, _ in state.vetoes} == {1, 2}
    for pid in ("blue", "green"):
        wait_for(lambda: me(server, creds[pid])["question"]["kind"] != "veto", what="the Veto answered")


def test_a_classic_table_asks_nothing_new_of_the_phones(start_server):
    """The classic game's phones are as before: no Modifier cards, no card or Veto questions."""
    for seed in range(20):
        table = make_table("tracking")
        if play_until(table, lambda t, a: a.kind == "veto", random.Random(seed)):
            break
    ask = table.asked()
    assert ask.kind == "veto"
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in table.players}
    for pid in table.players:
        v = me(server, creds[pid])
        assert v["facts"]["modifiers"] is None and v["question"]["kind"] == "disc"
        assert v["question"]["state"] in ("waiting", "revealed") and v["question"]["options"] == []
    holder = ask.players[0]
    status, body = choose(server, creds[holder], me(server, creds[holder])["question"]["id"], ["use"])
    assert status == 409 and "No private choice" in body["error"]
    assert table.asked().kind == "veto"


def test_a_two_player_2023_scoring_only_table_offers_the_2023_regions(start_server):
    """Scoring only, with the dummy: the phones' seats are the two players, their discs are
    picked among the 2023 board's regions (Navarra, Castilla, Toledo ...)."""
    from engine.freeplay import RoundFinished

    table = Table(TableSetup(game=setup_2023(2, ()), mode="scoring", tower={"kind": "none"}))
    server, creds = seated(start_server, table)
    assert sorted(creds) == ["blue", "purple"]  # no seat for the dummy
    while table.asked().kind != "secret_disc":
        table.submit(RoundFinished())
    q = wait_for(
        lambda: (v := me(server, creds["purple"])["question"])["state"] == "choose" and v, what="the disc asked"
    )
    assert [r["id"] for r in q["regions"]] == list(table.board.region_ids)
    assert "Toledo" in [r["name"] for r in q["regions"]] and me(server, creds["purple"])["facts"]["modifiers"] is None
    status, _, body = http(
        server, "POST", "/api/pick", {"credential": creds["purple"], "question": q["id"], "region": "toledo"}
    )
    assert status == 200, body
    assert table.private("purple")["secret_disc"] == "toledo"


def test_bad_choose_requests_are_refused_with_a_message(start_server):
    table = table_2023()
    server, creds = seated(start_server, table)
    qid = me(server, creds["purple"])["question"]["id"]
    for body, why in (
        ({"credential": creds["purple"], "question": qid, "values": "card1"}, "values"),
        ({"credential": creds["purple"], "question": qid, "values": []}, "values"),
        ({"credential": creds["purple"], "question": qid, "values": ["x"] * 19}, "values"),
        ({"credential": creds["purple"], "question": qid, "values": ["x" * 41] * 3}, "values"),
        ({"credential": creds["purple"], "question": qid, "values": [1, 2, 3]}, "values"),
        ({"credential": creds["purple"], "question": qid, "values": ["a"], "seat": "x"}, "seat"),
    ):
        status, _, raw = http(server, "POST", "/api/choose", body)
        assert status == 400 and why in json.loads(raw)["error"], (body, raw)
    status, _, raw = http(server, "POST", "/api/choose", {"credential": "x" * 43, "question": qid, "values": ["a"]})
    assert status == 401
    unconfirmed = make_seat_unconfirmed(server, "orange")
    status, _, raw = http(
        server, "POST", "/api/choose", {"credential": unconfirmed, "question": qid, "values": DEALS["orange"]}
    )
    assert status == 403 and "not confirmed" in json.loads(raw)["error"]
    assert table.private("orange")["modifiers_in_hand"] == []
    wait_for(lambda: server.status()["purpose"] == "deal_modifiers", what="the status names the deal")


def make_seat_unconfirmed(server, pid: str) -> str:
    server.revoke(pid)
    return join(server, pid, confirm=False)
