"""Tablet app figures (issue 5), each against a baseline taken in the same run:

  cold start    process start -> the app's first frame (goal < 2 s);
                baseline: a bare Kivy window's first frame
  idle CPU      a game open, nobody touching it, the simulated tower connected
                (goal < 2 % of a core); baseline: a bare Kivy window idling
  drop -> pulse a simulated tower drop -> the frame that shows the Castillo's
                pulse (goal < 100 ms); baseline: Clock.schedule_once -> frame
  resume        a finished 9-round 5-player game's log -> the table ready
                (goal < 200 ms); baseline: the engine replaying the same events

Needs an X display: run it as
    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_app.py
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


def idle_cpu(env: dict, log: Path, settle: float = 3.0, window: float = 10.0) -> dict:
    out = {}
    for name, args in (("bare Kivy", _bare_args(settle + window + 2)),
                       ("app, game open", _app_args(settle + window + 2, log))):
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
    run = subprocess.run([sys.executable, __file__, "--pulse-worker", str(log), str(result), str(drops)], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=180)
    if run.returncode:
        raise RuntimeError(run.stderr[-3000:])
    return json.loads(result.read_text())


def pulse_worker(log: Path, result: Path, drops: int) -> None:
    """Inside the app: time each drop to the frame that first draws its pulse."""
    from companion.app import ElGrandeApp  # first: it sets Kivy's options
    from kivy.clock import Clock
    from kivy.core.window import Window

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


def open_game(folder: Path) -> Path:
    """A game in round 9, still going: the table screen with the map is what shows."""
    from companion.scripted import scripted_setup, step
    from companion.table import Table

    table = Table.new(scripted_setup("tracking", "full", 5), nonce="bench-open")
    while table.asked().round < 9:
        step(table, 8)
    table.close()
    return table.path


def resume_figures(folder: Path) -> tuple[Path, dict]:
    os.environ["ELGRANDE_DATA_DIR"] = str(folder)
    from companion.scripted import play, scripted_setup
    from companion.table import Table
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
    return path, {"records": len(table.records), "events": len(events), "resume_ms": best_resume * 1000,
                  "engine_replay_ms": best_replay * 1000}


def _q(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    if not os.environ.get("DISPLAY"):
        print("bench_app needs a display: xvfb-run -a -s '-screen 0 1280x800x24' .venv/bin/python bench/bench_app.py")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "ELGRANDE_DATA_DIR": str(folder), "PYTHONPATH": str(ROOT)}
        _, resume = resume_figures(folder)
        log = open_game(folder)
        print(f"resume a finished 9-round 5-player game ({resume['records']} records, {resume['events']} events): "
              f"{resume['resume_ms']:.1f} ms (goal < 200); engine replay alone {resume['engine_replay_ms']:.1f} ms")
        cold = cold_start(env)
        print(f"cold start to first frame: app median {statistics.median(cold['app']):.2f} s "
              f"(goal < 2 s; runs {', '.join(f'{t:.2f}' for t in cold['app'])}); "
              f"bare Kivy window {statistics.median(cold['bare Kivy']):.2f} s")
        pulse = pulse_latency(env, log)
        d, b = pulse["drop_ms"], pulse["baseline_ms"]
        print(f"simulated drop -> pulse frame: median {statistics.median(d):.1f} ms, p95 {_q(d, .95):.1f} ms, "
              f"max {max(d):.1f} ms over {len(d)} drops (goal < 100); "
              f"baseline UI change -> frame median {statistics.median(b):.1f} ms, p95 {_q(b, .95):.1f} ms")
        idle = idle_cpu(env, log)
        print(f"idle CPU, game open, tower connected: {idle['app, game open']:.2f} % of a core (goal < 2 %); "
              f"bare Kivy window {idle['bare Kivy']:.2f} %")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--pulse-worker":
        pulse_worker(Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]))
        sys.exit(0)
    sys.exit(main())
