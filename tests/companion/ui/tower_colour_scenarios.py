"""The tower panel of a 2023 table (run by test_tower_panel_colours.py under Xvfb): the colours
the tower does not know, "Calibrate the colours" asking for the seats' colours, and purple then
counted by the simulated tower."""
from __future__ import annotations

from scenarios_2023 import _wait_for, start_2023_game


def _panel_text(d) -> str:
    from companion.ui.tower_panel import TowerPanel
    [panel] = [w for w in d.widgets() if isinstance(w, TowerPanel)]
    return panel.status_text


def calibrate_a_2023_table(d):
    yield from start_2023_game(d)   # purple and blue, the dummy white; the simulated tower knows the classic five
    d.tap("Tower:")
    yield 0.3
    text = _panel_text(d)
    assert "Not calibrated for purple (Ana), white (" in text, text
    d.shot("tower_panel_2023_before")
    d.tap("Calibrate the colours")
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("calibrated") == ["blue", "purple", "white"], 10)
    yield 0.3
    text = _panel_text(d)
    assert "Calibrated for purple, blue, white" in text and "Not calibrated" not in text, text
    assert "purple, blue, white" in d.model.message, d.model.message
    d.shot("tower_panel_2023_calibrated")
    assert d.model.table.setup.by_hand() == []
    before = d.model.public.get("drops_total", 0)
    d.model.tower_link.simulate_drop("purple")
    yield from _wait_for(d, lambda: d.model.public.get("drops_total", 0) == before + 1, 10)
    [entry] = list(d.model.table.drops.values())[before:]
    assert entry.colour == "purple", entry
    d.tap("Close")
    yield 0.2
