"""The home screen of a table that comes back, a finished game replayed, the player records
and the demo game (issue 26). `group_screens` is a scenario of its own (three games written
first, as a group leaves them) and is also run at the end of shape_scenarios.every_screen, the
launch that already visits every screen at each of the three shapes."""

from __future__ import annotations

import time

from layout_checks import check_screen


def _look(d, name: str):
    yield 0.2
    d.facts.setdefault("problems", {})[name] = check_screen()
    d.facts.setdefault("screens", []).append(name)
    d.shot(name)


def _turning_points(d, replay) -> dict:
    """The turning points listed and their buttons: each one on the window, none under the fold."""
    from kivy.core.window import Window

    buttons = list(reversed(replay.ids.turning_box.children))
    on_window = []
    for button in buttons:
        x, y = button.to_window(button.x, button.y)
        on_window.append(0 <= x and 0 <= y and x + button.width <= Window.width and y + button.height <= Window.height)
    return {"listed": len(replay.turning), "buttons": len(buttons), "on_window": sum(on_window)}


def replay_and_records(d):
    """From the home screen (it lists a finished game): replay it, step and jump through it,
    timing a step's drawing; then the player records and the demo game."""
    from kivy.base import EventLoop

    d.app.root.current = "home"
    yield 0.3
    yield from _look(d, "home_recent_games")
    d.tap("Replay", exact=True)
    yield 0.3
    assert d.current == "replay", d.current
    replay = d.screen("replay")
    assert replay.step == replay.last > 0
    yield from _look(d, "replay_end")
    d.facts["turning_points"] = _turning_points(d, replay)
    d.tap("Round back")
    d.tap("Round back")
    yield 0.2
    middle = replay.step
    assert 0 < middle < replay.last
    yield from _look(d, "replay_middle")
    times = []
    for n in range(1, min(replay.last, 40)):
        t0 = time.perf_counter()
        replay.show(n)
        EventLoop.idle()  # the map and the plot drawn: the frame that shows the step
        times.append(time.perf_counter() - t0)
    d.facts["replay_step_ms"] = sorted(times)[len(times) // 2] * 1000
    d.facts["replay_step_max_ms"] = max(times) * 1000
    if replay.can_export:  # a finished saved game: a folder picked by taps, then written into it
        (d.shots / "exports").mkdir(parents=True, exist_ok=True)
        replay.folder = str(d.shots)
        d.tap("Folder: ")
        yield 0.2
        yield from _look(d, "replay_folder_picker")
        d.tap("exports", exact=True)
        yield 0.1
        d.tap("Write here", exact=True)
        yield 0.2
        d.facts["folder_chosen"] = replay.folder
        d.tap("For BG Stats")
        d.tap("Picture")
        yield 0.2
        d.facts["exported"] = sorted(p.name for p in (d.shots / "exports").iterdir())
        d.facts["export_message"] = replay.export_message
    d.tap_widget(_first_turning_point(d))
    yield 0.2
    d.facts["turning_step"] = replay.step
    d.tap("Back", exact=True)
    yield 0.2
    d.tap("Player records")
    yield 0.2
    assert d.current == "stats"
    d.facts["stats_text"] = d.screen("stats").text
    yield from _look(d, "player_records")
    yield from sort_and_open_a_record(d)
    d.tap("Back", exact=True)
    yield 0.2
    d.tap("Watch the demo")
    yield 0.3
    assert d.current == "replay" and replay.step == 0, (d.current, replay.step)
    d.tap("Step on")
    d.tap("Step on")
    yield 0.2
    d.facts["demo_step"] = replay.step
    yield from _look(d, "demo_game")
    d.tap("Back", exact=True)
    yield 0.2
    yield from known_players_at_new_game(d)


def sort_and_open_a_record(d):
    """The records' table sorted by a heading's tap, and a player's row opened (their points' sources)."""
    from companion.ui.screens.stats import RecordLine

    stats = d.screen("stats")
    d.tap("Best")
    yield 0.2
    d.facts["records_sorted"] = list(stats.sort)
    d.tap_widget(next(w for w in d.widgets() if isinstance(w, RecordLine)))
    yield 0.2
    d.facts["records_detail"] = [w.text for w in d.widgets() if type(w).__name__ == "RecordDetail"]
    yield from _look(d, "player_records_sorted")


def known_players_at_new_game(d):
    """The people of earlier games offered at a new game: one tap seats one at their colour."""
    d.tap("New game")
    yield 0.3
    setup = d.screen("setup")
    known = [b.text for b in setup.ids.known.children][::-1]
    d.facts["known_players"] = known
    for row in setup.rows.values():
        row.name = ""
        row.ids.name.text = ""
    yield 0.1
    yield from _look(d, "setup_known_players")
    d.tap(known[0], exact=True)
    yield 0.1
    d.facts["seated"] = {c: r.name for c, r in setup.rows.items() if r.name}
    d.tap(known[0], exact=True)  # again: already seated, said in one line
    d.facts["seated_again"] = setup.message
    d.app.root.current = "home"
    yield 0.2


def group_screens(d):
    d.facts = {}
    yield from replay_and_records(d)


def _first_turning_point(d):
    """The first turning point's button ("1. Round 6, ..." in any language)."""
    from kivy.uix.button import Button

    return next(w for w in d.widgets() if isinstance(w, Button) and d.visible(w) and w.text.startswith("1. "))
