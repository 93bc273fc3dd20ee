"""A game night in a real browser (Debian's Chromium through Playwright): the phone pages stay
open from one game to the next at the same tablet. Ana's page shows the new game by itself; Dora,
who now plays another colour under another name, picks her seat on the page and the tablet
confirms it; Ana leaves her seat and takes it back with two taps. Screenshots: /tmp/phone_night_*.png.
"""
from __future__ import annotations

import shutil

import pytest
from playwright import sync_api

from companion.table import Table, TableSetup
from engine.events import GameSetup
from firmware_bridge.adapter import TowerDrop

from .conftest import make_table, wait_for
from .test_browser import ARGS, CHROMIUM, PHONE, TIMEOUT, confirm_on_the_tablet, expect_title

NAMES_2 = {"red": "Ana", "black": "Dora M."}
SETUP_2 = GameSetup(players=list(NAMES_2), names=NAMES_2, variant="short", king="granada",
                    homes={"red": "aragon", "black": "sevilla"}, start_player="red")


@pytest.fixture(autouse=True)
def _needs_chromium():
    assert shutil.which(CHROMIUM), f"no Chromium at {CHROMIUM}: run scripts/setup.sh as root (it installs it)"


def test_phone_pages_stay_joined_into_the_next_game(start_server):
    first = make_table("scoring")
    for seq in range(1, 4):   # game 1: three red Caballeros in the Castillo
        first.tower_drop(TowerDrop(tower="t1", boot="b1", seq=seq, colour="red", uncertain=False))
    server = start_server(first)
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            pages = {}
            for pid in ("red", "blue"):
                ctx = browser.new_context(**PHONE)
                ctx.set_default_timeout(TIMEOUT)
                page = ctx.new_page()
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.on("dialog", lambda dialog: dialog.accept())   # "Leave Ana's seat?"
                page.goto(server.seat_url(pid))
                confirm_on_the_tablet(server, page, pid)
                pages[pid] = page
            sync_api.expect(pages["red"].locator("#castillo")).to_have_text("3")

            second = Table.new(TableSetup(game=SETUP_2, mode="scoring"))
            second.tower_drop(TowerDrop(tower="t1", boot="b2", seq=1, colour="black", uncertain=False))
            server.switch_table(second)
            first.close()
            # Ana: same name, same colour: the page shows the new game, no tablet question, no reload.
            red = pages["red"]
            sync_api.expect(red.locator("#castillo")).to_have_text("0")
            sync_api.expect(red.locator("#name")).to_have_text("Ana")
            expect_title(red, "Nothing to choose")
            assert server.confirmations() == []
            # Dora: another name and colour: the page asks which seat is hers.
            dora = pages["blue"]
            expect_title(dora, "Which seat is yours?")
            sync_api.expect(dora.locator("#hint")).to_contain_text("This phone was Dora (Blue)'s.")
            sync_api.expect(dora.locator("#facts")).to_be_hidden()
            dora.screenshot(path="/tmp/phone_night_choose.png")
            dora.locator('#regions button[data-seat="black"]').click()
            expect_title(dora, "Waiting for the tablet")
            check = wait_for(lambda: server.confirmations(), what="the tablet asked")[0]
            assert check["question"] == "Is this Dora M.'s phone?" and "Dora (Blue)" in check["detail"]
            assert server.confirm("black", check["phone"])
            sync_api.expect(dora.locator("#castillo")).to_have_text("1")
            sync_api.expect(dora.locator("#name")).to_have_text("Dora M.")
            # Ana taps "Change seat", then takes her own seat back: no tablet question.
            red.locator("#leave").click()
            expect_title(red, "Which seat is yours?")
            sync_api.expect(red.locator('#regions button[data-seat="red"]')).to_contain_text("your last seat")
            red.screenshot(path="/tmp/phone_night_leave.png")
            red.locator('#regions button[data-seat="red"]').click()
            sync_api.expect(red.locator("#castillo")).to_have_text("0")
            expect_title(red, "Nothing to choose")
            assert server.seats_status()["red"]["joined"] and server.confirmations() == []
            red.screenshot(path="/tmp/phone_night_back.png")
        finally:
            browser.close()
    assert errors == [], errors
