"""King and Intrigue's setup on phones in Chromium, in the real app (app_driver.py under Xvfb,
test_app_king_intrigue.py).

The table's card file stands for what the table entered from its box before (written to the user
data folder); the game is started from the New game screen by taps; three phones join from their
seat addresses and the tablet says Yes to each. Each player sets the setup disc on their phone,
and keeps 13 of their 18 Power cards there (tapping the 5 left out, then Confirm); the tablet
shows only who has chosen, reveals the discs with one tap, and never taps a secret. Each phone
then shows its own 13 cards; the first round's Power cards are tapped on the tablet."""
from __future__ import annotations

import queue
import threading

from ki_scenarios import KITablet, _choose_ki
from scenarios import _wait_for

PLAYERS = {"red": "Ana", "yellow": "Bruno", "green": "Carmen"}
DISCS = {"red": "aragon", "yellow": "valencia", "green": "galicia"}
LEFT_OUT = {"red": [10, 20, 30, 40, 50], "yellow": [140, 150, 160, 170, 180], "green": [10, 60, 100, 130, 180]}
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
READ = """() => ({title: document.getElementById('title').textContent,
                 hint: document.getElementById('hint').textContent,
                 chips: [...document.querySelectorAll('#chips i')].map(i => i.textContent),
                 body: document.body.innerText})"""


class Phones:
    """A Chromium page per seat, on a thread of its own (Playwright's sync API stays on its thread;
    the Kivy loop must not block)."""

    def __init__(self, shots):
        self.shots = shots
        self.jobs: queue.Queue = queue.Queue()
        self.done: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        from playwright.sync_api import expect, sync_playwright
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            pages = {}
            while True:
                job = self.jobs.get()
                if job is None:
                    browser.close()
                    return
                kind, pid, arg = job
                try:
                    out = None
                    if kind == "join":
                        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                                  has_touch=True)
                        ctx.set_default_timeout(10000)
                        pages[pid] = ctx.new_page()
                        pages[pid].goto(arg)
                        expect(pages[pid].locator("#title")).to_contain_text("Waiting for the tablet")
                    elif kind == "title":
                        expect(pages[pid].locator("#title")).to_contain_text(arg)
                    elif kind == "click":
                        pages[pid].locator(arg).click()
                    elif kind == "read":
                        out = pages[pid].evaluate(READ)
                    elif kind == "shot":
                        pages[pid].screenshot(path=str(self.shots / f"{arg}.png"))
                    self.done.put(("ok", out))
                except Exception as exc:  # handed back to the scenario, which fails with it
                    self.done.put((f"{type(exc).__name__}: {exc}", None))

    def do(self, kind, pid=None, arg=None, seconds=25.0):
        self.jobs.put((kind, pid, arg))
        waited = 0.0
        while self.done.empty():
            if waited > seconds:
                raise AssertionError(f"the phone did not {kind} {arg} within {seconds} s")
            yield 0.05
            waited += 0.05
        outcome, out = self.done.get()
        assert outcome == "ok", f"phone {pid} {kind} {arg}: {outcome}"
        self.last = out

    def close(self):
        self.jobs.put(None)
        self.thread.join(20)


def _write_card_file():
    """What the table entered on Your cards before (the engine tests' numbers for its box)."""
    from companion.ki_cards import KICardsDraft
    from tests.engine.king_intrigue.table import CARDS_FILE
    KICardsDraft(CARDS_FILE).save()


def ki_setup_on_phones(d):
    d.facts = {}
    _write_card_file()
    yield 0.3
    d.tap("New game")
    yield 0.2
    yield from _choose_ki(d, players=tuple(PLAYERS), modules=())
    setup = d.screen("setup")
    for pid, name in PLAYERS.items():
        setup.rows[pid].name = name
    setup.king = "Castilla la Nueva"   # the King's card drawn (none of the discs below may name it)
    yield 0.1
    d.tap("Start the game", exact=True)
    yield from _wait_for(d, lambda: d.current == "table" and d.model.phones is not None, 20)
    yield 0.3
    table, server = d.model.table, d.model.phones
    assert table.setup.game.rules == "king-intrigue"
    phones = Phones(d.shots)
    try:
        for pid in PLAYERS:
            yield from phones.do("join", pid, server.seat_url(pid))
            yield from _wait_for(d, lambda: d.model.phone_seats[pid]["awaiting"], 20)
            yield 0.3
            d.tap("Yes", exact=True)
            yield from _wait_for(d, lambda: d.model.phone_seats[pid]["joined"], 20)
            yield 0.2
        taps_at_start = len(d.taps)
        # the setup disc, on each phone
        for pid, region in DISCS.items():
            yield from phones.do("title", pid, "Setup: where does your first Caballero go?")
            if pid == "red":
                yield from phones.do("read", pid)
                d.facts["disc_page"] = phones.last
                yield from phones.do("shot", pid, "ki_phone_setup_disc")
            yield from phones.do("click", pid, f'#regions button[data-region="{region}"]')
            yield from _wait_for(d, lambda: pid in table.asked().options.get("chosen", []) or
                                 table.asked().kind != "secret_disc", 20)
        yield from _wait_for(d, lambda: d.screen("table").prompt.title.endswith("everyone has chosen"), 20)
        d.facts["tablet_after_discs"] = [d.screen("table").prompt.title, d.screen("table").prompt.hint]
        d.shot("ki_tablet_discs_chosen")

        def counts():
            return {pid: table.state.counts[table.board.area_index[r]][table.players.index(pid)]
                    for pid, r in DISCS.items()}
        before = counts()
        d.tap("Reveal the discs", exact=True)
        yield from _wait_for(d, lambda: table.asked().kind == "choose_power_cards", 20)
        yield 0.3
        tablet = KITablet(d, seed=3, shots=False)
        yield from tablet.settle(table.asked())   # the outcome dialog: each places 1 Caballero
        d.facts["counts_after_reveal"] = {pid: n - before[pid] for pid, n in counts().items()}   # placed
        # 13 of 18 on each phone: the 5 left out, then Confirm
        for pid, values in LEFT_OUT.items():
            yield from phones.do("title", pid, "Keep 13 Power cards")
            if pid == "yellow":
                yield from phones.do("shot", pid, "ki_phone_keep_13")
            for v in values:
                yield from phones.do("click", pid, f'#regions button[data-option="power:{v}"]')
            yield from phones.do("click", pid, "#confirm")
        yield from _wait_for(d, lambda: table.asked().kind == "play_power_card", 20)
        d.facts["tablet_taps_for_secrets"] = len(d.taps) - taps_at_start
        d.facts["hands"] = {}
        for pid in PLAYERS:
            yield from phones.do("title", pid, "Discs revealed")   # its own disc shown; the hand below
            yield from phones.do("read", pid)
            d.facts["hands"][pid] = [int(c) for c in phones.last["chips"]]
        yield from phones.do("shot", "green", "ki_phone_hand")
        yield 0.3
        d.shot("ki_tablet_power_after_phones")
        # the first round's Power cards on the tablet: one tap each
        while table.asked().kind == "play_power_card":
            yield from tablet.step()
        d.facts["power_taps"] = [s.taps for s in tablet.steps if s.kind == "play_power_card"]
        d.facts["held_notes"] = d.screen("table").prompt.notes
        d.shot("ki_tablet_round_1")
    finally:
        phones.close()
