"""Drives the real app with synthetic touches (run under Xvfb by test_app.py).

    python app_driver.py SCENARIO SHOTS_DIR RESULT_JSON

A scenario is a generator taking the Driver: it taps widgets by their text,
taps map areas, yields seconds to wait, and asserts what it sees. The result
file says "ok" or the failure; screenshots of each screen go to SHOTS_DIR.
"""
from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

import companion.app  # noqa: F401  (sets Kivy's config before anything imports kivy)
from kivy.tests.common import UnitTestTouch  # noqa: E402


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
        from kivy.uix.button import Button
        found = [w for w in self.widgets() if isinstance(w, Button) and self.visible(w)
                 and ((w.text == text) if exact else (text in w.text))]
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
        return self.app.save_screenshot(str(self.shots / f"{name}.png"))

    def ask(self):
        return self.model.table.asked()


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


def run(scenario_name: str, shots: Path, result: Path) -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from companion.app import ElGrandeApp
    from kivy.clock import Clock
    _no_dialog_fades()

    import importlib
    module, _, name = scenario_name.rpartition(":")  # "module:scenario" for scenarios kept apart
    scenario = getattr(importlib.import_module(module or "scenarios"), name)
    outcome = {"status": "running"}

    def start(app):
        driver = Driver(app, shots)
        steps = scenario(driver)

        def step(dt):
            try:
                wait = next(steps)
            except StopIteration:
                outcome.update(status="ok", **getattr(driver, "facts", {}))
                app.stop()
                return
            except Exception as exc:
                outcome.update(status="failed", error=f"{type(exc).__name__}: {exc}",
                               trace=traceback.format_exc())
                try:
                    driver.shot("failure")
                except Exception:
                    pass
                app.stop()
                return
            Clock.schedule_once(step, wait if isinstance(wait, (int, float)) else 0.05)

        Clock.schedule_once(step, 0.3)

    app = ElGrandeApp(driver=start)
    app.run()
    result.write_text(json.dumps(outcome))
    return 0 if outcome["status"] == "ok" else 1


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])))
