"""A player's colour on the phone page never stands alone (Chromium through Playwright): the
header's disc shows the colour's mark with the player's initial beside the colour, and the page's
colours and marks are the tablet's own (companion.look.players.PLAYER_LOOKS, served)."""

from __future__ import annotations

import json

from playwright import sync_api

from companion.look.players import LOOKS_SLOT, PLAYER_LOOKS, hex_of, web_looks
from tests.companion.phones.conftest import PLAYERS, http, make_table
from tests.companion.phones.test_browser import PHONE, TIMEOUT, _needs_chromium, browser, confirm_on_the_tablet

__all__ = ["_needs_chromium", "browser"]  # the fixtures this module takes from test_browser


def test_the_page_is_served_with_the_tablets_looks(start_server):
    server = start_server(make_table("scoring"))
    status, _, body = http(server, "GET", "/")
    assert status == 200
    page = body.decode("utf-8")
    assert LOOKS_SLOT.decode() not in page
    assert json.dumps(web_looks(), separators=(",", ":")) in page
    assert "#c62828" not in page  # the old hand-kept red is gone


def test_each_phone_shows_its_initial_and_mark_next_to_its_colour(start_server, browser):
    server = start_server(make_table("scoring"))
    errors = []
    for pid in PLAYERS:
        ctx = browser.new_context(**PHONE)
        ctx.set_default_timeout(TIMEOUT)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.seat_url(pid))
        confirm_on_the_tablet(server, page, pid)
        look = PLAYER_LOOKS[pid]
        disc = page.locator("#disc .piece")
        sync_api.expect(disc).to_have_attribute("data-colour", pid)
        sync_api.expect(disc.locator("b")).to_have_text(look.initial)
        fill = disc.locator("polygon").get_attribute("fill" if look.mark != "ring" else "stroke")
        assert fill == hex_of(look.rgb)
        header = page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")
        assert header == "rgb({}, {}, {})".format(*(round(255 * c) for c in look.rgb))
        box = disc.bounding_box()
        assert box and box["width"] >= 30  # a mark a person sees, not a dot
        if pid == "red":
            page.screenshot(path="/tmp/phone_marks_red.png")
        ctx.close()
    assert errors == [], errors


def test_the_page_follows_the_phones_light_or_dark_setting(start_server, browser):
    """The day theme's ground in a light phone, the evening theme's in a dark one (the tablet's
    tokens, companion.look.css)."""
    from companion.look.tokens import THEMES

    server = start_server(make_table("scoring"))
    for pid, (scheme, theme) in zip(PLAYERS, (("light", "day"), ("dark", "evening"))):  # a seat's code joins once
        ctx = browser.new_context(**PHONE, color_scheme=scheme)
        ctx.set_default_timeout(TIMEOUT)
        page = ctx.new_page()
        page.goto(server.seat_url(pid))
        ground = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert ground == "rgb({}, {}, {})".format(*(round(255 * c) for c in THEMES[theme]["background"][:3])), scheme
        page.screenshot(path=f"/tmp/phone_{theme}.png")
        ctx.close()
