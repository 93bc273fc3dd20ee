"""The room board on a TV, in Chromium at 1920x1080 and 1280x720 with 4 and 60 tables: table names
and scores at least 32 px and phase and turn at least 24 px at 1920x1080; no card overlaps another
or the standings, nothing leaves the screen; tables and standings page through by themselves when
they do not fit; each score row carries its player's colour, the same as the plot's line (the
legend). The states are handed to a real board (connected to a real broker) as its MQTT thread
would; screenshots are saved under the test's tmp_path."""

from __future__ import annotations

import json
import time

import pytest
from playwright import sync_api

from companion.club.board import ClubBoard
from companion.club.topics import state_topic
from companion.club.tournament import Tournament
from tests.companion.club.conftest import CLUB, TOKEN, USERS

COLOURS = ["red", "yellow", "green", "blue"]


@pytest.fixture(scope="module")
def tv_browser():
    from tests.companion.phones.test_browser import ARGS, CHROMIUM

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def state_of(t: Tournament, rnd: dict, i: int, table: str, seats: list[str], version: int = 7) -> bytes:
    return json.dumps(
        {
            "table": table,
            "game": f"g{i}",
            "version": version,
            "ts": time.time(),
            "heartbeat": 30,
            "rules": "classic",
            "mode": "tracking",
            "round": 5,
            "rounds": 9,
            "phase": "action: play card",
            "turn": [seats[1]],
            "over": False,
            "seated": {"event": t.event, "round": 1, "round_id": rnd["id"]},
            "players": [
                {
                    "id": COLOURS[k],
                    "name": name,
                    "score": 100 + k + i % 50 + version - 7,
                    "history": [[3, 20 + 5 * k], [5, 40 + 9 * k]],
                }
                for k, name in enumerate(seats)
            ],
        }
    ).encode()


def board_with(club_broker, tables: int) -> ClubBoard:
    t = Tournament()
    for i in range(tables * 4):
        t.register(f"Player {i:03d}")
    rnd = t.seat_round([f"table-{i + 1}" for i in range(tables)], seed=1)
    board = ClubBoard(
        club_broker.url, CLUB, t, TOKEN, username="club-board", password=USERS["club-board"], ca_file=club_broker.ca
    ).start()
    assert board.connected.wait(10)
    for i, (table, seats) in enumerate(rnd["tables"].items()):
        board._take(state_topic(CLUB, table), state_of(t, rnd, i, table, seats))
    board.round = rnd
    return board


def boxes(page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(
        selector,
        "els => els.filter(e => e.offsetParent !== null).map(e => {"
        "const r = e.getBoundingClientRect();"
        "return {x: r.x, y: r.y, r: r.right, b: r.bottom, t: e.dataset.table}})",
    )


def overlaps(a: dict, b: dict) -> bool:
    return a["x"] < b["r"] - 0.5 and b["x"] < a["r"] - 0.5 and a["y"] < b["b"] - 0.5 and b["y"] < a["b"] - 0.5


def font_px(page, selector: str) -> float:
    return min(
        page.eval_on_selector_all(
            selector,
            "els => els.filter(e => e.offsetParent !== null).map(e => parseFloat(getComputedStyle(e).fontSize))",
        )
    )


@pytest.mark.parametrize("tables", [4, 60])
def test_the_board_reads_from_across_the_room(club_broker, tv_browser, tmp_path, tables):
    board = board_with(club_broker, tables)
    try:
        for width, height in ((1920, 1080), (1280, 720)):
            page = tv_browser.new_page(viewport={"width": width, "height": height})
            page.clock.install()
            page.goto(board.url)
            sync_api.expect(page.locator(".table")).to_have_count(tables)
            sync_api.expect(page.locator("#rows tr")).to_have_count(tables * 4)
            page.clock.run_for(500)
            shown = boxes(page, ".table")
            page.screenshot(path=str(tmp_path / f"board-{tables}-{width}x{height}.png"))
            side = boxes(page, "#side")[0]
            for i, card in enumerate(shown):
                assert 0 <= card["x"] and card["r"] <= width and 0 <= card["y"] and card["b"] <= height, card
                assert not overlaps(card, side), (card, side)
                assert not any(overlaps(card, other) for other in shown[i + 1 :]), card
            for row in boxes(page, "#rows tr"):
                assert row["b"] <= boxes(page, "#standings-box")[0]["b"] + 0.5 and row["r"] <= width, row
            if (width, height) == (1920, 1080):
                for selector, least in (
                    (".table .name", 32),
                    ("td.score", 32),
                    ("td.who", 32),
                    (".phase", 24),
                    (".round", 24),
                ):
                    assert font_px(page, selector) >= least, selector
            if tables == 60:  # not all fit: the pages turn by themselves
                label = page.locator("#tables-page")
                sync_api.expect(label).to_contain_text("page 1 of ")
                first = {c["t"] for c in shown}
                assert 0 < len(first) < tables
                # a table on another page changes: its card is updated, and stays on its page
                rnd = board.round
                board._take(
                    state_topic(CLUB, "table-60"),
                    state_of(board.tournament, rnd, 59, "table-60", rnd["tables"]["table-60"], version=8),
                )
                sync_api.expect(page.locator('.table[data-table="table-60"] td.score').first).to_have_text(
                    "110"
                )  # was 109
                assert {c["t"] for c in boxes(page, ".table")} == first
                page.clock.run_for(10_500)
                sync_api.expect(label).to_contain_text("page 2 of ")
                assert not first & {c["t"] for c in boxes(page, ".table")}
                sync_api.expect(page.locator("#standings-page")).to_contain_text("page 2 of ")
            else:
                assert len(shown) == tables and page.locator("#tables-page").inner_text() == ""
            legend = page.eval_on_selector(
                '.table[data-table="table-1"]',
                """card => ({
                chips: [...card.querySelectorAll('.chip polygon')].map(p => getComputedStyle(p).fill),
                lines: [...card.querySelectorAll('polyline')].map(l => getComputedStyle(l).stroke)})""",
            )
            assert len(set(legend["chips"])) == 4 and set(legend["chips"]) == set(legend["lines"]), legend
            page.close()
    finally:
        board.stop()


def test_hostile_names_are_text_on_the_board(club_broker, tv_browser):
    """Registered names and the names a table publishes go into the page with textContent: HTML,
    Kivy markup and control characters are a name's own characters (issue 31: keep it so)."""
    registered = [
        '<img src=x onerror="window.__pwned=1">',
        "<script>window.__pwned=2</script>",
        "[size=200]Carmen",
        '=HYPERLINK("x")',
    ]
    t = Tournament()
    for name in registered:
        t.register(name)
    rnd = t.seat_round(["table-1"], seed=1)
    seats = rnd["tables"]["table-1"]
    board = ClubBoard(
        club_broker.url, CLUB, t, TOKEN, username="club-board", password=USERS["club-board"], ca_file=club_broker.ca
    ).start()
    try:
        assert board.connected.wait(10)
        published = [s if k else s + "\x1b[31m</td>\u202e" for k, s in enumerate(seats)]  # the table's spelling
        state = json.loads(state_of(t, rnd, 0, "table-1", seats))
        for player, name in zip(state["players"], published):
            player["name"] = name
        board._take(state_topic(CLUB, "table-1"), json.dumps(state).encode())
        board.round = rnd
        page = tv_browser.new_page(viewport={"width": 1280, "height": 720})
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(board.url)
        card = page.locator('.table[data-table="table-1"]')
        for name in published:
            sync_api.expect(card).to_contain_text(name)
        for name in registered:
            sync_api.expect(page.locator("#rows")).to_contain_text(name)
        assert page.evaluate("window.__pwned") is None and page.locator("img").count() == 0
        html = page.evaluate("document.body.innerHTML")
        assert "&lt;script&gt;window.__pwned=2&lt;/script&gt;" in html and "<script>window.__pwned" not in html
        assert errors == [], errors
        page.close()
    finally:
        board.stop()
