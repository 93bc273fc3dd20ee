"""Club night figures, measured on the page: N tables publishing to a mosquitto installed as
shipped, the board as its own process, the time until each change is drawn in Chromium.

    .venv/bin/python bench/bench_club.py [--tables 200] [--interval 0.5] [--workers 4] [--bridged] [--json]

- The broker: mosquitto with the shipped hardware/mosquitto/club/mosquitto.conf and acl, TLS
  (make-certs.sh's way), a password per table, persistence on as Debian's main file has it
  (tests/companion/club/conftest.ClubBroker). With --bridged, a second (hall) broker joined to it by
  the shipped bridge.conf (cleansession false, as shipped) filled in for its hall, the club broker's
  ACL with the hall's user writing only its tables (companion/club/halls.py, as `elgrande club-setup`
  writes them) and the board given the hall plan; half of the tables publish to the hall.
- The tables: `--workers` processes, each running its share of the tables through the real
  ClubPublisher (TLS, the table's own user and password, its Last Will, the board's seating) and
  a real companion.table.authority.Table playing a scripted game (companion.scripted), one input every
  `--interval` seconds on average (exponential gaps); like `elgrande club-sim`, each table waits
  for the board's seating and plays the names seated there. (Not 200 `club-sim` processes: one
  Python process per table would not fit the machine's memory, the code path is the same.)
- The board: `elgrande club` as its own process, with a tournament seating every table.
- The page: the board in Chromium (Debian's, through Playwright) at 1920x1080; the page's own
  render hook (takeDrawn: a card's version the frame after it changed) gives the time each
  version was drawn, against the time the table published it (one machine, one clock).

Figures: change -> drawn card, p50 / p99 / max, over every version a table published: a version
the page never drew (the board sends a table's newest state only) counts as drawn when a newer
version of that table was; the skipped versions are counted too. Final results: each table's
finished game must be in the standings exactly once (lost, twice). A plain subscriber beside the
board times the same states through the broker (the broker's share of the time). The load average is printed
before and after: on a loaded machine the figures say as much about the machine.
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CLUB = "bench"
HALL = "hall-1"  # --bridged: the hall broker's name, and its bridge's user on the club broker
TOKEN = "bench-organiser-token"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def password(user: str) -> str:
    return f"{user}-bench-secret"


# ---- a worker process: its share of the tables ------------------------------------------------


def worker(args) -> int:
    from companion import scripted
    from companion.club.config import ClubConfig
    from companion.club.publisher import ClubPublisher
    from companion.table.authority import Table

    class TimedPublisher(ClubPublisher):
        """Records when each new version of its game was published."""

        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.sent: list[tuple[str, int, float]] = []

        def publish_now(self):
            before = self.published
            super().publish_now()
            if self.published > before and (not self.sent or self.sent[-1][:2] != (self.table.nonce, self.version)):
                self.sent.append((self.table.nonce, self.version, time.time()))

    tables = args.worker.split(",")
    pubs = {}
    for t in tables:
        config = ClubConfig(broker=args.broker, club=CLUB, username=t, password=password(t), ca_file=args.cafile)
        pubs[t] = TimedPublisher(Table(scripted.scripted_setup(players=4)), config, heartbeat=10).start()
    games = {}
    deadline = time.monotonic() + 60
    for t, pub in pubs.items():  # like club-sim: the names the board's seating puts at this table
        while not (pub.seating and pub.seating.tables.get(t)) and time.monotonic() < deadline:
            time.sleep(0.05)
        names = pub.seating.tables[t]
        setup = scripted.scripted_setup(players=len(names))
        setup.game.names.update(dict(zip(setup.game.players, names)))
        table = Table(setup)
        table.nonce = os.urandom(4).hex()
        pub.switch_table(table)
        games[t] = table
    print("READY", flush=True)
    rng = random.Random(args.seed)
    heap = [(time.monotonic() + rng.expovariate(1 / args.interval), t) for t in tables]
    heapq.heapify(heap)
    seeds = {t: 1000 + i for i, t in enumerate(tables)}
    while heap:
        when, t = heapq.heappop(heap)
        time.sleep(max(0.0, when - time.monotonic()))
        if scripted.step(games[t], seeds[t]):
            heapq.heappush(heap, (max(when, time.monotonic()) + rng.expovariate(1 / args.interval), t))
    time.sleep(3)  # the last states out
    out = {
        t: {"game": games[t].nonce, "sent": [(v, at) for g, v, at in pubs[t].sent if g == games[t].nonce]}
        for t in tables
    }
    Path(args.out).write_text(json.dumps(out))
    print("DONE", flush=True)
    time.sleep(3600)  # online, the final states retained, until the conductor stops it
    return 0


# ---- the conductor -----------------------------------------------------------------------------


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def make_broker(directory: Path, certs: Path, users: dict[str, str], extra: str = "", acl: str = ""):
    from tests.companion.club.conftest import ClubBroker

    broker = ClubBroker(directory, certs, users={}, extra=extra)  # the shipped files, an empty passwd
    if acl:
        (directory / "elgrande-club" / "acl").write_text(acl)
    passwd = directory / "elgrande-club" / "passwd"  # then every user at once (mosquitto_passwd -U hashes them)
    passwd.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
    subprocess.run(["mosquitto_passwd", "-U", str(passwd)], check=True, capture_output=True, timeout=300)
    return broker.start()


def listen(broker):
    """A subscriber beside the board (its user, TLS): change -> a state through the broker, for
    telling the broker's share of the time from the board's and the page's."""
    from paho.mqtt import client as mqtt

    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    c.tls_set(ca_certs=broker.ca)
    c.username_pw_set("club-board", password("club-board"))
    c.delays = []

    def on_message(cl, userdata, message):
        if message.topic.endswith("/state") and message.payload and not message.retain:
            c.delays.append(time.time() - json.loads(message.payload)["ts"])

    c.on_connect = lambda cl, u, f, rc, p: cl.subscribe(
        [(f"elgrande/club/{CLUB}/tables/+/state", 1), (f"elgrande/halls/+/club/{CLUB}/tables/+/state", 1)]
    )
    c.on_message = on_message
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c


def request(port: int, method: str, path: str, body=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request(
        method, path, body=json.dumps(body) if body is not None else None, headers={"Authorization": f"Bearer {TOKEN}"}
    )
    r = c.getresponse()
    data = json.loads(r.read() or b"null")
    c.close()
    return r.status, data


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p99": None, "max": None}
    v = sorted(values)
    return {
        "p50": round(v[len(v) // 2], 3),
        "p99": round(v[min(len(v) - 1, int(len(v) * 0.99))], 3),
        "max": round(v[-1], 3),
    }


def run(args, work: Path) -> dict:
    from playwright import sync_api

    from tests.firmware_bridge.locked_broker import make_certs

    tables = [f"table-{i + 1}" for i in range(args.tables)]
    certs = work / "certs"
    certs.mkdir()
    make_certs(certs, "127.0.0.1", "localhost")
    from companion.club.halls import HallPlan, bridge_conf, club_acl

    users = {"club-board": password("club-board"), HALL: password(HALL), **{t: password(t) for t in tables}}
    shares = [tables[i :: args.workers] for i in range(args.workers)]
    plan = HallPlan(CLUB, {HALL: [t for share in shares[1::2] for t in share]}) if args.bridged else None
    (work / "main").mkdir()
    main = make_broker(work / "main", certs, users, acl=club_acl(plan) if plan else "")
    brokers = [main]
    halls = []
    if plan:
        bridge = bridge_conf(plan, HALL, f"127.0.0.1:{main.port}", password(HALL)).replace(
            "/etc/mosquitto/elgrande-club/certs/", f"{work / 'hall' / 'elgrande-club' / 'certs'}/"
        )
        (work / "hall").mkdir()
        brokers.append(make_broker(work / "hall", certs, users, extra=bridge))
        (work / "halls.json").write_text(plan.to_json())
        halls = ["--halls", str(work / "halls.json")]
    env = {**os.environ, "ELGRANDE_CLUB_TOKEN": TOKEN, "ELGRANDE_CLUB_PASSWORD": password("club-board")}
    board = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "club",
            "--broker",
            main.url,
            "--club",
            CLUB,
            "--user",
            "club-board",
            "--cafile",
            main.ca,
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data",
            str(work / "tournament.jsonl"),
            *halls,
        ],
        stdout=subprocess.PIPE,
        stderr=open(work / "board.log", "w"),
        text=True,
        env=env,
        cwd=ROOT,
    )
    procs = [board]
    heard = listen(main)  # the states as a plain subscriber gets them: where the time goes
    try:
        port = int(board.stdout.readline().split()[1].rstrip("/").rsplit(":", 1)[1])
        for i in range(4 * len(tables)):
            assert request(port, "POST", "/api/players", {"name": f"P{i:04d}"})[0] == 200
        status, seated = request(port, "POST", "/api/rounds", {"tables": tables, "seed": 1})
        assert status == 200, seated
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("document.getElementById('conn').textContent === 'live'")
            page.evaluate("window.recordDrawn = true")
            for i, share in enumerate(shares):
                broker = brokers[i % len(brokers)]
                procs.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            __file__,
                            "--worker",
                            ",".join(share),
                            "--broker",
                            broker.url,
                            "--cafile",
                            broker.ca,
                            "--interval",
                            str(args.interval),
                            "--seed",
                            str(i),
                            "--out",
                            str(work / f"w{i}.json"),
                        ],
                        stdout=subprocess.PIPE,
                        stderr=open(work / f"w{i}.log", "w"),
                        text=True,
                        cwd=ROOT,
                    )
                )
            for proc in procs[1:]:
                assert proc.stdout.readline().strip() == "READY", f"a worker failed: see {work}"
            print(f"  {len(tables)} tables playing; load average {load()}", flush=True)
            drawn: list = []
            done = 0
            started = time.monotonic()
            waiting = list(procs[1:])
            reader = threading.Thread(target=lambda: [proc.stdout.readline() for proc in waiting], daemon=True)
            reader.start()
            while reader.is_alive() and time.monotonic() - started < args.timeout:
                drawn += page.evaluate("takeDrawn()")
                time.sleep(0.5)
            settle = time.monotonic() + 30
            while time.monotonic() < settle:
                drawn += page.evaluate("takeDrawn()")
                results = request(port, "GET", "/api/tournament")[1]["results"]
                if len(results) >= len(tables):
                    break
                time.sleep(0.5)
            time.sleep(2)
            drawn += page.evaluate("takeDrawn()")
            done = len(results)
            browser.close()
        load_after = load()
        sent = {}
        for i in range(args.workers):
            sent.update(json.loads((work / f"w{i}.json").read_text()))
        tournament = request(port, "GET", "/api/tournament")[1]
        journal = sum(1 for line in (work / "tournament.jsonl").read_text().splitlines() if '"t":"result"' in line)
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        heard.disconnect()
        heard.loop_stop()
        for b in brokers:
            b.stop()
    # change -> drawn, every published version: a skipped one is drawn when a newer one is
    first_drawn: dict[str, list[tuple[int, float]]] = {}
    for table, version, _ts, at in drawn:
        first_drawn.setdefault(table, []).append((version, at / 1000))
    latencies, skipped, published = [], 0, 0
    for table, info in sent.items():
        shown = sorted(first_drawn.get(table, []))
        seen = {v for v, _ in shown}
        for version, at in info["sent"]:
            published += 1
            skipped += version not in seen
            later = [d for v, d in shown if v >= version]
            latencies.append(min(later) - at if later else float("inf"))
    never = sum(1 for x in latencies if x == float("inf"))
    finite = [x for x in latencies if x != float("inf")]
    per_table: dict[str, int] = {}
    for r in tournament["results"]:
        per_table[r["table"]] = per_table.get(r["table"], 0) + 1
    games = {t: info["game"] for t, info in sent.items()}
    return {
        "tables": len(tables),
        "bridged": args.bridged,
        "interval": args.interval,
        "published": published,
        "skipped": skipped,
        "never_drawn": never,
        "drawn": percentiles(finite + [1e9] * never),
        "results": done,
        "lost": sum(1 for t in tables if per_table.get(t, 0) == 0),
        "twice": sum(1 for n in per_table.values() if n > 1),
        "journal_results": journal,
        "right_games": sum(1 for r in tournament["results"] if games.get(r["table"]) == r["game"]),
        "refused": len(tournament["refused"]),
        "load_before": args.load_before,
        "load_after": load_after,
        "subscriber": percentiles(heard.delays),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--interval", type=float, default=0.5, help="mean seconds between a table's inputs")
    ap.add_argument("--workers", type=int, default=4, help="processes running the tables")
    ap.add_argument("--bridged", action="store_true", help="half the tables on a hall broker, bridged")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--broker", help=argparse.SUPPRESS)
    ap.add_argument("--cafile", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    args.workers = max(1, min(args.workers, args.tables))
    args.load_before = load()
    print(f"load average before: {args.load_before} ({os.cpu_count()} cores)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-club-") as d:
        out = run(args, Path(d))
    if args.json:
        print(json.dumps(out))
    else:
        d = out["drawn"]
        print(
            f"{out['tables']} tables{' (two bridged brokers)' if out['bridged'] else ''}, an input every "
            f"{out['interval']:g} s a table: {out['published']} versions published; change -> drawn card "
            f"p50 {d['p50']} s, p99 {d['p99']} s, max {d['max']} s; {out['skipped']} versions skipped "
            f"({100 * out['skipped'] / max(1, out['published']):.1f} %, drawn when a newer one was), "
            f"{out['never_drawn']} never drawn"
        )
        print(
            f"final results: {out['results']} of {out['tables']} ({out['right_games']} the right game), "
            f"{out['lost']} lost, {out['twice']} twice, {out['journal_results']} in the journal, "
            f"{out['refused']} refused"
        )
        h = out["subscriber"]
        print(
            f"the same states at a plain subscriber beside the board: p50 {h['p50']} s, p99 {h['p99']} s, "
            f"max {h['max']} s"
        )
        print(f"load average after: {out['load_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
