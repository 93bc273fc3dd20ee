"""The phone page in the phone's own language, in Chromium: a phone set to German reads its page
in German (its own words and the tablet's question), switches to Español on the page and reads
Spanish from then on (its words, the question the server sends, after a reload too), while the
tablet and the other phones keep theirs."""

from __future__ import annotations

from tests.companion.phones.conftest import make_table, to_general_scoring, wait_for
from tests.companion.phones.test_browser import PHONE, TIMEOUT, browser, sync_api  # noqa: F401  (the fixture)


def open_phone(browser, server, pid, locale, errors):  # noqa: F811
    ctx = browser.new_context(**PHONE, locale=locale)
    ctx.set_default_timeout(TIMEOUT)
    page = ctx.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.seat_url(pid))
    return ctx, page


def test_a_german_phone_reads_german_and_switches_to_spanish(start_server, browser):  # noqa: F811
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    errors: list[str] = []
    ctx, page = open_phone(browser, server, "red", "de-DE", errors)
    other_ctx, other = open_phone(browser, server, "yellow", "en-US", errors)
    try:
        expect = sync_api.expect
        # Waiting for the tablet's Yes: the server's words in German too.
        expect(page.locator("#title")).to_have_text("Warte auf das Tablet")
        expect(page.locator("#mine small")).to_have_text("die Nummer deines Handys")
        assert page.evaluate("document.documentElement.lang") == "de"
        for pid in ("red", "yellow"):
            awaiting = wait_for(lambda pid=pid: server.seats_status()[pid]["awaiting"], what="the phone awaiting")
            assert server.confirm(pid, awaiting)
        expect(page.locator("#title")).to_have_text("Hauptwertung: Wohin gehen deine Caballeros aus dem Castillo?")
        expect(page.locator("#castillo-label")).to_have_text("deine Caballeros im Castillo")
        expect(page.locator("#sub")).to_contain_text("Rot · Runde")
        expect(page.locator("#conn")).to_have_text("live")
        expect(other.locator("#title")).to_have_text("General scoring: where do your Castillo Caballeros go?")

        page.locator("#lang").select_option("es")  # the page's switch, by each language's own name
        expect(page.locator("#castillo-label")).to_have_text("tus Caballeros en el Castillo")
        expect(page.locator("#title")).to_have_text("Puntuación general: ¿adónde van tus Caballeros del Castillo?")
        expect(page.locator("#sub")).to_contain_text("Rojo · ronda")
        assert page.evaluate("document.documentElement.lang") == "es"
        # A pick: the hint the server sends back is Spanish too.
        page.locator("#regions button").first.click()
        expect(page.locator("#hint")).to_have_text("Puedes cambiar tu elección hasta que la tableta revele los discos.")
        page.reload()  # the choice is kept on this phone
        expect(page.locator("#title")).to_have_text("Puntuación general: ¿adónde van tus Caballeros del Castillo?")
        expect(page.locator("#leave")).to_have_text("¿No es tu asiento? Cambiar de asiento")
        # The other phone, and the tablet's words, are not touched by this phone's choice.
        expect(other.locator("#title")).to_have_text("General scoring: where do your Castillo Caballeros go?")
        assert server.status()["seats"][0]["colour"] == "Red"
    finally:
        ctx.close()
        other_ctx.close()
    assert errors == [], errors
