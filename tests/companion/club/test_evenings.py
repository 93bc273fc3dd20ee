"""Club nights a tournament can trust, end to end: one real mosquitto (TLS, a user per table, the
shipped ACL, persistence as installed) for the module, `elgrande club` and `elgrande club-sim`
table processes, Chromium on the board and the organiser page.

- Two evenings on the same broker, the board restarted with a new tournament file between them:
  last night's retained results are neither shown nor counted; the second evening's standings
  hold exactly its own games; the organiser clears the old tables in one action.
- A table cannot credit another table's players: its over-state is refused, shown to the
  organiser with the reason, and nobody is credited.
- The board that loses the broker says so in a banner; its tables turn "unknown", not "offline".
"""

from __future__ import annotations

import shutil
import signal

import pytest
from playwright import sync_api

from tests.companion.club.conftest import CLUB, USERS, ClubBroker
from tests.companion.club.test_board import Board, first_line, start, wait
from tests.companion.phones.test_browser import ARGS, CHROMIUM

TIMEOUT = 20000
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


@pytest.fixture(scope="module")
def broker(tmp_path_factory, certs):
    b = ClubBroker(tmp_path_factory.mktemp("evenings-broker"), certs).start()
    yield b
    b.stop()


@pytest.fixture(scope="module")
def chromium():
    assert shutil.which(CHROMIUM), f"no Chromium at {CHROMIUM}: run scripts/setup.sh as root (it installs it)"
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def sim(broker, table, *extra):
    proc = start(
        [
            "club-sim",
            "--broker",
            broker.url,
            "--club",
            CLUB,
            "--user",
            table,
            "--cafile",
            broker.ca,
            "--pace",
            "0.01",
            "--heartbeat",
            "2",
            "--players",
            "3",
            "--wait",
            "20",
            *extra,
        ],
        {"ELGRANDE_CLUB_PASSWORD": USERS[table]},
    )
    return proc, first_line(proc, "TABLE")[3]


def stop(*procs):
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(10)


def evening(board):
    for name in NAMES:
        assert board.request("POST", "/api/players", {"name": name})[0] == 200
    status, seated = board.request("POST", "/api/rounds", {"tables": ["table-1", "table-2"], "seed": 5})
    assert status == 200, seated
    return seated["round"]["tables"]


def test_two_evenings_count_only_the_second_evenings_games(broker, chromium, tmp_path):
    first = Board(broker, tmp_path / "monday.jsonl")
    sims = []
    try:
        evening(first)
        sims = [sim(broker, t) for t in ("table-1", "table-2")]
        for proc, _ in sims:
            first_line(proc, "OVER")
        wait(lambda: len(first.request("GET", "/api/tournament")[1]["results"]) == 2, "monday's two results")
    finally:
        stop(*(p for p, _ in sims))
        first.stop()

    # Tuesday: a new tournament file, the same names; Monday's finished states are still retained.
    second = Board(broker, tmp_path / "tuesday.jsonl")
    sims = []
    try:
        wait(
            lambda: set(second.request("GET", "/api/tables")[1]["old_tables"]) == {"table-1", "table-2"},
            "monday's tables seen as another event's",
        )
        seating = evening(second)
        page = chromium.new_page(viewport={"width": 1280, "height": 720})
        page.set_default_timeout(TIMEOUT)
        page.goto(second.url)
        sync_api.expect(page.locator("#conn")).to_have_text("live")
        for table, names in seating.items():  # seated, waiting: no old OFFLINE card, no old score
            card = page.locator(f'.table[data-table="{table}"]')
            sync_api.expect(card).to_have_attribute("data-status", "seated")
            for name in names:
                sync_api.expect(card).to_contain_text(name)
        tournament = second.request("GET", "/api/tournament")[1]
        assert tournament["results"] == [] and tournament["refused"] == []
        assert sorted(tournament["waiting"]) == ["table-1", "table-2"]
        assert second.request("POST", "/api/rounds", {"tables": ["table-1", "table-2"]})[0] == 409

        organiser = chromium.new_page()
        organiser.set_default_timeout(TIMEOUT)
        organiser.goto(second.url + "organiser")
        organiser.fill("#token", "organiser-token-123")
        sync_api.expect(organiser.locator("#old")).to_contain_text("table-1")
        organiser.click("#clear-old")
        sync_api.expect(organiser.locator("#answer")).to_contain_text('"cleared":["table-1","table-2"]')
        sync_api.expect(organiser.locator("#old")).to_have_text("none")

        sims = [sim(broker, t) for t in ("table-1", "table-2")]
        games = {t: game for t, (_, game) in zip(("table-1", "table-2"), sims)}
        for proc, _ in sims:
            first_line(proc, "OVER")
        wait(lambda: len(second.request("GET", "/api/tournament")[1]["results"]) == 2, "tuesday's two results")
        tournament = second.request("GET", "/api/tournament")[1]
        assert {(r["table"], r["game"]) for r in tournament["results"]} == set(games.items())
        assert all(r["games"] == 1 for r in tournament["standings"]) and tournament["refused"] == []
        for table in games:
            sync_api.expect(page.locator(f'.table[data-table="{table}"] .phase')).to_have_text("game over")
        page.close()
        organiser.close()
    finally:
        stop(*(p for p, _ in sims))
        second.stop()
    assert "Traceback" not in second.proc.stderr.read()


def test_a_table_cannot_credit_another_tables_players_and_the_lost_broker_is_said(broker, chromium, tmp_path):
    board = Board(broker, tmp_path / "t.jsonl")
    sims = []
    try:
        seating = evening(board)
        forged = ",".join(seating["table-1"])  # logged in as table-2, it names table-1's players
        sims = [sim(broker, "table-2", "--names", forged), sim(broker, "table-1")]
        for proc, _ in sims:
            first_line(proc, "OVER")
        wait(lambda: board.request("GET", "/api/tournament")[1]["refused"], "the forged result refused")
        wait(lambda: board.request("GET", "/api/tournament")[1]["results"], "table-1's own result")
        tournament = board.request("GET", "/api/tournament")[1]
        [refused] = tournament["refused"]
        assert refused["table"] == "table-2" and refused["game"] == sims[0][1]
        named = refused["reason"].split("(")[1].split(")")[0].split(", ")  # by final score
        assert sorted(named) == sorted(seating["table-1"])
        assert f"are not the ones seated at table-2 in round 1 ({', '.join(seating['table-2'])})" in refused["reason"]
        games = {r["name"]: r["games"] for r in tournament["standings"]}
        assert all(games[n] == 1 for n in seating["table-1"]) and all(games[n] == 0 for n in seating["table-2"])
        assert tournament["waiting"] == ["table-2"]

        organiser = chromium.new_page()
        organiser.set_default_timeout(TIMEOUT)
        organiser.goto(board.url + "organiser")
        sync_api.expect(organiser.locator('#refused tr[data-table="table-2"]')).to_contain_text(
            "are not the ones seated at table-2"
        )
        organiser.close()

        page = chromium.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto(board.url)
        card = page.locator('.table[data-table="table-1"]')
        sync_api.expect(card).to_have_attribute("data-status", "live")
        sync_api.expect(page.locator("#banner")).to_be_hidden()
        broker.stop()
        sync_api.expect(page.locator("#banner")).to_be_visible()
        sync_api.expect(page.locator("#banner")).to_contain_text("lost the club broker")
        sync_api.expect(card).to_have_attribute("data-status", "unknown")
        broker.start()
        sync_api.expect(page.locator("#banner")).to_be_hidden()
        sync_api.expect(card).to_have_attribute("data-status", "live")
        page.close()
    finally:
        if broker.proc is None or broker.proc.poll() is not None:
            broker.start()
        stop(*(p for p, _ in sims))
        board.stop()
    assert "Traceback" not in board.proc.stderr.read()
