"""The tablet app with a club broker (run by test_app_club.py through tests/companion/ui/app_driver.py
as "tests.companion.club.app_scenarios:NAME"); where the broker is comes in ELGRANDE_TEST_CLUB (JSON)."""

from __future__ import annotations

import json
import os

from scenarios import _wait_for


def club_table(d):
    """A club name the topics cannot take, then a CA file that is not there, are refused on the
    new-game screen; with the right ones the game starts and the table publishes to that club;
    the club status says so."""
    cfg = json.loads(os.environ["ELGRANDE_TEST_CLUB"])
    yield 0.3
    d.tap("New game")
    yield 0.2
    setup = d.screen("setup")
    setup.mode, setup.variant, setup.king = "Scoring only", "Short game (6 rounds)", "Castilla la Nueva"
    for colour, home in {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla", "blue": "Valencia"}.items():
        setup.rows[colour].home = home
    setup.tower = "No tower"
    setup.club_url, setup.club_password, setup.club_ca = cfg["url"], cfg["password"], cfg["ca"] + ".moved"
    setup.club_name = "Tuesday club"  # a space: not a name the topics take
    yield 0.2
    d.tap("Start the game")
    yield 0.2
    assert d.current == "setup" and "club name 'Tuesday club': give 1 to 64 letters" in setup.message, setup.message
    setup.club_name = cfg["club"]
    setup.message = ""
    yield 0.2
    d.tap("Start the game")
    yield 0.2
    assert d.current == "setup" and "no such file" in setup.message, setup.message
    setup.club_ca = cfg["ca"]
    setup.message = ""
    yield 0.2
    d.shot("setup_club")
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table")
    yield from _wait_for(d, lambda: d.model.club_status.startswith("club: publishing table table-4"), 15)
    screen = d.screen("table")
    yield from _wait_for(d, lambda: screen.ids.bar.club_text == "Club: live", 5)
    d.tap("Club: live")  # the bar's word, tapped: the whole status line
    yield 0.2
    d.shot("table_club_live")
    with open(os.environ["ELGRANDE_TEST_CLUB_OUT"], "w") as f:
        json.dump(
            {
                "nonce": d.model.table.nonce,
                "status": d.model.club_status,
                "bar": screen.ids.bar.club_text,
                "said": screen.message,
            },
            f,
        )
