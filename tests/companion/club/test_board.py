"""Club night end to end: a real mosquitto (TLS, a user per table, the shipped ACL), `elgrande club`
serving the board, three `elgrande club-sim` table processes playing scripted games (real table
authorities), and Chromium (Playwright) reading the board. Every table shown; a broker restart
mid-game recovered; a killed table shown offline; a paused table shown stale, never live; each
finished game's result in the standings exactly once, also after the board restarts."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time

from playwright import sync_api

from companion.club.tournament import POINTS, ranked
from tests.companion.club.conftest import CLUB, TABLES, TOKEN, USERS

TIMEOUT = 15000


def start(args, env=None):
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


def first_line(proc, prefix, timeout=120.0):
    """The process's next line, which must start with `prefix`, within `timeout` (a whole scripted
    game on a loaded machine); a process that says nothing fails the test instead of hanging it."""
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not got:
        proc.kill()
        raise AssertionError(f"waited {timeout:g} s for a line {prefix}...; stderr: {proc.stderr.read()[-2000:]}")
    line = got[0]
    assert line.startswith(prefix), f"expected {prefix}..., got {line!r}; stderr: {proc.stderr.read()[-2000:]}"
    return line.split()


class Board:
    def __init__(self, broker, data):
        self.proc = start(
            [
                "club",
                "--broker",
                broker.url,
                "--club",
                CLUB,
                "--user",
                "club-board",
                "--cafile",
                broker.ca,
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--data",
                str(data),
            ],
            {"ELGRANDE_CLUB_TOKEN": TOKEN, "ELGRANDE_CLUB_PASSWORD": USERS["club-board"]},
        )
        self.url = first_line(self.proc, "BOARD")[1]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def request(self, method, path, body=None, token=TOKEN):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        c.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, (
            json.loads(data) if r.getheader("Content-Type", "").startswith("application/json") else data.decode()
        )

    def tables(self):
        return {t["table"]: t for t in self.request("GET", "/api/tables")[1]["tables"]}

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def wait(predicate, what, timeout=30.0):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}; the last value: {value!r}"
        time.sleep(0.05)  # polling the board's HTTP API (the page is awaited with Playwright's expect)


def test_club_night(club_broker, tmp_path, browser):
    journal = tmp_path / "tournament.jsonl"
    board = Board(club_broker, journal)
    sims: dict[str, subprocess.Popen] = {}
    try:
        # organiser actions need the token; the board is read-only without it
        assert board.request("POST", "/api/players", {"name": "Ann"}, token=None)[0] == 401
        assert board.request("POST", "/api/players", {"name": "Ann"}, token="wrong-token-xx")[0] == 403
        names = [f"P{i:02d}" for i in range(12)]
        for n in names:
            assert board.request("POST", "/api/players", {"name": n}) == (200, {"name": n})
        assert board.request("POST", "/api/players", {"name": "p00"})[0] == 409
        status, seated = board.request("POST", "/api/rounds", {"tables": list(TABLES[:3]), "seed": 3})
        assert status == 200 and sorted(sum(seated["round"]["tables"].values(), [])) == names

        pace = {"table-1": "0.04", "table-2": "0.05", "table-3": "0.08"}
        for table in TABLES[:3]:
            sims[table] = start(
                [
                    "club-sim",
                    "--broker",
                    club_broker.url,
                    "--club",
                    CLUB,
                    "--user",
                    table,
                    "--cafile",
                    club_broker.ca,
                    "--seed",
                    str(len(sims) + 1),
                    "--pace",
                    pace[table],
                    "--heartbeat",
                    "1",
                    "--names",
                    ",".join(seated["round"]["tables"][table]),
                ],
                {"ELGRANDE_CLUB_PASSWORD": USERS[table]},
            )
            first_line(sims[table], "TABLE")

        page = browser.new_page()
        page.set_default_timeout(TIMEOUT)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(board.url)
        sync_api.expect(page.locator("#conn")).to_have_text("live")
        for table in TABLES[:3]:
            card = page.locator(f'.table[data-table="{table}"]')
            sync_api.expect(card).to_have_attribute("data-status", "live")
            sync_api.expect(card.locator(".round")).to_contain_text("round")
            for name in seated["round"]["tables"][table]:
                sync_api.expect(card).to_contain_text(name)

        # the broker restarts mid-game: the tables and the board reconnect, the tables republish
        before = {t: e["version"] for t, e in board.tables().items()}
        assert not any(e["over"] for e in board.tables().values()), "the restart should come mid-game"
        club_broker.stop()
        club_broker.start()
        wait(
            lambda: all(
                board.tables()[t]["version"] > before[t] and board.tables()[t]["status"] == "live"
                for t in ("table-1", "table-3")
            ),
            "newer states after the broker restart",
        )
        sync_api.expect(page.locator('.table[data-table="table-3"]')).to_have_attribute("data-status", "live")

        # a table killed mid-game: its Last Will marks it offline
        sims["table-3"].send_signal(signal.SIGKILL)
        sims["table-3"].wait(10)
        sync_api.expect(page.locator('.table[data-table="table-3"]')).to_have_attribute("data-status", "offline")

        # the two other games end: each result lands in the standings once
        for table in ("table-1", "table-2"):
            first_line(sims[table], "OVER")
        wait(lambda: len(board.request("GET", "/api/tournament")[1]["results"]) == 2, "two results")
        tables = board.tables()
        expected = {}
        for table in ("table-1", "table-2"):
            for s in ranked(tables[table]["standings"]):
                expected[s["name"]] = (POINTS[s["rank"]], s["score"])
            card = page.locator(f'.table[data-table="{table}"]')
            sync_api.expect(card.locator(".phase")).to_have_text("game over")
            sync_api.expect(card.locator("svg polyline")).to_have_count(4)  # the score plot: a line per player
        standings = board.request("GET", "/api/tournament")[1]["standings"]
        assert {r["name"]: (r["points"], r["score"]) for r in standings if r["games"]} == expected
        best = standings[0]
        sync_api.expect(page.locator("#rows tr").first).to_contain_text(best["name"])
        csv = board.request("GET", "/standings.csv")[1].splitlines()
        assert csv[1].startswith(f"1,{best['name']},{best['points']},{best['score']},1,")

        # a table that stops publishing (paused: still connected) turns stale, never stays live
        sims["table-2"].send_signal(signal.SIGSTOP)
        sync_api.expect(page.locator('.table[data-table="table-2"]')).to_have_attribute("data-status", "stale")
        sims["table-2"].send_signal(signal.SIGCONT)
        sync_api.expect(page.locator('.table[data-table="table-2"]')).to_have_attribute("data-status", "live")

        # the board restarts: the journal keeps the tournament; the retained results are not counted again
        board.stop()
        board = Board(club_broker, journal)
        wait(
            lambda: len(board.tables()) == 3 and all(board.tables()[t].get("over") for t in ("table-1", "table-2")),
            "the retained states after the board's restart",
        )
        again = board.request("GET", "/api/tournament")[1]
        assert len(again["results"]) == 2 and again["standings"] == standings
        assert sum(1 for line in journal.read_text().splitlines() if '"t":"result"' in line) == 2
        page.goto(board.url)
        sync_api.expect(page.locator('.table[data-table="table-3"]')).to_have_attribute("data-status", "offline")
        assert not errors, errors
    finally:
        for proc in sims.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.terminate()
                proc.wait(10)
        board.stop()
