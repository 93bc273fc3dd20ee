"""The 2023 edition's and King and Intrigue's screens for the screen catalogue (issue 23): one
visit, `visit_every_2023_and_ki_screen(d)`, run by the catalogue's launch at each tablet shape
after the classic visits. It starts on the home screen with no game open and ends there, and
shows every 2023 and King and Intrigue screen, prompt and sheet, each checked as it is shown
(layout_checks.py: targets >= 48 dp, overlaps, cut words; the map's marks) and kept as a PNG:

  - a 2023 game's first two rounds by taps, 2 players and the dummy, New Regency and Power
    Shift (scenarios_2023: every new prompt, the card added at the table, the dummy's Region
    cards refused twice, the board corrected with the King in Portugal), then a first game from
    the shipped data learning the box (empty stacks, a card named, a card not in the list);
  - King and Intrigue: the new-game screen, Your cards (the modules' cards too), the table
    through its setup and first turns, the markers on the map (ki_scenarios.look_at_ki_screens);
  - King and Intrigue's board entry in scoring-only mode with its marker buttons
    (ki_scoring_scenarios.ki_board_entry_shape);
  - the 2023 map at four 2023 positions and the classic map again (map_2023_scenarios).

What each part proves at this shape is asserted here, in the app (a failed check fails the
launch, naming it); the catalogue's test checks the problems found and every picture. Each
part runs in a data folder of its own (nothing the classic visits entered, e.g. Your cards,
changes what a first 2023 game finds) and leaves its pictures in a folder of its own under
the launch's."""

from __future__ import annotations

import os
from pathlib import Path

from checks_2023_ki import KI_MARKER_TAGS, ki_markers_entered_by_taps, learned_the_box, map_2023_checks
from scenarios import _wait_for
from words_match import is_

DATA_DIR_ENV = "ELGRANDE_DATA_DIR"  # companion.storage.files'; the app reads it each time


def home_again(d):
    """Every dialog closed, the open game closed (saved, as Leave does), the phone server stopped,
    the new-game screen made afresh, the home screen shown (as app_driver.back_home does between
    the catalogue's visits)."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    from companion.ui.screens.setup import SetupScreen

    for view in [w for w in Window.children if isinstance(w, ModalView)]:
        view.dismiss()
    table = d.model._close_game()
    if table is not None:
        table.close()
    if d.model.phones is not None:
        d.model.phones.stop()
        d.model.phones, d.model.phone_seats = None, {}
    d.model._refresh()
    d.app.root.current = "home"
    manager = d.app.root
    manager.remove_widget(manager.get_screen("setup"))
    manager.add_widget(SetupScreen(name="setup", model=d.model))
    yield 0.3
    home = d.screen("home")
    if hasattr(home, "refresh"):
        home.refresh()
    yield from _wait_for(d, lambda: d.current == "home" and d.model.table is None, 30)
    yield 0.1


def _part(d, name: str, scenario, found: dict):
    """One part from home back to home, in a data folder and a pictures folder of its own; its
    facts returned, its problems and screens gathered in `found` (by "part/screen")."""
    shots, data = d.shots, os.environ.get(DATA_DIR_ENV)
    d.shots = shots / name
    d.shots.mkdir(parents=True, exist_ok=True)
    os.environ[DATA_DIR_ENV] = str(Path(data or d.shots) / f"catalogue-{name}")
    facts_before = getattr(d, "facts", None)
    d.facts = {}
    try:
        yield from scenario(d)
        facts = d.facts
    finally:
        d.shots = shots
        if data is None:
            os.environ.pop(DATA_DIR_ENV, None)
        else:
            os.environ[DATA_DIR_ENV] = data
    for screen, problems in facts.get("problems", {}).items():
        found.setdefault("problems", {})[f"{name}/{screen}"] = problems
        found.setdefault("screens", []).append(f"{name}/{screen}")
    d.facts = facts_before
    yield from home_again(d)
    return facts


def several(d, parts):
    """Several scenarios one after another in one launch (issue 23: one launch, several tests
    reading its outcome), each as `_part` runs it. d.facts["parts"]: each one's facts under its
    name with its status; one that fails is reported as such (with its trace, and a picture
    "failure_<name>"), and the next ones still run."""
    import traceback

    results: dict = {}
    yield 0.3
    for name, scenario in parts:
        try:
            facts = yield from _part(d, name, scenario, {})
            results[name] = {**facts, "status": "ok"}
        except Exception as exc:
            results[name] = {
                "status": "failed",
                "error": f"{type(exc).__name__}: {exc}",
                "trace": traceback.format_exc(),
            }
            try:
                d.shot(f"failure_{name}")
                yield from home_again(d)
            except Exception as again:  # the app cannot go on: the parts left are said not run
                results[name]["then"] = f"home_again failed: {again!r}"
                break
    d.facts = {"parts": results}


# ---- what each part proves at this shape ------------------------------------------------------

NEW_PROMPT_SHOTS = (
    "start_colour_notes",
    "private_deal_modifiers",
    "prompt_dummy_region_cards",
    "add_card",
    "reveal_sheet",
    "prompt_play_power_card",
    "sub_modifier",
    "notice",
    "prompt_move_grande",
    "correction_king_in_portugal",
    "reveal_sheet_empty_stacks",
    "name_card",
    "add_card_compact",
    "reveal_sheet_learned",
    "card_facts",
)


def first_2023_rounds(d):
    """scenarios_2023.first_rounds (its learning of the box included), checked."""
    from scenarios_2023 import first_rounds

    yield from first_rounds(d)
    learned_the_box(d.facts["learning"])
    missing = [name for name in NEW_PROMPT_SHOTS if not (d.shots / f"{name}.png").exists()]
    assert not missing, (missing, sorted(d.facts["problems"]))


KI_SCREENS = (
    "ki_shape_setup",
    "ki_shape_cards",
    "ki_shape_cards_modules",
    "ki_shape_cards_module_choice",
    "ki_shape_secret_disc",
    "ki_shape_choose_power_cards",
    "private_choose_power_cards",
    "ki_shape_play_power_card",
    "ki_shape_replenish",
    "ki_shape_turn_action",
    "ki_shape_markers",
)


def every_ki_screen(d):
    """ki_scenarios.look_at_ki_screens, checked: the markers' tags, the reversed scoreboard."""
    from ki_scenarios import look_at_ki_screens

    yield from look_at_ki_screens(d)
    tags = [list(t) for t in d.facts["marker_tags"]]  # in the language in use
    assert [area for area, _tag in tags] == [area for area, _tag in KI_MARKER_TAGS], tags
    assert all(is_(tag, english) for (_a, tag), (_b, english) in zip(tags, KI_MARKER_TAGS)), tags
    assert d.facts["reversed_mobile"] == ["0·4·8 rev."], d.facts["reversed_mobile"]
    missing = [name for name in KI_SCREENS if name not in d.facts["screens"]]
    assert not missing, (missing, d.facts["screens"])


def ki_marker_buttons(d):
    """ki_scoring_scenarios.ki_board_entry_shape, checked as test_app_ki_scoring checks it."""
    from ki_scoring_scenarios import ki_board_entry_shape

    yield from ki_board_entry_shape(d)
    ki_markers_entered_by_taps(d.facts)


def the_2023_map(d):
    """map_2023_scenarios.map_2023, checked (map_2023_checks, as test_map_2023 checks it)."""
    from map_2023_scenarios import map_2023

    yield from map_2023(d)
    from kivy.core.window import Window

    map_2023_checks(d.facts, d.shots, tuple(Window.size))


PARTS = (
    ("2023_first_rounds", first_2023_rounds),
    ("ki_screens", every_ki_screen),
    ("ki_marker_buttons", ki_marker_buttons),
    ("map_2023", the_2023_map),
)


def visit_every_2023_and_ki_screen(d):
    """Every 2023 and King and Intrigue screen at this shape, from the home screen (no game
    open) back to it; d.facts gets "problems" and "screens" (by "part/screen") and "parts_2023_ki"."""
    assert d.current == "home" and d.model.table is None, (d.current, d.model.table)
    found: dict = {}
    for name, part in PARTS:
        yield from _part(d, name, part, found)
        found.setdefault("parts_2023_ki", []).append(name)
    d.facts = getattr(d, "facts", None) or {}
    d.facts.setdefault("problems", {}).update(found["problems"])
    d.facts.setdefault("screens", []).extend(found["screens"])
    d.facts["parts_2023_ki"] = found["parts_2023_ki"]


def catalogue_alone(d):
    """The visit on its own (test_catalogue_2023_ki.py): the app starts on the home screen."""
    d.facts = {}
    yield 0.3
    yield from visit_every_2023_and_ki_screen(d)
    assert d.current == "home" and d.model.table is None, (d.current, d.model.table)
