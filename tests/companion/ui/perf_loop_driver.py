"""The app's loop with the Castillo pulsing, the map shown and hidden (a scenario run by
app_driver.py as "perf_loop_driver:loop_figures", test_perf_loop.py).

Opens a tracked game on the table screen, makes a pulse every 0.6 s for 2 s with the map shown,
then again with another screen current, then runs a Kivy Animation (a step every frame) for 1 s;
for each phase: loop iterations per second (the clock's ticks), CPU (process, all threads) and
every value the Castillo's glow took. Last, a scroll view whose content changes 20 times: the
bindings on its bar colour. They are the scenario's facts. The scenario only sleeps between its
steps (`real` seconds) (one clock event each), so it adds no iterations of its own to what is measured.
"""

from __future__ import annotations

import resource
import time

from app_driver import draw_every_frame, real

PHASE_SECONDS = 2.0
PULSE_EVERY = 0.6


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def loop_figures(d):
    from kivy.animation import Animation
    from kivy.clock import Clock
    from kivy.uix.widget import Widget

    from companion.scripted import scripted_setup
    from companion.ui.widgets.map_view import PULSE_STEPS

    app, model = d.app, d.model
    out: dict = {"pulse_steps": PULSE_STEPS}
    draw_every_frame(True)  # the loop as the tablet runs it, drawing each changed frame
    model.new_game(scripted_setup("tracking", "short", 4))
    app.screens.current = "table"
    glow = app.screens.get_screen("table").ids.map
    seen: list[float] = []

    def note(_, value):
        seen.append(round(value, 3))

    glow.bind(pulse=note)
    yield real(1.0)  # the table drawn and settled first
    for name, screen, pulses in (("shown", "table", True), ("hidden", "home", True), ("animation", "home", False)):
        app.screens.current = screen
        yield real(0.3)  # the screen swapped in
        seen.clear()
        ticker = (
            Clock.schedule_interval(lambda dt: setattr(model, "pulses", model.pulses + 1), PULSE_EVERY)
            if pulses
            else None
        )
        if pulses:
            model.pulses += 1
        else:  # Kivy's own Animation steps every frame: the clock must still sleep between frames
            Animation(opacity=0.5, duration=PHASE_SECONDS / 2).start(Widget())
        f0, c0, t0 = Clock.frames, _cpu(), time.perf_counter()
        yield real(PHASE_SECONDS if pulses else PHASE_SECONDS / 2)
        if ticker:
            ticker.cancel()
        seconds = time.perf_counter() - t0
        out[name] = {"iterations_per_s": (Clock.frames - f0) / seconds, "cpu_pct": 100 * (_cpu() - c0) / seconds}
        yield real(1.0)  # the last pulse has faded by then
        out[name].update(glow=list(seen), pulse_left_running=glow._pulse_steps is not None)
    glow.unbind(pulse=note)
    out["scroll_view"] = yield from _scroll_view_bindings(app)
    draw_every_frame(False)
    d.facts = out


def _scroll_view_bindings(app):
    """A scroll view whose content changes 20 times in a second: its bar-colour bindings."""
    from kivy.clock import Clock
    from kivy.uix.button import Button
    from kivy.uix.gridlayout import GridLayout
    from kivy.uix.scrollview import ScrollView

    scroll, grid = ScrollView(size_hint=(None, None), size=(300, 200)), GridLayout(cols=1, size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    scroll.add_widget(grid)
    home = app.screens.get_screen("home")
    home.add_widget(scroll)
    changes = {"n": 0}

    def change(dt):
        changes["n"] += 1
        grid.add_widget(Button(text=str(changes["n"]), size_hint_y=None, height=30))
        if changes["n"] == 20:
            return False

    Clock.schedule_interval(change, 0.05)
    while changes["n"] < 20:
        yield real(0.25)
    yield real(1.2)
    counted = {
        "bar_color_bindings": len(scroll.get_property_observers("bar_color")),
        "bar_inactive_color_bindings": len(scroll.get_property_observers("bar_inactive_color")),
    }
    home.remove_widget(scroll)  # the home screen as it was, for the scenarios after this one
    return counted
