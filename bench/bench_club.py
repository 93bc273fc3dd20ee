"""Club night figures: N simulated tables publishing to a real mosquitto, one room board.

    .venv/bin/python bench/bench_club.py [--tables 200] [--interval 0.15] [--no-browser] [--json]

Each simulated table has its own MQTT connection (its own user id, a retained state, a Last
Will) and replays a whole scripted game (companion.scripted through a real companion.table.Table,
recorded beforehand: the club payload at every input, from topics.public_state) with a fresh
timestamp at each publish: one state every `--interval` seconds on average (exponential gaps),
and bursts (20 ms apart) through each scoring and reveal. That is far faster than a real table
(about 250 inputs in 60 to 90 minutes): at 200 tables and 0.15 s, about 1,300 state messages a
second. The board is the real ClubBoard (subscriber, tournament, SSE server) with a tournament
that seated every table, so each final state must land as one result.

Figures (p50 / p99 / max of change -> board):
- server: the board's MQTT thread has parsed and stored the state (the state's own timestamp
  to the board's arrival time; one machine, one clock);
- page: the board page in Chromium (Debian's, through Playwright) has the state in its
  EventSource handler (Date.now() against the same timestamp);
- lost final results: tables whose finished game did not land in the standings once.
Runs: the baseline (1 table, same broker, same run), N tables on one mosquitto, and N tables
split over two mosquittos joined by mosquitto's bridge (`connection`, topic out), one board on
the main broker. Plain MQTT on loopback (the TLS cost is per connection, not per message).
"""
from __future__ import annotations

import argparse
import heapq
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paho.mqtt import client as mqtt  # noqa: E402

from companion import scripted  # noqa: E402
from companion.club.board import ClubBoard  # noqa: E402
from companion.club.topics import online_topic, public_state, state_topic  # noqa: E402
from companion.club.tournament import Tournament  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.firmware_bridge.bridge_helpers import Broker  # noqa: E402

CLUB = "bench"   # + the run's seed: each run has its own topics, nothing retained from the last
TOKEN = "bench-organiser-token"
BURST_PHASES = ("scoring", "castillo", "reveal", "special")
CHROMIUM = "/usr/bin/chromium"


def record_games(n: int) -> list[list[dict]]:
    """The club payload after every input of n scripted games (different seeds)."""
    games = []
    for seed in range(n):
        table = Table(scripted.scripted_setup(players=4))
        table.nonce = f"seed{seed}"
        states = [public_state(table, "x", len(table.records)).model_dump(mode="json")]
        while scripted.step(table, 1000 + seed):
            states.append(public_state(table, "x", len(table.records)).model_dump(mode="json"))
        games.append(states)
    return games


class SimTable:
    def __init__(self, club: str, table_id: str, names: list[str], script: list[dict], broker: Broker):
        self.club, self.id, self.names, self.script, self.i = club, table_id, names, script, 0
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"sim-{table_id}")
        c.will_set(online_topic(club, table_id), b"0", qos=1, retain=True)
        self.connected = threading.Event()
        c.on_connect = lambda cl, u, f, rc, p: (cl.publish(online_topic(club, table_id), b"1", qos=1, retain=True),
                                                self.connected.set())
        c.connect_async("127.0.0.1", broker.port, keepalive=30)
        c.loop_start()
        self.client = c

    def publish_next(self) -> bool:
        state = dict(self.script[self.i])
        by_id = dict(zip([p["id"] for p in state["players"]], self.names))
        state.update(table=self.id, game=f"{self.id}-g1", ts=time.time(),
                     players=[{**p, "name": by_id[p["id"]]} for p in state["players"]],
                     standings=[{**s, "name": by_id[s["id"]]} for s in state["standings"]])
        self.client.publish(state_topic(self.club, self.id), json.dumps(state, separators=(",", ":")), qos=1, retain=True)
        self.i += 1
        return self.i < len(self.script)

    def next_gap(self, rng: random.Random, interval: float) -> float:
        phase = self.script[self.i]["phase"] if self.i < len(self.script) else ""
        return 0.02 if any(w in phase for w in BURST_PHASES) else rng.expovariate(1 / interval)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    v = sorted(values)
    q = lambda p: v[min(len(v) - 1, int(p * len(v)))]  # noqa: E731
    return {"n": len(v), "p50_ms": round(q(0.5) * 1000, 1), "p99_ms": round(q(0.99) * 1000, 1),
            "max_ms": round(v[-1] * 1000, 1)}


def run(label: str, n: int, games: list[list[dict]], brokers: list[Broker], interval: float, browser,
        seed: int = 1) -> dict:
    main = brokers[0]
    t = Tournament()
    for i in range(n * 4):
        t.register(f"T{i // 4:03d}-P{i % 4}")
    ids = [f"table-{i:03d}" for i in range(n)]
    t.seat_round(ids, seed=seed)
    club = f"{CLUB}{seed}"
    board = ClubBoard(main.url, club, t, TOKEN, port=0, tick=1.0)
    board.record_arrivals = True
    board.start()
    assert board.connected.wait(10), "the board did not connect"
    page = None
    if browser is not None:
        page = browser.new_page()
        page.goto(board.url)
        # every new version a table publishes, as the page's EventSource hands it over (a status
        # change the board pushes by itself, e.g. stale, repeats an old state: not counted)
        page.evaluate("""() => { window.lat = []; const seen = {}; const es = new EventSource('/events');
            es.addEventListener('table', e => { const t = JSON.parse(e.data);
              if (t.ts && seen[t.table] !== t.version) { seen[t.table] = t.version;
                window.lat.push(Date.now() / 1000 - t.ts); } }); }""")
    rng = random.Random(seed)
    sims = [SimTable(club, tid, t.rounds[0]["tables"][tid], games[i % len(games)], brokers[i % len(brokers)])
            for i, tid in enumerate(ids)]
    for s in sims:
        assert s.connected.wait(20), f"{s.id} did not connect"
    time.sleep(0.5)   # the bridge's own connection and the retained "online" flags settle
    board.arrivals.clear()
    if page is not None:
        page.evaluate("() => { window.lat.length = 0; }")
    heap = [(time.monotonic() + rng.uniform(0, interval * 5), i) for i in range(n)]
    heapq.heapify(heap)
    started, sent = time.monotonic(), 0
    while heap:
        when, i = heapq.heappop(heap)
        delay = when - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        sent += 1
        if sims[i].publish_next():
            heapq.heappush(heap, (max(when, time.monotonic()) + sims[i].next_gap(rng, interval), i))
    elapsed = time.monotonic() - started
    deadline = time.monotonic() + 20
    while board.counters["results"] < n and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)   # the page's last events
    server = [arrival - ts for ts, arrival in board.arrivals]
    page_lat = page.evaluate("() => window.lat") if page is not None else []
    results = t.snapshot()["results"]
    keys = [(r["table"], r["game"]) for r in results]
    out = {"run": label, "tables": n, "brokers": len(brokers), "messages": sent, "seconds": round(elapsed, 1),
           "messages_per_second": round(sent / elapsed), "server": percentiles(server),
           "page": percentiles(page_lat) if page is not None else None,
           "results": len(results), "lost_final_results": n - len(set(keys)), "duplicate_results": len(keys) - len(set(keys)),
           "board_counters": dict(board.counters)}
    for s in sims:
        s.close()
    if page is not None:
        page.close()
    board.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--interval", type=float, default=0.15, help="mean seconds between a table's states")
    ap.add_argument("--games", type=int, default=6, help="distinct scripted games the tables replay")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    t0 = time.monotonic()
    games = record_games(args.games)
    print(f"recorded {args.games} games ({sum(map(len, games))} states) in {time.monotonic() - t0:.1f} s",
          file=sys.stderr)
    tmp = Path(tempfile.mkdtemp(prefix="bench-club-"))
    (tmp / "a").mkdir()
    (tmp / "b").mkdir()
    main_broker = Broker(tmp / "a", "max_queued_messages 100000\n").start()
    hall = Broker(tmp / "b", "").start()
    hall.conf.write_text(hall.conf.read_text() + f"max_queued_messages 100000\nconnection hall-to-main\n"
                         f"address 127.0.0.1:{main_broker.port}\ntopic elgrande/club/# out 1\n"
                         "cleansession true\ntry_private true\n")
    hall.stop()
    hall.start()
    figures = []
    pw = browser = None
    try:
        if not args.no_browser:
            from playwright import sync_api
            pw = sync_api.sync_playwright().start()
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless",
                                                                         "--disable-gpu"])
        figures.append(run("baseline: 1 table, one mosquitto", 1, games, [main_broker], args.interval, browser))
        figures.append(run(f"{args.tables} tables, one mosquitto", args.tables, games, [main_broker], args.interval,
                           browser, seed=2))
        figures.append(run(f"{args.tables} tables, two bridged mosquittos", args.tables, games, [main_broker, hall],
                           args.interval, browser, seed=3))
    finally:
        if browser is not None:
            browser.close()
            pw.stop()
        hall.stop()
        main_broker.stop()
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(f"{'run':<40} {'msg/s':>6} {'server p50/p99/max ms':>24} {'page p50/p99/max ms':>22} {'lost':>5} {'twice':>5}")
    for f in figures:
        s, p = f["server"], f["page"] or {}
        print(f"{f['run']:<40} {f['messages_per_second']:>6} "
              f"{s.get('p50_ms')!s:>8}/{s.get('p99_ms')!s}/{s.get('max_ms')!s:<8} "
              f"{p.get('p50_ms', '-')!s:>8}/{p.get('p99_ms', '-')!s}/{p.get('max_ms', '-')!s:<6} "
              f"{f['lost_final_results']:>5} {f['duplicate_results']:>5}")


if __name__ == "__main__":
    main()
