"""Which language the table reads: ELGRANDE_LANG (the command line, a test, a screenshot) wins
over the choice kept in settings, which wins over the system's language; anything the app does
not speak is English."""

from __future__ import annotations

import locale
import os

from companion.words.catalogue import normalise

LANG_ENV = "ELGRANDE_LANG"


def system_language() -> str:
    """The system's language: the usual environment variables, then the C library's locale; on
    Android, the device's (companion/ui/platform/android.py passes it in)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        for part in value.split(":"):
            if part and part not in ("C", "POSIX") and not part.startswith("C."):
                return normalise(part)
    try:
        return normalise(locale.getlocale()[0])
    except ValueError:
        return "en"


def chosen_language(kept: str | None = None) -> str:
    """The language to speak now: ELGRANDE_LANG, else the kept setting ("system" or empty: the
    system's), else the system's."""
    forced = os.environ.get(LANG_ENV)
    if forced:
        return normalise(forced)
    if kept and kept != "system":
        return normalise(kept)
    return system_language()


def start_language() -> str:
    """Speak the chosen language from now on (the app's start, the command line's); its code."""
    from companion.storage.settings import load_settings
    from companion.words.catalogue import use_language

    return use_language(chosen_language(load_settings()["language"]))
