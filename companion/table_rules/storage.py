"""The rules folder in the user data folder: where the table's rule files live, read and written
whole. Below the modules that keep their files here: rules_choice, board_file, card_file and
ki_cards (companion.table_rules)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.storage.files import SaveFailed, data_dir, replace_durably, storage_trouble
from companion.words import _

RULES_FOLDER = "rules"
MAX_FILE_BYTES = 1024 * 1024  # a card file is a few KB; bounds what an import reads


class RuleFileError(ValueError):
    """An entry or file the table's board or card set cannot take; one line for the table."""


def rules_folder() -> Path:
    return data_dir() / RULES_FOLDER


def exports_folder() -> Path:
    """Where an exported card set is written (to copy to another tablet)."""
    return data_dir() / "exports"


def read_json(path: Path) -> Any:
    """A JSON file's content, None when there is none; RuleFileError naming what is wrong."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise RuleFileError(
                _("{file}: {size} bytes is too big for a rules file (at most {most} KB)").format(
                    file=path.name, size=path.stat().st_size, most=MAX_FILE_BYTES // 1024
                )
            )
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise RuleFileError(_("{file}: not a text file (a JSON file is UTF-8 text)").format(file=path.name)) from None
    except OSError as exc:
        raise RuleFileError(
            _("{file}: cannot be read ({why})").format(file=path.name, why=exc.strerror or exc)
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        words = _("{file}: not JSON (line {line}, column {column}: {why})")
        raise RuleFileError(words.format(file=path.name, line=exc.lineno, column=exc.colno, why=exc.msg)) from None


def write_json(path: Path, data: Any) -> None:
    """Written whole or not at all (a new file, synced, then renamed over the old one). A full or
    read-only storage is a RuleFileError in the table's words (no path), the old file kept."""
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_durably(path, text.encode("utf-8"))
    except SaveFailed as exc:
        raise RuleFileError(exc.words("this entry")) from None
    except OSError as exc:  # the folder cannot be made
        raise RuleFileError(storage_trouble(exc, "this entry")) from None
