"""Phone frames that come late, twice or out of order (issue 31): what they change.

    .venv/bin/python bench/bench_phone_frames.py [--json]

A real phone server on a loopback port, a real table writing its log to disk, one seat's phone
on a websocket (aiohttp) at a general scoring. Each case sends a seat's picks as a flaky Wi-Fi
delivers them, then counts what the stale frames did: the table's changes (its observers' "game"
calls) and the lines they added to the game's log, beyond what the player's own newer picks did.
Goal 0 / 0, and the disc ends on the player's last choice.

- replayed: picks A then B; the socket drops; on the new socket A's frame arrives again;
- reordered: the player picks A then B; B's frame arrives first;
- repeated x50: one pick's frame delivered 50 times (49 are copies);
- after a restart: picks A then B; the tablet restarts (the game resumes from its log), the phone
  joins again and A's number comes again.

Each case runs with the page's numbered frames (`seq`) and as a page from before the numbering
sends them (no `seq`: taken in the order they arrive, as every frame was before issue 31).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("ELGRANDE_DATA_DIR", tempfile.mkdtemp(prefix="bench-phone-frames-"))

import aiohttp

from companion.phones import PhoneServer
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine.events import GameSetup
from engine.freeplay import RoundFinished

PLAYERS = ["red", "yellow", "green", "blue"]
SETUP = GameSetup(
    players=PLAYERS,
    names={"red": "Ana", "yellow": "Bruno", "green": "Carmen", "blue": "Dora"},
    variant="short",
    king="cataluna",
    start_player="red",
    homes={"red": "galicia", "yellow": "aragon", "green": "sevilla", "blue": "valencia"},
)
A, B = "aragon", "sevilla"  # the player's first and second (last) choice


class Bench:
    """One table at a general scoring, its phone server, red's phone joined and confirmed."""

    def __init__(self, table: Table | None = None):
        if table is None:
            table = Table.new(TableSetup(game=SETUP, mode="scoring"))
            while table.asked().kind != "secret_disc":
                table.submit(RoundFinished())
        self.table = table
        self.server = PhoneServer(table, host="127.0.0.1").start()
        self.credential = self.join("red")
        self.changes: list[str] = []
        table.subscribe(self.changes.append)

    def join(self, pid: str) -> str:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        conn.request("POST", "/api/join", body=json.dumps({"code": self.server.seat_url(pid).rsplit("/", 1)[1]}))
        credential = json.loads(conn.getresponse().read())["credential"]
        conn.close()
        assert self.server.confirm(pid, self.server.seats_status()[pid]["awaiting"])
        return credential

    def lines(self) -> int:
        return len(self.table.path.read_bytes().splitlines())

    def counts(self) -> tuple[int, int]:
        return len(self.changes), self.lines()

    def frame(self, region: str, seq: int | None, ref: int) -> dict:
        frame = {
            "type": "pick",
            "credential": self.credential,
            "question": self.table.question_id(),
            "region": region,
            "ref": ref,
        }
        return frame if seq is None else {**frame, "seq": seq}

    def disc(self) -> str | None:
        return self.table.private("red")["secret_disc"]

    def stop(self) -> None:
        self.server.stop()
        self.table.close()


async def socket(session: aiohttp.ClientSession, bench: Bench):
    ws = await session.ws_connect(f"http://127.0.0.1:{bench.server.port}/ws")
    await ws.send_json({"type": "hello", "credential": bench.credential})
    await answered(ws, lambda m: m["type"] == "view")
    return ws


async def answered(ws, predicate) -> dict:
    while True:
        msg = await asyncio.wait_for(ws.receive(), 20)
        m = json.loads(msg.data)
        if predicate(m):
            return m


async def send(ws, frames: list[dict]) -> None:
    """Sends the frames back to back, then waits for every one's answer (result or error)."""
    for frame in frames:
        await ws.send_json(frame)
    refs = {f["ref"] for f in frames}
    while refs:
        m = await answered(ws, lambda m: m["type"] in ("result", "error"))
        refs.discard(m.get("ref"))


def seqs(numbered: bool, *numbers: int) -> list[int | None]:
    return list(numbers) if numbered else [None] * len(numbers)


async def replayed(numbered: bool) -> dict:
    bench = Bench()
    a, b = seqs(numbered, 1, 2)
    async with aiohttp.ClientSession() as session:
        ws = await socket(session, bench)
        await send(ws, [bench.frame(A, a, 1)])
        await send(ws, [bench.frame(B, b, 2)])
        await ws.close()
        before = bench.counts()
        ws = await socket(session, bench)
        await send(ws, [bench.frame(A, a, 3)])
        await ws.close()
    return outcome(bench, before)


async def reordered(numbered: bool) -> dict:
    bench = Bench()
    a, b = seqs(numbered, 1, 2)
    async with aiohttp.ClientSession() as session:
        ws = await socket(session, bench)
        before = bench.counts()
        await send(ws, [bench.frame(B, b, 2), bench.frame(A, a, 1)])
        await ws.close()
    return outcome(bench, before, own=1)  # B's own change and line are the player's


async def repeated(numbered: bool) -> dict:
    bench = Bench()
    a, b = seqs(numbered, 1, 2)
    async with aiohttp.ClientSession() as session:
        ws = await socket(session, bench)
        await send(ws, [bench.frame(A, a, 1)])
        before = bench.counts()
        await send(ws, [bench.frame(B, b, 100 + i) for i in range(50)])
        await ws.close()
    return outcome(bench, before, own=1)  # the first of the 50 is the player's pick


async def after_restart(numbered: bool) -> dict:
    bench = Bench()
    a, b = seqs(numbered, 1, 2)
    async with aiohttp.ClientSession() as session:
        ws = await socket(session, bench)
        await send(ws, [bench.frame(A, a, 1)])
        await send(ws, [bench.frame(B, b, 2)])
        await ws.close()
    path = bench.table.path
    bench.stop()
    bench = Bench(Table.resume(path))  # the tablet restarted: a new server, the phone joins again
    async with aiohttp.ClientSession() as session:
        ws = await socket(session, bench)
        before = bench.counts()
        await send(ws, [bench.frame(A, a, 3)])
        await ws.close()
    return outcome(bench, before)


def outcome(bench: Bench, before: tuple[int, int], own: int = 0) -> dict:
    changes, lines = bench.counts()
    result = {
        "state_changes": changes - before[0] - own,
        "log_lines": lines - before[1] - own,
        "disc_is_last_choice": bench.disc() == B,
    }
    bench.stop()
    return result


CASES = {
    "replayed after a reconnect": replayed,
    "reordered": reordered,
    "repeated x50": repeated,
    "replayed after a tablet restart": after_restart,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = {
        name: {"numbered": asyncio.run(case(True)), "unnumbered (a page from before)": asyncio.run(case(False))}
        for name, case in CASES.items()
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print("Phone frames: what the stale frames changed, state changes / log lines (goal 0 / 0)")
    print(f"{'':34}{'numbered (this page)':>26}{'unnumbered (a page from before)':>36}")
    for name, row in figures.items():
        cells = [
            f"{r['state_changes']} / {r['log_lines']}, disc {'last' if r['disc_is_last_choice'] else 'EARLIER'}"
            for r in row.values()
        ]
        print(f"{name:34}{cells[0]:>26}{cells[1]:>36}")


if __name__ == "__main__":
    main()
