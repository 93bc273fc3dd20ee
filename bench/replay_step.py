"""A replay's step, tap to frame (issue 33): ReplayScreen.show(n) and the frame that shows it
(Kivy's clock ticked once: EventLoop.idle), over every step of the demo game and of the longest
golden game (5 players, 9 rounds), at each tablet shape. Goal: <= 100 ms at every shape. The floor
beside it: one word of the same screen changed and its frame (Mesa's llvmpipe draws the whole window
on the CPU: that frame's cost grows with the window's pixels and with the machine's load).

Without --shape it runs itself once per shape under its own Xvfb (24 bits, like the other benches)
and prints one JSON line per shape and game:
    .venv/bin/python bench/replay_step.py
    .venv/bin/python bench/replay_step.py --shape 1920x1200 --shots /tmp/replay-shots  # one shape, with pictures
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GOLDEN = ROOT / "tests/engine/golden/classic-5p-full-3.jsonl"
SHAPES = ("1280x800", "1920x1200", "800x1280")


def _long_game():
    from companion.history.records import replay_events
    from engine.events import GameSetup, event_from_dict

    rows = [line for line in GOLDEN.read_text().splitlines() if line.strip()]
    setup = GameSetup.from_saved(json.loads(rows[0])["setup"])
    return replay_events(setup, [event_from_dict(json.loads(r)) for r in rows[1:]])


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def run_shape(shape: str, shots: Path | None, theme: str = "day") -> list[dict]:
    os.environ["ELGRANDE_WINDOW"] = shape
    import companion.ui.app  # noqa: F401  (Kivy's config first)

    # isort: split
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.uix.screenmanager import ScreenManager

    from companion.history.records import demo_replay
    from companion.ui.screens.replay import ReplayScreen

    games = {"demo": demo_replay(), "long": _long_game()}
    figures: list[dict] = []

    class Bench(App):
        def build(self):
            sm = ScreenManager()
            sm.add_widget(ReplayScreen(name="replay"))
            return sm

        def on_start(self):
            Clock.schedule_once(self.run_bench, 0.5)

        def shot(self, name: str) -> None:
            if shots is not None:
                EventLoop.idle()
                EventLoop.idle()
                from kivy.core.window import Window

                shots.mkdir(parents=True, exist_ok=True)
                Window.screenshot(str(shots / f"{name}_{shape}_{theme}.png"))

        def run_bench(self, dt):
            from companion.ui.theme import THEME, use

            use(THEME, theme)
            screen = self.root.get_screen("replay")
            screen.on_pre_enter()
            for name, replay in games.items():
                screen.open_replay(replay, f"The {name} game", back_to="replay", demo=name == "demo")
                for _ in range(3):
                    EventLoop.idle()
                label = []  # the floor: one word of the same screen changed -> its frame
                for i in range(30):
                    t0 = time.perf_counter()
                    screen.where = f"baseline {i}"
                    EventLoop.idle()
                    label.append((time.perf_counter() - t0) * 1000)
                times = []
                for n in list(range(1, len(replay))) + list(range(len(replay) - 2, 0, -1)):
                    t0 = time.perf_counter()
                    screen.show(n)
                    EventLoop.idle()  # the frame that shows the step
                    times.append((time.perf_counter() - t0) * 1000)
                figures.append(
                    {
                        "shape": shape,
                        "game": name,
                        "steps": len(replay),
                        "shown": len(times),
                        "median_ms": round(statistics.median(times), 1),
                        "p95_ms": round(_percentile(times, 0.95), 1),
                        "max_ms": round(max(times), 1),
                        "label_frame_ms": round(statistics.median(label), 1),
                        "load": round(os.getloadavg()[0], 2),
                    }
                )
                scoring = max(tp.step for tp in replay.turning_points(1))
                screen.show(scoring)
                self.shot(f"replay_{name}_turning")
                screen.show(len(replay) // 2)
                self.shot(f"replay_{name}_middle")
                screen.show(len(replay) - 1)
                self.shot(f"replay_{name}_end")
            self.stop()

    Bench().run()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", help="one shape, e.g. 1920x1200 (needs a display of that size)")
    parser.add_argument("--shots", type=Path, help="keep pictures of the replay there")
    parser.add_argument("--theme", default="day", help="day (default) or evening")
    args = parser.parse_args()
    if args.shape:
        for row in run_shape(args.shape, args.shots, args.theme):
            print(json.dumps(row))
        return 0
    for shape in SHAPES:
        command = ["xvfb-run", "-a", "-s", f"-screen 0 {shape}x24", sys.executable, __file__, "--shape", shape]
        if args.shots:
            command += ["--shots", str(args.shots), "--theme", args.theme]
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        print("\n".join(line for line in out.splitlines() if line.startswith("{")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
