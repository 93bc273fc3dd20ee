"""King and Intrigue with both modules, a whole game in the real app with phones in Chromium
(app_driver.py under Xvfb, test_app_king_intrigue.py): the suite's one whole game in Chromium.

A new table: New game with King and Intrigue; Start refused, leading to Your cards, where the
box's numbers are entered by taps, exported and imported back (ki_scenarios.cards_by_taps);
the game is then started from the New game screen; three phones join from their
seat addresses and the tablet says Yes to each. Each player sets the setup disc on their phone,
and keeps 13 of their 28 Power cards there (tapping the 13 kept, then Confirm); the tablet shows
only who has chosen, reveals the discs with one tap, and never taps a secret; Undo at the start
of the power phase asks first (who chooses again, never which cards), and No keeps them. The game is then
tracked to the end screen by taps on the tablet (ki_scenarios.KITablet), every secret disc (the
general scorings' Castillo discs, Field Day, Hurricane) answered on the asked phones. Every
websocket frame each page receives is kept, with what each seat itself held and chose, for the
leak check."""

from __future__ import annotations

import json
import os
import queue
import random
import threading
import time

from ki_scenarios import KITablet, _choose_ki, cards_by_taps, undo_of_the_kept_cards_asks
from scenarios import _poll, _wait_for
from scenarios_2023 import PATIENCE
from words_match import patterns, said

from companion.words import language

PLAYERS = {"red": "Ana", "yellow": "Bruno", "green": "Carmen"}
HOMES = {"red": "Sevilla", "yellow": "Granada", "green": "Cataluña"}  # the region cards drawn
DISCS = {"red": "aragon", "yellow": "valencia", "green": "galicia"}
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
READ = """() => ({title: document.getElementById('title').textContent,
                 hint: document.getElementById('hint').textContent,
                 chips: [...document.querySelectorAll('#chips i')].map(i => i.textContent),
                 options: [...document.querySelectorAll('#regions button')].map(b => b.getAttribute('data-option')
                                                                                  || b.getAttribute('data-region')),
                 body: document.body.innerText})"""


PHONE_LOCALE = {"de": "de-DE", "es": "es-ES", "fr": "fr-FR"}.get(os.environ.get("ELGRANDE_LANG", ""), "en-GB")


def _shown(english: str):
    """What a page says for an English message, in the table's language (a pattern where it
    holds a placeholder)."""
    return english if language() == "en" and "{" not in english else patterns(english, language())[0]


class Phones:
    """A Chromium page per seat, on a thread of its own (Playwright's sync API stays on its thread;
    the Kivy loop must not block). Every websocket frame a page receives is kept, per seat."""

    def __init__(self, shots):
        self.shots = shots
        self.jobs: queue.Queue = queue.Queue()
        self.done: queue.Queue = queue.Queue()
        self.frames: dict[str, list[str]] = {}
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        from playwright.sync_api import sync_playwright

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
                    self.done.put(("ok", self._job(browser, pages, kind, pid, arg)))
                except Exception as exc:  # handed back to the scenario, which fails with it
                    self.done.put((f"{type(exc).__name__}: {exc}", None))

    def _job(self, browser, pages, kind, pid, arg):
        from playwright.sync_api import expect

        if kind == "join":
            # the phone's browser in the table's language (each page follows its own browser's)
            ctx = browser.new_context(
                viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale=PHONE_LOCALE
            )
            ctx.set_default_timeout(30000)  # a loaded machine
            page = pages[pid] = ctx.new_page()
            self.frames[pid] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda data: self.frames[pid].append(data)))
            page.on("pageerror", lambda exc: self.errors.append(f"{pid}: {exc}"))
            page.goto(arg)
            expect(page.locator("#title")).to_contain_text(_shown("Waiting for the tablet"))
        elif kind == "title":
            expect(pages[pid].locator("#title")).to_contain_text(_shown(arg))
        elif kind == "click":
            pages[pid].locator(arg).click()
        elif kind == "read":
            return pages[pid].evaluate(READ)
        elif kind == "shot":
            pages[pid].screenshot(path=str(self.shots / f"{arg}.png"))
        elif kind == "keep":  # the cards tapped until all are on (a new question id on the page resets them)
            page = pages[pid]
            for attempt in range(4):
                for option in arg:
                    button = page.locator(f'#regions button[data-option="{option}"]')
                    if button.get_attribute("aria-pressed") != "true":
                        button.click()
                if page.locator("#confirm").is_enabled():
                    page.locator("#confirm").click()
                    return attempt
                page.wait_for_timeout(300)
            raise AssertionError(f"{pid}: Confirm stayed disabled: {page.evaluate(READ)}")
        elif kind == "pump":  # lets the frames still on their way arrive (delivered inside Playwright calls)
            for page in pages.values():
                page.wait_for_timeout(150)
        return None

    def do(self, kind, pid=None, arg=None, seconds=60.0):
        self.jobs.put((kind, pid, arg))
        deadline = time.monotonic() + seconds  # real time: a loaded machine draws fewer frames
        while self.done.empty():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"phone {pid} did not {kind} {arg} within {seconds:.0f} s; the phone seats: {self.seats()}"
                )
            yield _poll(1)
        outcome, out = self.done.get()
        assert outcome == "ok", f"phone {pid} {kind} {arg}: {outcome}"
        self.last = out

    def seats(self) -> dict:
        """What the phone server says of each seat (for a failure's message)."""
        from kivy.app import App

        return getattr(App.get_running_app().model, "phone_seats", None)

    def close(self):
        self.jobs.put(None)
        self.thread.join(20)


class PhoneSecrets:
    """Every secret disc of the game answered on the asked players' phones (the tablet is not
    touched); what each seat itself held and chose is recorded for the leak check."""

    def __init__(self, d, phones: Phones, seed: int = 11):
        self.d, self.phones, self.rng = d, phones, random.Random(seed)
        self.own = {pid: {"hands": set(), "power": set(), "discs": set()} for pid in PLAYERS}
        self.answered: dict[str, int] = {}
        self.clicked_again = 0

    @property
    def table(self):
        return self.d.model.table

    def note(self):
        for pid in PLAYERS:
            mine = self.table.private(pid)
            hand = mine.get("power_cards_in_hand")
            if hand is not None:
                self.own[pid]["power"].add(json.dumps(sorted(int(c) for c in hand)))
            if mine.get("secret_disc"):
                self.own[pid]["discs"].add(mine["secret_disc"])

    def answer(self, pid: str, selectors: list[str], done, what: str):
        """Clicks on `pid`'s page until the table has the answer; a click on a question the page had
        not caught up with yet is refused by the server, so once more."""
        for attempt in range(4):
            self.clicked_again += attempt > 0
            for selector in selectors:
                yield from self.phones.do("click", pid, selector)
            deadline = time.monotonic() + 4.0  # real time, not frames
            while not done() and time.monotonic() < deadline:
                yield _poll(1)
            if done():
                self.answered[what] = self.answered.get(what, 0) + 1
                self.note()
                return
            yield from self.phones.do("read", pid)
        raise AssertionError(f"{pid}'s phone: {what} not taken by the table; the page shows {self.phones.last}")

    def discs(self, ask, chosen: dict | None = None):
        """Each player asked sets the disc on their phone: `chosen`, or a region the engine allows."""
        purpose = ask.options["purpose"]
        taps = len(self.d.taps)
        for pid in list(ask.players):
            regions = self.table.asked().options["regions"][pid]
            region = (chosen or {}).get(pid) or self.rng.choice(sorted(regions))
            self.own[pid]["discs"].add(region)
            set_to = lambda p=pid, r=region: (
                self.table.private(p).get("secret_disc") == r or self.table.asked().kind != "secret_disc"
            )
            yield from self.answer(pid, [f'#regions button[data-region="{region}"]'], set_to, f"disc:{purpose}")
            if purpose not in self.d.facts["phone_disc_shots"]:
                self.d.facts["phone_disc_shots"].append(purpose)
                yield from self.phones.do("shot", pid, f"ki_phone_disc_{purpose}")
        assert len(self.d.taps) == taps, f"the tablet was tapped during {purpose}: {self.d.taps[taps:]}"


def ki_cards_and_game_on_phones(d):
    """Your cards entered by taps from the new-game screen (ki_scenarios.cards_by_taps), then the
    setup on the phones and the whole game by taps on the tablet, secrets on the phones."""
    from whole_game_scenarios import _end_screen, _replay_the_log

    d.facts = {"phone_disc_shots": []}
    clock = [time.monotonic()]

    def lap():
        clock.append(time.monotonic())
        return round(clock[-1] - clock[-2], 1)

    yield from cards_by_taps(d)
    seconds_cards = lap()
    yield from _choose_ki(d, players=tuple(PLAYERS))
    setup = d.screen("setup")
    for pid, name in PLAYERS.items():
        setup.rows[pid].name = name
        setup.rows[pid].home = HOMES[pid]
    setup.king = "Castilla la Nueva"  # the King's card drawn (none of the discs below may name it)
    setup.variant = "Full game (9 rounds)"
    setup.mode = "Full tracking"
    yield 0.1
    d.tap("Start the game", exact=True)
    yield from _wait_for(d, lambda: d.current == "table" and d.model.phones is not None, 60)  # a loaded machine
    yield 0.3
    table, server = d.model.table, d.model.phones
    game = table.setup.game
    d.facts["setup"] = {
        "rules": game.rules,
        "modules": sorted(game.modules),
        "players": list(game.players),
        "variant": game.variant,
    }
    seconds = {"your cards by taps": seconds_cards, "new game": lap()}
    phones = Phones(d.shots)
    try:
        mark = len(d.taps)
        for pid in PLAYERS:
            yield from phones.do("join", pid, server.seat_url(pid))
            yield from _wait_for(d, lambda: d.model.phone_seats[pid]["awaiting"], PATIENCE)
            yield 0.3
            d.tap("Yes", exact=True)
            yield from _wait_for(d, lambda: d.model.phone_seats[pid]["joined"], PATIENCE)
            yield 0.2
        d.facts["join_taps"] = len(d.taps) - mark  # "Is this Ana's phone?": Yes, one tap each
        seconds["phones joined"] = lap()
        secrets = PhoneSecrets(d, phones)
        taps_at_start = len(d.taps)
        # the setup disc, on each phone
        for pid in PLAYERS:
            yield from phones.do("title", pid, "Setup: where does your first Caballero go?")
        yield from phones.do("read", "red")
        d.facts["disc_page"] = phones.last
        yield from phones.do("shot", "red", "ki_phone_setup_disc")
        yield from secrets.discs(table.asked(), DISCS)
        yield from _wait_for(d, lambda: d.screen("table").prompt.title.endswith(said("everyone has chosen")), PATIENCE)
        d.facts["tablet_after_discs"] = [d.screen("table").prompt.title, d.screen("table").prompt.hint]
        d.shot("ki_tablet_discs_chosen")

        def counts():
            return {
                pid: table.state.counts[table.board.area_index[r]][table.players.index(pid)] for pid, r in DISCS.items()
            }

        before = counts()
        d.tap("Reveal the discs", exact=True)
        yield from _wait_for(d, lambda: table.asked().kind == "choose_power_cards", PATIENCE)
        yield 0.3
        tablet = KITablet(d, seed=5)
        yield from tablet.settle(table.asked())  # the outcome dialog: each places 1 Caballero
        d.facts["counts_after_reveal"] = {pid: n - before[pid] for pid, n in counts().items()}  # placed
        # 13 of 28 on each phone: the 13 kept, then Confirm
        d.facts["kept"], d.facts["offered"] = {}, {}
        d.facts["cards_in_the_choice"] = len(table.asked().options["cards"])
        for pid in PLAYERS:
            yield from phones.do("title", pid, "Keep {n} Power cards")
            yield from phones.do("read", pid)
            offered = [o for o in phones.last["options"] if o and o.startswith("power:")]
            d.facts["offered"][pid] = len(offered)
            kept = sorted(secrets.rng.sample(offered, 13), key=lambda o: int(o.split(":")[1]))
            d.facts["kept"][pid] = [int(o.split(":")[1]) for o in kept]
            if pid == "yellow":
                yield from phones.do("shot", pid, "ki_phone_keep_13")
            yield from phones.do("keep", pid, kept)
            d.facts["keep_retries"] = d.facts.get("keep_retries", 0) + phones.last
            deadline = time.monotonic() + PATIENCE  # real time, not frames
            while table.asked().kind == "choose_power_cards" and pid not in table.asked().options.get("chosen", ()):
                if time.monotonic() > deadline:  # the phone's last replies say why (an error frame, a refusal)
                    replies = [f for f in phones.frames[pid] if '"type":"view"' not in f]
                    raise AssertionError(f"{pid}'s 13 kept not taken by the table; the phone's replies: {replies[-3:]}")
                yield _poll(1)
            secrets.answered["keep 13"] = secrets.answered.get("keep 13", 0) + 1
            secrets.note()
        yield from _wait_for(d, lambda: table.asked().kind == "play_power_card", PATIENCE)
        d.facts["tablet_taps_for_secrets"] = len(d.taps) - taps_at_start
        yield from undo_of_the_kept_cards_asks(d)  # Undo asks first; "No, keep it" changes nothing
        d.facts["hands"] = {}
        for pid in PLAYERS:
            yield from phones.do("title", pid, "Discs revealed")  # its own disc shown; the hand below
            yield from phones.do("read", pid)
            d.facts["hands"][pid] = [int(c) for c in phones.last["chips"]]
        yield from phones.do("shot", "green", "ki_phone_hand")
        seconds["setup on the phones"] = lap()
        # the game, to the end: the tablet by taps, every secret disc on the phones
        guard, on_phones = 0, []
        while d.current != "end":
            guard += 1
            assert guard < 900, "the game did not end"
            ask = table.asked()
            if ask.kind == "game_over":
                break
            if ask.kind == "secret_disc":
                before_taps = len(d.taps)
                yield from secrets.discs(ask)
                yield from tablet.settle(ask)
                on_phones.append(
                    {
                        "purpose": ask.options["purpose"],
                        "players": list(ask.players),
                        "tablet_taps": len(d.taps) - before_taps,
                    }
                )
            else:
                yield from tablet.shot(f"ki_prompt_{ask.kind}")
                try:
                    yield from tablet.step()
                except AttributeError as exc:
                    raise AssertionError(f"{exc} at {ask}") from exc
            secrets.note()
        yield from _wait_for(d, lambda: d.current == "end" or table.asked().kind == "game_over", PATIENCE)
        if d.current != "end":
            d.tap("Final standings")
            yield from _wait_for(d, lambda: d.current == "end", PATIENCE)
        yield 0.3
        d.shot("ki_end_phones")
        d.facts["final_pages"] = {}
        for pid in PLAYERS:
            yield from phones.do("title", pid, "Game over")
            yield from phones.do("read", pid)
            d.facts["final_pages"][pid] = [phones.last["title"], phones.last["hint"]]
        yield from phones.do("shot", "red", "ki_phone_game_over")
        yield from phones.do("pump")
        seconds["game"] = lap()
        heading, shown = _end_screen(d)
        replayed, _, _ = _replay_the_log(table.path)
        state = replayed.state
        d.facts.update(
            {
                "end_heading": heading,
                "end_scores": shown,
                "replayed": {state.names[p]: s for p, s in zip(state.players, state.scores)},
                "replayed_over": state.stage == "over",
                "replayed_winners": [state.names[state.players[q]] for q in state.winners],
                "on_phones": on_phones,
                "answered": dict(secrets.answered),
                "clicked_again": secrets.clicked_again,
                "steps": [s.__dict__ for s in tablet.steps],
                "reached": dict(tablet.reached),
                "problems": tablet.problems,
                "seconds": seconds,
                "names": dict(PLAYERS),
                "frames": {p: list(f) for p, f in phones.frames.items()},
                "page_errors": list(phones.errors),
                "own": {p: {k: sorted(v) for k, v in o.items()} for p, o in secrets.own.items()},
            }
        )
    finally:
        phones.close()


def launch_ki(d):
    """King and Intrigue's one launch at 1280x800 (test_app_king_intrigue.py, test_app_ki_scoring.py):
    the whole game on phones, then a scoring-only game with its markers entered by taps."""
    from catalogue_2023_ki import several
    from ki_scoring_scenarios import ki_scoring_only_game

    yield from several(
        d, (("ki_game_on_phones", ki_cards_and_game_on_phones), ("ki_scoring_only_game", ki_scoring_only_game))
    )
