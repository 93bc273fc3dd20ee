"""The 2023 secrets on phones in a real browser (Debian's Chromium through Playwright): Power
Shift's deal and pass tapped on the page, the player's own Power and Modifier cards shown
plainly, Civil War's disc saying what it is for, and the 2023 Veto answered from two phones.
The test plays the tablet (it drives the table). Screenshots go to /tmp/phone2023_*.png."""

from __future__ import annotations

import json
import shutil

import pytest
from playwright import sync_api

from companion.phones.views import modifier_faces
from tests.companion.phones.conftest import wait_for
from tests.companion.phones.game2023 import NAMES, disc_purpose, find_table, table_2023
from tests.companion.phones.test_browser import ARGS, CHROMIUM, PHONE, TIMEOUT
from tests.companion.phones.test_phones_2023 import DEALS, two_veto_holders


@pytest.fixture(scope="module")
def chromium():
    # Fails, never skips: scripts/setup.sh installs Debian's chromium.
    assert shutil.which(CHROMIUM), f"no Chromium at {CHROMIUM}: run scripts/setup.sh as root (it installs it)"
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def phones_2023(chromium):
    """phones(server, seats) -> {pid: page}: each seat's own phone, joined and confirmed."""
    contexts, errors = [], []

    def open_some(server, seats, before=None):
        """`before(pid, page)`, if given, sets routes up before the page opens."""
        pages = {}
        for pid in seats:
            ctx = chromium.new_context(**PHONE)
            ctx.set_default_timeout(TIMEOUT)
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            if before:
                before(pid, page)
            page.goto(server.seat_url(pid))
            awaiting = wait_for(lambda: server.seats_status()[pid]["awaiting"], what="the phone awaiting")
            assert server.confirm(pid, awaiting)
            sync_api.expect(page.locator("#name")).to_have_text(NAMES[pid])
            sync_api.expect(page.locator("#conn")).to_have_text("live")
            pages[pid] = page
        return pages

    yield open_some
    for ctx in contexts:
        ctx.close()
    assert errors == [], errors


def title(page, text):
    sync_api.expect(page.locator("#title")).to_contain_text(text)


def option(page, oid):
    return page.locator(f'#regions button[data-option="{oid}"]')


def test_deal_and_pass_tapped_on_two_phones_while_the_tablet_enters_the_others(start_server, phones_2023):
    table = table_2023()
    server = start_server(table)
    pages = phones_2023(server, ["purple", "blue"])
    faces = modifier_faces(table.state.modifiers)
    for page in pages.values():
        title(page, "Your Modifier cards")
        sync_api.expect(page.locator("#regions button")).to_have_count(len(faces.ids))
        sync_api.expect(page.locator("#chips i")).to_have_count(13)  # every Power card in hand
        sync_api.expect(page.locator("#confirm")).to_be_disabled()
    ana = pages["purple"]
    option(ana, "card8").click()
    option(ana, "card8").click()  # she holds both plain +1 cards
    sync_api.expect(option(ana, "card8")).to_contain_text("×2")
    option(ana, "card1").click()
    sync_api.expect(ana.locator("#confirm")).to_have_text("Confirm these 3 cards")
    ana.screenshot(path="/tmp/phone2023_deal.png")
    ana.locator("#confirm").click()
    title(ana, "Your Modifier cards are entered")
    sync_api.expect(ana.locator("#modlist div")).to_have_count(3)
    sync_api.expect(ana.locator("#modlist")).to_contain_text("Stand-in +1")
    sync_api.expect(ana.locator("#modlist")).to_contain_text("Stand-in −3")
    sync_api.expect(ana.locator("#waiting")).to_contain_text("Bruno")  # who is still choosing: public
    bruno = pages["blue"]
    for face in DEALS["blue"]:
        option(bruno, face).click()
    bruno.locator("#confirm").click()
    title(bruno, "Your Modifier cards are entered")
    ids = {
        "green": ["stand_in_minus_2_a", "stand_in_minus_2_b", "stand_in_minus_2_c"],
        "orange": ["stand_in_minus_1_c", "stand_in_minus_1_d", "stand_in_plus_1_c"],
    }
    for pid, cards in ids.items():  # behind the tablet's private screen
        table.submit_private(pid, cards)
    title(ana, "Pass a Modifier card")
    sync_api.expect(ana.locator("#hint")).to_contain_text("face down to")
    sync_api.expect(ana.locator("#regions button")).to_have_count(2)  # her two faces: the twins are one
    option(ana, "card1").click()
    sync_api.expect(ana.locator("#mine")).to_contain_text("Stand-in −3")
    option(ana, "card8").click()  # changed her mind before everyone chose
    sync_api.expect(ana.locator("#mine")).to_contain_text("Stand-in +1")
    ana.screenshot(path="/tmp/phone2023_pass.png")
    assert faces.face_of[table.private("purple")["modifier_passing"]] == "card8"
    option(bruno, "card14").click()
    sync_api.expect(bruno.locator("#mine")).to_contain_text("Stand-in +3")
    table.submit_private("green", ["stand_in_minus_2_a"])
    table.submit_private("orange", ["stand_in_plus_1_c"])
    assert table.asked().kind != "pass_modifier"
    for pid, page in pages.items():
        hand = faces.hand(table.private(pid)["modifiers_in_hand"])
        sync_api.expect(page.locator("#modlist div")).to_have_count(len(hand))
        for card in hand:
            sync_api.expect(page.locator("#modlist")).to_contain_text(card.label)
    ana.screenshot(path="/tmp/phone2023_hand.png")


class HeldLine:
    """Ana's line to the tablet, held where the test says: the socket's frames either way and
    the page's HTTP refreshes, so a loaded Wi-Fi's orders of arrival can be played exactly."""

    def __init__(self):
        self.holding = False  # results to the page, and refreshes
        self.holding_answers = False  # frames to the tablet
        self.to_page, self.to_server, self.refreshes = [], [], []
        self.socket = self.server = None

    def install(self, pid, page):
        if pid == "purple":
            page.route_web_socket("**/ws", self._socket)
            page.route("**/api/me", self._refresh)

    def _socket(self, ws):
        self.socket, self.server = ws, ws.connect_to_server()
        ws.on_message(lambda m: self.to_server.append(m) if self.holding_answers else self.server.send(m))
        self.server.on_message(self._from_server)

    def _from_server(self, m):
        if self.holding and json.loads(m).get("type") == "result":
            self.to_page.append(m)
        else:
            self.socket.send(m)

    def _refresh(self, route):
        if self.holding:
            self.refreshes.append((route, route.fetch()))  # fetched now, delivered when released
        else:
            route.continue_()


def test_a_late_result_or_refresh_never_undoes_a_change_of_mind(start_server, phones_2023):
    """Ana passes −3, then changes her mind to +1. On a loaded Wi-Fi the first answer's result
    can reach her phone after her second tap, and a refresh fetched then can come back after the
    newer view: neither may show −3 again (she would believe she passes the card she took back)."""
    table = table_2023()
    server = start_server(table)
    line = HeldLine()
    pages = phones_2023(server, ["purple", "blue"], before=line.install)
    ana, bruno = pages["purple"], pages["blue"]
    for page, faces_ in ((ana, ["card8", "card8", "card1"]), (bruno, DEALS["blue"])):
        title(page, "Your Modifier cards")
        for face in faces_:
            option(page, face).click()
        page.locator("#confirm").click()
        title(page, "Your Modifier cards are entered")
    table.submit_private("green", ["stand_in_minus_2_a", "stand_in_minus_2_b", "stand_in_minus_2_c"])
    table.submit_private("orange", ["stand_in_minus_1_c", "stand_in_minus_1_d", "stand_in_plus_1_c"])
    title(ana, "Pass a Modifier card")
    line.holding = True
    option(ana, "card1").click()  # its view arrives, its result is held
    sync_api.expect(ana.locator("#mine")).to_contain_text("Stand-in −3")
    line.holding_answers = True
    option(ana, "card8").click()  # her second answer, held on its way out
    wait_for(lambda: line.to_server and line.to_page, what="the second answer sent and the first's result")
    line.socket.send(line.to_page.pop(0))  # the first answer's result, late
    ana.evaluate("() => new Promise(r => setTimeout(r, 100))")
    line.holding = line.holding_answers = False
    for m in line.to_server:  # the second answer reaches the tablet
        line.server.send(m)
    sync_api.expect(ana.locator("#mine")).to_contain_text("Stand-in +1")
    for route, fetched in line.refreshes:  # a refresh fetched before it, back only now
        route.fulfill(response=fetched)
    ana.evaluate("() => new Promise(r => setTimeout(r, 100))")
    sync_api.expect(ana.locator("#mine")).to_contain_text("Stand-in +1", timeout=2000)
    faces = modifier_faces(table.state.modifiers)
    assert faces.face_of[table.private("purple")["modifier_passing"]] == "card8"


def test_civil_war_disc_on_the_phone_says_what_it_is_for(start_server, phones_2023):
    table = find_table(disc_purpose("civil_war"))
    ask = table.asked()
    pid = ask.players[0]
    server = start_server(table)
    page = phones_2023(server, [pid])[pid]
    title(page, "Civil War: choose a region where you have at least one Caballero")
    allowed = ask.options["regions"][pid]
    sync_api.expect(page.locator("#regions button")).to_have_count(len(allowed))
    page.screenshot(path="/tmp/phone2023_civil_war.png")
    page.locator(f'#regions button[data-region="{allowed[0]}"]').click()
    sync_api.expect(page.locator(f'#regions button[data-region="{allowed[0]}"]')).to_have_class("on")
    assert table.private(pid)["secret_disc"] == allowed[0]


def test_the_veto_on_two_phones_at_once(start_server, phones_2023):
    table = two_veto_holders()
    server = start_server(table)
    pages = phones_2023(server, ["blue", "green"])
    for page in pages.values():
        title(page, "Veto: stop Ana's")
        sync_api.expect(page.locator("#hint")).to_contain_text("all or nothing")
    pages["green"].screenshot(path="/tmp/phone2023_veto.png")
    option(pages["blue"], "pass").click()
    wait_for(lambda: table.state.special.vetoes_pending == [2], what="Bruno let it pass")
    option(pages["green"], "use").click()  # the question as first put: Bruno's answer did not change it
    wait_for(lambda: table.state.stage != "veto_window", what="both answered")
    answers = {
        (r["e"]["type"], r["e"]["player"])
        for r in table.effective
        if r["t"] == "event" and r["e"]["type"] in ("veto_used", "veto_waived")
    }
    assert answers == {("veto_waived", "blue"), ("veto_used", "green")}
    for page in pages.values():
        sync_api.expect(page.locator("#regions button")).to_have_count(0)
