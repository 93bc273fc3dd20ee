"""A game night in one app process (issue 11, item 10), beside a bare Kivy window in the same run.

Plays games back to back through the real app under Xvfb: the setup screen's "Start the game",
turns entered by tapping the buttons and map areas the prompt offers (an input with no button of
its own goes through the model as its screen would send it), action cards turned up in their
dialog, the simulated tower's drops (pty -> bridge -> table), phones joined over plain HTTP and
websockets that pick their own secret discs, a spectator's status socket, each scoring walked
through and its outcome dialogs closed, to the end screen and its "New game".

Reported per game, after a garbage collection at each game's end: RSS, tracemalloc, open file
descriptors, threads (Python's and the process's), and the finished games' objects still alive
(tables, phone servers, tower links): the growth per game is the slope of a least-squares line
over the games after the first (which pays for caches that are filled once). Also, over the whole
night: each loop iteration's busy time (time from the clock's wake-up to its next sleep), the
frame after each input, and how long "Start the game" keeps the loop busy.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_soak.py            # 20 games
    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_soak.py --quick    # 6 games

The baseline is a bare Kivy window (one Label) in its own process, sampled the same way for as
many "games" of one second each: what a process that does nothing grows by.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STALL_MS = 150.0  # a loop iteration busy longer than this is a stall (goal: none)
TAP_GOAL_MS = 100.0  # an input's frame, p95
NEW_GAME_GOAL_MS = 150.0


# ---- what a process holds ----------------------------------------------------------------


def process_sample() -> dict:
    """RSS, descriptors and threads of this process, from /proc."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return {
        "rss_kb": pages * os.sysconf("SC_PAGE_SIZE") // 1024,
        "fds": len(os.listdir("/proc/self/fd")),
        "threads": len(os.listdir("/proc/self/task")),
        "py_threads": threading.active_count(),
    }


def slope(values: list[float]) -> float:
    """Least-squares growth per step."""
    n = len(values)
    if n < 2:
        return 0.0
    mx, my = (n - 1) / 2, statistics.fmean(values)
    return sum((i - mx) * (v - my) for i, v in enumerate(values)) / sum((i - mx) ** 2 for i in range(n))


def growth(samples: list[dict], key: str, settled: bool = False) -> float:
    """Growth per game, the first game left out (caches filled once); settled: over the second
    half of the night only (what a longer night would keep adding)."""
    return slope([s[key] for s in samples[len(samples) // 2 if settled else 1 :]])


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


# ---- the loop, timed ---------------------------------------------------------------------


class LoopTimer:
    """Times each loop iteration's work: from the clock's wake-up to its next sleep (input,
    clock callbacks, layout, drawing, flip), and apart the time the flip takes (the GPU's drawing,
    done here by Mesa's llvmpipe on the CPU) and the UI thread's own CPU time (on a machine shared
    with other work, the wall time also holds the waits for a free core). An input's frame: from the
    input to the end of the first iteration that flipped the window after it (or the end of its own iteration when
    nothing on screen changed)."""

    def __init__(self):
        from kivy.clock import Clock
        from kivy.core.window import Window

        self.clock = Clock
        self.busy_ms: list[float] = []
        self.app_busy_max = 0.0  # the longest iteration, those in which the bench samples memory left out
        self.stalls: list[tuple[float, str]] = []
        self.input_ms: dict[str, list[float]] = {}
        self.input_log: list[tuple[float, str, str]] = []  # (ms, kind, what the driver was doing)
        self.doing = "starting"
        self._woke = None
        self._input = None  # (kind, t0, flipped)
        self.flip_ms: list[float] = []  # drawing on the GPU (here Mesa's llvmpipe, on the CPU), per frame
        self.work_ms: list[float] = []  # each iteration's busy time less its drawing: the app's own work
        self.cpu_ms: list[float] = []  # the UI thread's CPU time in each iteration (no waiting for a core)
        self._drawing = 0.0
        self._idle = Clock.idle
        Clock.idle = self._timed_idle
        Window.bind(on_flip=self._flipped)
        flip = Window.flip

        def timed_flip():
            t0 = time.perf_counter()
            flip()
            self.flip_ms.append((time.perf_counter() - t0) * 1000)
            self._drawing += self.flip_ms[-1]

        Window.flip = timed_flip

    def _timed_idle(self):
        now = time.perf_counter()
        cpu_now = time.thread_time()
        if self._woke is not None:
            busy = (now - self._woke) * 1000
            self.busy_ms.append(busy)
            self.work_ms.append(busy - self._drawing)
            self.cpu_ms.append((cpu_now - self._woke_cpu) * 1000)
            if not self.doing.startswith("bench:"):
                self.app_busy_max = max(self.app_busy_max, busy)
            if busy > STALL_MS:
                self.stalls.append((round(busy, 1), round(busy - self._drawing, 1), self.doing))
        self._drawing = 0.0
        if self._input is not None:
            kind, t0, flipped, doing = self._input
            if flipped is not None or now - t0 > 0.5:
                self.input_ms.setdefault(kind, []).append(((flipped or now) - t0) * 1000)
                self.input_log.append((round(self.input_ms[kind][-1], 1), kind, doing))
                self._input = None
        result = self._idle()
        self._woke, self._woke_cpu = time.perf_counter(), time.thread_time()
        return result

    def _flipped(self, *args) -> None:
        if self._input is not None and self._input[2] is None:
            kind, t0, _, doing = self._input
            self._input = (kind, t0, time.perf_counter(), doing)

    def input_made(self, kind: str) -> None:
        self._input = (kind, time.perf_counter(), None, self.doing)

    def busy_since(self, start: int) -> list[float]:
        return self.busy_ms[start:]


# ---- phones: plain HTTP + websockets from a thread of their own ------------------------------


class Phones:
    """Phones that join seats, stay connected and pick their own secret discs, plus one spectator."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bench-phones", daemon=True)
        self.thread.start()
        self.tasks: list = []
        self.picks = 0
        self.errors: list[str] = []

    def run(self, coro, timeout=10):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def join(self, base: str, url: str, pid: str, seed: int) -> None:
        self.run(self._join(base, url, pid, random.Random(seed)))

    def spectate(self, base: str) -> None:
        self.run(self._spectate(base))

    async def _join(self, base: str, url: str, pid: str, rng: random.Random) -> None:
        import aiohttp

        session = aiohttp.ClientSession()
        code = url.rsplit("/", 1)[1]
        async with session.post(base + "/api/join", json={"code": code}) as resp:
            credential = (await resp.json())["credential"]
        ws = await session.ws_connect(base + "/ws", compress=0)
        await ws.send_json({"type": "hello", "credential": credential})
        self.tasks.append((session, ws, asyncio.ensure_future(self._phone(ws, credential, pid, rng))))

    async def _phone(self, ws, credential: str, pid: str, rng: random.Random) -> None:
        import aiohttp

        sent_for = None
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            m = json.loads(msg.data)
            if os.environ.get("SOAK_DEBUG"):
                print("phone", pid, m.get("type"), (m.get("question") or {}).get("state"), file=sys.stderr, flush=True)
            q = m.get("question") if m.get("type") == "view" else None
            if q and q["state"] == "choose" and q.get("pick") is None and q["regions"] and sent_for != q["id"]:
                sent_for = q["id"]
                await ws.send_json(
                    {
                        "type": "pick",
                        "credential": credential,
                        "question": q["id"],
                        "region": rng.choice(q["regions"])["id"],
                    }
                )
                self.picks += 1
            elif m.get("type") == "error":
                self.errors.append(f"{pid}: {m.get('message')}")

    async def _spectate(self, base: str) -> None:
        import aiohttp

        session = aiohttp.ClientSession()
        ws = await session.ws_connect(base + "/ws/status", compress=0)

        async def read():
            async for _ in ws:
                pass

        self.tasks.append((session, ws, asyncio.ensure_future(read())))

    def close_all(self) -> None:
        async def close():
            for session, ws, task in self.tasks:
                await ws.close()
                task.cancel()
                await session.close()
            self.tasks.clear()

        self.run(close())

    def stop(self) -> None:
        self.close_all()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# ---- the night, driven through the app ----------------------------------------------------------


def _profiler(what: str):
    """SOAK_PROFILE=start (each "Start the game" and its first frame) or =play (the second game's
    inputs): that, profiled with cProfile on stderr, to find what keeps the loop busy."""
    if os.environ.get("SOAK_PROFILE") != what:
        return None
    import cProfile

    profile = cProfile.Profile()
    profile.enable()
    return profile


def _profiled(profile, title: str) -> None:
    if profile is not None:
        import pstats

        profile.disable()
        print(f"---- {title}", file=sys.stderr)
        pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(35)


def _observers(obj) -> int:
    """Callbacks bound to any property or event of a Kivy object (dead weak ones included:
    Kivy drops those only when the event next fires, so they pile up on long-lived objects)."""
    names = list(obj.properties()) + [e for e in obj.events()]
    return sum(len(obj.get_property_observers(name)) for name in names)


def _event_dict(event) -> dict:
    return event.model_dump(mode="json") if hasattr(event, "model_dump") else dict(event)


class Night:
    def __init__(self, app, games: int, seed: int, phones: int, trace: bool, mode: str):
        from tests.companion.ui.app_driver import Driver

        self.app, self.games, self.seed, self.n_phones, self.trace, self.mode = app, games, seed, phones, trace, mode
        self.d = Driver(app, Path(tempfile.mkdtemp(prefix="soak-shots-")))
        self.model = app.model
        self.timer = LoopTimer()
        self.phones = Phones() if phones else None
        self.samples: list[dict] = []
        self.new_game: list[dict] = []
        self.inputs = 0
        self.drops = 0
        # What exists now, before the app freezes its startup objects (companion/ui/platform/collector.py):
        # gc.get_objects() leaves frozen ones out, and bindings may pile up on these.
        import weakref

        from kivy.event import EventDispatcher

        self._startup = [weakref.ref(o) for o in gc.get_objects() if issubclass(type(o), EventDispatcher)]

    # -- helpers --

    def tap(self, text: str, exact: bool = False, kind: str = "tap") -> None:
        self.timer.input_made(kind)
        self.d.tap(text, exact)

    def dialogs(self) -> list:
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        return [w for w in Window.children if isinstance(w, ModalView)]

    def wait_for(self, what, seconds=10.0):
        waited = 0.0
        while not what():
            if waited > seconds:
                raise AssertionError(f"waited {seconds} s for {what.__doc__ or what}")
            yield 0.05
            waited += 0.05

    # -- one game --

    def start_game(self, number: int):
        d = self.d
        yield from self.wait_for(lambda: d.has_button("New game"))
        self.tap("New game")
        yield 0.1
        setup = d.screen("setup")
        rng = random.Random(f"{self.seed}:{number}:setup")
        mode = {"tracking": "Full tracking", "scoring": "Scoring only"}.get(self.mode) or rng.choice(
            ["Full tracking", "Full tracking", "Scoring only"]
        )
        setup.mode, setup.variant, setup.start = mode, "Short game (6 rounds)", "Red"
        setup.tower = "Simulated (on-screen drops)"
        for colour, row in setup.rows.items():
            row.plays = colour in ("red", "yellow", "green", "blue")
            row.name = f"{colour.title()}{number}"
        setup.draw_regions(rng)
        yield 0.1
        first = len(self.timer.busy_ms)
        self.timer.doing = "start the game"
        profile = _profiler("start")
        self.tap("Start the game", kind="start the game")
        yield 0.0  # the table screen's first frame
        _profiled(profile, f"start game {number}")
        yield from self.wait_for(lambda: d.current == "table")
        yield 0.3
        busy = self.timer.busy_since(first)
        self.new_game.append(
            {"longest_iteration_ms": round(max(busy), 1), "shown_after_ms": None, "iterations": len(busy)}
        )
        self.new_game[-1]["shown_after_ms"] = round(self.timer.input_ms["start the game"][-1], 1)
        yield from self.wait_for(lambda: (self.model.tower or {}).get("state") == "connected")
        if self.phones and self.model.phones:
            self.timer.doing = "phones join"
            base = f"http://127.0.0.1:{self.model.phones.port}"
            for i, pid in enumerate(self.model.table.players[: self.n_phones]):
                url = self.model.phones.seat_url(pid)
                if url:
                    self.phones.join(base, url, pid, hash((self.seed, number, i)))
            self.phones.spectate(base)

    def step(self, rng: random.Random):
        """One input, or closing what is open; False once the game is over."""
        d, model = self.d, self.model
        for dialog in self.dialogs():
            self.timer.doing = f"dialog {type(dialog).__name__}"
            from kivy.uix.button import Button

            buttons = {w.text: w for w in d._walk(dialog) if isinstance(w, Button) and d.visible(w)}
            for text in ("Yes", "Done", "Close", "Not now", "Cancel"):
                if text in buttons:
                    if list(buttons[text].pos) == [0, 0]:
                        return True  # just made: not laid out yet (a tap now would land elsewhere)
                    self.timer.input_made("tap")
                    d.tap_widget(buttons[text])
                    return True
            if os.environ.get("SOAK_DEBUG"):
                print(
                    "dismissed",
                    type(dialog).__name__,
                    [(w.text, d.visible(w)) for w in d._walk(dialog) if isinstance(w, Button)],
                    file=sys.stderr,
                    flush=True,
                )
            dialog.dismiss()
            return True
        if d.current == "end":
            return False
        if d.current == "scoring":
            self.timer.doing = "scoring pages"
            scoring = d.screen("scoring")
            if scoring.record is None and (scoring.message or model.message):
                return self._lower_count(scoring, scoring.message or model.message)
            if scoring.record is not None:
                self.tap("Done: back to the table")
            else:  # "Counts match: ..." or, once corrected, "Use these counts: ..."
                self.tap("Counts match" if d.has_button("Counts match") else "Use these counts")
            return True
        table = model.table
        ask = table.asked()
        if ask.kind == "game_over":
            return False
        waiting = model.public.get("drops_waiting") or []
        roll = rng.random()
        if roll < 0.10 and model.tower_link and model.tower_link.sim:
            self.timer.doing = "tower drop"
            model.simulate_drop(rng.choice(list(table.players) + ["uncertain"]))
            self.drops += 1
            return True
        if waiting and roll < 0.5:
            self.timer.doing = "answer a drop"
            drop = waiting[0]
            answer = rng.choice(list(table.players) + ["dismiss"] + (["keep"] if drop["status"] == "flagged" else []))
            self.timer.input_made("answer a drop")
            model.answer_drop(drop["id"], answer)
            return True
        self.timer.doing = ask.kind
        self.inputs += 1
        if ask.kind == "secret_disc" and self.phones:
            joined = [p for p in ask.players if (model.phone_seats.get(p) or {}).get("joined")]
            self.phone_waits = getattr(self, "phone_waits", 0) + 1
            if joined and self.phone_waits < 100:
                return True  # a phone picks it: let it
        self.phone_waits = 0
        prompt = model.prompt
        if prompt and any(c.action == "open_castillo" for c in prompt.choices):
            self.tap("Open the Castillo")
            return True
        if ask.kind == "reveal_action_cards":
            return self._reveal(rng, ask)
        if table.mode == "tracking":
            from engine.playout import random_event

            event = _event_dict(random_event(rng, ask))
        else:
            from companion.scripted import _free_event

            event = _event_dict(_free_event(rng, table, ask))
        self._send(event)
        return True

    def _lower_count(self, scoring, refusal: str) -> bool:
        """The table refused the tower's count (the drops here are random, so a colour can hold more
        cubes than it has Caballeros): take one off the colour it names, as a person would, with "-"."""
        from kivy.uix.button import Button

        minus = [w for w in self.d._walk(scoring) if isinstance(w, Button) and w.text == "-" and self.d.visible(w)]
        minus.sort(key=lambda w: -w.to_window(*w.pos)[1])  # rows in seat order, top down
        players = list(self.model.table.players)
        named = next((i for i, p in enumerate(players) if refusal.startswith(self.model.name(p))), None)
        if named is None or len(minus) != len(players):
            raise AssertionError(f"cannot correct the Castillo count: {refusal}")
        self.timer.input_made("tap")
        self.d.tap_widget(minus[named])
        self.model.message = scoring.message = ""
        return True

    def _send(self, event: dict) -> None:
        """The button or map area that makes this input, else the model as a screen would."""
        prompt, d = self.model.prompt, self.d
        if prompt is not None:
            for choice in prompt.choices:
                if choice.event is not None and choice.enabled and _event_dict(choice.event) == event:
                    try:
                        button = d.button(choice.label, exact=True)
                    except AssertionError:
                        break
                    self.timer.input_made("tap")
                    d.tap_widget(button)
                    return
            if prompt.map_mode == "pick" and prompt.on_area:
                for area in prompt.areas:
                    if _event_dict(prompt.on_area(area)) == event and d.current == "table":
                        self.timer.input_made("tap")
                        d.tap_area(area)
                        return
        self.timer.input_made("input")
        self.model.submit(event)

    def _reveal(self, rng: random.Random, ask) -> bool:
        """Turn up the cards in their dialog (spinners), as the table does."""
        from kivy.uix.spinner import Spinner

        from engine.playout import random_event

        event = _event_dict(random_event(rng, ask))
        prompt = self.model.prompt
        action = next((c for c in prompt.choices if c.action == "reveal_cards"), None) if prompt else None
        if action is None:
            self._send(event)
            return True
        self.tap(action.label, exact=True)
        spinners = [w for w in self.d.widgets() if isinstance(w, Spinner) and self.d.visible(w)]
        dialog = next((w for w in self.dialogs() if hasattr(w, "spinners")), None)
        if dialog is None or len(spinners) != len(event["cards"]):
            for w in self.dialogs():
                w.dismiss()
            self._send(event)
            return True
        free = dict(dialog.spinners)
        for cid in event["cards"]:  # each card belongs to one stack's spinner
            stack = next((k for k, sp in free.items() if cid in sp.ids_by_name.values()), None)
            if stack is None:  # not offered under its own name: as a screen would send it
                dialog.dismiss()
                self._send(event)
                return True
            spinner = free.pop(stack)
            spinner.text = next(name for name, c in spinner.ids_by_name.items() if c == cid)
        self.tap("Reveal", exact=True)
        return True

    def finish_game(self, number: int):
        yield from self.wait_for(lambda: self.d.current == "end" or self.d.has_button("Final standings"), 5)
        if self.d.current != "end":
            self.tap("Final standings")
            yield 0.1
        if self.phones:
            self.phones.close_all()
        yield 0.3
        self.timer.doing = "bench: sampling memory"  # gc.collect and a walk over every object: the bench's own
        self.sample(number)
        yield 0.0
        self.timer.doing = "end screen"

    def sample(self, number: int) -> None:
        import tracemalloc

        from kivy.clock import Clock
        from kivy.core.window import Window
        from kivy.event import EventDispatcher
        from kivy.uix.widget import Widget

        from companion.phones.server import PhoneServer
        from companion.table.authority import Table
        from companion.tower.connection import TowerConnection

        gc.collect()
        sample = {"game": number, **process_sample(), "inputs": self.inputs, "drops": self.drops}
        if self.trace:
            sample["traced_kb"] = tracemalloc.get_traced_memory()[0] // 1024
        alive = {"tables": Table, "phone_servers": PhoneServer, "tower_links": TowerConnection, "widgets": Widget}
        counts = dict.fromkeys(alive, 0)
        objects = gc.get_objects()
        seen = {id(o) for o in objects}
        objects += [o for o in (ref() for ref in self._startup) if o is not None and id(o) not in seen]
        for obj in objects:
            kind = type(obj)  # not isinstance: a dead weak proxy raises
            for key, cls in alive.items():
                if issubclass(kind, cls):
                    counts[key] += 1
        sample.update(counts)
        sample["window_bindings"] = _observers(Window)
        by_class: dict[str, int] = {}
        for obj in objects:
            if issubclass(type(obj), EventDispatcher):
                by_class[type(obj).__name__] = by_class.get(type(obj).__name__, 0) + _observers(obj)
        sample["bindings"] = sum(by_class.values())
        if os.environ.get("SOAK_DEBUG"):  # which kinds of object hold more bindings than after the last game
            last = getattr(self, "_by_class", {})
            print(
                "bindings grew",
                sorted(((v - last.get(k, 0), k) for k, v in by_class.items()), reverse=True)[:8],
                file=sys.stderr,
                flush=True,
            )
            self._by_class = by_class
        sample["clock_events"] = len(Clock.get_events())
        self.samples.append(sample)
        print(json.dumps(sample), file=sys.stderr, flush=True)

    def script(self):
        yield 0.3
        for number in range(self.games):
            yield from self.start_game(number)
            rng = random.Random(f"{self.seed}:{number}")
            profile = _profiler("play") if number == 1 else None
            seen, still = None, 0
            while self.step(rng):
                now = (len(self.model.table.records), self.d.current, len(self.dialogs()))
                still = still + 1 if now == seen else 0
                seen = now
                if still > 400:  # a driver that makes no progress is a bug here: say where
                    open_ = [type(w).__name__ for w in self.dialogs()]
                    raise AssertionError(
                        f"stuck at {self.model.table.asked().kind} on {self.d.current}: "
                        f"{self.model.message!r}, dialogs {open_}"
                    )
                if os.environ.get("SOAK_DEBUG"):
                    print(self.timer.doing, now, repr(self.model.message)[:80], file=sys.stderr, flush=True)
                yield 0.0
            _profiled(profile, f"play game {number}")
            yield from self.finish_game(number)
        if self.phones:
            self.phones.stop()
        self.d.tap("Back to the table")  # and leave the app as a table would: from its last game
        yield 0.2

    def result(self) -> dict:
        t = self.timer
        inputs = [ms for kind, v in t.input_ms.items() if kind != "start the game" for ms in v]
        return {
            "samples": self.samples,
            "new_game": self.new_game,
            "stalls": t.stalls,
            "iterations": len(t.busy_ms),
            "busy_p50_ms": quantile(t.busy_ms, 0.5),
            "busy_p99_ms": quantile(t.busy_ms, 0.99),
            "busy_max_ms": max(t.busy_ms),
            "app_busy_max_ms": t.app_busy_max,
            "input_frames": {k: v for k, v in t.input_ms.items()},
            "flip_p50_ms": quantile(t.flip_ms, 0.5),
            "flip_p95_ms": quantile(t.flip_ms, 0.95),
            "work_p50_ms": quantile(t.work_ms, 0.5),
            "work_p95_ms": quantile(t.work_ms, 0.95),
            "work_max_ms": max(t.work_ms),
            "work_stalls": sum(1 for w in t.work_ms if w > STALL_MS),
            "cpu_p50_ms": quantile(t.cpu_ms, 0.5),
            "cpu_p95_ms": quantile(t.cpu_ms, 0.95),
            "cpu_max_ms": max(t.cpu_ms),
            "cpu_stalls": sum(1 for w in t.cpu_ms if w > STALL_MS),
            "input_p50_ms": quantile(inputs, 0.5),
            "input_p95_ms": quantile(inputs, 0.95),
            "input_max_ms": max(inputs),
            "slowest_inputs": sorted(t.input_log, reverse=True)[:12],
            "phone_picks": self.phones.picks if self.phones else 0,
            "phone_errors": self.phones.errors[:5] if self.phones else [],
        }


def night_worker(result: Path, games: int, seed: int, phones: int, trace: bool, mode: str) -> None:
    """Inside one app process: the whole night, then its figures as JSON."""
    if trace:
        import tracemalloc

        tracemalloc.start(1)
    import traceback

    from companion.ui.app import ElGrandeApp  # first: it sets Kivy's options

    # isort: split
    from kivy.clock import Clock

    out: dict = {}

    def drive(app):
        night = Night(app, games, seed, phones, trace, mode)
        steps = night.script()

        def step(dt):
            try:
                wait = next(steps)
            except StopIteration:
                out.update(status="ok", **night.result())
                app.stop()
                return
            except Exception as exc:
                out.update(
                    status="failed",
                    error=f"{type(exc).__name__}: {exc}",
                    trace=traceback.format_exc(),
                    **(night.result() if night.timer.busy_ms else {}),
                )
                app.stop()
                return
            Clock.schedule_once(step, wait)

        Clock.schedule_once(step, 0.3)

    app = ElGrandeApp(driver=drive)
    app.run()
    result.write_text(json.dumps(out))


# ---- the baseline: a bare Kivy window, sampled the same way ---------------------------------------

BARE_KIVY = """
import gc, json, os, sys, threading
os.environ["KIVY_NO_ARGS"] = "1"; os.environ["KIVY_LOG_MODE"] = "PYTHON"
import logging; logging.disable(logging.CRITICAL)
import tracemalloc; tracemalloc.start(1)
sys.path.insert(0, sys.argv[3])
from bench_soak import process_sample
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.label import Label
samples = []
class Bare(App):
    def load_kv(self, *args, **kwargs):
        pass
    def build(self):
        Clock.schedule_interval(self.sample, 1.0)
        return Label(text="bare")
    def sample(self, dt):
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] // 1024
        samples.append({"game": len(samples), **process_sample(), "traced_kb": traced})
        if len(samples) >= int(sys.argv[2]):
            open(sys.argv[1], "w").write(json.dumps(samples))
            self.stop()
Bare().run()
"""


def bare_baseline(games: int) -> list[dict]:
    out = Path(tempfile.mkstemp(suffix=".json")[1])
    subprocess.run(
        [sys.executable, "-c", BARE_KIVY, str(out), str(games), str(Path(__file__).parent)],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    return json.loads(out.read_text())


def run_night(games: int, seed: int, phones: int, trace: bool, mode: str = "mixed", timeout: float = 1800) -> dict:
    result = Path(tempfile.mkstemp(suffix=".json")[1])
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "ELGRANDE_DATA_DIR": data, "PYTHONPATH": str(ROOT), "ELGRANDE_PHONE_PORT": "0"}
        run = subprocess.run(
            [
                sys.executable,
                __file__,
                "--worker",
                str(result),
                str(games),
                str(seed),
                str(phones),
                "1" if trace else "0",
                mode,
            ],
            cwd=ROOT,
            env=env,
            timeout=timeout,
            stderr=subprocess.PIPE,
            text=True,
        )
    out = json.loads(result.read_text()) if result.read_text() else {}
    if run.returncode or out.get("status") != "ok":
        raise RuntimeError(
            f"night failed ({run.returncode}): {out.get('error')}\n{out.get('trace', '')}\n{run.stderr[-3000:]}"
        )
    return out


def report(night: dict, bare: list[dict]) -> list[str]:
    s = night["samples"]
    lines = [
        f"{len(s)} games in one app process ({s[-1]['inputs']} inputs, {s[-1]['drops']} tower drops, "
        f"{night['phone_picks']} phone picks)"
    ]
    for key, unit, div in (
        ("rss_kb", "MiB", 1024),
        ("traced_kb", "MiB", 1024),
        ("fds", "", 1),
        ("threads", "", 1),
        ("py_threads", "", 1),
    ):
        if key not in s[0]:
            continue
        lines.append(
            f"  {key:10} first {s[0][key] / div:7.2f}{unit}  last {s[-1][key] / div:7.2f}{unit}  "
            f"growth/game {growth(s, key) / div:+.3f}{unit} (second half {growth(s, key, True) / div:+.3f}"
            f"{unit})   bare Kivy {bare[-1][key] / div:.2f}{unit}, {growth(bare, key) / div:+.3f}{unit} "
            f"per sample"
        )
    lines.append(
        "  alive after the last game: "
        + ", ".join(
            f"{k} {s[-1][k]}"
            for k in (
                "tables",
                "phone_servers",
                "tower_links",
                "widgets",
                "bindings",
                "window_bindings",
                "clock_events",
            )
        )
        + "  (growth/game: "
        + ", ".join(
            f"{k} {growth(s, k):+.2f}" for k in ("tables", "widgets", "bindings", "window_bindings", "clock_events")
        )
        + ")"
    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="6 games")
    parser.add_argument("--phones", type=int, default=2, help="phones joined per game")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--mode", default="mixed", choices=["mixed", "tracking", "scoring"])
    parser.add_argument("--no-trace", action="store_true", help="without tracemalloc (it slows Python down)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        print("bench_soak needs a display: xvfb-run -a -s '-screen 0 1280x800x24' .venv/bin/python bench/bench_soak.py")
        return 2
    games = 6 if args.quick else args.games
    bare = bare_baseline(games)
    t0 = time.perf_counter()
    night = run_night(games, args.seed, args.phones, trace=not args.no_trace, mode=args.mode)
    if args.json:
        print(json.dumps({"night": night, "bare": bare}))
        return 0
    print("\n".join(report(night, bare)) + f"\n  ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        night_worker(
            Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6] == "1", sys.argv[7]
        )
        sys.exit(0)
    sys.exit(main())
