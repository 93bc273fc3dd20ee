"""Platform glue for the tablet app: what differs on Android, each import guarded so that a
desktop runs the same code and does nothing (or its own equivalent).

- `prepare_runtime()`: before aiohttp is imported, multidict, yarl, frozenlist and propcache
  use their pure-Python code (the APK ships only their pure wheels).
- `use_app_storage(folder)`: the games folder is the app's private storage on Android
  (App.user_data_dir); ELGRANDE_DATA_DIR still wins; elsewhere platformdirs' folder.
- `use_device_language()`: the device's language (java.util.Locale) is the system's language
  the table reads when Settings leave it to the system (companion/words/choice.py reads it
  from LANGUAGE); a desktop keeps its own environment.
- `keep_screen_on(on)`: FLAG_KEEP_SCREEN_ON on the activity's window (Android, on its UI
  thread through pyjnius); on a desktop the window's screensaver is held off instead.
"""

from __future__ import annotations

import logging
import os

from companion.storage.files import DATA_DIR_ENV
from firmware_bridge.usb_android import on_android

log = logging.getLogger("companion.ui.platform.android")

PURE_PYTHON_ENV = (
    "MULTIDICT_NO_EXTENSIONS",
    "YARL_NO_EXTENSIONS",
    "FROZENLIST_NO_EXTENSIONS",
    "PROPCACHE_NO_EXTENSIONS",
)
FLAG_KEEP_SCREEN_ON = 0x80  # android.view.WindowManager.LayoutParams.FLAG_KEEP_SCREEN_ON
FILE_PROVIDER_SUFFIX = ".fileprovider"  # after the package name; android/p4a_hook.py declares it


def prepare_runtime(android: bool | None = None) -> list[str]:
    """Sets the pure-Python switches on Android; returns the variables set."""
    if not (on_android() if android is None else android):
        return []
    for name in PURE_PYTHON_ENV:
        os.environ.setdefault(name, "1")
    return list(PURE_PYTHON_ENV)


def use_app_storage(user_data_dir: str, android: bool | None = None) -> str | None:
    """On Android the games live in the app's own storage (kept until the app is uninstalled,
    private to it); ELGRANDE_DATA_DIR set by hand still wins. Returns the folder now used
    when this chose it, None when it left the choice as it was."""
    if not (on_android() if android is None else android) or os.environ.get(DATA_DIR_ENV):
        return None
    os.environ[DATA_DIR_ENV] = user_data_dir
    return user_data_dir


def device_language() -> str:
    """The device's language code ("de"), from java.util.Locale through pyjnius; "" when it
    cannot be read (and off Android, where pyjnius is never imported)."""
    if not on_android():
        return ""
    try:
        from jnius import autoclass  # only inside the APK

        return str(autoclass("java.util.Locale").getDefault().getLanguage() or "")
    except Exception:  # pyjnius or the JVM not there: the environment's language stays
        log.warning("could not read the device's language", exc_info=True)
        return ""


def use_device_language(android: bool | None = None, read=device_language) -> str | None:
    """On Android the device's language is the system's (LANGUAGE, which choice.py reads
    first); returns the code set, None when nothing changed (not Android, or unreadable)."""
    if not (on_android() if android is None else android):
        return None
    code = read()
    if not code:
        return None
    os.environ["LANGUAGE"] = code
    return code


def keep_screen_on(on: bool, window=None) -> str:
    """Keeps the screen from sleeping (on=True) or lets it sleep again. Returns how: "android",
    "screensaver" (a desktop window) or "none". Never raises: a missing feature only logs."""
    if on_android():
        try:
            _android_keep_screen_on(on)
            return "android"
        except Exception:  # pyjnius or the activity not there: the screen just may sleep
            log.warning("could not %s the screen on", "keep" if on else "release", exc_info=True)
            return "none"
    if window is not None and hasattr(window, "allow_screensaver"):
        try:
            window.allow_screensaver = not on
            return "screensaver"
        except Exception:
            log.warning("could not change the screensaver setting", exc_info=True)
    return "none"


def _android_keep_screen_on(on: bool) -> None:
    from android.runnable import run_on_ui_thread  # p4a's module: only inside the APK
    from jnius import autoclass

    activity = autoclass("org.kivy.android.PythonActivity").mActivity

    @run_on_ui_thread
    def apply() -> None:  # a window's flags may only change on Android's UI thread
        window = activity.getWindow()
        if on:
            window.addFlags(FLAG_KEEP_SCREEN_ON)
        else:
            window.clearFlags(FLAG_KEEP_SCREEN_ON)

    apply()


def share_file(path: str, mime: str, title: str = "Share") -> str:
    """Offers a written file to other apps (BG Stats, a messenger) through the system's share
    sheet. Returns "android" when the sheet was opened, "none" elsewhere or when it could not be
    (the file stays where it was written, and the caller says so). On Android a file is shared
    as a content URI through androidx's FileProvider with the authority "<package>.fileprovider",
    which the APK declares (android/p4a_hook.py) for the exports folder; not yet tried on a
    device. A file outside that folder cannot be shared: "none"."""
    if not on_android():
        return "none"
    try:
        _android_share(path, mime, title)
        return "android"
    except Exception:  # no provider declared, pyjnius missing: the file is still written
        log.warning("could not open the share sheet for %s", path, exc_info=True)
        return "none"


def _android_share(path: str, mime: str, title: str) -> None:
    from jnius import autoclass, cast

    activity = autoclass("org.kivy.android.PythonActivity").mActivity
    Intent = autoclass("android.content.Intent")
    File = autoclass("java.io.File")
    FileProvider = autoclass("androidx.core.content.FileProvider")
    uri = FileProvider.getUriForFile(activity, activity.getPackageName() + FILE_PROVIDER_SUFFIX, File(path))
    intent = Intent(Intent.ACTION_SEND)
    intent.setType(mime)
    intent.putExtra(Intent.EXTRA_STREAM, cast("android.os.Parcelable", uri))
    intent.addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION)
    activity.startActivity(
        Intent.createChooser(intent, cast("java.lang.CharSequence", autoclass("java.lang.String")(title)))
    )


PICK_FILE_REQUEST = 0x4247  # the request code of the system file picker's answer (plays' restore)


def pick_file(mime: str, chosen, folder: str) -> str:
    """Opens the system's file picker (Android's ACTION_OPEN_DOCUMENT) for one file of `mime`; the
    file chosen is copied into `folder` and `chosen(path)` called with the copy, on Kivy's thread.
    Returns "android" when the picker was opened, "none" elsewhere or when it could not be (the
    caller then offers its own folder picker). Guarded, and not yet tried on a device."""
    if not on_android():
        return "none"
    try:
        _android_pick(mime, chosen, folder)
        return "android"
    except Exception:  # pyjnius or p4a's activity module missing: the caller's own picker
        log.warning("could not open the system file picker", exc_info=True)
        return "none"


def _android_pick(mime: str, chosen, folder: str) -> None:
    from jnius import autoclass
    from kivy.clock import Clock

    from android import activity as p4a_activity  # p4a's module: only inside the APK

    activity = autoclass("org.kivy.android.PythonActivity").mActivity
    Intent = autoclass("android.content.Intent")

    def answered(request: int, result: int, intent) -> None:
        if request != PICK_FILE_REQUEST:
            return
        p4a_activity.unbind(on_activity_result=answered)
        if result != -1 or intent is None:  # Activity.RESULT_OK is -1: anything else is a cancel
            return
        stream = activity.getContentResolver().openInputStream(intent.getData())
        target = os.path.join(folder, "picked-backup.zip")
        os.makedirs(folder, exist_ok=True)
        buffer = bytearray(64 * 1024)
        with open(target, "wb") as out:
            while True:
                n = stream.read(buffer)
                if n <= 0:
                    break
                out.write(bytes(buffer[:n]))
        stream.close()
        Clock.schedule_once(lambda *_: chosen(target))

    p4a_activity.bind(on_activity_result=answered)
    intent = Intent(Intent.ACTION_OPEN_DOCUMENT)
    intent.addCategory(Intent.CATEGORY_OPENABLE)
    intent.setType(mime)
    activity.startActivityForResult(intent, PICK_FILE_REQUEST)
