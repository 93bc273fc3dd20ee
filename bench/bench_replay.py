"""Replay figures (issue 26): one step of a replay drawn (the map, the score plot, the scoring's
lines) in the real Kivy window: ReplayScreen.show(n) -> the frame that shows it (goal < 100 ms),
over every step of the longest golden game (5 players, 9 rounds); baseline: one label of
the same screen changed -> its frame (the cost of drawing this screen at all: Mesa's llvmpipe
draws on the CPU here). Also the model's cost: the replay built from the log (all public views).

Needs an X display:
    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_replay.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GOLDEN = ROOT / "tests/engine/golden/classic-5p-full-3.jsonl"


def _replay():
    from companion.history.records import replay_events
    from engine.events import GameSetup, event_from_dict

    rows = [line for line in GOLDEN.read_text().splitlines() if line.strip()]
    setup = GameSetup.from_saved(json.loads(rows[0])["setup"])
    events = [event_from_dict(json.loads(r)) for r in rows[1:]]
    t0 = time.perf_counter()
    replay = replay_events(setup, events)
    return replay, time.perf_counter() - t0


def main() -> int:
    import companion.ui.app  # noqa: F401  (Kivy's config first)

    # isort: split
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.uix.screenmanager import ScreenManager

    from companion.ui.screens.replay import ReplayScreen

    replay, build_s = _replay()
    figures = {"steps": len(replay), "replay_built_ms": round(build_s * 1000, 1)}

    class Bench(App):
        def build(self):
            sm = ScreenManager()
            sm.add_widget(ReplayScreen(name="replay"))
            return sm

        def on_start(self):
            Clock.schedule_once(self.run_bench, 0.5)

        def run_bench(self, dt):
            screen = self.root.get_screen("replay")
            screen.open_replay(replay, "bench", back_to="replay")
            EventLoop.idle()
            idle = []
            for i in range(20):  # the baseline: one label on the same screen changed -> its frame
                t0 = time.perf_counter()
                screen.where = f"baseline {i}"
                EventLoop.idle()
                idle.append(time.perf_counter() - t0)
            steps = []
            for n in list(range(1, len(replay))) + list(range(len(replay) - 2, 0, -7)):
                t0 = time.perf_counter()
                screen.show(n)
                EventLoop.idle()
                steps.append(time.perf_counter() - t0)
            steps.sort()
            built = []  # the app's own work for a step: the views shown, the map and the plot drawn
            for n in range(1, len(replay)):
                t0 = time.perf_counter()
                screen.show(n)
                screen.ids.map.draw()
                built.append(time.perf_counter() - t0)
            built.sort()
            figures.update(
                step_built_median_ms=round(statistics.median(built) * 1000, 1),
                step_built_max_ms=round(built[-1] * 1000, 1),
            )
            figures.update(
                baseline_label_frame_ms=round(statistics.median(idle) * 1000, 1),
                step_median_ms=round(statistics.median(steps) * 1000, 1),
                step_p95_ms=round(steps[int(len(steps) * 0.95)] * 1000, 1),
                step_max_ms=round(steps[-1] * 1000, 1),
                shown=len(steps),
            )
            self.stop()

    Bench().run()
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
