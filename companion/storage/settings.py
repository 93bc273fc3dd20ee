"""The tablet's own settings (the theme, the language), kept in settings.json in the data folder.

Written whole or not at all (files.replace_durably); a damaged or foreign file reads as the
defaults, so a bad file never stops the app. An unknown value is refused with a line that says
what was wrong."""

from __future__ import annotations

import json

from companion.look.tokens import DEFAULT_THEME, THEME_NAMES
from companion.storage.files import data_dir, replace_durably
from companion.words.catalogue import LANGUAGES, _

SETTINGS_FILE = "settings.json"
THEME_ENV = "ELGRANDE_THEME"  # day or evening: wins over the kept choice (a test, a screenshot)
# "system": the system's language (companion/words/choice.py); ELGRANDE_LANG wins over both.
DEFAULTS = {"theme": DEFAULT_THEME, "language": "system"}
CHOICES = {"theme": tuple(THEME_NAMES), "language": ("system", *LANGUAGES)}


class SettingRefused(ValueError):
    """A setting the app does not know, or a value it does not offer."""


def load_settings() -> dict:
    """The kept settings over the defaults; anything unreadable or unknown is left at its default."""
    settings = dict(DEFAULTS)
    try:
        kept = json.loads((data_dir() / SETTINGS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return settings
    if isinstance(kept, dict):
        settings.update({k: v for k, v in kept.items() if k in CHOICES and v in CHOICES[k]})
    return settings


def save_setting(key: str, value: str) -> dict:
    """Keep one setting (SaveFailed when the storage refuses: nothing changed); the settings now."""
    if key not in CHOICES:
        raise SettingRefused(_("There is no setting called “{key}”").format(key=key))
    if value not in CHOICES[key]:
        offered = ", ".join(CHOICES[key])
        raise SettingRefused(
            _("“{value}” is not a choice for the {setting} (the choices: {offered})").format(
                value=value, setting=key, offered=offered
            )
        )
    settings = load_settings() | {key: value}
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    replace_durably(folder / SETTINGS_FILE, json.dumps(settings, indent=1).encode())
    return settings
