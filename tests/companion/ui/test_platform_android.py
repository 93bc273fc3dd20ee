"""The Android glue and the Back rules without Kivy: what runs on a desktop is what runs
on the tablet, with the Android-only parts chosen by a flag."""

import os

import pytest

from companion.storage.files import DATA_DIR_ENV, data_dir
from companion.ui.platform import android, lifecycle, navigation

_ENV_BEFORE: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def _env_when_the_module_starts():
    """The environment as this module's first test finds it (other directories' session
    fixtures may have set variables by then)."""
    _ENV_BEFORE.update(os.environ)


@pytest.mark.parametrize("screen", ["table", "scoring"])
def test_back_in_a_game_asks_and_goes_home_never_quits(screen):
    step = navigation.back_step(screen)
    assert step.kind == "ask" and step.screen == "home"
    assert step.question == "Leave the game? It is saved; resume it from Home."
    assert navigation.back_step(screen, game_over=True) == navigation.BackStep("go", "home")


def test_back_on_home_asks_before_quitting_and_elsewhere_goes_one_screen_back():
    assert navigation.back_step("home").kind == "ask" and navigation.back_step("home").screen is None
    assert navigation.back_step("setup") == navigation.BackStep("go", "home")
    assert navigation.back_step("end") == navigation.BackStep("go", "home")
    assert navigation.back_step("position") == navigation.BackStep("call", method="cancel")
    for screen in ("board", "cards", "ki_cards"):
        assert navigation.back_step(screen) == navigation.BackStep("call", method="back")
    asks_to_quit = [
        s
        for s in ("setup", "end", "position", "board", "cards", "ki_cards", "table", "scoring")
        if navigation.back_step(s).kind == "ask" and navigation.back_step(s).screen is None
    ]
    assert asks_to_quit == []


def test_the_screen_is_kept_on_only_while_a_game_is_open_on_its_screens():
    assert navigation.keeps_screen_on("table", True) and navigation.keeps_screen_on("scoring", True)
    assert not navigation.keeps_screen_on("table", False)
    assert not navigation.keeps_screen_on("home", True) and not navigation.keeps_screen_on("setup", True)


def _unset_until_the_end(monkeypatch, name: str) -> None:
    """Unset now, and as before once the test ends, whatever the code under test sets (a plain
    delenv of a missing variable records nothing, so what the code sets would leak on)."""
    monkeypatch.setenv(name, "")
    monkeypatch.delenv(name)


def test_games_go_to_the_apps_storage_on_android_unless_elgrande_data_dir_is_set(monkeypatch, tmp_path):
    _unset_until_the_end(monkeypatch, DATA_DIR_ENV)
    assert android.use_app_storage(str(tmp_path / "app"), android=False) is None
    assert DATA_DIR_ENV not in os.environ
    assert android.use_app_storage(str(tmp_path / "app"), android=True) == str(tmp_path / "app")
    assert data_dir() == tmp_path / "app"
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "mine"))
    assert android.use_app_storage(str(tmp_path / "app"), android=True) is None
    assert data_dir() == tmp_path / "mine"


def test_the_pure_python_switches_are_set_on_android_only(monkeypatch):
    for name in android.PURE_PYTHON_ENV:
        _unset_until_the_end(monkeypatch, name)
    assert android.prepare_runtime(android=False) == []
    assert all(name not in os.environ for name in android.PURE_PYTHON_ENV)
    assert android.prepare_runtime(android=True) == list(android.PURE_PYTHON_ENV)
    assert all(os.environ[name] == "1" for name in android.PURE_PYTHON_ENV)


def test_keep_screen_on_holds_a_desktop_windows_screensaver_and_never_raises():
    class Window:
        allow_screensaver = True

    window = Window()
    assert android.keep_screen_on(True, window) == "screensaver" and window.allow_screensaver is False
    assert android.keep_screen_on(False, window) == "screensaver" and window.allow_screensaver is True
    assert android.keep_screen_on(True, object()) == "none"


def test_pausing_flushes_the_games_log(tmp_path):
    assert lifecycle.flush_game(None) is False

    class Log:
        def __init__(self):
            self._file = open(tmp_path / "g.jsonl", "ab", buffering=0)
            self._tip = os.open(tmp_path / "g.jsonl.tip", os.O_RDWR | os.O_CREAT)

    class Table:
        _log = Log()

    assert lifecycle.flush_game(Table()) is True
    Table._log._file.close()
    assert lifecycle.flush_game(Table()) is False  # closed: said in the log, never raised


def test_the_android_switches_leave_no_trace_in_later_tests():
    """Runs after the two above (file order): the environment is as the module found it."""
    for name in (DATA_DIR_ENV, *android.PURE_PYTHON_ENV):
        assert os.environ.get(name) == _ENV_BEFORE.get(name), name


def test_the_devices_language_is_the_systems_on_android_only(monkeypatch):
    from companion.words.choice import system_language

    _unset_until_the_end(monkeypatch, "LANGUAGE")
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert android.use_device_language(android=False, read=lambda: "de") is None
    assert system_language() == "en"
    assert android.use_device_language(android=True, read=lambda: "") is None  # unreadable: as it was
    assert system_language() == "en"
    assert android.use_device_language(android=True, read=lambda: "fr") == "fr"
    assert system_language() == "fr"


def test_reading_the_devices_language_off_android_never_raises():
    import sys

    assert android.device_language() == ""  # a desktop: nothing read, pyjnius never imported
    assert "jnius" not in sys.modules
