"""A tablet app's manners in the real app (run by test_android_manners.py through
app_driver.py as "android_scenarios:NAME"): Back (Escape, keycode 27, as SDL sends
Android's back key), pause and resume, the screen kept on while a game is open."""

from __future__ import annotations

import urllib.request

from scenarios import _poll, _wait_for


def press_back():
    """What SDL does with Android's back key (and Escape): on_key_down, then on_keyboard."""
    from kivy.core.window import Window

    if not Window.dispatch("on_key_down", 27, 41, None, []):
        Window.dispatch("on_keyboard", 27, 41, None, [])


def _link_connected(link, seconds=45.0, step=0.05):
    """Yield until the tower link's own status says connected (real time: a loaded machine)."""
    import time

    deadline = time.monotonic() + seconds
    while (status := link.status) is None or status.state != "connected":
        if time.monotonic() > deadline:
            seen = status.model_dump() if status else "no status yet"
            raise AssertionError(f"the tower link started on resume is not connected after {seconds:.0f} s: {seen}")
        yield _poll(1)


def _dialog_texts(d) -> list[str]:
    from kivy.core.window import Window
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView

    texts = []
    for view in [w for w in Window.children if isinstance(w, ModalView)]:
        texts += [w.text for w in d._walk(view) if isinstance(w, Label) and w.text]
    return texts


def _start_game(d):
    d.tap("New game")
    yield 0.2
    setup = d.screen("setup")
    setup.mode, setup.variant, setup.king = "Scoring only", "Short game (6 rounds)", "Castilla la Nueva"
    for colour, home in {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla", "blue": "Valencia"}.items():
        setup.rows[colour].home = home
    yield 0.1
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table" and d.model.phones is not None)
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")


def _drop(d, colour):
    sim = {getattr(w, "sim_colour", None): w for w in d.screen("table").ids.bar.ids.sim_drops.children}
    d.tap_widget(sim[colour])


def _phones_answer(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=30) as answer:
        return answer.status


def back_pause_resume_keep_awake(d):
    from kivy.core.window import Window

    from companion.ui.platform.navigation import LEAVE_GAME_QUESTION, QUIT_QUESTION

    app = d.app
    facts = d.facts = {}
    yield 0.3
    assert d.current == "home" and not app.screen_kept_on and Window.allow_screensaver

    # Home: Back asks before quitting; Back again (or Stay) keeps the app open
    press_back()
    yield 0.1
    assert QUIT_QUESTION in _dialog_texts(d), _dialog_texts(d)
    d.shot("back_on_home")
    press_back()
    yield 0.1
    assert _dialog_texts(d) == [] and d.current == "home"
    press_back()
    yield 0.1
    d.tap("Stay", exact=True)
    yield 0.1
    assert _dialog_texts(d) == [] and d.current == "home"

    # New game: Back goes back one screen, nothing asked
    d.tap("New game")
    yield 0.2
    assert d.current == "setup"
    from kivy.uix.textinput import TextInput

    field = next(w for w in d.screen("setup").walk() if isinstance(w, TextInput))
    field.focus = True
    yield 0.1
    press_back()  # first Back ends the typing, the screen stays
    yield 0.1
    assert d.current == "setup" and not field.focus
    press_back()
    yield 0.1
    assert d.current == "home" and _dialog_texts(d) == []

    # A game: the screen is kept on; Back asks, never quits, Stay keeps the game
    yield from _start_game(d)
    assert app.screen_kept_on and not Window.allow_screensaver and app.keep_on_how == "screensaver"
    _drop(d, "red")
    yield from _wait_for(d, lambda: sum(d.model.table.hidden_tallies().values()) == 1)
    press_back()
    yield 0.1
    assert LEAVE_GAME_QUESTION in _dialog_texts(d), _dialog_texts(d)
    d.shot("back_in_game")
    d.tap("Stay in the game")
    yield 0.1
    assert d.current == "table" and _dialog_texts(d) == [] and app.screen_kept_on
    press_back()
    yield 0.1
    press_back()  # Back on the question closes it
    yield 0.1
    assert d.current == "table" and _dialog_texts(d) == []

    # Pause and resume with everything still running: nothing to restart
    table = d.model.table
    from companion.ui.platform import lifecycle

    yield from _wait_for(
        d,
        lambda: (
            lifecycle.bridge_running(d.model.tower_link.bridge)
            and d.model.phones is not None
            and lifecycle.phones_running(d.model.phones)
        ),
        saw=lambda: f"tower link {d.model.tower}, phones {d.model.phones}",
    )
    assert app.on_pause() is True
    app.on_resume()
    assert app.restored_on_resume == [] and d.model.table is table, (app.restored_on_resume, d.model.table, table)

    # Android stopped the tower link and the phone server while the app was paused
    def seats():  # each seat's state and QR code address (the time left on a code runs on)
        phones = d.model.phones
        return {
            pid: ({k: v for k, v in s.items() if k != "expires_in"}, phones.seat_url(pid))
            for pid, s in phones.seats_status().items()
        }

    port, seats_before = d.model.phones.port, seats()
    records = len(table.records)
    assert app.on_pause() is True
    stopped = d.model.tower_link
    stopped.bridge.stop()
    d.model.phones.stop()
    app.on_resume()
    assert app.restored_on_resume == ["tower", "phones"], app.restored_on_resume
    link = d.model.tower_link  # the resume started a new link: wait for its own state, not the old one's
    assert link is not None and link is not stopped, "the resume did not start a new tower link"
    yield from _link_connected(link)
    assert d.model.phones.port == port and seats() == seats_before
    facts["phones_status_after_resume"] = _phones_answer(port)
    assert d.model.table is table and len(table.records) >= records
    _drop(d, "yellow")  # the tower counts again after the resume
    yield from _wait_for(d, lambda: sum(d.model.table.hidden_tallies().values()) == 2)
    assert app.screen_kept_on and not Window.allow_screensaver

    # Leave the game (saved), back on Home the screen may sleep; Resume finds it whole
    press_back()
    yield 0.1
    d.tap("Leave: go to Home")
    yield 0.2
    assert d.current == "home" and not app.screen_kept_on and Window.allow_screensaver
    d.tap("Continue the game")
    yield from _wait_for(d, lambda: d.current == "table")
    assert sum(d.model.table.hidden_tallies().values()) == 2 and app.screen_kept_on
    facts["records_after_resume"] = len(d.model.table.records)

    # The table's own Home button (a way Home beside Back): the game kept, Home says so and resumes it
    from companion.ui.platform.navigation import GAME_KEPT

    yield 0.2  # the screen change done (a screen manager in a change takes no touch)
    d.tap_widget(d.screen("table").ids.bar.ids.home_button)
    yield 0.2
    assert d.current == "home", d.current
    assert d.screen("home").message == GAME_KEPT, d.screen("home").message
    d.shot("home_from_the_table")
    d.tap("Continue the game")
    yield from _wait_for(d, lambda: d.current == "table")
    assert sum(d.model.table.hidden_tallies().values()) == 2

    # Home: Quit stops the app (checked without stopping it, so the scenario can report)
    press_back()
    yield 0.1
    d.tap("Leave: go to Home")
    yield 0.2
    stopped = []
    app.stop = lambda *a: stopped.append(True)
    press_back()
    yield 0.1
    d.tap("Quit", exact=True)
    yield 0.1
    del app.stop
    assert stopped == [True]
    facts["quit_by_back"] = True
