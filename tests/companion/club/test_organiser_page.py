"""The organiser's page in Chromium: without the right token nothing changes and the page says why;
with it, players are registered and a round seated, and the room board shows the seating."""

from __future__ import annotations

import pytest
from playwright import sync_api

from companion.club.board import ClubBoard
from companion.club.tournament import Journal, Tournament
from tests.companion.club.conftest import CLUB, TOKEN, USERS


@pytest.fixture
def board(club_broker, tmp_path):
    b = ClubBoard(
        club_broker.url,
        CLUB,
        Tournament(Journal(tmp_path / "t.jsonl")),
        TOKEN,
        username="club-board",
        password=USERS["club-board"],
        ca_file=club_broker.ca,
    ).start()
    yield b
    b.stop()


def test_register_and_seat_from_the_organiser_page(board, browser):
    page = browser.new_page()
    page.set_default_timeout(8000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(board.url + "organiser")
    page.fill("#token", "not-the-token")
    page.fill("#name", "Ann")
    page.click("#register")
    sync_api.expect(page.locator("#answer")).to_have_text("403: wrong organiser token")
    assert board.tournament.players == []
    page.fill("#token", TOKEN)
    for name in ("Ann", "Bob", "Cid"):
        page.fill("#name", name)
        page.click("#register")
        sync_api.expect(page.locator("#answer")).to_contain_text(name)
    sync_api.expect(page.locator("#players")).to_have_text("Ann, Bob, Cid")
    page.fill("#name", "Dee")  # registered, then leaves before the first round
    page.click("#register")
    sync_api.expect(page.locator("#answer")).to_contain_text("Dee")
    page.fill("#w-name", "Deb")
    page.click("#withdraw")
    sync_api.expect(page.locator("#answer")).to_have_text("409: 'Deb' is not registered")
    page.fill("#w-name", "dee")
    page.click("#withdraw")
    sync_api.expect(page.locator("#players")).to_have_text("Ann, Bob, Cid, Dee (withdrawn)")
    page.fill("#tables", "table-1")
    page.click("#seat")
    sync_api.expect(page.locator("#answer")).to_contain_text('"rematches":0')
    page.fill("#c-table", "table-1")
    page.fill("#c-game", "nope")
    page.click("#void")
    sync_api.expect(page.locator("#answer")).to_have_text("409: no result of game 'nope' at table 'table-1' to correct")
    room = browser.new_page()
    room.goto(board.url)
    sync_api.expect(room.locator("#seating-title")).to_have_text("Seating round 1 · playing: table-1")
    seated = room.locator('.seat[data-table="table-1"]')
    for name in ("Ann", "Bob", "Cid"):
        sync_api.expect(seated).to_contain_text(name)
    sync_api.expect(seated).not_to_contain_text("Dee")
    sync_api.expect(room.locator("#rows")).to_contain_text("Dee (withdrawn)")
    assert not errors, errors
