"""The club board (the TV page) and the organiser's page in the browser's language, in Chromium:
French from Accept-Language, German from the page's switch (kept), plurals by the language's rule
(French: 0 takes the singular), the organiser's refusals and a refused result's reason in the
page's words, and the board's link status (a reason within a reason) in the page's language."""

from __future__ import annotations

from playwright import sync_api

from companion.club.board_words import STATUS
from companion.club.errors import Reason
from companion.club.topics import NAME_RULE
from companion.club.tournament import MISFITS
from companion.words import _
from companion.words.catalogue import speaking
from tests.companion.club.conftest import TOKEN
from tests.companion.club.test_board_tv import board_with, tv_browser  # noqa: F401  (the fixture)


def test_the_board_in_french_then_german(club_broker, tv_browser):  # noqa: F811
    board = board_with(club_broker, 2)
    ctx = tv_browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(board.url)
        expect = sync_api.expect
        expect(page.locator("#standings-title")).to_have_text("Classement")
        expect(page.locator("#conn")).to_have_text("en direct")
        expect(page.locator(".table")).to_have_count(2)
        expect(page.locator(".table .round").first).to_contain_text("manche 5 sur 9")
        expect(page.locator(".table .round").first).to_contain_text("Classique (1995)")  # the rules, not their id
        # the table's step ("turn: turn action") by its stage in people's words; an unknown one "playing"
        assert page.evaluate('[phaseWord("turn: turn action"), phaseWord("no such: step")]') == ["tours", "en jeu"]
        expect(page.locator(".table .status").first).to_have_text("en direct")
        expect(page.locator("#seating-title")).to_contain_text("Ronde 1")
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.evaluate('nt("{n} of {all} table", "{n} of {all} tables", 0)') == "{n} sur {all} table"
        assert page.evaluate('nt("{n} of {all} table", "{n} of {all} tables", 2)') == "{n} sur {all} tables"

        page.locator("#lang").select_option("de")
        expect(page.locator("#standings-title")).to_have_text("Tabelle")
        expect(page.locator(".table .round").first).to_contain_text("Runde 5 von 9")
        expect(page.locator("#th-player")).to_have_text("Spieler")
        page.reload()  # kept in this browser
        expect(page.locator("#standings-title")).to_have_text("Tabelle")
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.evaluate('nt("{n} of {all} table", "{n} of {all} tables", 0)') == "{n} von {all} Tischen"

        lost = Reason(STATUS["lost"], reason="7")
        with speaking("de"):
            german = lost.said()
        assert german != str(lost) and page.evaluate("s => said(s, '')", lost.as_json()) == german
        refused = Reason.of_link(  # a broker's refusal: firmware_bridge's English, read back as its message
            "the broker at h:8883 refused the connection: not authorised (user 'club-board'; "
            "check the user name and password)"
        )
        assert refused.values == {"where": "h:8883", "user": "'club-board'"}
        with speaking("de"):
            german = refused.said()
        assert "club-board" in german and german != str(refused)
        assert page.evaluate("s => said(s, '')", refused.as_json()) == german

        # a result the board does not count: its reason in the organiser page's language
        board.tournament.take_result("table-9", "g1", [{"name": "Ann", "score": 50}], None)
        with speaking("fr"):
            why = _(MISFITS["no seating"])
        assert why != MISFITS["no seating"]
        organiser = ctx.new_page()
        organiser.on("pageerror", lambda exc: errors.append(str(exc)))
        organiser.goto(board.url + "organiser")
        expect(organiser.locator("#w-title")).to_have_text("Turnierleitung")
        organiser.locator("#lang").select_option("fr")
        expect(organiser.locator("#w-title")).to_have_text("Organisation")
        organiser.reload()  # the choice kept: the refused result's reason drawn in French
        expect(organiser.locator("#refused tr td").nth(3)).to_have_text(why)
        organiser.fill("#token", "not-the-token")
        organiser.fill("#name", "Ann")
        organiser.click("#register")
        expect(organiser.locator("#answer")).to_have_text("403: jeton d'organisation erroné")
        organiser.fill("#token", TOKEN)
        organiser.fill("#name", "Player 000")
        organiser.click("#register")
        expect(organiser.locator("#answer")).to_contain_text("409: 'Player 000' est déjà inscrit")
        organiser.fill("#tables", "a/b")  # refused in the worker thread: still in the page's words
        organiser.click("#seat")
        with speaking("fr"):
            rule = _(NAME_RULE)
        assert rule != NAME_RULE
        expect(organiser.locator("#answer")).to_contain_text(rule)
    finally:
        ctx.close()
        board.stop()
    assert errors == [], errors
