"""Scenarios for app_driver.py: what a table does, tap by tap."""

from __future__ import annotations

from words_match import said

PATIENCE = 45.0  # seconds a wait may last on a loaded machine (2 cores, other tests beside it)


def _described(what) -> str:
    """What a wait waits for, in words: its docstring, else its source line (never `<lambda>`)."""
    if what.__doc__:
        return what.__doc__
    import inspect

    try:
        source = inspect.getsource(what).strip()
    except (OSError, TypeError):
        return repr(what)
    start = source.find("lambda")
    if start < 0:
        return " ".join(source.split())[:300]
    body, depth = source[start + len("lambda") :].lstrip(" :"), 0
    for i, ch in enumerate(body):  # the lambda ends at a "," or ")" of the call around it
        depth += (ch in "([{") - (ch in ")]}")
        if depth < 0 or (depth == 0 and ch == ","):
            body = body[:i]
            break
    return " ".join(body.split())[:300]


def _seen(d) -> str:
    """What the app showed when a wait gave up: its screen, the dialog on top, what the game asks,
    the last message."""
    try:
        table = d.model.table
        asked = table.asked().kind if table is not None else "no game open"
        dialog = d.dialog()
        return (
            f"screen {d.current!r}, dialog {type(dialog).__name__ if dialog else None}, asked {asked}, "
            f"message {getattr(d.model, 'message', '')!r}"
        )
    except Exception as exc:  # the report must not hide the timeout
        return f"(could not read the app: {exc!r})"


POLL_SECONDS = 0.02  # between two looks at what a thread, a phone or the tower changes


def _poll(looks: int):
    """What a wait on the world outside the app yields at its look number `looks`: the first
    lets the app settle (app_driver), the next sleep POLL_SECONDS of real time (the answer
    comes from another thread; turning the app's loop meanwhile only burns the CPU another
    test needs)."""
    if not looks:
        return None
    from app_driver import real

    return real(POLL_SECONDS)


def _wait_for(d, what, seconds=PATIENCE, step=0.05, saw=None):
    """Yield until what() is true; on the deadline (real time, not frames), fail saying what was
    waited for and what was seen last (saw(), else the app's screen and question)."""
    import time

    deadline, looks = time.monotonic() + seconds, 0
    while not what():
        if time.monotonic() > deadline:
            last = saw() if saw is not None else _seen(d)
            raise AssertionError(f"waited {seconds:.0f} s for {_described(what)}; saw last: {last}")
        yield _poll(looks)
        looks += 1


def _castillo_entered(d, pid, count, seconds=PATIENCE, step=0.05):
    """Yield until the table screen's placement shows `count` in the Castillo: the tower's drops
    reach the table first and its screen a frame or so later."""
    import time

    deadline, looks = time.monotonic() + seconds, 0
    while (seen := d.screen("table").entry.get("castillo", 0)) != count:
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{pid}: the table screen's placement shows {seen} in the Castillo "
                f"{seconds:.0f} s after the tower's drops, not {count}"
            )
        yield _poll(looks)
        looks += 1


def _pick_secret_discs(d, regions):
    """Two taps a player: their name, then the region (nothing of the pick stays on screen)."""
    for pid, region in regions.items():
        name = d.model.name(pid)
        d.tap(said("{who}: secret disc", who=name))
        yield 0.1
        if pid == list(regions)[0]:
            yield 0.1
            d.shot("private_pick_regions")
        d.tap(d.model.area_name(region), exact=True)
        yield 0.1


def _reveal_cards(d, wanted):
    """The sheet of turned-up cards opens by itself: one tap per stack, then Reveal."""
    from words_match import says

    from companion.ui.dialogs.reveal_cards import RevealCards

    yield from _wait_for(d, lambda: any(isinstance(w, RevealCards) for w in d.widgets()))
    yield 0.2
    sheet = next(w for w in d.widgets() if isinstance(w, RevealCards))
    for stack, words in zip(sheet.stacks, wanted):
        shown = [b.text for b in sheet.buttons[stack].values()]
        button = next((b for b in sheet.buttons[stack].values() if says(b.text, words, any_case=True)), None)
        assert button is not None, f"no card saying {words!r} on stack {stack}: {shown}"
        d.tap_widget(button)
        yield 0.05
    d.shot("tracking_reveal")
    d.tap("Reveal", exact=True)
    yield 0.2


def _replenish_custom(d, n):
    """The other replenishment: the stepper starts at the full number; -1 down to n."""
    d.tap("Other replenishment")
    yield 0.1
    most = d.screen("table").prompt.steppers["__provinces__"][2]
    for _ in range(most - n):
        d.tap("from the provinces: -1")
        yield 0.05
    d.tap("Confirm", exact=True)
    yield 0.1
    if n == 0:
        d.tap("Yes", exact=True)
        yield 0.1


def _walk_scoring(d, name):
    scoring = d.screen("scoring")
    yield from _wait_for(d, lambda: d.current == "scoring" and scoring.record is not None)
    yield 0.2  # let the layout place the new buttons before tapping them
    d.shot(f"{name}_summary")
    d.tap("Next region")
    yield 0.2
    d.shot(f"{name}_region")
    d.tap("Done: back to the table")
    yield 0.1


def scoring_only_short_game(d):
    """A whole short game in scoring-only mode with the simulated tower."""
    yield 0.3
    d.shot("home")
    d.tap("New game")
    yield 0.2
    setup = d.screen("setup")
    setup.mode, setup.variant = "Scoring only", "Short game (6 rounds)"
    setup.king = "Castilla la Nueva"
    homes = {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla", "blue": "Valencia"}
    for colour, home in homes.items():
        setup.rows[colour].home = home
    setup.rows["red"].name = "Ana"
    yield 0.2
    d.shot("setup")
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table")
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")
    table = d.screen("table")
    # Round 2: cubes thrown into the tower: the Castillo pulses, no count is shown
    sim = {getattr(w, "sim_colour", None): w for w in table.ids.bar.ids.sim_drops.children}
    for colour in ("red", "red", "blue", "uncertain"):
        d.tap_widget(sim[colour])
        yield 0.05
    yield from _wait_for(d, lambda: d.model.public.get("drops_total") == 4)
    yield from _wait_for(d, lambda: bool(table.ids.bar.drops_text))
    d.shot("table")
    d.tap("to check")
    yield 0.2
    d.shot("tower_panel")
    d.tap("Green", exact=True)
    yield 0.1
    d.tap("Close")
    yield 0.1
    assert d.model.table.hidden_tallies() == {"red": 2, "yellow": 0, "green": 1, "blue": 1}
    # The phones panel: a QR code per seat, nobody joined yet
    d.tap("Phones", exact=True)
    yield 0.3
    d.shot("phones_panel")
    assert d.model.phones and all(not s["joined"] for s in d.model.phone_seats.values())
    d.tap("Close")
    yield 0.1
    # Enter the board: Ana (red) adds two Caballeros in Castilla la Vieja
    d.tap("Enter the board")
    yield 0.1
    d.tap(said("{who}: add", who="Ana"))
    d.tap_area("castilla_la_vieja")
    d.tap_area("castilla_la_vieja")
    yield 0.1
    d.shot("board_entry")
    d.tap("Save the board")
    yield 0.1
    assert d.model.public["game"]["regions"]["castilla_la_vieja"] == {"red": 2}
    d.tap("Round finished")
    yield 0.1
    # Round 3: a special scoring of the Castillo (from the tower's count), then the general scoring
    d.tap("Special scoring")
    yield 0.1
    d.tap("the Castillo", exact=True)
    yield from _walk_scoring(d, "special")
    d.tap("Round finished")
    yield 0.1
    assert d.ask().kind == "secret_disc"
    d.shot("discs_waiting")
    yield from _pick_secret_discs(d, {"red": "valencia", "yellow": "galicia", "green": "sevilla", "blue": "aragon"})
    d.tap("Open the Castillo")
    yield 0.2
    d.shot("castillo_open")
    scoring = d.screen("scoring")
    assert scoring.counts == {"red": 2, "yellow": 0, "green": 1, "blue": 1}
    d.tap("Counts match")
    yield from _walk_scoring(d, "general")
    assert d.model.public["game"]["regions"]["valencia"].get("red") == 2  # moved from the Castillo
    assert d.model.table.hidden_tallies() == {"red": 0, "yellow": 0, "green": 0, "blue": 0}
    # Rounds 5 and 6, then 8 and 9: two more general scorings with empty Castillos
    for _ in range(2):
        d.tap("Round finished")
        yield 0.1
        d.tap("Round finished")
        yield 0.1
        yield from _pick_secret_discs(d, {"red": "galicia", "yellow": "galicia", "green": "galicia", "blue": "galicia"})
        d.tap("Open the Castillo")
        yield 0.2
        d.tap("Counts match")
        yield from _wait_for(d, lambda: d.screen("scoring").record is not None)
        yield 0.2
        d.tap("Done")
        yield 0.2
    yield from _wait_for(d, lambda: d.current == "end")
    yield 0.3
    d.shot("end")
    public = d.model.public["game"]
    d.facts = {
        "scores": {p["id"]: p["score"] for p in public["players"]},
        "winners": public["winners"],
        "scorings": len(public["scorings"]),
    }


def _start_tracked_three_player_game(d):
    """New game: Red, Yellow and Green (homes Galicia, Aragón, Sevilla), the King in Castilla la
    Nueva, full tracking, the simulated tower connected."""
    yield 0.3
    d.tap("New game")
    yield 0.2
    setup = d.screen("setup")
    setup.mode, setup.variant, setup.king, setup.start = (
        "Full tracking",
        "Full game (9 rounds)",
        "Castilla la Nueva",
        "Red",
    )
    for colour, home in {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla"}.items():
        setup.rows[colour].home = home
    setup.rows["blue"].plays = False
    yield 0.2
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table")
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")


def tracking_full_round(d):
    """Round 1 of a tracked 3-player game, every step entered by taps."""
    yield from _start_tracked_three_player_game(d)
    table = d.screen("table")
    sim = {getattr(w, "sim_colour", None): w for w in table.ids.bar.ids.sim_drops.children}
    # Nothing entered yet: the sheet put aside, the greyed Undo tapped says so; the sheet again
    yield from _wait_for(d, lambda: d.has_button("Not now"))
    d.tap("Not now", exact=True)
    yield 0.2
    d.tap_widget(table.ids.bar.ids.undo)
    yield 0.1
    undo_said = table.message
    d.tap("Turn up the cards", exact=True)
    # Reveal: one tap per stack in the sheet that opens by itself
    yield from _reveal_cards(d, ("any 3 Caballeros", "King is Angry", "Score the Castillo", "relocate your Grande"))
    assert d.ask().kind == "play_power_card", d.model.message
    # A cube thrown in during the power cards: flagged, and dismissed by a person
    d.tap_widget(sim["yellow"])
    yield from _wait_for(d, lambda: bool(table.ids.bar.drops_text))
    said_why = [undo_said]
    for value in ("13", "12", "11"):  # Red, Yellow, Green in seat order
        d.tap(value, exact=True)
        yield 0.1
        if value == "13":  # Yellow next: Red's 13 greyed out, and a tap on it says why
            greyed = next(b for b in table.ids.actions.walk() if getattr(b, "disabled", False) and b.text == "13")
            d.tap_widget(greyed)
            yield 0.1
            said_why.append(table.message)
            d.shot("tracking_greyed_card_says_why")
    d.shot("tracking_power_done")
    d.tap("to check")
    yield 0.2
    d.tap("Not a Caballero")
    yield 0.1
    d.tap("Close")
    yield 0.1
    assert d.model.table.hidden_tallies()["yellow"] == 0
    # Red (13): replenish 2, take the Castillo card, throw 2 into the tower and place 1
    assert d.ask().kind == "replenish" and d.ask().players == ("red",)
    d.tap("Score the Castillo")  # full replenishment and the card: one tap
    yield 0.1
    assert d.ask().kind == "turn_action", d.model.message
    for _ in range(2):
        d.tap_widget(sim["red"])
        yield 0.1
    yield from _wait_for(d, lambda: d.model.table.castillo_prefill("red") == 2)
    yield from _castillo_entered(d, "red", 2)
    d.tap_area("castilla_la_nueva")  # the King's region: nothing placed, and said why
    yield 0.1
    said_why.append(table.message)
    d.tap_area("castilla_la_vieja")
    yield 0.2
    d.shot("tracking_placement")
    d.tap("Confirm", exact=True)
    yield 0.1
    assert d.model.public["game"]["regions"]["castilla_la_vieja"] == {"red": 1}, d.model.message
    d.tap("Do the special action")
    yield 0.1
    # The Castillo scoring card: lifted and counted as at a general scoring (the tower's 2 red)
    d.tap("Open the Castillo")
    yield from _wait_for(d, lambda: d.current == "scoring")
    yield 0.2
    d.shot("tracking_castillo_count")
    d.tap("Counts match: score the Castillo")
    yield from _walk_scoring(d, "tracking_castillo_scoring")
    # Yellow (12): the Grande card (no replenishment), special first, then place in two regions
    yield from _replenish_custom(d, 0)
    d.tap("relocate your Grande")
    yield 0.1
    d.tap("Do the special action")
    yield 0.1
    d.tap_area("cataluna")
    yield 0.1
    d.tap_area("valencia")
    d.tap_area("valencia")
    yield 0.1
    d.tap("Confirm", exact=True)
    yield 0.1
    assert d.model.public["game"]["regions"]["valencia"] == {"yellow": 2}, d.model.message
    # Green (11): the Intrigue card moves Red's Caballero to Granada; an undo on the way
    yield from _replenish_custom(d, 1)
    d.tap("any 3 Caballeros")
    yield 0.1
    d.tap("Do the special action")
    yield 0.1
    d.tap_area("castilla_la_vieja")
    yield 0.1
    d.shot("tracking_move")
    d.tap_area("granada")
    yield 0.1
    assert d.model.public["game"]["regions"]["granada"] == {"red": 1}, d.model.message
    d.tap("Undo")
    yield 0.1
    assert not d.model.public["game"]["regions"]["granada"]
    d.tap_area("castilla_la_vieja")
    yield 0.1
    d.tap_area("granada")
    yield 0.1
    d.tap("Finished moving")
    yield 0.1
    d.tap_area("granada")  # the placement is the turn's last step: the tap that fills it places it
    yield 0.2
    game = d.model.public["game"]
    assert game["round"] == 2 and d.ask().kind == "reveal_action_cards", (game["round"], d.ask().kind)
    d.shot("tracking_round_2")
    d.facts = {
        "round": game["round"],
        "regions": game["regions"],
        "said_why": said_why,
        "castillo": d.model.table.recorded_castillo(),
        "tallies": d.model.table.hidden_tallies(),
    }


class _Phones:
    """Phones in Chromium, driven from their own thread (Playwright's sync API stays
    on the thread that started it; the Kivy loop must not block)."""

    def __init__(self, shots):
        import queue
        import threading

        self.shots = shots
        self.jobs, self.done = queue.Queue(), queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        from playwright.sync_api import expect, sync_playwright

        pages = {}
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
            while True:
                job = self.jobs.get()
                if job is None:
                    browser.close()
                    return
                kind, pid, arg = job
                try:
                    if kind == "join":
                        ctx = browser.new_context(
                            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
                        )
                        ctx.set_default_timeout(30000)  # a loaded machine
                        page = pages[pid] = ctx.new_page()
                        page.goto(arg)
                        expect(page.locator("#conn")).to_have_text("live")
                    elif kind == "pick":
                        button = pages[pid].locator(f'#regions button[data-region="{arg}"]')
                        button.click()
                        expect(button).to_have_class("on")
                    elif kind == "expect_mine":
                        expect(pages[pid].locator("#mine")).to_contain_text(arg)
                    elif kind == "shot":
                        pages[pid].screenshot(path=str(self.shots / f"{arg}.png"))
                    self.done.put(("ok", job))
                except Exception as exc:  # handed back to the scenario, which fails with it
                    self.done.put((f"{type(exc).__name__}: {exc}", job))

    def do(self, d, kind, pid=None, arg=None, seconds=60.0):
        import time

        self.jobs.put((kind, pid, arg))
        deadline = time.monotonic() + seconds
        while self.done.empty():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"phone {pid} did not {kind} {arg} within {seconds:.0f} s; phone seats: {d.model.phone_seats}"
                )
            yield _poll(1)
        outcome, job = self.done.get()
        assert outcome == "ok", f"phone {job}: {outcome}"

    def close(self):
        # Let the browser shut down before the app does: a live Playwright thread at
        # interpreter exit crashes it.
        self.jobs.put(None)
        self.thread.join(20)


def phones_at_the_table(d):
    """Two players pick their Castillo destination on phones, two on the tablet; the
    tablet shows only who has chosen, then reveals all at once."""
    yield 0.3
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
    sim = {getattr(w, "sim_colour", None): w for w in d.screen("table").ids.bar.ids.sim_drops.children}
    for colour in ("red", "red", "yellow"):
        d.tap_widget(sim[colour])
        yield 0.1
    yield from _wait_for(d, lambda: sum(d.model.table.hidden_tallies().values()) == 3)
    phones = _Phones(d.shots)
    try:
        for pid in ("red", "yellow"):  # scanning the QR code = opening the seat's URL
            yield from phones.do(d, "join", pid, d.model.phones.seat_url(pid))
        # The tablet asks "Is this Ana's phone?" by itself: one tap each.
        yield from _wait_for(
            d,
            lambda: all(d.model.phone_seats[p]["awaiting"] for p in ("red", "yellow")),
            saw=lambda: f"phone seats {d.model.phone_seats}",
        )
        yield 0.3
        d.shot("phone_check")
        seats = lambda: f"phone seats {d.model.phone_seats}"
        for joined in (1, 2):  # one question at a time: the next shows once the last is answered
            yield from _wait_for(d, lambda: d.has_button("Yes"), saw=seats)
            # The question's rows are rebuilt after each answer: tap Yes once it is laid out and
            # stays put (a tap on a row still being laid out can land on its No, a new code)
            from whole_game_scenarios import _tap_found

            yield from _tap_found(d, lambda: d.button("Yes", exact=True))
            yield from _wait_for(
                d, lambda n=joined: sum(d.model.phone_seats[p]["joined"] for p in ("red", "yellow")) >= n, saw=seats
            )
        yield from _wait_for(
            d,
            lambda: all(
                d.model.phone_seats[p]["joined"] and d.model.phone_seats[p]["connected"] for p in ("red", "yellow")
            ),
            saw=lambda: f"phone seats {d.model.phone_seats}",
        )
        d.tap("Phones", exact=True)
        yield 0.3
        d.shot("phones_joined")
        d.tap("Close")
        yield 0.1
        d.tap("Round finished")
        yield 0.1
        d.tap("Round finished")
        yield 0.2
        yield from phones.do(d, "shot", "red", "phone_red_choosing")
        yield from phones.do(d, "pick", "red", "aragon")
        yield from phones.do(d, "pick", "red", "valencia")  # changed her mind: still allowed
        yield from phones.do(d, "pick", "yellow", "galicia")
        table_screen = d.screen("table")
        yield from _wait_for(d, lambda: "Chosen: Red, Yellow" in table_screen.prompt_hint)
        yield 0.2
        d.shot("tablet_two_phones_chosen")
        hint = table_screen.prompt_hint
        assert "Valencia" not in hint and "Galicia" not in hint and "Aragón" not in hint
        yield from _pick_secret_discs(d, {"green": "sevilla", "blue": "granada"})
        d.tap("Open the Castillo")
        yield 0.2
        d.tap("Counts match")
        yield from _wait_for(d, lambda: d.screen("scoring").record is not None)
        yield 0.2
        d.shot("phones_general_scoring")
        yield from phones.do(d, "expect_mine", "red", "Valencia")
        yield from phones.do(d, "shot", "red", "phone_red_revealed")
        record = d.model.table.free.scoring_log[-1]
        d.facts = {"transfers": record.transfers, "title": record.title}
    finally:
        phones.close()
