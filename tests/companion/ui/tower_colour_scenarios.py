"""Teaching the tower a 2023 table's colours in the real app under Xvfb (test_tower_panel_colours.py):
the start offers it, the teaching screen asks cube by cube, each colour is said learnt, no cube
taught is a Castillo drop, and purple is then counted by the simulated tower. `teach_by_throwing`
is how the other 2023 scenarios teach the tower from its panel."""

from __future__ import annotations

from scenarios import PATIENCE, _wait_for
from scenarios_2023 import start_2023_game
from words_match import says, throw_button


def _panel(d, kind):
    [panel] = [w for w in d.widgets() if isinstance(w, kind)]
    return panel


def teach_by_throwing(d):
    """With the teaching screen open: throw each cube it asks for (the tower's doing, not a tap)
    until it is done. Returns the colours thrown."""
    from companion.ui.widgets.teach_panel import TeachPanel

    thrown = []
    teaching = d.model.tower_link.teaching
    yield from _wait_for(d, lambda: teaching.view().throw, PATIENCE)
    while teaching.view().busy:
        view = teaching.view()
        d.tower_drop(view.throw)
        thrown.append(view.throw)
        yield from _wait_for(
            d,
            lambda was=view: (lambda v: (v.got, v.throw, v.busy) != (was.got, was.throw, True))(teaching.view()),
            PATIENCE,
        )
    # the tower's last answer reaches the panel from the link's thread: real time, not frames
    yield from _wait_for(
        d,
        lambda: says(_panel(d, TeachPanel).headline, "Done: the tower knows {colours}"),
        PATIENCE,
        saw=lambda: _panel(d, TeachPanel).headline,
    )
    return thrown


def teach_from_the_tower_panel(d):
    """Tower:, Calibrate the colours (the teaching starts), the cubes, Back to the game, Close."""
    d.tap("Tower:")
    yield 0.3
    d.tap("Calibrate the colours")
    yield 0.2
    thrown = yield from teach_by_throwing(d)
    d.tap("Back to the game")
    yield 0.2
    d.tap("Close")
    yield 0.2
    return thrown


def calibrate_a_2023_table(d):
    from companion.ui.widgets.teach_panel import TeachPanel
    from companion.ui.widgets.tower_panel import TowerPanel

    d.facts = getattr(d, "facts", {})
    yield from start_2023_game(d)  # purple and blue, the dummy white; the simulated tower knows the classic five
    table = d.screen("table")
    yield from _wait_for(d, lambda: table.teach_offer, PATIENCE)
    yield 0.3
    assert table.ids.bar.tower_text == "Tower: connected", table.ids.bar.tower_text
    d.shot("teach_2023_offer")
    d.tap("Tower:")
    yield 0.3
    text = _panel(d, TowerPanel).status_text
    assert "Not calibrated for purple (Ana), white (" in text, text
    d.shot("tower_panel_2023_before")
    d.tap("Close")
    yield 0.2
    taps = len(d.taps)
    d.tap("Teach the tower these colours")  # the start's offer: the teaching starts at once
    yield 0.3
    panel = _panel(d, TeachPanel)
    yield from _wait_for(d, lambda: says(panel.headline, "in, one at a time"), PATIENCE)
    d.tap(throw_button("purple"))  # the simulated tower's own button on the teaching screen
    d.tower_drop("purple")
    yield from _wait_for(d, lambda: panel.got == 2, PATIENCE)
    yield 0.3
    d.shot("teach_2023_throwing")
    thrown = ["purple"] * 2 + (yield from teach_by_throwing(d))
    assert thrown == ["purple"] * 5 + ["white"] * 5, thrown  # blue kept: not thrown
    assert "Purple learnt: separates well from the others (nearest: blue, " in panel.lines_text, panel.lines_text
    assert panel.headline == "Done: the tower knows blue, purple and white.", panel.headline
    yield 0.3
    d.shot("teach_2023_done")
    d.tap("Back to the game")
    yield 0.2
    d.facts["teach_taps"] = len(d.taps) - taps - 1  # the sim's throw button is a cube, not a tap
    d.facts["teach_throws"] = len(thrown)
    assert d.model.table.setup.by_hand() == [] and not table.teach_offer
    assert d.model.public.get("drops_total", 0) == 0, "a cube taught counted as a drop"
    d.tap("Tower:")
    yield 0.3
    text = _panel(d, TowerPanel).status_text
    assert "Calibrated for blue, purple, white" in text and "Not calibrated" not in text, text
    d.shot("tower_panel_2023_calibrated")
    d.tap("Close")
    yield 0.2
    d.tower_drop("purple")
    yield from _wait_for(d, lambda: d.model.public.get("drops_total", 0) == 1, PATIENCE)
    [entry] = list(d.model.table.drops.values())
    assert entry.colour == "purple", entry
