"""The plays' widgets drawn by Kivy without running the app (test_play_code.py runs this on a
virtual display of its own): BG Stats' code of a finished game and its line, the code's view of
its own, an unfinished game's line, and Settings with its Back up and Restore buttons; the end
and replay screens' rules load with the plays' hunks in them.

    python play_code_worker.py GAMES_FOLDER RESULT_JSON
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import companion.ui.app  # noqa: F401  (Kivy's config, common.kv and the window, as the app has them)

# isort: split
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.button import Button

from companion.history.records import read_record
from companion.plays.play_code import PlayCode, open_play_code


def frames(n: int = 4) -> None:
    for _ in range(n):
        EventLoop.idle()


def main() -> int:
    folder, result = Path(sys.argv[1]), Path(sys.argv[2])
    EventLoop.ensure_window()
    # by what each game is, not by its file's name: both are made in the same second and a name's
    # tail is random, so the order of the names is not the order they were made in
    records = [read_record(p) for p in folder.glob("*.jsonl")]
    finished = next(r for r in records if r.finished)
    unfinished = next(r for r in records if not r.finished)
    found = {}
    code = PlayCode()
    Window.add_widget(code)
    found["shown"] = code.show(finished)
    frames()
    found["texture"] = list(code.picture.texture.size) if code.picture.texture else None
    found["picture"] = list(code.picture.size)
    found["words"] = code.words.text
    found["height"] = code.height
    found["link"] = code.link
    found["unfinished_shown"] = code.show(unfinished)
    found["unfinished_words"] = code.words.text
    found["unfinished_opacity"] = code.picture.opacity
    Window.remove_widget(code)
    view = open_play_code(finished)
    frames()
    found["view_buttons"] = [w.text for w in view.walk() if isinstance(w, Button)]
    view.dismiss()
    from companion.ui.dialogs.settings import Settings

    settings = Settings()
    settings.open()
    frames()
    found["settings_buttons"] = [w.text for w in settings.walk() if isinstance(w, Button)]
    settings.dismiss()
    import companion.ui.screens.end
    import companion.ui.screens.replay  # noqa: F401

    found["screens_loaded"] = True
    result.write_text(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
