"""`elgrande app`: the tablet app. Screens observe one AppModel; the table,
the tower bridge and (later) the phone server run off the UI thread.

A tablet app's manners, on every platform: Back (Android's back key, Escape on a
keyboard) goes back one screen and never quits mid-game (companion/ui/platform/navigation.py says
what it does where); pausing flushes the game and resuming restarts a tower link or
phone server that stopped meanwhile (companion/ui/platform/lifecycle.py); the screen stays on
while a game is open (companion/ui/platform/android.py)."""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

T0 = time.perf_counter()
os.environ.setdefault("KIVY_NO_ARGS", "1")  # our own argparse reads the command line
os.environ.setdefault("KIVY_NO_FILELOG", "1")
# The clock sleeps between frames but wakes at once for work handed over from other
# threads (a tower drop, a phone): low idle CPU without a slow pulse.
os.environ.setdefault("KIVY_CLOCK", "interrupt")  # not xclip/xsel, which tablets lack
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # Kivy's records go through `logging`, warnings and up

import logging  # noqa: E402

logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


KIVY_FIRST_RUN_NOTES = ("Cutbuffer", "Config: Older configuration version", "Config: Upgrading configuration")


def _quiet_kivy(record: logging.LogRecord) -> bool:
    # Kivy logs its banner at INFO and the optional X cut buffer (xclip/xsel) as CRITICAL.
    # A first run (no ~/.kivy/config.ini yet) is "an older configuration version" to Kivy, which
    # then writes its defaults: nothing for a person to do, so not said.
    if record.name.startswith("kivy"):
        words = record.getMessage()
        return record.levelno >= logging.WARNING and not words.startswith(KIVY_FIRST_RUN_NOTES)
    return True


for _handler in logging.getLogger().handlers:
    _handler.addFilter(_quiet_kivy)

from kivy.config import Config  # noqa: E402

# Kivy probes providers a tablet may lack (mtdev, xclip, xsel) and logs each miss
# with a traceback: quiet while it starts, warnings and up afterwards.
logging.getLogger("kivy").setLevel(logging.CRITICAL)

from companion.ui.platform.shape import WINDOW_ENV, scale_with_window, window_size  # noqa: E402

_WIDTH, _HEIGHT = window_size(os.environ.get(WINDOW_ENV))  # the tablet's shape (default 1280x800)
Config.set("graphics", "width", str(_WIDTH))
Config.set("graphics", "height", str(_HEIGHT))
Config.set("graphics", "resizable", "1")
Config.set("graphics", "maxfps", "30")  # a board-game table: 30 frames a second is plenty
Config.set("input", "mouse", "mouse,disable_multitouch")
Config.set("kivy", "exit_on_escape", "0")

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402

scale_with_window(Window)  # a bigger window than the layouts' 1280x800 dp: everything grows with it
from kivy.core.clipboard import Clipboard  # noqa: E402,F401 (probed now, quietly)
from kivy.lang import Builder  # noqa: E402
from kivy.uix.screenmanager import NoTransition, ScreenManager  # noqa: E402

from companion.ui.platform import android, lifecycle  # noqa: E402
from companion.ui.platform.collector import freeze_startup_objects  # noqa: E402
from companion.ui.platform.kivy_fixes import scroll_views_bind_once, sleep_until_due  # noqa: E402
from companion.ui.platform.navigation import BACK_KEYCODE, back_step, keeps_screen_on  # noqa: E402

sleep_until_due()  # the loop sleeps between frames, whatever is scheduled
scroll_views_bind_once()  # no bindings piling up in scroll views over a game night

logging.getLogger("kivy").setLevel(logging.WARNING)
UI_DIR = Path(__file__).parent
Builder.load_file(str(UI_DIR / "common.kv"))

from companion.storage.settings import THEME_ENV, load_settings  # noqa: E402
from companion.ui.model import AppModel  # noqa: E402
from companion.ui.screens.registry import SCREENS  # noqa: E402
from companion.ui.theme import THEME, use  # noqa: E402
from companion.words import _, use_language  # noqa: E402
from companion.words.choice import start_language, system_language  # noqa: E402


def _follow_theme(*_) -> None:
    Window.clearcolor = THEME.background


def start_theme() -> str:
    """The theme kept in settings (ELGRANDE_THEME wins: a screenshot, a test), in use from the
    first frame; the window's ground follows every change."""
    name = os.environ.get(THEME_ENV) or load_settings()["theme"]
    use(THEME, name)
    THEME.bind(background=_follow_theme)
    _follow_theme()
    return THEME.name


def _import_phone_server() -> None:
    try:
        from companion.phones import server  # noqa: F401
    except Exception:  # the first game says what is wrong when it starts the server
        logging.getLogger("companion.ui.app").debug("phone server import failed early", exc_info=True)
    finally:  # what the app made to start lives as long as it: out of the collector's walks
        Clock.schedule_once(lambda dt: freeze_startup_objects())


def _holds(callback, owned: set[int], depth: int = 0) -> bool:
    """Does this callback belong to one of the `owned` objects (a bound method of it, a partial
    or a closure holding it)?"""
    if callback is None or depth > 3:
        return False
    if id(getattr(callback, "__self__", None)) in owned:
        return True
    parts = [getattr(callback, "func", None), *getattr(callback, "args", ())]
    parts += [cell.cell_contents for cell in getattr(callback, "__closure__", None) or () if _filled(cell)]
    return any(id(part) in owned or (callable(part) and _holds(part, owned, depth + 1)) for part in parts)


def _is_owned(thing, owned: set[int]) -> bool:
    """`thing` or what a weak proxy of it points to is one of `owned` (a dead proxy: no); a .kv
    rule's binding holds its widget first in a list (kivy.lang.builder.call_fn's args)."""
    if isinstance(thing, list | tuple):
        return bool(thing) and _is_owned(thing[0], owned)
    try:
        return id(thing) in owned or id(getattr(thing, "__self__", None)) in owned
    except ReferenceError:
        return False


def _filled(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018
        return True
    except ValueError:
        return False


def forget_observers(dispatcher, widgets) -> int:
    """Unbinds from `dispatcher` (the model) every property and event observer that belongs to
    one of `widgets` or anything inside them; how many were unbound."""
    owned = {id(w) for top in widgets for w in top.walk(restrict=True)}
    names = [*dispatcher.properties(), *getattr(dispatcher, "__events__", ())]
    count = 0
    for name in names:
        for observer, largs, _kwargs, is_ref, uid in dispatcher.get_property_observers(name, args=True):
            callback = observer() if is_ref else observer  # a weak method: what it points to
            if not (_holds(callback, owned) or any(_is_owned(arg, owned) for arg in largs or ())):
                continue  # largs: a .kv rule's binding names its widget there
            if uid is not None:  # bound with fbind
                dispatcher.unbind_uid(name, uid)
            else:
                dispatcher.unbind(**{name: callback})
            count += 1
    return count


class ElGrandeApp(App):
    title = "El Grande Companion"

    def __init__(
        self,
        screenshot: str | None = None,
        exit_after: float | None = None,
        resume: Path | None = None,
        driver: Callable[[ElGrandeApp], None] | None = None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.screenshot_path = screenshot
        self.exit_after = exit_after
        self.resume_path = resume
        self.driver = driver
        self.first_frame: float | None = None
        self.model = AppModel()
        self.screen_kept_on = False  # the screen is held on (a game is open)
        self.keep_on_how = "none"  # how: "android", "screensaver" or "none"
        self.restored_on_resume: list[str] = []

    def open_settings(self, *args) -> None:
        """The tablet's settings sheet (in place of Kivy's own settings panel)."""
        from companion.ui.dialogs.settings import Settings

        Settings().open()

    def build(self):
        if android.on_android():  # the games folder in the app's own storage (ELGRANDE_DATA_DIR still wins)
            android.use_app_storage(self.user_data_dir)
            android.use_device_language()  # the device's language is the system's
        start_language()
        start_theme()
        sm = self.screens = ScreenManager(transition=NoTransition())
        self._make_screens()
        self.model.bind(on_scoring=self._scoring, on_game_over=self._game_over)
        if self.resume_path:
            try:
                self.model.resume(self.resume_path)
                sm.current = "table"
            except Exception as exc:  # damaged since it was checked: the home screen says what and offers choices
                logging.getLogger("companion.ui.app").warning("could not resume %s: %s", self.resume_path, exc)
                sm.get_screen("home").message = _("Cannot resume {name}: {why}").format(
                    name=self.resume_path.name, why=exc
                )
        Window.bind(on_flip=self._first_flip, on_keyboard=self._on_keyboard)
        sm.bind(current=lambda *_: self._keep_screen_on())
        self._keep_screen_on()
        if self.driver:
            Clock.schedule_once(lambda dt: self.driver(self), 0)
        return sm

    def _make_screens(self) -> None:
        for name, cls in SCREENS.items():
            self.screens.add_widget(cls(name=name, model=self.model))

    def speak(self, choice: str) -> str:
        """The language chosen in Settings ("system" or a code), in use now: every screen is
        made again in it, on the same model, and the screen showing is shown again. The game in
        progress is the model's, so nothing of it changes. Returns the code now in use."""
        code = use_language(system_language() if choice == "system" else choice)
        sm = self.screens
        showing = sm.current
        old = list(sm.screens)
        forget_observers(self.model, old)  # the old screens no longer answer the model
        # The showing screen last: taking it out first would make the manager show another one
        # (the end screen with no game: it has nothing to show).
        for screen in sorted(old, key=lambda s: s.name == showing):
            sm.remove_widget(screen)
        self._make_screens()
        sm.current = showing
        return code

    def _first_flip(self, *args) -> None:
        if self.first_frame is None:
            self.first_frame = time.perf_counter() - T0
            Window.unbind(on_flip=self._first_flip)
            if self.exit_after is not None:  # counted from the first frame: a slow start is not a black picture
                Clock.schedule_once(self._snapshot_and_stop, self.exit_after)
            # The phone server's modules (aiohttp) take about 0.4 s to import: now, once the first
            # frame is up and off the UI thread, so the first "Start the game" does not wait for them.
            threading.Thread(target=_import_phone_server, name="import-phones", daemon=True).start()
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

    # ---- Back, pause and resume, the screen kept on ------------------------------------------

    def _on_keyboard(self, window, key, *args) -> bool:
        if key != BACK_KEYCODE:
            return False
        self.back()
        return True  # handled: Kivy's own default (quit, or Android's move to the background) never runs

    def back(self) -> None:
        """One step back; asks before leaving a game or quitting; never from under a dialog."""
        from kivy.uix.modalview import ModalView

        dialogs = [w for w in Window.children if isinstance(w, ModalView)]
        if dialogs:  # Back closes a question it asked; a private pick or any other dialog stays
            if getattr(dialogs[0], "back_dismisses", False):
                dialogs[0].dismiss()
            return
        from kivy.uix.textinput import TextInput

        typing = [w for w in self.screens.current_screen.walk() if isinstance(w, TextInput) and w.focus]
        if typing:  # Back first ends the typing (Android hides its keyboard the same way)
            for field in typing:
                field.focus = False
            return
        table = self.model.table
        step = back_step(self.screens.current, game_over=table is not None and table.asked().kind == "game_over")
        if step.kind == "go":
            self.screens.current = step.screen
        elif step.kind == "call":
            getattr(self.screens.current_screen, step.method)()
        elif step.kind == "ask":
            from companion.ui.widgets.rule_widgets import Ask

            then = (lambda: setattr(self.screens, "current", step.screen)) if step.screen else self.stop
            question = Ask(_(step.title), _(step.question), _(step.no), _(step.yes), then)
            question.back_dismisses = True
            question.open()

    def on_pause(self) -> bool:
        """Android pauses the app (the screen sleeps, another app comes up): keep everything."""
        lifecycle.flush_game(self.model.table)
        return True

    def on_resume(self) -> None:
        self.restored_on_resume = lifecycle.restore_links(self.model)
        self.screen_kept_on = False  # Android may have cleared the window's flags: set them again
        self._keep_screen_on()

    def _keep_screen_on(self) -> None:
        wanted = keeps_screen_on(self.screens.current, self.model.table is not None)
        if wanted != self.screen_kept_on:
            self.keep_on_how = android.keep_screen_on(wanted, Window)
            self.screen_kept_on = wanted

    def on_stop(self) -> None:
        if self.screen_kept_on:
            android.keep_screen_on(False, Window)
            self.screen_kept_on = False
        self.model.close()


def run(screenshot: str | None = None, exit_after: float | None = None, resume: Path | None = None, driver=None) -> int:
    app = ElGrandeApp(screenshot=screenshot, exit_after=exit_after, resume=resume, driver=driver)
    app.run()
    return 0
