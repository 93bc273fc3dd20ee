"""A game night: one phone server for game after game at the same tablet.

Two tables back to back in one PhoneServer, with real HTTP and websocket clients
whose sockets stay open across the switch: each phone follows its player (same
name, or same colour for seats nobody named) without a new tablet confirmation,
sees the new game's private view and never the old one's; a phone whose player
has no seat picks a free one on its screen (and the tablet confirms it, since it
vouched for another player); the old table is no longer observed nor kept alive.
"""

from __future__ import annotations

import asyncio
import gc
import json
import re
import statistics
import tracemalloc
import weakref

import aiohttp

from companion.phones import PhoneServer
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine.events import CastilloCounted, GameSetup, SecretDiscSet, SecretDiscsRevealed
from engine.freeplay import RoundFinished
from firmware_bridge.adapter import TowerDrop
from tests.companion.phones.conftest import (
    PICK_NAMES,
    PICKS,
    PLAYERS,
    awaited,
    code_of,
    http,
    join,
    make_table,
    status_of,
    to_general_scoring,
)
from tests.companion.phones.wsclient import run, url

# Game 1 (conftest): Ana red, Bruno yellow, Carmen green, Dora blue. Game 2: Bruno and Carmen swap
# colours, Dora sits out, Eva plays black.
NAMES_2 = {"red": "Ana", "yellow": "Carmen", "green": "Bruno", "black": "Eva"}
SETUP_2 = GameSetup(
    players=list(NAMES_2),
    names=NAMES_2,
    variant="short",
    king="granada",
    homes={"red": "aragon", "yellow": "galicia", "green": "valencia", "black": "sevilla"},
    start_player="yellow",
)
TOWER_1 = {"red": 4, "yellow": 7, "green": 0, "blue": 2}
TOWER_2 = {"red": 1, "yellow": 0, "green": 3, "black": 0}
OLD_SECRETS = [name for rid in PICKS.values() for name in (rid, PICK_NAMES[rid])]
CASTILLO = re.compile(r'"castillo"\s*:\s*(\d+)')


def drops(table: Table, counts: dict[str, int], boot: str) -> None:
    for pid, k in counts.items():
        for _ in range(k):
            table.tower_drop(TowerDrop(tower="t1", boot=boot, seq=len(table.drops) + 1, colour=pid, uncertain=False))


def game_one() -> Table:
    """A general scoring picked on the phones' seats and revealed: each phone has seen its pick and count."""
    table = make_table("scoring")
    drops(table, TOWER_1, "b1")
    table.submit(RoundFinished())
    to_general_scoring(table)
    return table


def game_two() -> Table:
    table = Table.new(TableSetup(game=SETUP_2, mode="scoring"))
    drops(table, TOWER_2, "b2")
    return table


async def socket(session, server, credential):
    ws = await session.ws_connect(url(server, "/ws"))
    await ws.send_json({"type": "hello", "credential": credential})
    return ws


class Feed:
    """Every frame a socket receives, kept in order (a socket held across the switch)."""

    def __init__(self, ws):
        self.ws, self.frames = ws, []
        self.task = asyncio.ensure_future(self._drain())

    async def _drain(self):
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))

    async def until(self, predicate, timeout=20.0, after=0):
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            for m in self.frames[after:]:
                if predicate(m):
                    return m
            await asyncio.sleep(0.01)
        raise AssertionError(f"waited {timeout:g} s for a frame where {awaited(predicate)}; got {self.frames[after:]}")


def test_phones_follow_their_players_into_the_next_game(start_server):
    held = {"first": game_one()}  # the only reference the test keeps to game 1's table
    server = start_server(held["first"])
    port = server.port
    creds = {pid: join(server, pid) for pid in PLAYERS}  # four phones, each confirmed once
    server.revoke("red")  # red's phone joins again: a code of game 1 spent, to try later
    used_code = code_of(server, "red")
    creds["red"] = join(server, "red")

    async def main():
        first = held["first"]
        async with aiohttp.ClientSession() as session:
            feeds = {pid: Feed(await socket(session, server, creds[pid])) for pid in PLAYERS}
            spectator = Feed(await session.ws_connect(url(server, "/ws/status")))
            for pid in PLAYERS:  # the old game's secrets, on each phone: its count, then its pick
                m = await feeds[pid].until(lambda m: m["type"] == "view" and m["question"]["state"] == "choose")
                assert m["facts"]["castillo"] == TOWER_1[pid]
            for pid in PLAYERS:
                first.submit(SecretDiscSet(player=pid, region=PICKS[pid]), player=pid)
            first.submit(CastilloCounted(counts=TOWER_1))
            first.submit(SecretDiscsRevealed())
            for pid in PLAYERS:
                m = await feeds[pid].until(lambda m: m["type"] == "view" and m["question"]["state"] == "revealed")
                assert m["question"]["pick"]["id"] == PICKS[pid]
            mark = {pid: len(feeds[pid].frames) for pid in PLAYERS}
            spectator_mark = len(spectator.frames)

            # ---- the next game, same server, same sockets ----
            second = game_two()
            old = weakref.ref(first)
            first.close()
            del first, held["first"]
            await asyncio.get_running_loop().run_in_executor(None, server.switch_table, second)
            assert server.port == port and server.table is second

            seats = server.seats_status()
            for pid, name in (("red", "Ana"), ("green", "Bruno"), ("yellow", "Carmen")):
                # Same player, same phone: no tablet question, the new view at once.
                assert seats[pid]["joined"] and seats[pid]["connected"], (pid, seats[pid])
                who = {"red": "red", "green": "yellow", "yellow": "green"}[pid]  # the seat it held in game 1
                m = await feeds[who].until(lambda m: m["type"] == "view", after=mark[who])
                assert m["seat"] == {"id": pid, "name": name, "colour": pid.title()}
                assert m["facts"]["castillo"] == TOWER_2[pid] and m["question"]["pick"] is None
                assert m["round"] == second.public().game["round"]
            assert server.confirmations() == []
            assert seats["black"] == {
                "joined": False,
                "connected": False,
                "awaiting": None,
                "code": "open",
                "expires_in": seats["black"]["expires_in"],
            }
            # Dora sits out: her phone is asked which seat is hers, and may see nothing of any game.
            choice = await feeds["blue"].until(lambda m: m["type"] == "choose_seat", after=mark["blue"])
            assert choice["was"] == "Dora (Blue)" and [s["id"] for s in choice["seats"]] == ["black"]
            assert server.lobby() == [
                {"phone": server.lobby()[0]["phone"], "was": "Dora (Blue)", "device": "a browser", "connected": True}
            ]
            status, _, body = http(server, "GET", "/api/me", headers={"Authorization": f"Bearer {creds['blue']}"})
            assert status == 200 and json.loads(body)["type"] == "choose_seat"
            # The status feed is the new game's.
            s = await spectator.until(lambda m: [x["id"] for x in m["seats"]] == list(NAMES_2), after=spectator_mark)
            assert [x["joined"] for x in s["seats"]] == [True, True, True, False]

            # Dora's phone takes Eva's seat: the tablet vouched for it as Dora's, so it asks again.
            ws = feeds["blue"].ws
            await ws.send_json({"type": "seat", "credential": creds["blue"], "seat": "black", "ref": 5})
            await feeds["blue"].until(lambda m: m.get("ref") == 5 and m["type"] == "result")
            pending = await feeds["blue"].until(lambda m: m["type"] == "pending", after=mark["blue"])
            assert pending["seat"]["id"] == "black" and "facts" not in pending
            [check] = server.confirmations()
            assert check["seat"] == "black" and check["question"] == "Is this Eva's phone?"
            assert "it was Dora (Blue)'s phone in an earlier game" in check["detail"]
            # No: it goes back to choosing (it is still Dora's phone), and black gets a fresh code.
            before = len(feeds["blue"].frames)
            assert server.reject("black", check["phone"]) is not None
            again = await feeds["blue"].until(lambda m: m["type"] == "choose_seat", after=before)
            assert again["was"] == "Dora (Blue)" and again["suggested"] is None
            assert server.seats_status()["black"]["code"] == "open"
            # Eva scans black's new code with her own phone.
            eva = join(server, "black")
            eva_feed = Feed(await socket(session, server, eva))
            m = await eva_feed.until(lambda m: m["type"] == "view")
            assert m["seat"]["id"] == "black" and m["facts"]["castillo"] == 0
            await feeds["blue"].until(lambda m: m["type"] == "choose_seat" and m["seats"] == [], after=before)

            # The old game's codes say they were replaced; a pick for another question is refused.
            status, _, body = http(server, "GET", f"/join/{used_code}")
            assert status == 410 and b"replaced" in body
            stale = {"type": "pick", "credential": creds["red"], "question": "3-old", "region": "sevilla", "ref": 9}
            await feeds["red"].ws.send_json(stale)
            err = await feeds["red"].until(lambda m: m.get("ref") == 9)
            assert err["type"] == "error" and err["status"] == 409

            # Game 2's general scoring, picked on the carried phones.
            second.submit(RoundFinished())
            to_general_scoring(second)
            qid = second.question_id()
            await feeds["red"].ws.send_json(
                {"type": "pick", "credential": creds["red"], "question": qid, "region": "valencia", "ref": 11}
            )
            result = await feeds["red"].until(lambda m: m.get("ref") == 11)
            assert result["type"] == "result", result
            assert second.private("red")["secret_disc"] == "valencia"
            m = await feeds["red"].until(lambda m: m["type"] == "view" and m["question"]["pick"], after=mark["red"])
            assert m["question"]["pick"]["id"] == "valencia"

            # Nothing of game 1 reached any phone or the status feed after the switch.
            for pid in PLAYERS:
                for frame_ in feeds[pid].frames[mark[pid] :]:
                    if frame_["type"] == "view":  # the regions offered are all nine: not a secret
                        frame_ = {**frame_, "question": {**frame_["question"], "regions": []}}
                    text = json.dumps(frame_, ensure_ascii=False)
                    assert not any(s in text for s in OLD_SECRETS), (pid, text)
                    found = [int(n) for n in CASTILLO.findall(text)]
                    seat = frame_.get("seat", {}).get("id") if isinstance(frame_.get("seat"), dict) else None
                    assert found == ([TOWER_2[seat]] if frame_["type"] == "view" else []), (pid, text)
            for frame_ in spectator.frames[spectator_mark:]:
                assert not any(s in json.dumps(frame_, ensure_ascii=False) for s in OLD_SECRETS)
            # The old table is neither observed nor kept alive by the server.
            gc.collect()
            assert old() is None, gc.get_referrers(old())
            for feed in list(feeds.values()) + [spectator, eva_feed]:
                await feed.ws.close()
                await feed.task

    run(main(), 60)


def test_a_phone_may_leave_its_seat_and_take_another(start_server):
    """Same people, no names (seats named by colour): phones keep their colour; Ana moved from red to
    blue, so her phone leaves red on its screen and takes blue; the tablet confirms (another player)."""
    unnamed = GameSetup(
        players=["red", "blue"],
        variant="short",
        king="cataluna",
        homes={"red": "galicia", "blue": "aragon"},
        start_player="red",
    )
    first = Table.new(TableSetup(game=unnamed, mode="scoring"))
    server = start_server(first)
    red = join(server, "red")
    server.switch_table(Table.new(TableSetup(game=unnamed, mode="scoring")))
    assert server.seats_status()["red"]["joined"] and server.confirmations() == []

    async def main():
        async with aiohttp.ClientSession() as session:
            feed = Feed(await socket(session, server, red))
            await feed.until(lambda m: m["type"] == "view" and m["seat"]["id"] == "red")
            await feed.ws.send_json({"type": "leave", "credential": red, "ref": 1})
            choice = await feed.until(lambda m: m["type"] == "choose_seat")
            assert choice["was"] == "Red" and choice["suggested"] == "red"
            assert [s["id"] for s in choice["seats"]] == ["red", "blue"]
            assert server.seats_status()["red"]["code"] == "open"  # a fresh QR code for red
            status, _, body = http(server, "POST", "/api/seat", {"credential": red, "seat": "green"})
            assert status == 409 and "no such seat" in json.loads(body)["error"]
            status, _, body = http(server, "POST", "/api/seat", {"credential": red, "seat": "blue"})
            assert status == 200 and json.loads(body) == {"ok": True, "seat": "blue"}
            await feed.until(lambda m: m["type"] == "pending" and m["seat"]["id"] == "blue")
            [check] = server.confirmations()
            assert check["seat"] == "blue" and "it was Red's phone" in check["detail"]
            assert server.confirm("blue", check["phone"])
            await feed.until(lambda m: m["type"] == "view" and m["seat"]["id"] == "blue")
            # Back to red with no tablet question: the tablet confirmed this phone as Red's before.
            status, _, _ = http(server, "POST", "/api/leave", {"credential": red})
            assert status == 200
            mark = len(feed.frames)
            status, _, body = http(server, "POST", "/api/seat", {"credential": red, "seat": "red"})
            assert status == 200
            await feed.until(lambda m: m["type"] == "view" and m["seat"]["id"] == "red", after=mark)
            assert server.seats_status()["red"]["joined"]
            status, _, body = http(server, "POST", "/api/leave", {"credential": "x" * 43})
            assert status == 401
            await feed.ws.close()
            await feed.task

    run(main(), 30)


def _growth_per_game(server, table, creds, games: int, keep: list | None) -> tuple[float, Table, list]:
    """Bytes still allocated per game (tracemalloc, after gc) over `games` switches; `keep` holds
    each old table on purpose (the control: what a leak of one table a game looks like)."""
    refs, sizes = [], []
    tracemalloc.start()
    for game in range(games):
        nxt = make_table("scoring")
        drops(nxt, {"red": 5, "blue": 10, "green": 5}, f"g{game}")  # a Castillo of 20 drops
        server.switch_table(nxt)
        table.close()
        refs.append(weakref.ref(table))
        if keep is not None:
            keep.append(table)
        table = nxt
        for pid in PLAYERS:  # the phones stay joined and read their own view
            status, _, body = http(server, "GET", "/api/me", headers={"Authorization": f"Bearer {creds[pid]}"})
            assert status == 200 and json.loads(body)["type"] == "view"
        assert status_of(server)["seats"][0]["joined"]
        gc.collect()
        sizes.append(tracemalloc.get_traced_memory()[0])
    tracemalloc.stop()
    skip = games // 4  # the first games warm caches up
    # The median step: one game's growth, unmoved by a transient allocation caught at one sample.
    return statistics.median(b - a for a, b in zip(sizes[skip:], sizes[skip + 1 :])), table, refs


def test_twelve_games_keep_no_table_alive():
    """The server lives for the app; each game's table must be let go (it held ~0.4 MB a played
    game when every game had its own server and aiohttp's cached middleware chain kept it)."""
    table = make_table("scoring")
    server = PhoneServer(table, host="127.0.0.1").start()
    try:
        creds = {pid: join(server, pid) for pid in PLAYERS}
        per_game, table, refs = _growth_per_game(server, table, creds, 12, None)
        assert all(r() is None for r in refs[:-1]), "an old table is still alive"
        kept: list = []
        control, table, _ = _growth_per_game(server, table, creds, 6, kept)
        print(
            f"\nphone server, 12 games: {per_game / 1024:.1f} KiB retained per game (median step after the 3rd) "
            f"(control, each old table kept on purpose: {control / 1024:.1f} KiB per game)"
        )
        assert control > 4 * 1024, control  # the measurement sees a kept table ...
        assert per_game < control / 4, (per_game, control)  # ... and the server keeps none
    finally:
        server.stop()
        table.close()


def test_the_next_game_taken_while_the_server_is_stopped_is_served_when_it_starts_again():
    """Android stops the server while the app is paused; a game switched meanwhile (other colours)
    is the one served once it starts again, with its own seats."""
    server = PhoneServer(make_table(), host="127.0.0.1").start()
    try:
        server.stop()
        server.switch_table(Table(TableSetup(game=SETUP_2, mode="scoring")))
        server.start()
        assert [seat["id"] for seat in status_of(server)["seats"]] == list(NAMES_2)
        assert server.seat_url("black") is not None
    finally:
        server.stop()
