"""The tablet's own facts a logged play carries: its owner (BG Stats' "me": one of the known
players, or the table itself when nobody is chosen), its location (where the table plays) and
the owner's BoardGameGeek user name (the BGG CSV's username on the owner's row).
Kept in plays.json in the data folder, written whole or not at all (files.replace_durably); an
unreadable file reads as nothing chosen, so a bad file never stops an export."""

from __future__ import annotations

import json

from companion.storage.files import data_dir, replace_durably
from companion.words import _, ngettext

PLAYS_FILE = "plays.json"
KEYS = ("owner", "location", "bgg_username")  # bgg_username: the owner's BoardGameGeek user name
MAX_CHARS = 80  # a name or a place, not a text


class PlaysSettingRefused(ValueError):
    """A value the owner or the location cannot take (one line for the table)."""


def plays_settings() -> dict[str, str]:
    """The owner and the location ("" when none is chosen)."""
    try:
        kept = json.loads((data_dir() / PLAYS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = {}
    if not isinstance(kept, dict):
        kept = {}
    return {k: kept[k].strip() if isinstance(kept.get(k), str) else "" for k in KEYS}


def save_plays_setting(key: str, value: str, known: list[str] | None = None) -> dict[str, str]:
    """Keep the owner (one of `known`, the known players' names, when given; "" for the table) or
    the location. SaveFailed when the storage refuses: nothing changed."""
    if key not in KEYS:
        raise PlaysSettingRefused(_("There is no setting called “{key}”").format(key=key))
    value = " ".join(value.split())
    if len(value) > MAX_CHARS:
        raise PlaysSettingRefused(
            ngettext("At most {n} character, please", "At most {n} characters, please", MAX_CHARS).format(n=MAX_CHARS)
        )
    if key == "owner" and value and known is not None:
        spelled = {name.strip().casefold(): name.strip() for name in known}
        if value.casefold() not in spelled:
            raise PlaysSettingRefused(
                _("“{name}” has not played on this tablet yet: the owner is one of the known players").format(
                    name=value
                )
            )
        value = spelled[value.casefold()]
    settings = plays_settings() | {key: value}
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    replace_durably(folder / PLAYS_FILE, json.dumps(settings, indent=1, ensure_ascii=False).encode("utf-8"))
    return settings
