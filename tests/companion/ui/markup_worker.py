"""The app's markup labels given hostile names, without running the app (test_markup_labels.py
runs this on a virtual display of its own): each label as the screen builds it, laid out at a
tablet's width, and what Kivy drew: its height, its tallest line and the words on its lines.

    python markup_worker.py GAMES_FOLDER RESULT_JSON

GAMES_FOLDER holds two finished games of the same seed: one with plain names, one with hostile
ones (the names file beside them says which is which)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import companion.ui.app  # noqa: F401  (Kivy's config, common.kv and the window, as the app has them)

# isort: split
from kivy.uix.label import Label

from companion.history.records import read_record, replay_log, statistics

WIDTH = 600


def drawn(label: Label, width: float = WIDTH) -> dict:
    """The label laid out at `width`: its height, its tallest line, and its words as drawn."""
    label.width = width
    label.text_size = (width, None)
    label.texture_update()
    lines = label._label._cached_lines
    return {
        "height": label.texture_size[1],
        "tallest_line": max((ln.h for ln in lines), default=0),
        "lines": len(lines),
        "text": "\n".join("".join(w.text for w in ln.words) for ln in lines),
    }


def walk(widget):
    yield widget
    for child in widget.children:
        yield from walk(child)


def replay_labels(path: Path) -> dict:
    from companion.ui.screens.replay import ReplayScreen

    screen = ReplayScreen(size=(1280, 800))
    screen.open_replay(replay_log(path), "a game", record=read_record(path))
    found = {}
    for widget in walk(screen):
        if isinstance(widget, Label) and widget.markup:
            key = (
                "turning"  # a turning point's button
                if widget in screen.ids.turning_box.children
                else "standings"
                if widget.text == screen.standings
                else "scoring"
            )
            shown = drawn(widget)
            if key == "turning" and key in found:  # the turning points' buttons, as one list
                was = found[key]
                shown = {
                    "height": was["height"] + shown["height"],
                    "tallest_line": max(was["tallest_line"], shown["tallest_line"]),
                    "lines": was["lines"] + shown["lines"],
                    "text": was["text"] + "\n" + shown["text"],
                }
            found[key] = shown
    return found


def name_cell(name: str) -> dict:
    """The table screen's score row: a player's name (wrapped after hyphens) and VETO."""
    from companion.ui.widgets.score_panel import ScorePanel, score_cell

    cell = score_cell("", markup=True, halign="left")
    cell.width = 180
    cell.text_size = (180, None)
    cell.words = (name, "  [b][color=8a1c0c]VETO[/color][/b]")
    ScorePanel.fit_name(cell)
    return drawn(cell, 180)


def other_labels(path: Path, name: str) -> dict:
    from companion.ui.screens.home import player_chip
    from companion.ui.screens.stats import stats_text
    from companion.ui.widgets.phone_check import PhoneCheck

    record = read_record(path)
    check = {
        "seat": "red",
        "phone": 1,
        "question": f"Is this {name}'s phone?",
        "detail": f"Its screen shows 1234 ({name})",
    }
    row = PhoneCheck._row(type("Dialog", (), {"answer": lambda *a: None})(), check)
    question = next(w for w in walk(row) if isinstance(w, Label) and w.markup)
    return {
        "home": drawn(
            Label(
                text="\n".join(player_chip(p.id, p.name, p.score, p.winner).words for p in record.players),
                markup=True,
                font_size="16sp",
            )
        ),
        "stats": drawn(Label(text=stats_text(statistics([record])), markup=True, font_size="16sp")),
        "phone_check": drawn(question),
        "name_cell": name_cell(name),
    }


def name_typed(pasted: str) -> str:
    """What the setup's name field keeps of a paste."""
    from kivy.clock import Clock

    from companion.ui.screens.setup import NameInput

    field = NameInput(multiline=False)
    Clock.tick()  # a text input takes text once its lines are made (the next frame)
    field.insert_text(pasted)
    Clock.tick()
    return field.text


def main(folder: str, result: str) -> None:
    games = json.loads((Path(folder) / "names.json").read_text())
    out = {"name_typed": name_typed("[size=200]Ana\x1b[31m\x00\u202e\x07 Bel and more than twenty-two")}
    for kind, game in games.items():
        path = Path(folder) / game["file"]
        out[kind] = {**replay_labels(path), **other_labels(path, game["names"][0])}
    Path(result).write_text(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:3])
