"""Phone server figures, each next to a baseline measured in the same run.

    .venv/bin/python bench/bench_phones.py [--picks N] [--games G] [--json]

- latency, a phone's pick (a websocket client sending the pick frame) -> the
  tablet sees the seat as "chosen": through the table's own observer (how the
  Kivy app watches the table) and through the /ws/status feed (a spectator
  display), with the phone's own "result" round trip; against a bare aiohttp
  websocket echo round trip on the same loopback (median, p99);
- soak: five phones and twenty spectator connections held through whole
  tracked games (every general scoring and every action card's secret disc
  picked from the phones): errors and dropped updates (every view and status
  message carries a sequence number; each client must see every one in order,
  up to the server's last);
- starvation: a phone joining and picking (an HTTP client: the join page, the
  join, its websocket up to "waiting for the tablet"; then, after the tablet's
  Yes, a pick up to its result) against a phone server in its own process held
  to 1,024 open files, first with nothing else connected (the baseline), then
  with 2,000 idle sockets and half-sent requests held against it from 125
  loopback addresses and re-opened as fast as the server closes them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("ELGRANDE_DATA_DIR", tempfile.mkdtemp(prefix="bench-phones-"))

import aiohttp
from aiohttp import web

from companion.phones import PhoneServer
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine import events as ev
from engine.events import GameSetup
from engine.freeplay import RoundFinished
from engine.playout import random_event

WARMUP = 20
PLAYERS5 = ["red", "yellow", "green", "blue", "black"]
HOMES = {"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia", "black": "granada"}


def setup(mode: str, players=PLAYERS5, variant: str = "full", seed: int = 0) -> TableSetup:
    rng = random.Random(seed)
    return TableSetup(
        mode=mode,
        game=GameSetup(
            players=players,
            names={p: p.title() for p in players},
            variant=variant,
            king="cataluna",
            homes={p: HOMES[p] for p in players},
            start_player=rng.choice(players),
        ),
    )


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def summary(ms: list[float]) -> dict:
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "p99_ms": round(pct(ms, 0.99), 3),
        "max_ms": round(max(ms), 3),
    }


def join(server: PhoneServer, pid: str) -> str:
    """A phone joins the seat and the tablet says yes to it."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    code = server.seat_url(pid).rsplit("/", 1)[1]
    conn.request("POST", "/api/join", body=json.dumps({"code": code}))
    body = json.loads(conn.getresponse().read())
    conn.close()
    assert server.confirm(pid, server.seats_status()[pid]["awaiting"])
    return body["credential"]


# ---- baseline: a bare aiohttp websocket echo ------------------------------------------------


def echo_server() -> tuple[int, callable]:
    ready, holder = threading.Event(), {}

    async def handler(request):
        ws = web.WebSocketResponse(compress=False)
        await ws.prepare(request)
        async for msg in ws:
            await ws.send_str(msg.data)
        return ws

    def run():
        loop = asyncio.new_event_loop()
        holder["loop"] = loop
        app = web.Application()
        app.router.add_get("/echo", handler)
        runner = web.AppRunner(app, access_log=None)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        holder["port"] = runner.addresses[0][1]
        holder["stop"] = asyncio.Event()
        ready.set()
        loop.run_until_complete(holder["stop"].wait())
        loop.run_until_complete(runner.cleanup())
        loop.close()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    ready.wait()

    def stop():
        holder["loop"].call_soon_threadsafe(holder["stop"].set)
        t.join(5)

    return holder["port"], stop


async def echo_rtt(port: int, n: int) -> list[float]:
    out = []
    async with aiohttp.ClientSession() as s:
        ws = await s.ws_connect(f"http://127.0.0.1:{port}/echo", compress=0)
        payload = json.dumps(
            {"type": "pick", "credential": "x" * 43, "question": "3-scoring_discs-x-2", "region": "sevilla", "ref": 1}
        )
        for _ in range(n + WARMUP):
            t0 = time.perf_counter()
            await ws.send_str(payload)
            await ws.receive()
            out.append((time.perf_counter() - t0) * 1000)
        await ws.close()
    return out[WARMUP:]


# ---- pick -> tablet sees "chosen" ------------------------------------------------------------


async def pick_latency(n: int) -> dict:
    table = Table.new(setup("scoring"))
    while table.asked().kind != "secret_disc":
        table.submit(RoundFinished())
    server = PhoneServer(table, host="127.0.0.1").start()
    creds = {pid: join(server, pid) for pid in PLAYERS5}
    loop = asyncio.get_running_loop()
    waiting: dict[str, asyncio.Future] = {}

    def tablet(what: str) -> None:  # the tablet's observer: called on the thread that made the change
        now = time.perf_counter()
        chosen = table.public().game["secret_discs_chosen"]
        for pid, fut in list(waiting.items()):
            if pid in chosen:
                waiting.pop(pid)
                loop.call_soon_threadsafe(lambda f=fut, t=now: f.done() or f.set_result(t))

    table.subscribe(tablet)
    to_table, to_feed, to_result = [], [], []
    async with aiohttp.ClientSession() as s:
        socks = {}
        for pid in PLAYERS5:
            ws = await s.ws_connect(f"http://127.0.0.1:{server.port}/ws", compress=0)
            await ws.send_json({"type": "hello", "credential": creds[pid]})
            socks[pid] = ws
        feed = await s.ws_connect(f"http://127.0.0.1:{server.port}/ws/status", compress=0)
        latest = {"status": None}
        views = {pid: None for pid in PLAYERS5}
        results: dict[int, asyncio.Future] = {}

        async def read_phone(pid, ws):
            async for msg in ws:
                m = json.loads(msg.data)
                if m["type"] == "view":
                    views[pid] = m
                elif m["type"] in ("result", "error"):
                    fut = results.pop(m["ref"], None)
                    if fut and not fut.done():
                        fut.set_result((time.perf_counter(), m))

        feed_waiters: dict[str, asyncio.Future] = {}

        async def read_feed():
            async for msg in feed:
                now = time.perf_counter()
                m = json.loads(msg.data)
                latest["status"] = m
                for seat in m["seats"]:
                    fut = feed_waiters.get(seat["id"])
                    if seat["chosen"] and fut and not fut.done():
                        fut.set_result(now)

        readers = [asyncio.ensure_future(read_phone(pid, ws)) for pid, ws in socks.items()]
        readers.append(asyncio.ensure_future(read_feed()))
        while any(v is None for v in views.values()) or latest["status"] is None:
            await asyncio.sleep(0.01)
        qid = views["red"]["question"]["id"]
        regions = list(server.board.region_ids)
        for i in range(n + WARMUP):
            pid = PLAYERS5[i % 5]
            if table.private(pid)["secret_disc"] is not None:
                while table.public().game["secret_discs_chosen"]:
                    table.undo()  # take the picks back (last first): the seats are "not chosen" again
            while any(st["chosen"] for st in latest["status"]["seats"] if st["id"] == pid):
                await asyncio.sleep(0.001)
            f_table = waiting[pid] = loop.create_future()
            f_feed = feed_waiters[pid] = loop.create_future()
            f_result = results[i] = loop.create_future()
            t0 = time.perf_counter()
            await socks[pid].send_json(
                {"type": "pick", "credential": creds[pid], "question": qid, "region": regions[i % 9], "ref": i}
            )
            t_table = await asyncio.wait_for(f_table, 5)
            t_feed = await asyncio.wait_for(f_feed, 5)
            t_result, answer = await asyncio.wait_for(f_result, 5)
            assert answer["type"] == "result", answer
            if i >= WARMUP:
                to_table.append((t_table - t0) * 1000)
                to_feed.append((t_feed - t0) * 1000)
                to_result.append((t_result - t0) * 1000)
        for ws in list(socks.values()) + [feed]:
            await ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
    server.stop()
    table.close()
    return {
        "pick_to_table_observer": summary(to_table),
        "pick_to_status_feed": summary(to_feed),
        "pick_to_phone_result": summary(to_result),
    }


# ---- soak: 5 phones + 20 spectators through whole games ----------------------------------------


class Counter:
    def __init__(self):
        self.frames = 0
        self.dropped = 0
        self.out_of_order = 0
        self.errors: list[str] = []
        self.last_seq: dict[str, int] = {}

    def seq(self, who: str, seq: int) -> None:
        self.frames += 1
        last = self.last_seq.get(who)
        if last is not None:
            if seq <= last:
                self.out_of_order += 1
            elif seq > last + 1:
                self.dropped += seq - last - 1
        self.last_seq[who] = seq


async def soak_game(seed: int, counter: Counter, mode: str, pace: float) -> dict:
    table = Table.new(setup(mode, seed=seed))
    server = PhoneServer(table, host="127.0.0.1").start()
    creds = {pid: join(server, pid) for pid in PLAYERS5}
    rng = random.Random(seed)
    base = f"http://127.0.0.1:{server.port}"
    picks = {"n": 0}
    # Each client from its own loopback address, as each phone or display is its own device (the
    # server caps connections and status screens per address).
    sessions: list[aiohttp.ClientSession] = []

    def device(n: int) -> aiohttp.ClientSession:
        sessions.append(aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + n}", 0))))
        return sessions[-1]

    try:

        async def phone(pid):
            ws = await device(PLAYERS5.index(pid)).ws_connect(base + "/ws", compress=0)
            await ws.send_json({"type": "hello", "credential": creds[pid]})
            sent_for = None
            ref = 0
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    counter.errors.append(f"{pid}: {msg.type} {msg.data}")
                    break
                m = json.loads(msg.data)
                if m["type"] == "view":
                    counter.seq(f"{seed}/phone/{pid}", m["seq"])
                    q = m["question"]
                    if q["state"] == "choose" and q["pick"] is None and sent_for != q["id"]:
                        sent_for, ref = q["id"], ref + 1
                        region = rng.choice(q["regions"])["id"]
                        await ws.send_json(
                            {
                                "type": "pick",
                                "credential": creds[pid],
                                "question": q["id"],
                                "region": region,
                                "ref": ref,
                            }
                        )
                        picks["n"] += 1
                elif m["type"] == "error":
                    counter.errors.append(f"{pid}: {m}")
            return ws

        async def spectator(i):
            ws = await device(10 + i).ws_connect(base + "/ws/status", compress=0)
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    counter.errors.append(f"spectator {i}: {msg.type} {msg.data}")
                    break
                counter.seq(f"{seed}/spectator/{i}", json.loads(msg.data)["seq"])

        tasks = [asyncio.ensure_future(phone(pid)) for pid in PLAYERS5]
        tasks += [asyncio.ensure_future(spectator(i)) for i in range(20)]
        while not all(server.seats_status()[p]["connected"] for p in PLAYERS5):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        events = {"n": 0}

        def drive():  # the tablet: everything but the discs, which come from the phones
            drng = random.Random(seed)
            while (ask := table.asked()).kind != "game_over":
                if ask.kind == "secret_disc":
                    time.sleep(0.0005)
                    continue
                if ask.kind == "count_castillo":
                    event = ev.CastilloCounted(counts={})
                elif ask.kind == "reveal_secret_discs":
                    event = ev.SecretDiscsRevealed()
                elif mode == "scoring":
                    event = RoundFinished()
                else:
                    event = random_event(drng, ask)
                table.submit(event)
                events["n"] += 1
                if pace:
                    time.sleep(pace)

        t0 = time.perf_counter()
        await asyncio.get_running_loop().run_in_executor(None, drive)
        took = time.perf_counter() - t0
        # Let the last updates arrive, then check every client reached the server's last seq.
        await asyncio.sleep(0.3)
        final_views = {pid: server._views[pid].seq for pid in PLAYERS5}
        final_status = server.status()["seq"]
        for pid in PLAYERS5:
            got = counter.last_seq.get(f"{seed}/phone/{pid}", 0)
            counter.dropped += final_views[pid] - got
        for i in range(20):
            got = counter.last_seq.get(f"{seed}/spectator/{i}", 0)
            counter.dropped += final_status - got
        server.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for session in sessions:
            await session.close()
    table.close()
    return {
        "events": events["n"],
        "phone_picks": picks["n"],
        "seconds": round(took, 2),
        "status_updates": final_status,
        "view_updates": sum(final_views.values()),
    }


# ---- starvation: join + pick with 2,000 sockets held against the server --------------------------

FD_LIMIT = 1024
FLOOD = (
    ("idle", 1600, b""),
    ("half head", 300, b"GET / HTTP/1.1\r\nHost: x\r\nX-Unfinished: "),
    (
        "half body",
        100,
        b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 900\r\n\r\n{"code": "',
    ),
)
PER_ADDRESS = 16


def serve_child(fd_limit: int) -> None:
    """--serve-child: the phone server held to `fd_limit` open files (soft = hard: it cannot raise
    them). Commands on stdin: "url PID" (a new code, as the tablet's New code), "confirm PID"."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))
    table = Table.new(setup("scoring"))
    while table.asked().kind != "secret_disc":
        table.submit(RoundFinished())
    server = PhoneServer(table, host="127.0.0.1").start()
    print(json.dumps({"port": server.port, "budget": server.guard.budget}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "url":
            print(json.dumps({"url": server.revoke(words[1])}), flush=True)
        elif words[0] == "confirm":
            serial = server.seats_status()[words[1]]["awaiting"]
            print(json.dumps({"ok": bool(serial) and server.confirm(words[1], serial)}), flush=True)
        elif words[0] == "stats":
            print(
                json.dumps(
                    {
                        "open": len(server.guard),
                        "evicted": server.guard.evicted,
                        "refused": server.guard.refused,
                        "fds": len(os.listdir("/proc/self/fd")),
                    }
                ),
                flush=True,
            )
    server.stop()


class Flood:
    """Sockets held against the server from 127.0.1.2 and up, PER_ADDRESS each; a thread re-opens
    those the server closes until stopped."""

    def __init__(self, port: int):
        self.port = port
        self.first = [first for _, n, first in FLOOD for _ in range(n)]
        self.socks: list = [None] * len(self.first)
        self.reopened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._refill, daemon=True)

    def _open(self, i: int) -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((f"127.0.1.{2 + i // PER_ADDRESS}", 0))
        s.settimeout(3)
        try:
            s.connect(("127.0.0.1", self.port))
            if self.first[i]:
                s.sendall(self.first[i])
        except OSError:
            pass
        s.setblocking(False)
        self.socks[i] = s

    def _closed(self) -> list[int]:
        poller = select.poll()
        index = {}
        for i, s in enumerate(self.socks):
            poller.register(s.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
            index[s.fileno()] = i
        gone = []
        for fd, _ in poller.poll(0):
            try:
                while self.socks[index[fd]].recv(65536):
                    pass
                gone.append(index[fd])
            except BlockingIOError:
                pass
            except OSError:
                gone.append(index[fd])
        return gone

    def _refill(self) -> None:
        while not self._stop.is_set():
            for i in self._closed():
                self.socks[i].close()
                self._open(i)
                self.reopened += 1
            time.sleep(0.005)

    def start(self) -> float:
        t0 = time.perf_counter()
        for i in range(len(self.first)):
            self._open(i)
        took = time.perf_counter() - t0
        self._thread.start()
        return took

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        for s in self.socks:
            s.close()


class Child:
    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve-child", str(FD_LIMIT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.hello = self.read()

    def read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the phone server process ended")
        return json.loads(line)

    def ask(self, command: str) -> dict:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.read()

    def close(self) -> None:
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait(15)


async def phone_round(child: Child, pid: str) -> tuple[float, float]:
    """(join ms, pick ms) of a new phone on seat `pid`; the tablet's New code and Yes are not timed."""
    loop = asyncio.get_running_loop()
    url = (await loop.run_in_executor(None, child.ask, f"url {pid}"))["url"]
    base, code = url.rsplit("/join/", 1)
    async with aiohttp.ClientSession() as s:
        t0 = time.perf_counter()
        async with s.get(url) as resp:
            assert resp.status == 200, resp.status
            await resp.read()
        async with s.post(base + "/api/join", json={"code": code}) as resp:
            credential = (await resp.json())["credential"]
        ws = await s.ws_connect(base + "/ws", compress=0)
        await ws.send_json({"type": "hello", "credential": credential})
        assert json.loads((await asyncio.wait_for(ws.receive(), 5)).data)["type"] == "pending"
        joined = time.perf_counter() - t0
        assert (await loop.run_in_executor(None, child.ask, f"confirm {pid}"))["ok"]
        view = json.loads((await asyncio.wait_for(ws.receive(), 5)).data)
        assert view["type"] == "view" and view["question"]["state"] == "choose", view
        regions = [r["id"] for r in view["question"]["regions"]]
        t1 = time.perf_counter()
        await ws.send_json(
            {
                "type": "pick",
                "credential": credential,
                "question": view["question"]["id"],
                "region": random.choice(regions),
                "ref": 1,
            }
        )
        while (m := json.loads((await asyncio.wait_for(ws.receive(), 5)).data))["type"] not in ("result", "error"):
            pass
        picked = time.perf_counter() - t1
        assert m["type"] == "result", m
        await ws.close()
    return joined * 1000, picked * 1000


async def starvation(rounds: int) -> dict:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    held = sum(n for _, n, _ in FLOOD)
    if hard < held + 500:
        raise SystemExit(
            f"bench_phones: the starvation figure opens {held} sockets; the open-file hard limit is {hard}"
        )
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    child = Child()
    out: dict = {"server_fd_limit": FD_LIMIT, "server_budget": child.hello["budget"], "held": held}
    try:
        for label in ("baseline", "flooded"):
            flood = None
            if label == "flooded":
                flood = Flood(child.hello["port"])
                out["flood_open_s"] = round(flood.start(), 2)
                await asyncio.sleep(0.3)
            joins, picks, totals = [], [], []
            for i in range(rounds):
                j, p = await phone_round(child, PLAYERS5[i % 5])
                joins.append(j)
                picks.append(p)
                totals.append(j + p)
            out[label] = {"join": summary(joins), "pick": summary(picks), "join_plus_pick": summary(totals)}
            if flood:
                out["flooded"]["server"] = child.ask("stats")
                flood.stop()
                out["flooded"]["reopened"] = flood.reopened
    finally:
        child.close()
    return out


async def main_async(args) -> dict:
    port, stop_echo = echo_server()
    out = {"baseline_echo_rtt": summary(await echo_rtt(port, args.picks))}
    stop_echo()
    out.update(await pick_latency(args.picks))
    counter = Counter()
    games = []
    for g in range(args.games):
        games.append(await soak_game(g, counter, args.mode, args.pace))
    out["soak"] = {
        "mode": args.mode,
        "games": games,
        "clients": 25,
        "frames": counter.frames,
        "errors": len(counter.errors),
        "dropped": counter.dropped,
        "out_of_order": counter.out_of_order,
        "error_samples": counter.errors[:5],
    }
    if args.rounds:
        out["starvation"] = await starvation(args.rounds)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--picks", type=int, default=200)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--mode", choices=["tracking", "scoring"], default="tracking")
    ap.add_argument("--pace", type=float, default=0.002, help="seconds between the tablet's inputs in the soak")
    ap.add_argument(
        "--rounds",
        type=int,
        default=30,
        help="phones joining and picking, with and without the 2,000 sockets (0: skip)",
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--serve-child", type=int, metavar="FD_LIMIT", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve_child:
        serve_child(args.serve_child)
        return
    out = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(out, indent=1))
        return
    b = out["baseline_echo_rtt"]
    print(
        f"baseline: bare aiohttp websocket echo round trip   median {b['median_ms']:.3f} ms   "
        f"p99 {b['p99_ms']:.3f} ms   (n={b['n']})"
    )
    for key, words in [
        ("pick_to_table_observer", "pick -> tablet's table observer sees 'chosen'"),
        ("pick_to_status_feed", "pick -> /ws/status spectator sees 'chosen'  "),
        ("pick_to_phone_result", "pick -> phone gets its 'result' frame      "),
    ]:
        r = out[key]
        print(
            f"{words}   median {r['median_ms']:.3f} ms   p99 {r['p99_ms']:.3f} ms   max {r['max_ms']:.3f} ms"
            f"   (goal < 100 ms)"
        )
    s = out["soak"]
    for i, g in enumerate(s["games"]):
        print(
            f"soak game {i} ({s['mode']}): {g['events']} tablet inputs, {g['phone_picks']} picks from phones, "
            f"{g['view_updates']} view + {g['status_updates']} status updates in {g['seconds']} s"
        )
    print(
        f"soak: 5 phones + 20 spectators held through {len(s['games'])} games: {s['frames']} frames, "
        f"errors {s['errors']}, dropped {s['dropped']}, out of order {s['out_of_order']}   (goal 0 / 0)"
    )
    for e in s["error_samples"]:
        print("  error:", e)
    if "starvation" in out:
        st = out["starvation"]
        for label, words in (
            ("baseline", "nothing else connected"),
            ("flooded", f"{st['held']:,} sockets held against it"),
        ):
            r = st[label]
            print(
                f"join + pick, {words:<30}   median {r['join_plus_pick']['median_ms']:.0f} ms   p99 "
                f"{r['join_plus_pick']['p99_ms']:.0f} ms   max {r['join_plus_pick']['max_ms']:.0f} ms   "
                f"(join median {r['join']['median_ms']:.0f} ms, pick median {r['pick']['median_ms']:.1f} ms; "
                f"n={r['join']['n']})   (goal < 1000 ms)"
            )
        f = st["flooded"]
        print(
            f"  the server (held to {st['server_fd_limit']} open files, at most {st['server_budget']} connections): "
            f"{f['server']['open']} open, {f['server']['evicted']} closed to make room, {f['server']['fds']} "
            f"descriptors; {f['reopened']} sockets re-opened by the flood during the rounds; "
            f"flood opened in {st['flood_open_s']} s"
        )


if __name__ == "__main__":
    main()
