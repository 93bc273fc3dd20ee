"""Four phones in a real browser (Debian's Chromium through Playwright) and the table authority.

The test plays the tablet: it drives the table, watches /api/status (who has
chosen, never what), and reveals. Screenshots go to /tmp/phone_*.png.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine.events import CastilloCounted, GameSetup, SecretDiscsRevealed
from firmware_bridge.adapter import TowerDrop
from tests.companion.phones.conftest import (
    NAMES,
    PICK_NAMES,
    PICKS,
    PLAYERS,
    http,
    make_table,
    seat_state,
    status_of,
    to_general_scoring,
    wait_for,
)

CHROMIUM = os.environ.get("ELGRANDE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
TIMEOUT = 15000  # ms for anything the page waits for (a loaded machine; met at once on a quiet one)

from playwright import sync_api  # noqa: E402  (a test extra: always installed by scripts/setup.sh)

sync_api.expect.set_options(timeout=TIMEOUT)  # every expect in the phone and club page tests


@pytest.fixture(autouse=True)
def _needs_chromium():
    # Fails, never skips: scripts/setup.sh installs Debian's chromium.
    assert shutil.which(CHROMIUM), f"no Chromium at {CHROMIUM}: run scripts/setup.sh as root (it installs it)"


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def phones(browser):
    """phones(server) -> {pid: page}, each seat joined from its own browser context (its own phone)."""
    contexts, errors = [], []

    def open_all(server, seats=PLAYERS):
        pages = {}
        for pid in seats:
            ctx = browser.new_context(**PHONE)
            ctx.set_default_timeout(TIMEOUT)
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))  # a script error on the page
            page.goto(server.seat_url(pid))
            confirm_on_the_tablet(server, page, pid)
            sync_api.expect(page.locator("#conn")).to_have_text("live", timeout=TIMEOUT)
            assert page.url.endswith("/")  # the join code left the address bar
            pages[pid] = page
        wait_for(lambda: all(server.seats_status()[p]["connected"] for p in seats), what="phones connected")
        return pages

    yield open_all
    for ctx in contexts:
        ctx.close()
    assert errors == [], errors


def confirm_on_the_tablet(server, page, pid):
    """The phone waits, showing nothing private, until the tablet's Yes."""
    expect_title(page, "Waiting for the tablet")
    sync_api.expect(page.locator("#name")).to_have_text(NAMES[pid], timeout=TIMEOUT)
    sync_api.expect(page.locator("#facts")).to_be_hidden()
    awaiting = wait_for(lambda: server.seats_status()[pid]["awaiting"], what="the phone awaiting the tablet")
    number = server.seats.phone(pid).number
    sync_api.expect(page.locator("#mine")).to_contain_text(number)  # the number the tablet shows too
    assert server.confirm(pid, awaiting)
    sync_api.expect(page.locator("#title")).not_to_contain_text("Waiting for the tablet", timeout=TIMEOUT)
    sync_api.expect(page.locator("#facts")).to_be_visible()


def region_button(page, rid):
    return page.locator(f'#regions button[data-region="{rid}"]')


def tap(page, rid):
    region_button(page, rid).click()
    sync_api.expect(region_button(page, rid)).to_have_class("on", timeout=TIMEOUT)  # confirmed, not "busy"


def expect_title(page, text):
    sync_api.expect(page.locator("#title")).to_contain_text(text, timeout=TIMEOUT)


def all_chosen(server):
    s = status_of(server)
    for seat in s["seats"]:  # the feed says who, never what
        assert set(seat) == {"id", "name", "colour", "joined", "connected", "asked", "chosen"}
    return s["choice"] in ("all_chosen", "locked") and all(seat["chosen"] for seat in s["seats"])


def test_general_scoring_from_four_phones_scoring_mode(start_server, phones):
    table = make_table("scoring")
    server = start_server(table)
    pages = phones(server)
    for page in pages.values():
        expect_title(page, "Nothing to choose")
    pages["green"].screenshot(path="/tmp/phone_waiting.png")
    to_general_scoring(table)
    for page in pages.values():
        expect_title(page, "General scoring")
        sync_api.expect(page.locator("#regions button")).to_have_count(9)
        sync_api.expect(region_button(page, "cataluna")).to_contain_text("King's region")
        sync_api.expect(region_button(page, "pais_vasco")).to_contain_text("País Vasco")
    pages["red"].screenshot(path="/tmp/phone_before.png")
    # Red changes its mind once; everyone else picks once.
    tap(pages["red"], "aragon")
    for pid in PLAYERS:
        tap(pages[pid], PICKS[pid])
    sync_api.expect(pages["red"].locator("#mine")).to_contain_text(PICK_NAMES[PICKS["red"]])
    assert {pid: table.private(pid)["secret_disc"] for pid in PLAYERS} == PICKS
    wait_for(lambda: all_chosen(server), what="the status feed: all have chosen")
    sync_api.expect(pages["red"].locator("#waiting")).to_contain_text("Everyone has chosen")
    pages["red"].screenshot(path="/tmp/phone_picked.png")
    # The tablet counts the Castillo: the discs are locked.
    table.submit(CastilloCounted(counts={"red": 3, "yellow": 1}))
    for pid, page in pages.items():
        sync_api.expect(page.locator("#mine")).to_contain_text("locked")
        sync_api.expect(page.locator("#mine")).to_contain_text(PICK_NAMES[PICKS[pid]])
        sync_api.expect(page.locator("#regions button")).to_have_count(0)
    pages["red"].screenshot(path="/tmp/phone_locked.png")
    table.submit(SecretDiscsRevealed())
    for pid, page in pages.items():
        expect_title(page, "Discs revealed")
        sync_api.expect(page.locator("#mine")).to_contain_text(PICK_NAMES[PICKS[pid]])
    pages["red"].screenshot(path="/tmp/phone_revealed.png")
    assert table.asked().kind == "play_round"


def test_general_scoring_from_four_phones_tracking_mode(start_server, phones):
    table = make_table("tracking")
    server = start_server(table)
    pages = phones(server)
    to_general_scoring(table)
    for pid, page in pages.items():
        expect_title(page, "General scoring")
        sync_api.expect(page.locator("#castillo")).to_have_text(str(table.private(pid)["castillo"]))
        hand = table.private(pid)["power_cards_in_hand"]
        sync_api.expect(page.locator("#chips i")).to_have_count(len(hand))
    pages["yellow"].screenshot(path="/tmp/phone_tracking_yellow_before.png")
    for pid in PLAYERS:
        tap(pages[pid], PICKS[pid])
    wait_for(lambda: all_chosen(server), what="the status feed: all have chosen")
    pages["yellow"].screenshot(path="/tmp/phone_tracking_yellow_picked.png")
    # All have chosen, not yet revealed: a change is still possible.
    tap(pages["green"], "valencia")
    assert table.private("green")["secret_disc"] == "valencia"
    table.submit(SecretDiscsRevealed())
    for pid, page in pages.items():
        expect_title(page, "Discs revealed")
        sync_api.expect(page.locator("#mine")).to_contain_text("Valencia" if pid == "green" else PICK_NAMES[PICKS[pid]])
        if pid == "yellow":
            page.screenshot(path="/tmp/phone_tracking_yellow_revealed.png")
        sync_api.expect(page.locator("#regions button")).to_have_count(0)
    scoring = table.public().game["scorings"][-1]
    assert scoring["title"].startswith("General scoring")
    assert {t["player"]: t["region"] for t in scoring["transfers"]}.items() <= {**PICKS, "green": "valencia"}.items()


def test_reload_mid_choice_rejoins_the_same_seat(start_server, phones):
    table = make_table("scoring")
    server = start_server(table)
    pages = phones(server, ["blue"])
    page = pages["blue"]
    credential = page.evaluate("localStorage.getItem('elgrande.credential')")
    assert credential and len(credential) >= 43
    to_general_scoring(table)
    tap(page, "valencia")
    tap(page, "granada")
    # The page numbers its picks: the log keeps each one's number; the older pick, sent again, is refused.
    numbered = [r for r in table.records if r["t"] == "event" and r["e"].get("player") == "blue"]
    assert [r["e"]["region"] for r in numbered] == ["valencia", "granada"]
    first, second = (r["phone_seq"] for r in numbered)
    assert 0 < first < second == int(page.evaluate("localStorage.getItem('elgrande.answer-seq')"))
    replayed = page.evaluate(
        """async ([q, seq]) => {
        const r = await fetch('/api/pick', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({credential: localStorage.getItem('elgrande.credential'), question: q,
                                  region: 'valencia', seq: seq})});
        return [r.status, await r.json()];
    }""",
        [table.question_id(), first],
    )
    assert replayed[0] == 409 and "already has a newer choice" in replayed[1]["error"]
    assert table.private("blue")["secret_disc"] == "granada"
    # A reload that lost the page's own count (another browser, cleared storage) goes on from the tablet's.
    page.evaluate("localStorage.removeItem('elgrande.answer-seq')")
    page.reload()
    sync_api.expect(page.locator("#name")).to_have_text("Dora")
    sync_api.expect(region_button(page, "granada")).to_have_class("on")
    sync_api.expect(page.locator("#mine")).to_contain_text("Granada")
    assert page.evaluate("localStorage.getItem('elgrande.credential')") == credential
    wait_for(lambda: seat_state(server, "blue") == {"joined": True, "connected": True}, what="rejoined")
    # The connection drops (the companion restarts, the Wi-Fi goes): the page reconnects by itself.
    server.stop()
    sync_api.expect(page.locator("#conn")).to_have_text("reconnecting…")
    server.start()
    sync_api.expect(page.locator("#conn")).to_have_text("live")
    tap(page, "aragon")
    assert table.private("blue")["secret_disc"] == "aragon" and table.records[-1]["phone_seq"] == second + 1
    # An unknown join link gives a clear 4xx page.
    status, _, body = http(server, "GET", "/join/" + "A" * 22)
    assert status == 410 and b"not valid" in body


def test_change_then_locked_at_reveal(start_server, phones):
    table = make_table("scoring")
    server = start_server(table)
    pages = phones(server)
    to_general_scoring(table)
    page = pages["yellow"]
    tap(page, "valencia")
    tap(page, "granada")  # changed
    sync_api.expect(region_button(page, "valencia")).not_to_have_class("on")
    credential = page.evaluate("localStorage.getItem('elgrande.credential')")
    me = http(server, "GET", "/api/me", headers={"Authorization": "Bearer " + credential})
    question = json.loads(me[2])["question"]["id"]
    for pid in ("red", "green", "blue"):
        tap(pages[pid], PICKS[pid])
    wait_for(lambda: all_chosen(server), what="all chosen")
    table.submit(CastilloCounted(counts={"yellow": 2}))
    table.submit(SecretDiscsRevealed())
    expect_title(page, "Discs revealed")
    sync_api.expect(page.locator("#mine")).to_contain_text("Granada")
    sync_api.expect(page.locator("#regions button")).to_have_count(0)
    # A change after the reveal is refused (stale question), from the page itself.
    answer = page.evaluate(
        """async (q) => {
        const r = await fetch('/api/pick', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({credential: localStorage.getItem('elgrande.credential'), question: q,
                                  region: 'valencia'})});
        return [r.status, await r.json()];
    }""",
        question,
    )
    assert answer[0] == 409 and "no longer open" in answer[1]["error"]
    expect_title(page, "Discs revealed")
    sync_api.expect(page.locator("#mine")).to_contain_text("Granada")


def test_revoked_phone_is_told_to_scan_again(start_server, phones):
    table = make_table("scoring")
    server = start_server(table)
    page = phones(server, ["green"])["green"]
    server.revoke("green")
    expect_title(page, "Not joined")
    assert page.evaluate("localStorage.getItem('elgrande.credential')") is None
    # The new code joins again (same browser), once the tablet confirms it.
    page.goto(server.seat_url("green"))
    confirm_on_the_tablet(server, page, "green")
    sync_api.expect(page.locator("#name")).to_have_text("Carmen")
    # The same phone now scans Ana's code: the tablet's question says it holds Carmen's seat.
    page.goto(server.seat_url("red"))
    expect_title(page, "Waiting for the tablet")
    assert [c["question"] for c in server.confirmations()] == [
        "Is this Ana's phone? This phone already holds Carmen's seat."
    ]


def test_csp_self_lets_the_page_reach_only_its_own_server(start_server, browser, monkeypatch):
    """Chromium counts ws: to the same host and port as 'self': with the CSP cut down to exactly
    connect-src 'self' (the server also names its own ws:// URL, for Safari before 15.4) the page
    still goes live; a socket or a fetch to another host is blocked."""
    from companion.phones import network as network_module

    full = network_module.content_security_policy
    policies = []

    def only_self(host):
        policy = full(host).replace(f" ws://{host}", "")
        policies.append(policy)
        return policy

    monkeypatch.setattr(network_module, "content_security_policy", only_self)
    server = start_server(make_table("scoring"))
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(TIMEOUT)
    try:
        page = ctx.new_page()
        page.goto(server.seat_url("red"))
        confirm_on_the_tablet(server, page, "red")
        sync_api.expect(page.locator("#conn")).to_have_text("live")
        assert policies and all("connect-src 'self';" in p for p in policies)
        blocked = page.evaluate(
            """(port) => new Promise((done) => {
            const seen = [];
            document.addEventListener('securitypolicyviolation', (e) => {
                seen.push(e.violatedDirective + ' ' + e.blockedURI);
                if (seen.length === 2) done(seen.sort());
            });
            try { new WebSocket('ws://127.0.0.2:' + port + '/ws/status'); } catch (e) { seen.push('threw'); }
            fetch('http://127.0.0.2:' + port + '/api/status').catch(() => {});
            setTimeout(() => done(seen.sort()), 3000);
        })""",
            server.port,
        )
        assert blocked == [
            f"connect-src http://127.0.0.2:{server.port}/api/status",
            f"connect-src ws://127.0.0.2:{server.port}/ws/status",
        ], blocked
        wait_for(lambda: seat_state(server, "red") == {"joined": True, "connected": True}, what="live")
    finally:
        ctx.close()


# ---- a game night: the pages stay open into the next game (was test_browser_night.py) ----

NAMES_2 = {"red": "Ana", "black": "Dora M."}
SETUP_2 = GameSetup(
    players=list(NAMES_2),
    names=NAMES_2,
    variant="short",
    king="granada",
    homes={"red": "aragon", "black": "sevilla"},
    start_player="red",
)


def test_phone_pages_stay_joined_into_the_next_game(start_server, browser):
    """A game night: the phone pages stay open from one game to the next at the same tablet. Ana's
    page shows the new game by itself; Dora, who now plays another colour under another name, picks
    her seat on the page and the tablet confirms it; Ana leaves her seat and takes it back with two
    taps. Screenshots: /tmp/phone_night_*.png."""
    first = make_table("scoring")
    for seq in range(1, 4):  # game 1: three red Caballeros in the Castillo
        first.tower_drop(TowerDrop(tower="t1", boot="b1", seq=seq, colour="red", uncertain=False))
    server = start_server(first)
    errors: list[str] = []
    contexts = []
    try:
        pages = {}
        for pid in ("red", "blue"):
            ctx = browser.new_context(**PHONE)
            contexts.append(ctx)
            ctx.set_default_timeout(TIMEOUT)
            page = ctx.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("dialog", lambda dialog: dialog.accept())  # "Leave Ana's seat?"
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
        for ctx in contexts:
            ctx.close()
    assert errors == [], errors


def test_hostile_names_are_text_on_the_phone_page(start_server, browser):
    """The page writes every name with textContent: markup, HTML and control characters are a
    name's own characters, never a tag or a script (issue 31: keep it so)."""
    from tests.companion.phones.conftest import SETUP

    names = {
        "red": '<img src=x onerror="window.__pwned=1">Ana',
        "yellow": "<script>window.__pwned=2</script>",
        "green": "[size=200]Carmen\u202e",
        "blue": "Dora\x1b[31m&amp;",
    }
    table = Table.new(TableSetup(game=SETUP.model_copy(update={"names": names}), mode="scoring"))
    server = start_server(table)
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(TIMEOUT)
    errors = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.seat_url("red"))
        sync_api.expect(page.locator("#name")).to_have_text(names["red"])
        awaiting = wait_for(lambda: server.seats_status()["red"]["awaiting"], what="the phone awaiting the tablet")
        assert server.confirm("red", awaiting)
        sync_api.expect(page.locator("#conn")).to_have_text("live")
        to_general_scoring(table)
        expect_title(page, "General scoring")
        tap(page, PICKS["red"])
        waiting = page.locator("#waiting")
        for pid in ("yellow", "green", "blue"):  # "Still choosing: ..." names the others, as text
            sync_api.expect(waiting).to_contain_text(names[pid])
        assert page.evaluate("window.__pwned") is None and page.locator("img").count() == 0
        html = page.evaluate("document.body.innerHTML")  # the names are text in the page, escaped
        assert "&lt;script&gt;window.__pwned=2&lt;/script&gt;" in html and "<script>window.__pwned" not in html
    finally:
        ctx.close()
    assert errors == [], errors
