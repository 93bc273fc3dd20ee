"""The real app on a games folder full of damaged logs (a scenario run by app_driver.py as
"damaged_home_driver:damaged_home", test_damaged_home.py), driven by synthetic touches.

The data folder holds the damaged games and NAMES_FILE, which names the game to keep aside
and the one to open. It checks the home screen lists every log, keeps one unopenable game
aside and opens a damaged one up to its last intact record; the facts say what it saw.
"""

from __future__ import annotations

import json

NAMES_FILE = "damaged_names.json"  # {"keep": file name, "open": file name}, in the data folder


def _row(d, file_name: str):
    from companion.ui.screens.home import GameRow

    rows = [w for w in d.widgets() if isinstance(w, GameRow) and w.file_name == file_name]
    assert len(rows) == 1, f"{len(rows)} rows for {file_name}"
    return rows[0]


def _tap_in_row(d, file_name: str, label: str):
    row = _row(d, file_name)
    button = next((b for b in row.ids.choices.children if b.text.startswith(label)), None)
    assert button is not None, f"{file_name}: no {label!r} among {[b.text for b in row.ids.choices.children]}"
    d.screen("home").ids.games.parent.scroll_to(row, animate=False)
    return button


def scenario(d, keep_name: str, open_name: str):
    from companion.storage.files import games_dir

    yield 0.5
    assert d.current == "home", d.current
    home = d.screen("home")
    d.shot("home_damaged_logs")
    from companion.ui.screens.home import GameRow

    rows = [w for w in d.widgets() if isinstance(w, GameRow)]
    logs = sorted(p.name for p in games_dir().glob("*.jsonl"))
    d.facts = {
        "rows": len(rows),
        "logs": len(logs),
        "damaged_rows": sum(r.damaged for r in rows),
        "statuses": {r.title: r.status for r in rows},
        "heading": home.games_heading,
    }
    assert len(rows) == len(logs), (len(rows), len(logs))

    button = _tap_in_row(d, keep_name, "Keep aside")
    yield 0.2
    d.tap_widget(button)
    yield 0.3
    assert not (games_dir() / keep_name).exists(), "kept aside, but still in the folder"
    assert "kept aside as" in home.message, home.message
    assert len([w for w in d.widgets() if isinstance(w, GameRow)]) == len(logs) - 1
    d.facts["kept_aside"] = sorted(p.name for p in games_dir().iterdir() if p.name.startswith(keep_name + "."))
    d.shot("home_after_keep_aside")

    button = _tap_in_row(d, open_name, "Open up to record")
    d.facts["open_label"] = button.text
    yield 0.2
    d.tap_widget(button)
    yield 1.5
    assert d.current == "table", f"still on {d.current}: {home.message}"
    d.facts["opened_records"] = len(d.model.table.records)
    d.facts["opened_message"] = d.model.message
    d.shot("table_opened_up_to_the_damage")


def damaged_home(d):
    from companion.storage.files import data_dir

    names = json.loads((data_dir() / NAMES_FILE).read_text())
    yield from scenario(d, names["keep"], names["open"])
