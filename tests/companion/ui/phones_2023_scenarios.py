"""A whole 5-player 2023 game with New Regency, Old Hands and Power Shift in the real app, with a
phone per player in Chromium for every secret (run by app_driver.py under Xvfb,
test_game_2023_phones.py).

The table's own files stand for what a table entered from its box before (the self-play
stand-ins, written to the user data folder); the game is then started from the New game
screen by taps: the 2023 edition, the five players, the three modules, the cards Old Hands
sent back to the box, the labelled stand-in Modifier cards, Start, and the board confirmed.
Five phones join from their seat addresses and the tablet says Yes to each. Then every
table step is tapped on the tablet (scenarios_2023.Tablet: the engine's random chooser,
steered towards the 2023 cards, decides WHAT; the prompt on screen says HOW), and every
secret is clicked on its player's phone page: the Modifier cards dealt and passed, a card
taken back, each secret disc (the general scorings' and the cards'), the 2023 Veto. The
tablet taps no secret. Every frame each phone received is kept for the leak check (the test
side); the end screen is checked against the engine replaying the saved log."""
from __future__ import annotations

import json
import queue
import random
import threading
import time
from collections import Counter

from scenarios import _wait_for
from scenarios_2023 import MOVES_THE_KING, PATIENCE, Step, Tablet

from companion.phones.views import modifier_faces
from engine.playout import random_event
from tests.companion.tablet_driver import _as_the_tablet_orders, _norm

SEED = 11
PLAYERS = {"purple": "Ana", "blue": "Bruno", "green": "Carmen", "orange": "Dora", "red": "Eva"}
HOMES = {"purple": "Galicia", "blue": "Aragón", "green": "Sevilla", "orange": "Valencia", "red": "Granada"}
KING = "Castilla"
MODULES = ("new-regency", "old-hands", "power-shift")
# Old Hands, 5 players: 1 card from stack 1, 2 from stack 2 and 1 from stack 4 went back to the box
RETURNED = ("infiltration", "withdrawal", "revelation", "standin_court")
# The 2023 cards whose secrets (or prompts) the game steers towards, in this order
WANTED = ("competition", "civil_war", "eviction", "veto_2023", "empowerment", "exile", "militia", "enactment",
          "entourage", "rebellion", "stand_in", "chalet", "adopted_home", "your_majesty")
PHONE_KINDS = ("deal_modifiers", "pass_modifier", "take_back_power_card", "secret_disc", "veto")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}

# What a phone page shows, read in one go (the DOM, as the player sees it)
READ_PAGE = """() => {
  const t = id => document.getElementById(id);
  const shown = id => !t(id).hidden;
  return {title: t('title').textContent, hint: t('hint').textContent,
          mine: shown('mine') ? t('mine').textContent : '',
          options: [...document.querySelectorAll('#regions button')].map(b => b.getAttribute('data-option') ||
                                                                            b.getAttribute('data-region')),
          on: [...document.querySelectorAll('#regions button.on')].map(b => b.getAttribute('data-option') ||
                                                                           b.getAttribute('data-region')),
          mods: shown('mods') ? [...document.querySelectorAll('#modlist div')].map(d => d.firstChild.textContent)
                              : null,
          waiting: shown('waiting') ? t('waiting').textContent : '',
          body: document.body.innerText};
}"""


class Phones:
    """Five phones: one Chromium, a browser context (its own storage) and page per seat, on a thread
    of its own (Playwright's sync API stays on the thread that started it; the Kivy loop must
    not block). Every websocket frame a page receives is kept, per seat."""

    def __init__(self, shots):
        self.shots = shots
        self.jobs: queue.Queue = queue.Queue()
        self.done: queue.Queue = queue.Queue()
        self.frames: dict[str, list[str]] = {}
        self.errors: list[str] = []
        self.busy = 0.0    # seconds the game waited for the phones
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        from playwright.sync_api import sync_playwright
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = {}
            while True:
                job = self.jobs.get()
                if job is None:
                    browser.close()
                    return
                kind, pid, args = job
                try:
                    self.done.put(("ok", getattr(self, f"_{kind}")(browser, pages, pid, *args)))
                except Exception as exc:  # handed back to the scenario, which fails with it
                    self.done.put((f"{type(exc).__name__}: {exc}", None))

    # ---- on the phones' thread ------------------------------------------------------------

    def _join(self, browser, pages, pid, url):
        from playwright.sync_api import expect
        ctx = browser.new_context(**PHONE)
        ctx.set_default_timeout(8000)
        page = ctx.new_page()
        self.frames[pid] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: self.frames[pid].append(payload)))
        page.on("pageerror", lambda exc: self.errors.append(f"{pid}: {exc}"))
        page.goto(url)
        expect(page.locator("#title")).to_contain_text("Waiting for the tablet")
        pages[pid] = page

    def _live(self, browser, pages, pid, name):
        from playwright.sync_api import expect
        expect(pages[pid].locator("#name")).to_have_text(name)
        expect(pages[pid].locator("#conn")).to_have_text("live")
        expect(pages[pid].locator("#facts")).to_be_visible()

    def _title(self, browser, pages, pid, words):
        from playwright.sync_api import expect
        expect(pages[pid].locator("#title")).to_contain_text(words)

    def _click(self, browser, pages, pid, selector):
        pages[pid].locator(selector).click()

    def _read(self, browser, pages, pid):
        return pages[pid].evaluate(READ_PAGE)

    def _shows_mine(self, browser, pages, pid, words):
        """Waits for the page to show the player's own pick: the table has it before the frame that
        tells the page is delivered, and a page read in between shows the state one frame ago."""
        from playwright.sync_api import expect
        expect(pages[pid].locator("#mine")).to_contain_text(words)

    def _shows_own(self, browser, pages, pid, mods, no_disc):
        """Waits for the page to show the seat's Modifier cards now (`mods`, labels in order) and,
        when it has no disc in the open disc question, no disc: the frame telling the page comes a
        moment after the table changed."""
        from playwright.sync_api import expect
        page = pages[pid]
        cards = page.locator("#modlist div")
        expect(cards, f"{pid}'s page to show {len(mods)} Modifier cards {mods}").to_have_count(len(mods))
        if mods:
            expect(cards, f"{pid}'s page to show the Modifier cards {mods}").to_contain_text(mods)
        if no_disc:
            expect(page.locator("#mine"), f"{pid}'s page to show no disc").to_be_hidden()

    def _shot(self, browser, pages, pid, name):
        pages[pid].screenshot(path=str(self.shots / f"{name}.png"), full_page=True)

    def _pump(self, browser, pages, pid):
        """Lets the frames still on their way arrive (events are delivered inside Playwright calls)."""
        for page in pages.values():
            page.wait_for_timeout(150)

    # ---- from the Kivy loop ----------------------------------------------------------------

    def do(self, kind, pid=None, *args, seconds=25.0):
        """Yields until the phone has done it; the result is in self.result."""
        started = time.monotonic()
        self.jobs.put((kind, pid, args))
        waited = 0.0
        while self.done.empty():
            if waited > seconds:
                raise AssertionError(f"the phone did not {kind} {pid} {args} within {seconds} s")
            yield 0.02
            waited += 0.02
        outcome, self.result = self.done.get()
        self.busy += time.monotonic() - started
        assert outcome == "ok", f"phone {pid} {kind} {args}: {outcome}"

    def close(self):
        self.jobs.put(None)
        self.thread.join(20)


def _option(face: str) -> str:
    return f'#regions button[data-option="{face}"]'


def _region(rid: str) -> str:
    return f'#regions button[data-region="{rid}"]'


class PhoneTablet(Tablet):
    """The tablet's steps by taps (Tablet), every secret on the phones; what each seat may see is
    recorded as the game goes (its own hands, its own discs) for the leak check."""

    def __init__(self, d, phones: Phones, seed: int = SEED):
        super().__init__(d, seed)
        self.phones = phones
        self.secret_rng = random.Random(seed + 1)   # the players' own choices
        self.faces = modifier_faces(self.table.state.modifiers)
        self.own: dict[str, dict[str, set]] = {p: {"hands": set(), "power": set(), "discs": set()}
                                               for p in PLAYERS}
        self.answered: Counter = Counter()          # secrets answered on the phones, by kind (and purpose)
        self.page_checks: list[dict] = []           # the pages read at moments of a secret choice
        self.note_secrets()

    # ---- what each seat may see -------------------------------------------------------------

    def note_secrets(self) -> None:
        """Each seat's own secrets now: its Modifier cards by face, its Power cards."""
        for pid in PLAYERS:
            mine = self.table.private(pid)
            hand = self.faces.hand(mine.get("modifiers_in_hand") or ())
            self.own[pid]["hands"].add(json.dumps([[o.id, o.label] for o in hand]))
            self.own[pid]["power"].add(json.dumps(sorted(int(c) for c in mine.get("power_cards_in_hand") or ())))

    def _king_by_the_castillo(self) -> bool:
        return False   # Tablet keeps him there (Rebellion's scoring without discs); here he is sent on

    def _preferred(self, cards: list, shown: Counter = Counter()) -> str:
        """The 2023 cards with a secret first, each played once; while the King stands by the
        Castillo (Rebellion) a card that moves him, so that the general scorings ask for discs."""
        table = self.table
        kept = table.state.king == table.board.castillo

        def rank(item):
            cid, card = item
            wanted = WANTED.index(card.effect) if card.effect in WANTED else len(WANTED)
            return (kept and card.effect not in MOVES_THE_KING, card.effect == "rebellion",
                    self.played_effects[card.effect] > 0, shown[card.effect], wanted, self.rng.random())
        return min(cards, key=rank)[0]

    def _turn(self, ask):
        """Tablet's turn; with nothing left to place and no special action (a court emptied), the
        engine's own choice: Confirm with nothing placed."""
        wanted, after = super()._turn(ask)
        if wanted is None:
            wanted = _norm(random_event(self.rng, _as_the_tablet_orders(ask)).model_dump(mode="json"))
        return wanted, after

    def plan(self, ask, prompt, wanted, after, depth: int = 0):
        """Tablet's route. Twin Modifier cards are one button (nobody can tell twins apart): when
        that button names a copy the player does not hold, the table plays the copy held."""
        route = super().plan(ask, prompt, wanted, after, depth)
        held = wanted.get("modifier") if depth == 0 and route and ask.kind == "play_power_card" else None
        if held:
            hand = set(self.table.private(ask.players[0])["modifiers_in_hand"])
            if self.twin_button(held) not in hand:
                self.reached["a twin's copy tapped"] += 1
        return route

    def _tap_in(self, root, text: str, exact: bool = True):
        from kivy.uix.button import Button
        found = [w for w in root.walk() if isinstance(w, Button) and not w.disabled
                 and (w.text == text if exact else text in w.text)]
        assert found, f"no button {text!r} in {root.__class__.__name__}"
        yield from self._into_view(found[0])
        self.d.tap_widget(found[0])
        yield 0.05

    def run(self, plan: list, ask):
        """Tablet's taps. A placement full once a region is tapped places itself (no Confirm);
        one filled by the tower's count alone (no region tapped) is confirmed, as a person would."""
        self._mark = self._events()
        yield from super().run(plan, ask)
        if self._events() == self._mark and plan and plan[-1][0] == "throw":
            self.reached["Confirm after the tower's count"] += 1
            yield from self._tap_choice("Confirm")

    def _tap_choice(self, label: str):
        panel = self.screen.ids.actions
        found = [w for w in panel.walk() if getattr(w, "text", None) == label and hasattr(w, "tap_action")]
        if not found and label == "Confirm" and self._events() > getattr(self, "_mark", self._events()):
            self.reached["placement placed itself"] += 1
            return
        assert found, f"no choice {label!r} on the side panel"
        yield from self._into_view(found[0])
        self.d.tap_widget(found[0])
        yield 0.04

    # ---- faster settling than Tablet's (a 5-player game has about 330 steps) -------------------

    def settle(self, ask):
        d = self.d
        quiet, waited = 0, 0.0
        while quiet < 2:
            yield 0.02
            waited += 0.02
            assert waited < PATIENCE, f"the screen did not follow the table after {ask.kind}"
            handled = False
            dialog = self._dialog()
            if dialog is not None and dialog.__class__.__name__ == "OutcomeShown":
                self.reached["outcome dialog"] += 1
                yield from self.shot(f"outcome_{ask.kind}")
                self.read_taps += 1
                yield from self._tap_in(dialog, "Done")
                handled = True
            if d.current == "scoring" and d.screen("scoring").record is not None:
                self.reached["scoring page"] += 1
                yield from self.shot("scoring_" + ("general" if "General" in d.screen("scoring").record.title
                                                   else "special"))
                d.tap("Done: back to the table")
                yield 0.1
                handled = True
            if d.current == "end":
                return
            synced = d.model._ask_key is not None and d.model._ask_key[0] == repr(self.table.asked())
            quiet = quiet + 1 if synced and not handled else 0
        notice = self.screen.notice
        if notice and notice not in self.notices[-1:]:
            self.reached["notice"] += 1
            self.notices.append(notice)

    def _into_view(self, w):
        """Scrolled until it is on screen, as a person would; checked again after the last scroll,
        and said where it was when it cannot be (the side panel is shorter with five players)."""
        p = w.parent
        while p is not None and p.__class__.__name__ != "ScrollView":
            p = p.parent if p.parent is not p else None
        if p is None:
            return

        def where():
            x0, y0 = p.to_window(*p.pos)
            cx, cy = w.to_window(*w.center)
            return (x0 <= cx <= x0 + p.width and y0 + 4 <= cy <= y0 + p.height - 4), (cy, y0, y0 + p.height,
                                                                                     p.scroll_y)
        for _ in range(8):
            seen, _ = where()
            if seen:
                return
            # A finger's swipe: the panel moved so that the button is in its middle, the scroll
            # effect told (a tap's deferred touch-up would otherwise move it back; see the report)
            vp = p._viewport
            room = vp.height - p.height
            wy = vp.to_widget(*w.to_window(*w.center))[1]
            if room > 0:
                if p.effect_y is not None:
                    p.effect_y.cancel()
                p.scroll_y = min(1.0, max(0.0, (wy - p.height / 2) / room))
                p._update_effect_bounds()
            yield 0.06
        seen, at = where()
        assert seen, f"{w.text!r} could not be scrolled into view (centre y, view from, to, scroll_y): {at}"

    # ---- the secrets, on the phones -----------------------------------------------------------

    def on_phones(self, ask):
        """Every player asked answers on their own phone page; the tablet is not touched."""
        taps = len(self.d.taps)
        if ask.kind == "deal_modifiers":
            yield from self.deal(ask)
        elif ask.kind == "pass_modifier":
            yield from self.pass_cards(ask)
        elif ask.kind == "take_back_power_card":
            yield from self.take_back(ask)
        elif ask.kind == "secret_disc":
            yield from self.discs(ask)
        elif ask.kind == "veto":
            yield from self.vetoes(ask)
        assert len(self.d.taps) == taps, f"the tablet was tapped during {ask.kind}: {self.d.taps[taps:]}"
        yield from self.settle(ask)
        self.note_secrets()

    def _answer(self, ask, pid: str, selectors: list[str], done, what: str):
        """Click on `pid`'s page until the table has the answer (`done()`); a click against a
        question the page had not caught up with yet is refused by the server, so once more."""
        for attempt in range(3):
            self.answered["clicked again"] += attempt > 0
            events = self._events()
            for selector in selectors:
                yield from self.phones.do("click", pid, selector)
            waited = 0.0
            while not done() and waited < 4.0:
                yield 0.03
                waited += 0.03
            if done():
                new = self._new_events(events)
                self.steps.append(Step(ask.kind, pid, 0, new, ask.options.get("purpose")))
                self.answered[what] += 1
                self.note_secrets()
                return
            yield from self.phones.do("read", pid)
            page = self.phones.result
        raise AssertionError(f"{pid}'s phone: {what} not taken by the table; the page shows {page}")

    def _not_asked(self, kind: str, pid: str):
        return lambda: self.table.asked().kind != kind or pid not in self.table.asked().players

    def deal(self, ask):
        """The 16 Modifier cards shuffled and dealt, three each: each player taps theirs on the
        phone (a card held twice: twice), then Confirm."""
        deck = sorted(self.table.state.modifiers)
        self.secret_rng.shuffle(deck)
        hands = {pid: deck[3 * i:3 * i + 3] for i, pid in enumerate(ask.players)}
        self.d.facts["dealt"] = {p: [self.faces.face_of[m] for m in h] for p, h in hands.items()}
        for i, pid in enumerate(ask.players):
            yield from self.phones.do("title", pid, "Your Modifier cards")
            faces = [self.faces.face_of[m] for m in hands[pid]]
            if i == 0:
                yield from self.phone_moment("deal", ask, pid)
            yield from self._answer(ask, pid, [_option(f) for f in faces] + ["#confirm"],
                                    self._not_asked("deal_modifiers", pid), "deal")
            if i == 0:
                yield from self.shot("tablet_deal_on_phones")
                yield from self.phones.do("shot", pid, "phone_deal_entered")

    def pass_cards(self, ask):
        """Each player taps the card passed to the left; the first changes her mind before the last
        has chosen."""
        players = list(ask.players)
        for i, pid in enumerate(players):
            yield from self.phones.do("title", pid, "Pass a Modifier card")
            hand = self.faces.hand(self.table.private(pid)["modifiers_in_hand"])
            faces = sorted({o.id for o in hand})
            first = self.secret_rng.choice(faces)
            passing = lambda p=pid: self.table.private(p).get("modifier_passing") is not None \
                or self._not_asked("pass_modifier", p)()
            if i == 0:
                yield from self.phone_moment("pass", ask, pid)
            yield from self._answer(ask, pid, [_option(first)], passing, "pass")
            if i == 0 and len(faces) > 1:
                other = next(f for f in faces if f != first)
                changed = lambda p=pid, f=other: self.faces.face_of.get(
                    self.table.private(p).get("modifier_passing")) == f or self.table.asked().kind != "pass_modifier"
                yield from self._answer(ask, pid, [_option(other)], changed, "pass changed")
                yield from self.phones.do("shot", pid, "phone_pass")

    def take_back(self, ask):
        pid = ask.players[0]
        yield from self.phones.do("title", pid, "Take a card back")
        yield from self.phones.do("read", pid)
        page = self.phones.result
        choice = self.secret_rng.choice(page["options"])
        yield from self.phone_moment("take_back", ask, pid)
        yield from self._answer(ask, pid, [_option(choice)],
                                lambda: self.table.asked().kind != "take_back_power_card", "take back")

    def discs(self, ask):
        """Each player asked sets the disc on the phone, to a region the engine allows (seeded);
        at the first general scoring one player changes her mind."""
        purpose = ask.options["purpose"]
        players = list(ask.players)
        titles = {"castillo_destination": "General scoring", "civil_war": "Civil War",
                  "eviction_destination": "where do your Caballeros go", "send_back": "which region do you lose",
                  "special_scoring": "which region should score"}
        for i, pid in enumerate(players):
            regions = self.table.asked().options["regions"][pid]
            region = self.secret_rng.choice(regions)
            if purpose in titles:
                yield from self.phones.do("title", pid, titles[purpose])
            set_to = lambda p=pid, r=region: self.table.private(p).get("secret_disc") == r
            yield from self._answer(ask, pid, [_region(region)], set_to, f"disc:{purpose}")
            self.own[pid]["discs"].add(region)
            changing = purpose == "castillo_destination" and not self.answered["disc changed"] and len(regions) > 1
            if changing and i < len(players) - 1:
                other = next(r for r in regions if r != region)
                self.own[pid]["discs"].add(other)
                yield from self._answer(ask, pid, [_region(other)],
                                        lambda p=pid, r=other: self.table.private(p).get("secret_disc") == r,
                                        "disc changed")
            if i == max(len(players) - 2, 0):   # all but one have chosen: every page looked at
                yield from self.phone_moment(f"disc:{purpose}", self.table.asked(), pid)

    def vetoes(self, ask):
        """Every holder is asked at once: the first Veto of the game is used (all or nothing), every
        later one let pass."""
        holders = list(ask.players)
        for pid in holders:
            yield from self.phones.do("title", pid, "Veto: stop")
        yield from self.phone_moment("veto", ask, holders[0])
        if not self.answered["veto use"]:
            yield from self._answer(ask, holders[0], [_option("use")], lambda: self.table.asked().kind != "veto",
                                    "veto use")
            return
        for pid in holders:
            yield from self._answer(ask, pid, [_option("pass")], self._not_asked("veto", pid), "veto pass")

    # ---- looking at every page at a moment of a secret choice -----------------------------------

    def phone_moment(self, moment: str, ask, pid: str):
        """Every phone page read as its player sees it, with what each may see (their own secrets)
        and what the others chose; the test checks no page shows another player's secret."""
        secrets = {}
        for seat in PLAYERS:
            mine = self.table.private(seat)
            secrets[seat] = {"disc": mine.get("secret_disc"),
                             "mods": [o.label for o in self.faces.hand(mine.get("modifiers_in_hand") or ())],
                             "passing": (self.faces.options[self.faces.face_of[mine["modifier_passing"]]].label
                                         if mine.get("modifier_passing") in self.faces.face_of else None)}
        names = {seat: self.d.model.area_name(s["disc"]) if s["disc"] else None for seat, s in secrets.items()}
        own = {seat: sorted(self.d.model.area_name(r) for r in self.own[seat]["discs"]) for seat in PLAYERS}
        pages = {}
        for seat in PLAYERS:
            if ask.kind == "secret_disc" and names[seat]:
                yield from self.phones.do("shows_mine", seat, names[seat])
            yield from self.phones.do("shows_own", seat, secrets[seat]["mods"],
                                      ask.kind == "secret_disc" and not names[seat])
            yield from self.phones.do("read", seat)
            pages[seat] = self.phones.result
        self.page_checks.append({"moment": moment, "kind": ask.kind, "pages": pages, "secrets": secrets,
                                 "disc_names": names, "own_disc_names": own})
        if moment not in self.d.facts.setdefault("phone_shots", []):
            self.d.facts["phone_shots"].append(moment)
            yield from self.phones.do("shot", pid, "phone_" + moment.replace(":", "_"))


# ---- the game ---------------------------------------------------------------------------------


def _table_files():
    """The table's board and cards, entered from its box before this game (the self-play
    stand-ins stand for them): kept in the user data folder like Your board and Your cards."""
    from companion.rule_files import board_path, cards_path, write_json
    from engine.playout import standin_files
    board_file, cards_file = standin_files("2023", 5)
    write_json(board_path("4-5"), board_file)
    write_json(cards_path(), cards_file)


def new_game_by_taps(d):
    """New game: the 2023 edition, five players named, the three modules, Old Hands' cards back in
    the box, the stand-in Modifier cards (labelled), full tracking, a full game; Start; the board
    confirmed. The region cards drawn (the King's and each home) are set as drawn."""
    from rules_scenarios import _keyed, _tap_text
    yield 0.3
    d.tap("New game")
    yield from _wait_for(d, lambda: d.current == "setup")
    yield 0.2
    setup = d.screen("setup")
    d.tap("Classic (1995)", exact=True)      # the rules spinner opens
    yield 0.2
    d.tap("2023 edition", exact=True)
    yield 0.3
    for colour, row in setup.rows.items():   # the five who play ticked, the others not
        if row.plays != (colour in PLAYERS):
            yield from _into(d, row)
            d.tap_widget(row.ids.plays)
            yield 0.15
    for colour, name in PLAYERS.items():
        setup.rows[colour].ids.name.text = name   # typed on the tablet's keyboard
    yield 0.1
    for module in MODULES:
        toggle = next(w for w in setup.ids.modules.children if w.module == module)  # remade after each tap
        if not toggle.chosen:
            yield from _into(d, toggle)
            d.tap_widget(toggle.ids.words)
            yield 0.15
    for spinner, option in (("Scoring only", "Full tracking"), ("Short game (6 rounds)", "Full game (9 rounds)")):
        yield from _tap_text(d, spinner)
        yield from _tap_text(d, option)
    setup.king, setup.start = KING, "Purple"
    for colour, home in HOMES.items():
        setup.rows[colour].home = home
    yield 0.1
    yield from _tap_text(d, setup.returns_words)   # Old Hands: which cards went back to the box
    yield 0.2
    for key in [f"returned:{cid}" for cid in RETURNED] + ["returned:done"]:
        yield from _into(d, _keyed(d, key))
        d.tap_widget(_keyed(d, key))
        yield 0.08
    yield 0.2
    d.facts["returned_words"] = setup.returns_words
    if not setup.stand_in:
        yield from _tap_text(d, "Use the stand-in Modifier cards", exact=False)
    d.facts["setup_notes"] = setup.rules_notes
    yield from _into(d, setup.ids.rules_block)
    yield 0.2
    d.shot("new_game_2023_five")
    yield from _tap_text(d, "Start the game")
    yield from _wait_for(d, lambda: d.current in ("board", "table"), PATIENCE)
    yield 0.2
    if d.current == "board":
        d.facts["board_shown"] = True
        board = d.screen("board")
        d.tap(board.confirm_text, exact=True)
    yield from _wait_for(d, lambda: d.current == "table", PATIENCE)
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected", PATIENCE)
    yield 0.3
    assert d.model.phones is not None, d.model.phone_error
    game = d.model.table.setup.game
    d.facts["setup"] = game.model_dump(mode="json", include={"rules", "modules", "players", "names", "variant",
                                                             "removed_cards", "stand_in_modifiers", "start_player"})
    d.facts["mode"] = d.model.table.mode


def calibrate_the_tower(d):
    """The tower panel: "Calibrate the colours" for the seats' colours (the simulated tower knows
    the classic five; purple and orange, and their look-alikes blue and red, would go to a person)."""
    from tower_colour_scenarios import teach_from_the_tower_panel
    d.facts["start_notice"] = d.screen("table").notice
    yield from teach_from_the_tower_panel(d)   # the cubes of the colours it does not know
    yield from _wait_for(d, lambda: len((d.model.tower or {}).get("calibrated") or ()) == len(PLAYERS), PATIENCE)
    assert d.model.table.setup.by_hand() == [], d.model.table.setup.by_hand()
    d.facts["calibrated"] = sorted(d.model.tower["calibrated"])


def _into(d, w):
    from rules_scenarios import _into_view
    yield from _into_view(d, w)


def join_phones(d, phones: Phones):
    """Each player opens their seat's address (the QR code) on their phone; the tablet asks "Is
    this Ana's phone?" on its own, and Yes is one tap each."""
    server = d.model.phones
    mark = len(d.taps)
    for pid, name in PLAYERS.items():
        yield from phones.do("join", pid, server.seat_url(pid))
        yield from _wait_for(d, lambda p=pid: d.model.phone_seats.get(p, {}).get("awaiting"), PATIENCE)
        yield 0.2
        if pid == "purple":
            d.shot("tablet_phone_joined")
        d.tap("Yes", exact=True)
        yield from _wait_for(d, lambda p=pid: d.model.phone_seats.get(p, {}).get("joined"), PATIENCE)
        yield from phones.do("live", pid, name)
    d.facts["join_taps"] = len(d.taps) - mark
    yield 0.2


def five_players_with_phones(d):
    """The whole game: setup by taps, five phones joined, every step to the end screen."""
    from whole_game_scenarios import _end_screen, _replay_the_log
    d.facts = {}
    clock = [time.monotonic()]

    def lap():
        clock.append(time.monotonic())
        return round(clock[-1] - clock[-2], 1)
    _table_files()
    yield from new_game_by_taps(d)
    yield from calibrate_the_tower(d)
    seconds = {"new game": lap()}
    setup_taps = len(d.taps)
    phones = Phones(d.shots)
    try:
        yield from join_phones(d, phones)
        seconds["phones joined"] = lap()
        tablet = PhoneTablet(d, phones)
        rounds, guard = set(), 0
        while d.current != "end":
            guard += 1
            assert guard < 1500, "the game did not end"
            ask = tablet.table.asked()
            if ask.kind == "game_over":
                break
            rounds.add(ask.round)
            if ask.kind in PHONE_KINDS:
                if ask.kind == "secret_disc" and ask.options["purpose"] == "castillo_destination":
                    yield from tablet.shot("tablet_discs_on_phones")
                yield from tablet.on_phones(ask)
            elif ask.kind == "reveal_action_cards":
                yield from tablet.reveal_step()
            else:
                if ask.kind == "reveal_secret_discs" and ask.options.get("purpose") == "castillo_destination":
                    yield from tablet.shot("tablet_all_chosen")
                yield from tablet.step()
            tablet.note_secrets()
        yield from _wait_for(d, lambda: d.current == "end" or tablet.table.asked().kind == "game_over", PATIENCE)
        if d.current != "end":
            d.tap("Final standings")
            yield from _wait_for(d, lambda: d.current == "end", PATIENCE)
        yield 0.4
        d.shot("end_2023_five")
        for pid, name in PLAYERS.items():
            yield from phones.do("title", pid, "Game over")
        yield from phones.do("shot", "purple", "phone_game_over")
        yield from phones.do("pump")
        seconds["game"], seconds["waiting for the phones"] = lap(), round(phones.busy, 1)
        heading, shown = _end_screen(d)
        game, _, _ = _replay_the_log(d.model.table.path)
        state = game.state
        d.facts.update({
            "end_heading": heading, "end_scores": shown, "rounds": sorted(rounds),
            "replayed": {state.names[p]: s for p, s in zip(state.players, state.scores)},
            "replayed_over": state.stage == "over",
            "replayed_winners": [state.names[state.players[q]] for q in state.winners],
            "steps": [s.__dict__ for s in tablet.steps], "reached": dict(tablet.reached),
            "played_effects": dict(tablet.played_effects), "answered": dict(tablet.answered),
            "seconds": seconds, "problems": tablet.problems, "setup_taps": setup_taps, "taps_total": len(d.taps),
            "frames": {p: list(f) for p, f in phones.frames.items()}, "page_errors": list(phones.errors),
            "own": {p: {k: sorted(v) for k, v in o.items()} for p, o in tablet.own.items()},
            "page_checks": tablet.page_checks, "names": dict(PLAYERS),
            "faces": {f: o.label for f, o in tablet.faces.options.items()}})
    finally:
        phones.close()
