"""Tablet app figures (issue 5), each against a baseline taken in the same run:

  cold start    process start -> the app's first frame (goal < 2 s);
                baseline: a bare Kivy window's first frame
  idle CPU      a game open, nobody touching it, the simulated tower connected
                (goal < 2 % of a core); baseline: a bare Kivy window idling
  drop -> pulse a simulated tower drop -> the frame that shows the Castillo's
                pulse (goal < 100 ms); baseline: Clock.schedule_once -> frame
  resume        a finished 9-round 5-player game's log -> the table ready
                (goal < 200 ms); baseline: the engine replaying the same events
  idle, per screen  (issue 11) a game open, nobody touching it: CPU and loop iterations a
                second with the map shown and hidden (another screen current), and with a
                drop each second (the Castillo pulsing); baseline: a bare Kivy window
  play          (issue 11) two short games played through the app (bench_soak.py's driver,
                phones and drops included): each input's frame (goal p95 < 100 ms), loop
                iterations busy over 150 ms (goal none; each named by what the game asked then,
                with how much of it was drawing, beside the slowest inputs), "Start the game"
                (goal < 150 ms); baseline: a tap on a bare Kivy button that changes a label -> its
                frame. Iterations in which the bench itself samples memory at a game's end
                (gc.collect and a walk over every object) are counted apart.

Needs an X display: run it as
    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_app.py [--quick]
(--quick: the issue 11 figures only: idle per screen and play, about 2 minutes).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BARE_KIVY = """
import os, sys, time
t0 = time.perf_counter()
os.environ["KIVY_NO_ARGS"] = "1"; os.environ["KIVY_LOG_MODE"] = "PYTHON"
import logging; logging.disable(logging.CRITICAL)
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.label import Label
class Bare(App):
    def load_kv(self, *args, **kwargs):  # no .kv, and no source file to look one up from
        pass
    def build(self):
        def first(*a):
            Window.unbind(on_flip=first)
            print(f"first frame after {time.perf_counter() - t0:.3f} s", file=sys.stderr, flush=True)
        Window.bind(on_flip=first)
        Clock.schedule_once(lambda dt: self.stop(), float(sys.argv[1]))
        return Label(text="bare")
Bare().run()
"""


def _cpu_seconds(pid: int) -> float:
    """utime + stime of a process and all its threads, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _spawn(args: list[str], env: dict, stay: float):
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    first, seen = None, []
    for line in proc.stderr:
        if line.startswith("first frame"):
            first = time.perf_counter() - t0
            break
        seen.append(line)
    if first is None:
        proc.wait(timeout=30)
        raise RuntimeError(f"no first frame (exit {proc.returncode}): {''.join(seen)[-2000:]}")
    return proc, first


def _app_args(stay: float, resume: Path | None = None) -> list[str]:
    args = [sys.executable, "-m", "companion.cli", "app", "--exit-after", str(stay)]
    return args + (["--resume", str(resume)] if resume else [])


def _bare_args(stay: float) -> list[str]:
    return [sys.executable, "-c", BARE_KIVY, str(stay)]


def cold_start(env: dict, runs: int = 5) -> dict:
    out = {}
    for name, make in (("bare Kivy", _bare_args), ("app", _app_args)):
        times = []
        for _ in range(runs):
            proc, first = _spawn(make(2.5), {**env, "ELGRANDE_TIMING": "1"}, 2.5)
            proc.wait(timeout=60)
            times.append(first)
        out[name] = times
    return out


def idle_cpu(env: dict, log: Path, settle: float = 3.0, window: float = 10.0, app: bool = True) -> dict:
    out = {}
    runs = (("bare Kivy", _bare_args(settle + window + 2)), ("app, game open", _app_args(settle + window + 2, log)))
    for name, args in runs[: 2 if app else 1]:
        proc, _ = _spawn(args, {**env, "ELGRANDE_TIMING": "1"}, 0)
        time.sleep(settle)
        c0, t0 = _cpu_seconds(proc.pid), time.perf_counter()
        time.sleep(window)
        c1, t1 = _cpu_seconds(proc.pid), time.perf_counter()
        proc.wait(timeout=60)
        out[name] = 100 * (c1 - c0) / (t1 - t0)
    return out


def pulse_latency(env: dict, log: Path, drops: int = 40) -> dict:
    result = Path(tempfile.mkstemp(suffix=".json")[1])
    run = subprocess.run(
        [sys.executable, __file__, "--pulse-worker", str(log), str(result), str(drops)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if run.returncode:
        raise RuntimeError(run.stderr[-3000:])
    return json.loads(result.read_text())


def pulse_worker(log: Path, result: Path, drops: int) -> None:
    """Inside the app: time each drop to the frame that first draws its pulse."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion.ui.app import ElGrandeApp  # first: it sets Kivy's options

    lat, base = [], []

    def drive(app):
        model = app.model
        state = {"t": None, "seen": False, "kind": None}

        def on_flip(*_):
            if state["t"] is not None and state["seen"]:
                (lat if state["kind"] == "drop" else base).append((time.perf_counter() - state["t"]) * 1000)
                state["t"] = None

        def on_pulse(*_):
            state["seen"] = True

        Window.bind(on_flip=on_flip)
        model.bind(pulses=on_pulse)

        def fire(i):
            if i >= 2 * drops:
                result.write_text(json.dumps({"drop_ms": lat, "baseline_ms": base}))
                app.stop()
                return
            if i % 2 == 0:
                state.update(t=time.perf_counter(), seen=False, kind="drop")
                model.simulate_drop("red")
            else:  # baseline: a change made on the UI thread, to its frame
                state.update(t=time.perf_counter(), seen=False, kind="base")
                screen = app.screens.get_screen("table")

                def change(dt, i=i):
                    screen.message = f"baseline {i}"  # a label redrawn on the UI thread
                    state.update(seen=True)

                Clock.schedule_once(change, 0)
            Clock.schedule_once(lambda dt: fire(i + 1), 0.15)

        def wait_connected(dt):
            if (model.tower or {}).get("state") == "connected":
                fire(0)
            else:
                Clock.schedule_once(wait_connected, 0.1)

        Clock.schedule_once(wait_connected, 0.5)

    ElGrandeApp(resume=log, driver=drive).run()


def _thread_cpu() -> dict[str, float]:
    """CPU seconds per thread name of this process (llvmpipe-N: Mesa drawing without a GPU)."""
    out: dict[str, float] = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def idle_worker(log: Path, result: Path, window: float) -> None:
    """Inside the app, a game open: CPU (all threads) and loop iterations a second, per phase."""
    from kivy.clock import Clock

    from companion.ui.app import ElGrandeApp

    phases = [
        ("map shown", "table", False),
        ("map hidden", "home", False),
        ("map shown, a drop a second", "table", True),
        ("map hidden, a drop a second", "home", True),
    ]
    out: dict = {}

    def drive(app):
        model = app.model

        def phase(i: int) -> None:
            if i == len(phases):
                result.write_text(json.dumps(out))
                app.stop()
                return
            name, screen, drops = phases[i]
            app.screens.current = screen
            Clock.schedule_once(lambda dt: measure(i, name, drops), 2.0)

        def measure(i: int, name: str, drops: bool) -> None:
            ticker = Clock.schedule_interval(lambda dt: model.simulate_drop("red"), 1.0) if drops else None
            f0, c0, t0 = Clock.frames, _thread_cpu(), time.perf_counter()

            def end(dt):
                if ticker:
                    ticker.cancel()
                seconds, c1 = time.perf_counter() - t0, _thread_cpu()
                per_thread = {k: 100 * (v - c0.get(k, 0.0)) / seconds for k, v in c1.items()}
                out[name] = {
                    "cpu_pct": sum(per_thread.values()),
                    "iterations_per_s": (Clock.frames - f0) / seconds,
                    "threads": {
                        k: round(v, 2) for k, v in sorted(per_thread.items(), key=lambda kv: -kv[1]) if v >= 0.05
                    },
                }
                phase(i + 1)

            Clock.schedule_once(end, window)

        def wait_connected(dt):
            if (model.tower or {}).get("state") == "connected":
                phase(0)
            else:
                Clock.schedule_once(wait_connected, 0.1)

        Clock.schedule_once(wait_connected, 0.5)

    ElGrandeApp(resume=log, driver=drive).run()


BARE_TAP = """
import json, os, sys, time
os.environ["KIVY_NO_ARGS"] = "1"; os.environ["KIVY_LOG_MODE"] = "PYTHON"; os.environ["KIVY_CLOCK"] = "interrupt"
import logging; logging.disable(logging.CRITICAL)
from kivy.config import Config
Config.set("graphics", "maxfps", "30")
sys.path.insert(0, sys.argv[2])
from kivy.app import App
from kivy.clock import Clock
from kivy.tests.common import UnitTestTouch
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from bench_soak import LoopTimer
class Bare(App):
    def load_kv(self, *args, **kwargs):
        pass
    def build(self):
        root = BoxLayout()
        self.label, self.button = Label(text="0"), Button(text="tap")
        self.button.bind(on_release=lambda *a: setattr(self.label, "text", str(int(self.label.text) + 1)))
        root.add_widget(self.label); root.add_widget(self.button)
        Clock.schedule_once(self.start, 1.0)
        return root
    def start(self, dt):
        self.timer, self.taps = LoopTimer(), 0
        Clock.schedule_interval(self.tap, 0.1)
    def tap(self, dt):
        if self.taps == 60:
            json.dump({"tap_ms": self.timer.input_ms.get("tap", []), "busy_ms": self.timer.busy_ms,
                       "flip_ms": self.timer.flip_ms}, open(sys.argv[1], "w"))
            self.stop()
            return False
        self.taps += 1
        self.timer.input_made("tap")
        touch = UnitTestTouch(*self.button.center)
        touch.touch_down(); touch.touch_up()
Bare().run()
"""


def bare_tap(env: dict) -> dict:
    result = Path(tempfile.mkstemp(suffix=".json")[1])
    subprocess.run(
        [sys.executable, "-c", BARE_TAP, str(result), str(Path(__file__).parent)],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    return json.loads(result.read_text())


def idle_per_screen(env: dict, log: Path, window: float = 6.0) -> dict:
    result = Path(tempfile.mkstemp(suffix=".json")[1])
    run = subprocess.run(
        [sys.executable, __file__, "--idle-worker", str(log), str(result), str(window)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    if run.returncode or not result.read_text():
        raise RuntimeError(run.stderr[-3000:])
    return json.loads(result.read_text())


def play_figures(env: dict, games: int = 2) -> tuple[dict, dict]:
    """Inputs' frames and loop stalls over short games through the app, and the bare baseline."""
    import bench_soak

    night = bench_soak.run_night(games, seed=5, phones=2, trace=False, mode="mixed")
    return night, bare_tap(env)


def print_issue11(env: dict, log: Path) -> None:
    idle = idle_per_screen(env, log)
    bare = idle_cpu(env, log, window=6.0, app=False)["bare Kivy"]
    for name, fig in idle.items():
        top = ", ".join(f"{k} {v:.1f}" for k, v in list(fig["threads"].items())[:4])
        print(
            f"idle, {name}: {fig['cpu_pct']:.2f} % of a core, {fig['iterations_per_s']:.0f} loop iterations/s "
            f"(goal <= 2 % idle; threads: {top}); bare Kivy window {bare:.2f} %"
        )
    night, base = play_figures(env)
    frames = [ms for kind, v in night["input_frames"].items() if kind != "start the game" for ms in v]
    taps = base["tap_ms"]
    print(
        f"play, {len(night['samples'])} short games ({night['samples'][-1]['inputs']} inputs, "
        f"{night['samples'][-1]['drops']} drops): input -> frame median {statistics.median(frames):.1f} ms, "
        f"p95 {_q(frames, 0.95):.1f} ms, max {max(frames):.1f} ms (goal p95 < 100); "
        f"bare Kivy tap -> frame median {statistics.median(taps):.1f} ms, p95 {_q(taps, 0.95):.1f} ms"
    )
    print(
        f"play: drawing a frame (Window.flip: Mesa llvmpipe, no GPU here) median {night['flip_p50_ms']:.1f} ms, "
        f"p95 {night['flip_p95_ms']:.1f} ms; bare Kivy median {statistics.median(base['flip_ms']):.1f} ms, "
        f"p95 {_q(base['flip_ms'], 0.95):.1f} ms"
    )
    stalls = [s for s in night["stalls"] if not s[2].startswith("bench:")]
    sampling = [s[0] for s in night["stalls"] if s[2].startswith("bench:")]
    print(
        f"play: {len(stalls)} of {night['iterations']} loop iterations busy over 150 ms "
        f"(longest {night.get('app_busy_max_ms', night['busy_max_ms']):.0f} ms; goal none); bare Kivy longest "
        f"{max(base['busy_ms']):.0f} ms"
        + (
            f"; and {len(sampling)} at a game's end while the bench sampled memory (gc.collect and a walk over "
            f"every object: the bench's own work; longest {max(sampling):.0f} ms)"
            if sampling
            else ""
        )
    )
    print("play: " + _slow_report(stalls, night.get("slowest_inputs", [])))
    print(
        f"play: the app's own work per iteration (busy less drawing) median {night['work_p50_ms']:.1f} ms, "
        f"p95 {night['work_p95_ms']:.1f} ms, longest {night['work_max_ms']:.0f} ms, "
        f"{night['work_stalls']} over 150 ms"
    )
    print(
        f"play: the UI thread's CPU time per iteration (what a free core would take) median "
        f"{night['cpu_p50_ms']:.1f} ms, p95 {night['cpu_p95_ms']:.1f} ms, longest {night['cpu_max_ms']:.0f} ms, "
        f"{night['cpu_stalls']} over 150 ms; machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    starts = night["new_game"]
    print(
        "play: 'Start the game' keeps the loop busy "
        + ", ".join(f"{g['longest_iteration_ms']:.0f}" for g in starts)
        + " ms (game 1, 2, ...; goal < 150 ms)"
    )


def _slow_report(stalls: list, slowest_inputs: list) -> str:
    """The iterations over 150 ms by what the game asked then (the driver's label), each with how
    much of it was drawing; and the slowest inputs to their frame."""
    by_doing: dict[str, list] = {}
    for busy, work, doing in stalls:
        by_doing.setdefault(doing, []).append((busy, busy - work))
    said = [
        f"{doing} {len(v)}x (longest {max(b for b, _ in v):.0f} ms, of it drawing {max(v)[1]:.0f} ms)"
        for doing, v in sorted(by_doing.items(), key=lambda kv: -max(kv[1])[0])
    ]
    slow = ", ".join(f"{ms:.0f} ms {kind} ({doing})" for ms, kind, doing in slowest_inputs[:6])
    return f"over 150 ms: {'; '.join(said) if said else 'none'}. Slowest inputs to their frame: {slow or '-'}"


def open_game(folder: Path) -> Path:
    """A game in round 9, still going: the table screen with the map is what shows."""
    from companion.scripted import scripted_setup, step
    from companion.table.authority import Table

    table = Table.new(scripted_setup("tracking", "full", 5), nonce="bench-open")
    while table.asked().round < 9:
        step(table, 8)
    table.close()
    return table.path


def resume_figures(folder: Path) -> tuple[Path, dict]:
    os.environ["ELGRANDE_DATA_DIR"] = str(folder)
    from companion.scripted import play, scripted_setup
    from companion.table.authority import Table
    from engine.events import event_from_dict
    from engine.game import Game

    table = Table.new(scripted_setup("tracking", "full", 5), nonce="bench")
    play(table, 7)
    table.close()
    path = table.path
    events = [event_from_dict(r["e"]) for r in table.effective if r["t"] == "event"]
    best_resume, best_replay = float("inf"), float("inf")
    for _ in range(7):
        t0 = time.perf_counter()
        resumed = Table.resume(path)
        best_resume = min(best_resume, time.perf_counter() - t0)
        resumed.close()
        t0 = time.perf_counter()
        Game.replay(table.setup.game, events)
        best_replay = min(best_replay, time.perf_counter() - t0)
    return path, {
        "records": len(table.records),
        "events": len(events),
        "resume_ms": best_resume * 1000,
        "engine_replay_ms": best_replay * 1000,
    }


def _q(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    if not os.environ.get("DISPLAY"):
        print("bench_app needs a display: xvfb-run -a -s '-screen 0 1280x800x24' .venv/bin/python bench/bench_app.py")
        return 2
    quick = "--quick" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "ELGRANDE_DATA_DIR": str(folder), "PYTHONPATH": str(ROOT)}
        os.environ["ELGRANDE_DATA_DIR"] = str(folder)
        log = open_game(folder)
        print_issue11(env, log)
        if quick:
            return 0
        _, resume = resume_figures(folder)
        print(
            f"resume a finished 9-round 5-player game ({resume['records']} records, {resume['events']} events): "
            f"{resume['resume_ms']:.1f} ms (goal < 200); engine replay alone {resume['engine_replay_ms']:.1f} ms"
        )
        cold = cold_start(env)
        print(
            f"cold start to first frame: app median {statistics.median(cold['app']):.2f} s "
            f"(goal < 2 s; runs {', '.join(f'{t:.2f}' for t in cold['app'])}); "
            f"bare Kivy window {statistics.median(cold['bare Kivy']):.2f} s"
        )
        pulse = pulse_latency(env, log)
        d, b = pulse["drop_ms"], pulse["baseline_ms"]
        print(
            f"simulated drop -> pulse frame: median {statistics.median(d):.1f} ms, p95 {_q(d, 0.95):.1f} ms, "
            f"max {max(d):.1f} ms over {len(d)} drops (goal < 100); "
            f"baseline UI change -> frame median {statistics.median(b):.1f} ms, p95 {_q(b, 0.95):.1f} ms"
        )
        idle = idle_cpu(env, log)
        print(
            f"idle CPU, game open, tower connected: {idle['app, game open']:.2f} % of a core (goal < 2 %); "
            f"bare Kivy window {idle['bare Kivy']:.2f} %"
        )
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--idle-worker":
        idle_worker(Path(sys.argv[2]), Path(sys.argv[3]), float(sys.argv[4]))
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "--pulse-worker":
        pulse_worker(Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]))
        sys.exit(0)
    sys.exit(main())
