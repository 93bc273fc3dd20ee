"""App scenarios with a tower on MQTT (run by test_tower_security.py through
app_driver.py as "mqtt_scenarios:NAME"). The brokers and the simulated tower run
in the test's process; where they are comes in ELGRANDE_TEST_MQTT (JSON)."""

from __future__ import annotations

import json
import os

from scenarios import _wait_for


def _setup(d, broker, tower_id, user="", password="", ca_file=""):
    setup = d.screen("setup")
    setup.mode, setup.variant, setup.king = "Scoring only", "Short game (6 rounds)", "Castilla la Nueva"
    for colour, home in {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla", "blue": "Valencia"}.items():
        setup.rows[colour].home = home
    setup.tower = "MQTT (Wi-Fi)"
    setup.broker, setup.tower_id = broker, tower_id
    setup.mqtt_user, setup.mqtt_password, setup.ca_file = user, password, ca_file
    return setup


def _panel_text(d) -> str:
    from companion.ui.widgets.tower_panel import TowerPanel

    [panel] = [w for w in d.widgets() if isinstance(w, TowerPanel)]
    return panel.status_text


def locked_and_open_tower(d):
    """A CA file that is not there is refused on the new-game screen; a TLS broker
    with passwords counts the tower's drops and the tower bar has no warning; an
    open mqtt:// broker gets "(not secure)" on the bar and a warning in the panel."""
    cfg = json.loads(os.environ["ELGRANDE_TEST_MQTT"])
    yield 0.3
    d.tap("New game")
    yield 0.2
    setup = _setup(d, cfg["locked"], cfg["tower"], "companion", cfg["password"], cfg["ca"] + ".moved")
    yield 0.2
    d.tap("Start the game")
    yield 0.2
    assert d.current == "setup" and "no such file" in setup.message, setup.message
    setup.ca_file = cfg["ca"]
    yield 0.2
    d.shot("setup_mqtt")
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table")
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")
    table = d.screen("table")
    assert table.ids.bar.tower_text == "Tower: connected", table.ids.bar.tower_text
    # the test's tower dropped three cubes before the app started: it held them for a host
    yield from _wait_for(d, lambda: d.model.public.get("drops_total") == 3)
    d.tap("Tower:")
    yield 0.3
    text = _panel_text(d)
    assert "Link: encrypted (TLS)" in text and "Warning" not in text, text
    d.shot("tower_panel_locked")
    d.tap("Close")
    yield 0.1
    d.app.root.current = "setup"  # another game, on an open broker
    yield 0.2
    _setup(d, cfg["open"], cfg["tower"])
    d.tap("Start the game")
    yield from _wait_for(d, lambda: d.current == "table")
    # (the model still holds the last game's status until the new link reports)
    yield from _wait_for(d, lambda: table.ids.bar.tower_text == "Tower: connected (not secure)")
    d.shot("table_open_link")
    d.tap("Tower:")
    yield 0.3
    text = _panel_text(d)
    assert "Warning: this link is not encrypted" in text and "anonymous" in text, text
    d.shot("tower_panel_open")
    d.tap("Close")
    yield 0.1
