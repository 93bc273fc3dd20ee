"""The language chosen in Settings, in the real app (test_settings.py runs it under Xvfb): a game
under way, Home, Settings, Deutsch; the screens are made again in German on the same model (the
game untouched), the choice is kept; then English again."""

from __future__ import annotations


def _texts(widget) -> list[str]:
    return [w.text for w in widget.walk(restrict=True) if isinstance(getattr(w, "text", None), str) and w.text]


def _observers(model) -> int:
    names = [*model.properties(), *model.__events__]
    return sum(len(model.get_property_observers(name)) for name in names)


def _pick_language(d, words: str):
    """Home's Settings (by its id: its words follow the language), then one language."""
    d.tap_widget(d.screen("home").ids.settings)
    yield 0.2
    d.tap(words)
    yield 0.3


def language_switch(d):
    from scenarios import _start_tracked_three_player_game, _wait_for

    from companion.storage.settings import load_settings
    from companion.words import language

    d.facts = {}
    yield from _start_tracked_three_player_game(d)
    yield from _wait_for(d, lambda: d.has_button("Not now"))
    d.tap("Not now", exact=True)
    yield 0.2
    table, game, records = d.model.table, d.model.table.setup, len(d.model.table.records)
    old_table_screen = d.screen("table")
    d.tap_widget(old_table_screen.ids.bar.ids.home_button)
    yield 0.2
    before = {name: d.screen(name) for name in d.app.root.screen_names}
    observers = _observers(d.model)
    yield from _pick_language(d, "Deutsch")
    sheet = d.dialog()
    d.shot("settings_de")
    d.facts["de"] = {
        "language": language(),
        "kept": load_settings()["language"],
        "sheet": _texts(sheet),
        "showing": d.current,
        "screens_made_again": all(d.screen(name) is not screen for name, screen in before.items()),
        "same_game": d.model.table is table and table.setup is game and len(table.records) == records,
        "observers": (observers, _observers(d.model)),  # the old screens' bindings gone, the new ones made
    }
    d.tap("Fertig", exact=True)
    yield 0.2
    d.shot("home_de")
    d.facts["de"]["home"] = _texts(d.screen("home"))
    d.app.root.current = "table"  # what Home's "continue" does: the game as it was, in German
    yield 0.5
    d.shot("table_de")
    bar = d.screen("table").ids.bar
    d.facts["de"]["bar"] = [bar.ids.undo.text, bar.ids.home_button.text, bar.ids.history_button.text]
    d.facts["de"]["reveal_sheet"] = _texts(d.dialog()) if d.dialog() is not None else []
    d.facts["de"]["old_screen_unbound"] = not any(
        getattr(cb, "__self__", None) is old_table_screen for cb in d.model.get_property_observers("prompt")
    )
    if d.dialog() is not None:
        d.tap("Nicht jetzt", exact=True)
        yield 0.2
    d.tap_widget(d.screen("table").ids.bar.ids.home_button)
    yield 0.2
    yield from _pick_language(d, "English")
    d.facts["en"] = {"language": language(), "kept": load_settings()["language"], "sheet": _texts(d.dialog())}
    d.tap("Done", exact=True)
    yield 0.2
    d.facts["en"]["bar"] = d.screen("table").ids.bar.ids.undo.text
    _filter_box(d)


def _filter_box(d) -> None:
    """rule_widgets.filter_box over a grid of buttons (Your cards' 30 abilities), in the running app."""
    from kivy.uix.gridlayout import GridLayout

    from companion.ui.widgets.rule_widgets import button, filter_box

    grid = GridLayout(cols=2)
    for words, key in (("No ability", "ability:none"), ("Court: 2 Caballeros", "ability:court"), ("King", "ability:k")):
        grid.add_widget(button(words, lambda: None, key=key))
    box = filter_box(grid, "Type a few letters", keep=("ability:none",))
    shown = {}
    for typed in ("king", "COURT", "zzz", ""):
        box.text = typed
        shown[typed] = [w.text for w in reversed(grid.children)]
    d.facts["filter"] = shown
