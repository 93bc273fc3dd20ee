"""The demo's teacher (DemoTeacher, with its PieceKey open) drawn by Kivy at a few widths and both
themes, without running the app (test_piece_key.py runs this on a virtual display of its own):
what each width laid out (every entry's box, the labels' text against their room, the toggle's
height) and, with a folder given, a picture of each.

    python piece_key_worker.py RESULT_JSON [PICTURES_FOLDER]
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import companion.ui.app  # noqa: F401  (Kivy's config, common.kv and the window, as the app has them)

# isort: split
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label

from companion.history.records import demo_replay, replay_events
from companion.ui.theme import THEME, use
from companion.ui.widgets.demo_teacher import DemoTeacher
from companion.ui.widgets.piece_key import PieceEntry
from engine.playout import play_random_game

WIDTHS_DP = (320, 480, 760)  # a portrait side column, a landscape side panel, a portrait full width
STEP = 8  # Green's placement: two Caballeros go into the Castillo


def frames(n: int = 4) -> None:
    for _ in range(n):
        EventLoop.idle()


def walk(widget):
    yield widget
    for child in widget.children:
        yield from walk(child)


def box(w) -> list[float]:
    x, y = w.to_window(w.x, w.y)
    return [round(x, 1), round(y, 1), round(w.width, 1), round(w.height, 1)]


def laid_out(teacher: DemoTeacher) -> dict:
    key = teacher.ids.key
    entries = [w for w in walk(teacher) if isinstance(w, PieceEntry)]
    labels = [w for w in walk(teacher) if isinstance(w, Label) and w.text and w.get_root_window()]
    return {
        "kinds": key.kinds(),
        "shown_kinds": [e.kind for e in entries if e.get_root_window()],
        "entries": [box(e) for e in entries if e.get_root_window()],
        "toggle_height_dp": key.ids.toggle.height / dp(1),
        "teacher": box(teacher),
        "labels": [{"text": w.text[:60], "texture": list(w.texture_size), "size": [w.width, w.height]} for w in labels],
    }


def main() -> int:
    result = Path(sys.argv[1])
    pictures = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    EventLoop.ensure_window()
    replay = demo_replay()
    found: dict = {}
    root = FloatLayout()
    Window.add_widget(root)
    for theme in ("day", "evening"):
        use(THEME, theme)
        for width in WIDTHS_DP:
            root.clear_widgets()
            teacher = DemoTeacher(size_hint=(None, None), width=dp(width), pos=(dp(8), dp(8)))
            with root.canvas.before:
                root.canvas.before.clear()
                Color(*THEME.background)
                Rectangle(pos=(0, 0), size=Window.size)
            root.add_widget(teacher)
            teacher.show(replay, STEP, True)
            closed_height = (frames(), teacher.height)[1]
            teacher.ids.key.toggle()
            frames(6)
            found[f"{theme}-{width}"] = {**laid_out(teacher), "closed_height": closed_height}
            if pictures is not None:
                pictures.mkdir(parents=True, exist_ok=True)
                teacher.export_to_png(str(pictures / f"demo_teacher_{theme}_{width}dp.png"))
    quiet = DemoTeacher(size_hint=(None, None), width=dp(480))
    root.clear_widgets()
    root.add_widget(quiet)
    setup, events, _ = play_random_game(random.Random(1), 4, check=False)
    quiet.show(replay_events(setup, events), STEP, False)  # a game of the table's, not the demo
    frames()
    found["not_demo"] = {"height": quiet.height, "children": len(quiet.children), "text": quiet.text}
    result.write_text(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
