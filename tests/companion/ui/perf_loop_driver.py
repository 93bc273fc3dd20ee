"""The app's loop with the Castillo pulsing, the map shown and hidden (run under Xvfb by
test_perf_loop.py).

    python perf_loop_driver.py RESULT_JSON

Opens a tracked game on the table screen, makes a pulse every 0.6 s for 2 s with the map shown,
then again with another screen current, then runs a Kivy Animation (a step every frame) for 1 s;
for each phase: loop iterations per second (the clock's ticks), CPU (process, all threads) and
every value the Castillo's glow took. Last, a scroll view whose content changes 20 times: the
bindings on its bar colour. Writes them as JSON.
"""
from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

import companion.app  # noqa: F401  (sets Kivy's config, and the clock, before anything imports kivy)

PHASE_SECONDS = 2.0
PULSE_EVERY = 0.6


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run(result: Path) -> None:
    from kivy.animation import Animation
    from kivy.clock import Clock
    from kivy.uix.widget import Widget

    from companion.app import ElGrandeApp
    from companion.scripted import scripted_setup

    from companion.ui.map_view import PULSE_STEPS
    out: dict = {"pulse_steps": PULSE_STEPS}

    def drive(app):
        model = app.model
        model.new_game(scripted_setup("tracking", "short", 4))
        app.screens.current = "table"
        glow = app.screens.get_screen("table").ids.map
        phases = [("shown", "table", True), ("hidden", "home", True), ("animation", "home", False)]
        seen: list[float] = []
        glow.bind(pulse=lambda _, v: seen.append(round(v, 3)))

        def phase(i: int) -> None:
            if i == len(phases):
                scroll_view_bindings()
                return
            name, screen, pulses = phases[i]
            app.screens.current = screen
            Clock.schedule_once(lambda dt: measure(i, name, pulses), 0.3)  # the screen swapped in

        def measure(i: int, name: str, pulses: bool) -> None:
            seen.clear()
            ticker = Clock.schedule_interval(lambda dt: setattr(model, "pulses", model.pulses + 1), PULSE_EVERY) \
                if pulses else None
            if pulses:
                model.pulses += 1
            else:  # Kivy's own Animation steps every frame: the clock must still sleep between frames
                Animation(opacity=0.5, duration=PHASE_SECONDS / 2).start(Widget())
            f0, c0, t0 = Clock.frames, _cpu(), time.perf_counter()

            def end(dt) -> None:
                if ticker:
                    ticker.cancel()
                seconds = time.perf_counter() - t0
                out[name] = {"iterations_per_s": (Clock.frames - f0) / seconds,
                             "cpu_pct": 100 * (_cpu() - c0) / seconds}
                Clock.schedule_once(settled, 1.0)  # the last pulse has faded by then

            def settled(dt) -> None:
                out[name].update(glow=list(seen), pulse_left_running=glow._pulse_steps is not None)
                phase(i + 1)

            Clock.schedule_once(end, PHASE_SECONDS if pulses else PHASE_SECONDS / 2)

        def scroll_view_bindings() -> None:
            """A scroll view whose content changes 20 times in a second: its bar-colour bindings."""
            from kivy.uix.button import Button
            from kivy.uix.gridlayout import GridLayout
            from kivy.uix.scrollview import ScrollView
            scroll, grid = ScrollView(size_hint=(None, None), size=(300, 200)), GridLayout(cols=1, size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            scroll.add_widget(grid)
            app.screens.get_screen("home").add_widget(scroll)
            changes = {"n": 0}

            def change(dt):
                changes["n"] += 1
                grid.add_widget(Button(text=str(changes["n"]), size_hint_y=None, height=30))
                if changes["n"] == 20:
                    Clock.schedule_once(count, 1.2)
                    return False

            def count(dt):
                out["scroll_view"] = {"bar_color_bindings": len(scroll.get_property_observers("bar_color")),
                                      "bar_inactive_color_bindings":
                                          len(scroll.get_property_observers("bar_inactive_color"))}
                result.write_text(json.dumps(out))
                app.stop()

            Clock.schedule_interval(change, 0.05)

        Clock.schedule_once(lambda dt: phase(0), 1.0)  # the table drawn and settled first

    ElGrandeApp(driver=drive).run()


if __name__ == "__main__":
    run(Path(sys.argv[1]))
