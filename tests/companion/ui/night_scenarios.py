"""A game night in the real app (app_driver.py "night_scenarios:..."): two games back to back in
one app process with a phone in Chromium that stays joined, and the tower's own count compared
with the table's (a disagreement shown on the tower panel, with no figure)."""

from __future__ import annotations

import re

from scenarios import _poll, _wait_for


class _Phone:
    """One phone page in Chromium on a thread of its own (Playwright's sync API stays on the thread
    that started it; the Kivy loop must not block)."""

    def __init__(self, shots):
        import queue
        import threading

        self.shots = shots
        self.jobs, self.done = queue.Queue(), queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=[
                    "--no-sandbox",
                    "--headless",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--no-first-run",
                ],
            )
            page = None
            while True:
                job = self.jobs.get()
                if job is None:
                    browser.close()
                    return
                kind, arg, text = job
                try:
                    if kind == "join":
                        ctx = browser.new_context(
                            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
                        )
                        ctx.set_default_timeout(30000)  # a loaded machine
                        page = ctx.new_page()
                        page.goto(arg)
                        expect(page.locator("#conn")).to_have_text("live")
                    elif kind == "expect":
                        expect(page.locator(arg)).to_contain_text(text)
                    elif kind == "shot":
                        page.screenshot(path=str(self.shots / f"{arg}.png"))
                    self.done.put(("ok", job))
                except Exception as exc:  # handed back to the scenario, which fails with it
                    self.done.put((f"{type(exc).__name__}: {exc}", job))

    def do(self, kind, arg=None, text=None, seconds=60.0):
        import time

        self.jobs.put((kind, arg, text))
        deadline = time.monotonic() + seconds
        while self.done.empty():
            if time.monotonic() > deadline:
                raise AssertionError(f"the phone did not {kind} {arg} within {seconds:.0f} s")
            yield _poll(1)
        outcome, job = self.done.get()
        assert outcome == "ok", f"phone {job}: {outcome}"

    def close(self):
        self.jobs.put(None)
        self.thread.join(20)


def _new_game(d, names: dict[str, str], king: str):
    if d.current != "home":
        d.app.root.current = "home"
        yield 0.2
    d.tap("New game")
    yield 0.2
    setup = d.screen("setup")
    setup.mode, setup.variant, setup.king = "Scoring only", "Short game (6 rounds)", king
    for colour, home in {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla", "blue": "Valencia"}.items():
        setup.rows[colour].home = home
        setup.rows[colour].name = names.get(colour, "")
    yield 0.1
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table" and d.model.phones is not None)
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")


def phones_stay_joined_for_the_next_game(d):
    """Game 1: Ana's phone joins and the tablet says Yes. Game 2 at the same tablet: the same phone
    server, Ana's phone already on her seat showing the new game, no question; then the tower's
    own count disagrees with the table's and the tower panel says so without a figure."""
    yield 0.3
    names = {"red": "Ana", "yellow": "Bruno", "green": "Carmen", "blue": "Dora"}
    yield from _new_game(d, names, "Castilla la Nueva")
    server, port, first = d.model.phones, d.model.phones.port, d.model.table
    yield from _wait_for(d, lambda: first.totals_check()["seen"].get("state") == "agree")
    phone = _Phone(d.shots)
    try:
        yield from phone.do("join", server.seat_url("red"))
        yield from _wait_for(d, lambda: d.model.phone_seats["red"]["awaiting"])
        yield 0.3
        d.tap("Yes", exact=True)
        yield from _wait_for(d, lambda: d.model.phone_seats["red"]["joined"])
        sim = {getattr(w, "sim_colour", None): w for w in d.screen("table").ids.bar.ids.sim_drops.children}
        for colour in ("red", "red"):
            d.tap_widget(sim[colour])
            yield 0.1
        yield from _wait_for(d, lambda: first.hidden_tallies()["red"] == 2)
        yield from phone.do("expect", "#castillo", "2")
        yield from phone.do("shot", "night_phone_game_1")

        # ---- game 2, same app process ----
        yield from _new_game(d, {**names, "green": "Eva"}, "Granada")
        assert d.model.phones is server and server.port == port and d.model.table is not first
        # the server thread tells the model (a callback for the next frame): real time, not frames
        yield from _wait_for(d, lambda: d.model.phone_seats["red"]["joined"], 10)
        assert server.confirmations() == [], "Ana's phone was asked about again"
        yield from phone.do("expect", "#castillo", "0")
        yield from phone.do("expect", "#name", "Ana")
        yield from phone.do("shot", "night_phone_game_2")
        d.tap("Phones", exact=True)
        yield 0.3
        d.shot("night_phones_panel")
        d.tap("Close")
        yield 0.1

        # The tower counted a drop the table never got; it reboots and sends its totals.
        table = d.model.table
        link = d.model.tower_link
        yield from _wait_for(d, lambda: table.totals_check()["seen"].get("state") == "agree")
        link.sim.totals["counts"]["blue"] += 1
        link.sim.totals["drops"] += 1
        link.sim.reboot()
        yield from _wait_for(d, lambda: d.model.public.get("totals_mismatch"))
        yield 0.2
        assert "disagree" in d.model.message and not any(ch.isdigit() for ch in d.model.message)
        d.tap("Tower:")
        yield 0.3
        from companion.ui.widgets.tower_panel import TowerPanel

        panel = next(w for w in d.widgets() if isinstance(w, TowerPanel))
        assert "disagree" in panel.totals_text and panel.totals_fault
        assert not re.search(r"\d", re.sub(r"\d\d:\d\d", "", panel.totals_text)), panel.totals_text
        d.shot("night_tower_panel_mismatch")
        d.tap("Close")
        yield 0.1
        d.facts = {
            "same_server": True,
            "port": port,
            "panel": panel.totals_text,
            "records": [r["t"] for r in table.records],
        }
    finally:
        phone.close()
