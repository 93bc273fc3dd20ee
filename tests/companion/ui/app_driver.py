"""Drives the real app with synthetic touches (run under Xvfb by test_app.py).

    python app_driver.py SCENARIO[,SCENARIO...] SHOTS_DIR RESULT_JSON

A scenario is a generator taking the Driver: it taps widgets by their text,
taps map areas, yields to let the app settle, and asserts what it sees. The result
file says "ok" or the failure; screenshots of each screen go to SHOTS_DIR.

What a yield waits for (issue 23). A bare `yield` or a number lets the app settle: the
runner goes on once the app's loop has turned since and nothing is due in its next turns
(after_settling). The app does its own work after a touch in callbacks for the next frame,
and each turn of its loop runs the clock's callbacks, then the layouts: so that is when the
screen holds it, on a quick machine or a loaded one. The number is not slept (the sleeps
were most of the app tests' time). A wait for the world outside the app (a phone's page,
the tower, a server thread) polls with a deadline in real time (scenarios._wait_for); a
figure measured over time yields `real(seconds)`, which sleeps. The window is drawn only
for a picture (_draw_only_pictures).

Several scenarios run one after another in the same app (back_home between
them), each with its screenshots in SHOTS_DIR/<scenario> and its outcome under
"scenarios"; "module:name@group" runs one in the data folder's subfolder group.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

import companion.ui.app  # noqa: F401  (sets Kivy's config before anything imports kivy)

# isort: split
from kivy.tests.common import UnitTestTouch

SETTLE_MOST_FRAMES = 200  # a callback that schedules itself again and again cannot hold a scenario longer
SOON_SECONDS = 0.2  # Kivy's short delays are waited for (min_state_time: 0.035 s)


class real(float):
    """Yielded by a scenario: sleep this many real seconds (a figure measured over time)."""


class Driver:
    def __init__(self, app, shots: Path):
        self.app = app
        self.shots = shots
        self.model = app.model

    # ---- finding -------------------------------------------------------------------

    def _walk(self, widget):
        yield widget
        for child in widget.children:
            yield from self._walk(child)

    def widgets(self):
        from kivy.core.window import Window

        for root in Window.children:  # the screen manager and any open modal view
            yield from self._walk(root)

    def visible(self, widget) -> bool:
        w = widget
        while w is not None:
            if getattr(w, "opacity", 1) == 0 or getattr(w, "disabled", False):
                return False
            if w.__class__.__name__.endswith("Screen") and w.manager and w.manager.current_screen is not w:
                return False
            w = w.parent if w.parent is not w else None
        return True

    def button(self, text: str, exact: bool = False):
        """The visible button saying `text` (its words in the language in use: a catalogue run in
        German taps "Neues Spiel" where the scenario says "New game")."""
        from kivy.uix.button import Button
        from words_match import is_, says

        found = [
            w
            for w in self.widgets()
            if isinstance(w, Button) and self.visible(w) and (is_(w.text, text) if exact else says(w.text, text))
        ]
        if not found:
            shown = sorted({w.text for w in self.widgets() if isinstance(w, Button) and self.visible(w) and w.text})
            raise AssertionError(f"no button {text!r} on screen; buttons: {shown}")
        return found[0]

    def dialog(self):
        """The dialog on top, if one is open."""
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        return next((w for w in Window.children if isinstance(w, ModalView)), None)

    def has_button(self, text: str) -> bool:
        try:
            self.button(text)
            return True
        except AssertionError:
            return False

    # ---- touching --------------------------------------------------------------------------

    def tap_xy(self, x: float, y: float) -> None:
        self._count_tap()
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()

    def _count_tap(self) -> None:
        """Every tap a person makes on the tablet, by what the game asked at that moment."""
        table = self.model.table
        phase = table.asked().kind if table is not None else "setup"
        self.taps.append(phase)

    @property
    def taps(self) -> list:
        if not hasattr(self, "_taps"):
            self._taps = []
        return self._taps

    def tower_drop(self, colour: str) -> None:
        """A cube thrown into the (simulated) tower: the tower's doing, not a tap on the tablet."""
        self.model.simulate_drop(colour)

    def tap(self, text: str, exact: bool = False) -> None:
        w = self.button(text, exact)
        self.tap_xy(*w.to_window(*w.center))

    def tap_widget(self, w) -> None:
        self.tap_xy(*w.to_window(*w.center))

    def tap_area(self, area: str) -> None:
        m = self.screen("table").ids.map
        self.tap_xy(*m.to_window(*m.area_centre(area)))

    # ---- looking -------------------------------------------------------------------------------

    def screen(self, name: str):
        return self.app.root.get_screen(name)

    @property
    def current(self) -> str:
        return self.app.root.current

    def shot(self, name: str) -> str:
        """The window as shown, saved as SHOTS/name.png. Read as the app's save_screenshot reads it
        (glReadPixels), but written by Pillow at its quickest compression: SDL's PNG writer at
        its default level was a twentieth of the app tests' CPU. `elgrande app --screenshot`
        (test_damaged_home.py) still saves through the app."""
        from kivy.core.window import Window
        from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels
        from PIL import Image

        width, height = Window.size
        draw_now()
        pixels = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
        stride = (width * 3 + 3) // 4 * 4  # OpenGL pads each row to 4 bytes
        path = self.shots / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.frombytes("RGB", (width, height), pixels, "raw", "RGB", stride, -1).save(path, compress_level=1)
        return str(path)

    def ask(self):
        return self.model.table.asked()


_DRAWING = {"every_frame": False, "now": False}


def _draw_only_pictures() -> None:
    """The window is rasterised only for a picture (Driver.shot), not at every frame (a test
    instrument, like _no_dialog_fades). Everything the checks read is there without it: the
    layouts, the texts' sizes, the canvas instructions are all made in the loop's turn before
    its drawing; drawing only turns them into pixels. Mesa's software rasteriser did that for
    every changed frame, about two thirds of the app tests' CPU at 1920x1200. A scenario that
    measures the loop itself (perf_loop_driver) draws every frame again: draw_every_frame(True)."""
    from kivy.core.window import Window

    Window.fbind("on_draw", lambda *args: not (_DRAWING["every_frame"] or _DRAWING["now"]))  # True: skipped
    Window.fbind("on_flip", lambda *args: not _DRAWING["every_frame"])


def draw_every_frame(on: bool) -> None:
    _DRAWING["every_frame"] = on


def draw_now() -> None:
    """The window drawn as it stands (into the buffer a picture is read from)."""
    from kivy.core.window import Window

    _DRAWING["now"] = True
    try:
        Window.dispatch("on_draw")
    finally:
        _DRAWING["now"] = False


def _scroll_view_taps_at_once() -> None:
    """A tap in a scroll view reaches its button in the app's next turn (a test instrument only).
    Kivy's ScrollView takes a touch first, to tell a scroll from a tap; once the finger is up
    without moving it hands the tap to the button below, but the release only 0.2 s later (a
    delay written into ScrollView.on_scroll_stop). The same touch, the same widgets, the same
    order: only the 0.2 s go, over a thousand of them in the app tests' taps."""
    import kivy.uix.scrollview as scrollview
    from kivy.clock import Clock

    class ClockForScrollViews:
        def __getattr__(self, name):
            return getattr(Clock, name)

        def schedule_once(self, callback, timeout=0):
            if getattr(getattr(callback, "func", None), "__name__", "") == "_do_touch_up":
                timeout = 0
            return Clock.schedule_once(callback, timeout)

    scrollview.Clock = ClockForScrollViews()


def _scroll_glides_by_frames() -> None:
    """A scroll view's glide and bounce step as at the app's frame cap, 1/30 s a frame, however
    quickly the test's frames come (a test instrument only). Kivy steps them by the time since
    the last frame, and each step asks for the next frame at once: with the test's frames a
    fraction of a millisecond apart (nothing drawn), one bounce took thousands of frames, and
    most of a launch's CPU. The same motion, in the frames the tablet would show it in."""
    import functools

    from kivy.effects.dampedscroll import DampedScrollEffect
    from kivy.effects.kinetic import KineticEffect

    for effect in (KineticEffect, DampedScrollEffect):

        def stepped(step):
            @functools.wraps(step)  # Kivy's clock finds a bound method again by its name
            def update_velocity(self, dt):
                return step(self, max(dt, 1 / 30))

            return update_velocity

        effect.update_velocity = stepped(effect.update_velocity)


def _no_dialog_fades() -> None:
    """Dialogs open and close at once, without Kivy's 0.1 s fade (a test instrument only): a
    fading dialog still sits in the window and swallows touches, so a scenario's next tap,
    meant for the dialog after it or the screen below, could reach it when frames are slow."""
    from kivy.uix.modalview import ModalView

    opening, dismissing = ModalView.open, ModalView.dismiss

    def open_(view, *args, **kwargs):
        kwargs["animation"] = False
        return opening(view, *args, **kwargs)

    def dismiss(view, *args, **kwargs):
        kwargs["animation"] = False
        return dismissing(view, *args, **kwargs)

    ModalView.open, ModalView.dismiss = open_, dismiss


def _scenario(spec: str):
    """ "module:name" (module defaults to scenarios.py), a generator function taking the Driver."""
    import importlib

    module, _, name = spec.partition("@")[0].rpartition(":")
    return getattr(importlib.import_module(module or "scenarios"), name)


def _data_folder(base: str, spec: str) -> str:
    """A scenario's data folder: "spec@group" runs in BASE/group (scenarios sharing what they
    leave there name the same group), else in BASE."""
    group = spec.partition("@")[2]
    return str(Path(base) / group) if group else base


def back_home(d):
    """Between two scenarios of one launch: every dialog closed, the open game closed (saved, as
    Leave does) and the phone server stopped, the new-game screen made afresh, the home screen
    shown. The next scenario starts as in a fresh app (its data folder set by run)."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for view in [w for w in Window.children if isinstance(w, ModalView)]:
        view.dismiss()
    table = d.model._close_game()
    if table is not None:
        table.close()
    # A fresh app knows no last game's tower: no position to resume after, no status (the last
    # game's "connected" would let the next scenario's wait for its own tower pass at once)
    d.model._tower_after = None
    d.model.tower = {}
    if d.model.phones is not None:  # a new server with the next game: no phone of this one stays joined
        d.model.phones.stop()
        d.model.phones = None
        d.model.phone_seats = {}
    d.model._refresh()
    d.app.root.current = "home"
    _fresh_setup_screen(d)
    yield 0.3
    home = d.screen("home")
    if hasattr(home, "refresh"):
        home.refresh()
    yield 0.1


def _fresh_setup_screen(d) -> None:
    """The new-game screen as the app builds it at start: the rule choice read from the data
    folder (as after a restart), nothing of the last scenario's entries (players, options)."""
    from companion.ui.screens.setup import SetupScreen

    manager = d.app.root
    manager.remove_widget(manager.get_screen("setup"))
    manager.add_widget(SetupScreen(name="setup", model=d.model))


def after_settling(then) -> None:
    """then(dt) once the app's loop has turned (callbacks, layouts) and nothing is due in its next
    turns: no one-off callback for the next frame (Kivy runs those in the next turn, and what
    they change is laid out in that turn) nor within SOON_SECONDS (Kivy's own short delays: a
    button's down state, a dropdown closing after its choice; Kivy's scroll timeout, 0.25 s, is
    left out: a tap is over by then, and it does nothing after a tap). Repeating callbacks (a
    pulse's steps, Kivy's cache purge) and a scroll view's glide are not waited for."""
    from kivy.clock import Clock
    from kivy.effects.kinetic import KineticEffect

    start = Clock.frames_displayed

    def awaited(event) -> bool:
        if event.loop or event.timeout > SOON_SECONDS:
            return False
        # a scroll view's glide or bounce: motion over time (its steps take the time since the last
        # frame, so with frames as quick as these it would take thousands), not the app's work
        return not isinstance(getattr(event.get_callback(), "__self__", None), KineticEffect)

    def check(dt):
        turns = Clock.frames_displayed - start
        pending = [e.timeout for e in Clock.get_events() if awaited(e)]
        if turns >= 1 and not pending or turns >= SETTLE_MOST_FRAMES:
            then(dt)
        elif pending and min(pending) > 0:
            Clock.schedule_once(check, 0.02)  # a short delay: the loop sleeps meanwhile
        else:
            Clock.schedule_once(check, 0)  # the next turn

    Clock.schedule_once(check, 0)


def run(spec: str, shots: Path, result: Path) -> int:
    """One scenario, or several run one after another in the same app ("a,b,c"): each gets a
    fresh Driver, its own screenshots folder and its own facts; between two, back_home."""
    import os

    sys.path.insert(0, str(Path(__file__).parent))
    from kivy.clock import Clock

    from companion.storage.files import DATA_DIR_ENV
    from companion.ui.app import ElGrandeApp

    _no_dialog_fades()
    _scroll_view_taps_at_once()
    _scroll_glides_by_frames()
    _draw_only_pictures()

    specs = spec.split(",")
    several = len(specs) > 1
    base = os.environ.get(DATA_DIR_ENV, "")
    os.environ[DATA_DIR_ENV] = _data_folder(base, specs[0])
    outcomes: dict = {}

    def start(app):
        def all_scenarios():
            for i, one in enumerate(specs):
                folder = shots / one.replace(":", "-").replace("@", "-") if several else shots
                folder.mkdir(parents=True, exist_ok=True)
                driver = Driver(app, folder)
                if i:
                    os.environ[DATA_DIR_ENV] = _data_folder(base, one)
                    yield from back_home(driver)
                outcome = outcomes[one] = {"status": "running"}
                try:
                    yield from _scenario(one)(driver)
                    outcome.update(status="ok", **getattr(driver, "facts", {}))
                except Exception as exc:
                    outcome.update(
                        status="failed",
                        error=f"{type(exc).__name__}: {exc}",
                        trace=traceback.format_exc(),
                        **getattr(driver, "facts", {}),
                    )
                    try:
                        driver.shot("failure")
                    except Exception:
                        pass

        steps = all_scenarios()

        def step(dt):
            try:
                wait = next(steps)
            except StopIteration:
                app.stop()
                return
            except BaseException as exc:  # the runner itself (back_home) failed: report it
                outcomes.setdefault("runner", {}).update(
                    status="failed", error=f"{type(exc).__name__}: {exc}", trace=traceback.format_exc()
                )
                app.stop()
                return
            if isinstance(wait, real):
                Clock.schedule_once(step, float(wait))
            else:
                after_settling(step)

        Clock.schedule_once(step, 0.3)

    app = ElGrandeApp(driver=start)
    app.run()
    ok = all(o["status"] == "ok" for o in outcomes.values()) and len(outcomes) == len(specs)
    written = (
        {"status": "ok" if ok else "failed", "scenarios": outcomes}
        if several
        else (outcomes.get(specs[0]) or outcomes.get("runner") or {"status": "not run"})
    )
    result.write_text(json.dumps(written))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.modules["app_driver"] = sys.modules["__main__"]  # scenarios importing it (real, back_home) get this one
    sys.exit(run(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])))
