"""`elgrande app`: the tablet app. Screens observe one AppModel; the table,
the tower bridge and (later) the phone server run off the UI thread."""
from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path
from typing import Callable, Optional

T0 = time.perf_counter()
os.environ.setdefault("KIVY_NO_ARGS", "1")          # our own argparse reads the command line
os.environ.setdefault("KIVY_NO_FILELOG", "1")
# The clock sleeps between frames but wakes at once for work handed over from other
# threads (a tower drop, a phone): low idle CPU without a slow pulse.
os.environ.setdefault("KIVY_CLOCK", "interrupt")   # not xclip/xsel, which tablets lack
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # Kivy's records go through `logging`, warnings and up

import logging  # noqa: E402

logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


def _quiet_kivy(record: logging.LogRecord) -> bool:
    # Kivy logs its banner at INFO and the optional X cut buffer (xclip/xsel) as CRITICAL.
    if record.name.startswith("kivy"):
        return record.levelno >= logging.WARNING and not record.getMessage().startswith("Cutbuffer")
    return True


for _handler in logging.getLogger().handlers:
    _handler.addFilter(_quiet_kivy)

from kivy.config import Config  # noqa: E402

# Kivy probes providers a tablet may lack (mtdev, xclip, xsel) and logs each miss
# with a traceback: quiet while it starts, warnings and up afterwards.
logging.getLogger("kivy").setLevel(logging.CRITICAL)

Config.set("graphics", "width", "1280")
Config.set("graphics", "height", "800")
Config.set("graphics", "resizable", "1")
Config.set("graphics", "maxfps", "30")  # a board-game table: 30 frames a second is plenty
Config.set("input", "mouse", "mouse,disable_multitouch")
Config.set("kivy", "exit_on_escape", "0")

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.uix.screenmanager import NoTransition, ScreenManager  # noqa: E402

from kivy.core.clipboard import Clipboard  # noqa: E402,F401 (probed now, quietly)


def sleep_until_due(clock=Clock) -> bool:
    """Make Kivy's interrupt clock sleep whenever it has nothing to do.

    As shipped (Kivy 2.3) it stops sleeping 1.8 clock resolutions before a timed callback is
    due but runs the callback only within 1 resolution of its time: in between the loop spins
    (about 9 ms before every timed callback at 30 frames a second: each step of a pulse, Kivy's
    cache purge each second). And a callback due every frame (a Kivy Animation's steps) keeps it
    from sleeping at all: 60,000 loop iterations a second. Here the clock sleeps until the
    frame cap or until the next callback is within its resolution, whichever comes first; work
    handed over from another thread (a tower drop, a phone) still wakes it at once.
    Returns False (nothing changed) for any other kind of clock."""
    from kivy.clock import ClockBaseInterrupt

    if clock.__class__ is not ClockBaseInterrupt or clock.interupt_next_only:  # (Clock is a proxy)
        return False

    def check_ready(fps, min_sleep, undershoot, event):
        if event.is_set():
            return True, 0
        now = clock.time()
        frame_in = 1 / fps - (now - clock._last_tick) - undershoot   # Kivy's own frame pacing
        if frame_in <= min_sleep:
            return True, 0
        due = clock.get_min_timeout()   # when the next timed callback is due; 0: every frame
        if due <= 0:
            return False, frame_in
        due_in = due - now - clock.get_resolution() + 0.0005   # a callback runs within its resolution
        if due_in <= 0:
            return True, 0
        return False, min(frame_in, due_in)

    clock._check_ready = check_ready
    return True


sleep_until_due()

logging.getLogger("kivy").setLevel(logging.WARNING)
UI_DIR = Path(__file__).parent / "ui"
Builder.load_file(str(UI_DIR / "common.kv"))

from .ui.correction_screen import PositionScreen  # noqa: E402
from .ui.end_screen import EndScreen  # noqa: E402
from .ui.home_screen import HomeScreen  # noqa: E402
from .ui.model import AppModel  # noqa: E402
from .ui.scoring_screen import ScoringScreen  # noqa: E402
from .ui.setup_screen import SetupScreen  # noqa: E402
from .ui.table_screen import TableScreen  # noqa: E402

Window.clearcolor = (0.97, 0.94, 0.86, 1)


class ElGrandeApp(App):
    title = "El Grande Companion"

    def __init__(self, screenshot: Optional[str] = None, exit_after: Optional[float] = None,
                 resume: Optional[Path] = None, driver: Optional[Callable[["ElGrandeApp"], None]] = None, **kwargs):
        super().__init__(**kwargs)
        self.screenshot_path = screenshot
        self.exit_after = exit_after
        self.resume_path = resume
        self.driver = driver
        self.first_frame: Optional[float] = None
        self.model = AppModel()

    def build(self):
        sm = self.screens = ScreenManager(transition=NoTransition())
        for cls, name in ((HomeScreen, "home"), (SetupScreen, "setup"), (TableScreen, "table"),
                          (ScoringScreen, "scoring"), (EndScreen, "end"), (PositionScreen, "position")):
            sm.add_widget(cls(name=name, model=self.model))
        self.model.bind(on_scoring=self._scoring, on_game_over=self._game_over)
        if self.resume_path:
            try:
                self.model.resume(self.resume_path)
                sm.current = "table"
            except Exception as exc:  # damaged since it was checked: the home screen says what and offers choices
                logging.getLogger("companion.app").warning("could not resume %s: %s", self.resume_path, exc)
                sm.get_screen("home").message = f"Cannot resume {self.resume_path.name}: {exc}"
        Window.bind(on_flip=self._first_flip)
        if self.exit_after is not None:
            Clock.schedule_once(self._snapshot_and_stop, self.exit_after)
        if self.driver:
            Clock.schedule_once(lambda dt: self.driver(self), 0)
        return sm

    def _first_flip(self, *args) -> None:
        if self.first_frame is None:
            self.first_frame = time.perf_counter() - T0
            Window.unbind(on_flip=self._first_flip)
            if os.environ.get("ELGRANDE_TIMING"):
                print(f"first frame after {self.first_frame:.3f} s", file=sys.stderr, flush=True)

    def _scoring(self, model, record) -> None:
        sm = self.screens
        if sm.current == "scoring" or sm.current == "table":
            sm.get_screen("scoring").show_scoring(record)
            sm.current = "scoring"

    def _game_over(self, model) -> None:
        if self.screens.current == "table":
            self.screens.current = "end"

    def save_screenshot(self, path: str) -> str:
        """Window.screenshot numbers its files; move the picture to exactly `path`."""
        target = Path(path).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        made = Window.screenshot(name=str(target.with_suffix("")) + "-tmp.png")
        shutil.move(made, target)
        return str(target)

    def _snapshot_and_stop(self, dt) -> None:
        if self.screenshot_path:
            self.save_screenshot(self.screenshot_path)
        self.stop()

    def on_stop(self) -> None:
        self.model.close()


def run(screenshot: Optional[str] = None, exit_after: Optional[float] = None, resume: Optional[Path] = None,
        driver=None) -> int:
    app = ElGrandeApp(screenshot=screenshot, exit_after=exit_after, resume=resume, driver=driver)
    app.run()
    return 0
