"""The real app started on a games folder full of damaged logs (run under Xvfb by
test_damaged_home.py), driven by synthetic touches with app_driver's Driver:

    python damaged_home_driver.py SHOTS_DIR RESULT_JSON KEEP_ASIDE_NAME OPEN_NAME

It checks the home screen lists every log, keeps one unopenable game aside and
opens a damaged one up to its last intact record; the result file says "ok" or
the failure, with what it saw.
"""
from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from app_driver import Driver  # noqa: E402  (imports companion.app first: Kivy's config)


def _row(d, file_name: str):
    from companion.ui.home_screen import GameRow
    rows = [w for w in d.widgets() if isinstance(w, GameRow) and f"[{file_name}]" in w.title]
    assert len(rows) == 1, f"{len(rows)} rows for {file_name}"
    return rows[0]


def _tap_in_row(d, file_name: str, label: str):
    row = _row(d, file_name)
    button = next((b for b in row.ids.choices.children if b.text.startswith(label)), None)
    assert button is not None, f"{file_name}: no {label!r} among {[b.text for b in row.ids.choices.children]}"
    d.screen("home").ids.games.parent.scroll_to(row, animate=False)
    return button


def scenario(d, keep_name: str, open_name: str):
    from companion.store import games_dir
    yield 0.5
    assert d.current == "home", d.current
    home = d.screen("home")
    d.shot("home_damaged_logs")
    from companion.ui.home_screen import GameRow
    rows = [w for w in d.widgets() if isinstance(w, GameRow)]
    logs = sorted(p.name for p in games_dir().glob("*.jsonl"))
    d.facts = {"rows": len(rows), "logs": len(logs),
               "damaged_rows": sum(r.damaged for r in rows),
               "statuses": {r.title: r.status for r in rows}, "heading": home.games_heading}
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


def run(shots: Path, result: Path, keep_name: str, open_name: str) -> int:
    from companion.app import ElGrandeApp
    from kivy.clock import Clock

    outcome = {"status": "running"}

    def start(app):
        driver = Driver(app, shots)
        steps = scenario(driver, keep_name, open_name)

        def step(dt):
            try:
                wait = next(steps)
            except StopIteration:
                outcome.update(status="ok", **driver.facts)
                app.stop()
                return
            except Exception as exc:
                outcome.update(status="failed", error=f"{type(exc).__name__}: {exc}", trace=traceback.format_exc(),
                               **getattr(driver, "facts", {}))
                try:
                    driver.shot("failure")
                except Exception:
                    pass
                app.stop()
                return
            Clock.schedule_once(step, wait)

        Clock.schedule_once(step, 0.3)

    ElGrandeApp(driver=start).run()
    result.write_text(json.dumps(outcome))
    return 0 if outcome["status"] == "ok" else 1


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]))
