"""Scenarios (run by app_driver.py) for tracking from the board in front of the
table and for a table correction, tap by tap.

A scenario's name ending in `_portrait` runs the same taps with the window
turned to 800x1280 (test_correction.py starts Xvfb with a screen that size).
"""

from kivy.uix.label import Label
from scenarios import _castillo_entered, _reveal_cards, _wait_for
from words_match import any_says, before_rule, said, says
from words_match import colour as colour_word

from companion.words import language, names


def _portrait(d):
    from kivy.core.window import Window

    Window.size = (800, 1280)
    yield 0.5


def _key(d, key):
    """The button of the position screen (or its number pad) that does `key`."""
    found = [w for w in d.widgets() if getattr(w, "key", None) == key and d.visible(w)]
    assert found, f"no button {key!r} on screen"
    return found[0]


def _scroll_to(d, widget):
    """Scroll the page so that `widget` shows (a person scrolls before tapping too)."""
    from kivy.uix.scrollview import ScrollView

    w = widget.parent
    while w is not None and not isinstance(w, ScrollView):
        w = w.parent if w.parent is not w else None
    if w is not None:
        for _ in range(20):  # a page just switched to may still be laying out: try again a frame later
            w.scroll_to(widget, padding=10, animate=False)
            yield 0.1
            x, y = widget.to_window(*widget.center)
            left, bottom = w.to_window(w.x, w.y)
            if left <= x <= left + w.width and bottom <= y <= bottom + w.height:
                return
        raise AssertionError(f"{widget.key} cannot be shown")


def _press(d, *keys, wait=0.05):
    for key in keys:
        yield from _scroll_to(d, _key(d, key))
        d.tap_widget(_key(d, key))
        d.position_taps = getattr(d, "position_taps", 0) + 1
        yield wait


def _tap_area(d, area, times=1):
    m = d.screen("position").ids.map
    for _ in range(times):
        d.tap_xy(*m.to_window(*m.area_centre(area)))
        d.position_taps = getattr(d, "position_taps", 0) + 1
        yield 0.05


def _labels(d):
    return [w.text for w in d.widgets() if isinstance(w, Label) and d.visible(w) and w.text]


def _check_targets(d):
    """Every button on the position screen is at least 48 dp each way."""
    from kivy.metrics import dp
    from kivy.uix.button import Button

    small = [
        (w.text or getattr(w, "key", ""), tuple(map(int, w.size)))
        for w in d.widgets()
        if isinstance(w, Button) and d.visible(w) and (w.width < dp(48) - 0.5 or w.height < dp(48) - 0.5)
    ]
    assert not small, f"touch targets under 48 dp: {small}"


def _new_tracking_game(d, from_position):
    yield 0.3
    d.tap("New game")
    yield 0.2
    setup = d.screen("setup")
    setup.mode, setup.variant = "Full tracking", "Full game (9 rounds)"
    setup.king, setup.start = "Castilla la Nueva", "Red"
    for colour, home in {"red": "Galicia", "yellow": "Aragón", "green": "Sevilla"}.items():
        setup.rows[colour].home = home
    setup.rows["blue"].plays = False
    setup.rows["red"].name = "Ana"
    yield 0.2
    if from_position:
        # the option's words toggle its check box; scrolled into view first (the Club board row
        # can push it below the fold in landscape), as a person would
        from whole_game_scenarios import _tap

        yield from _tap(d, "Start from the board in front of you")
        yield 0.1
        assert setup.from_position
        d.shot("setup_from_position")
    d.tap("Start the game")


def start_from_position_in_round_4(d):
    """A table opens the app in round 4: the board, the courts, the scores, the Castillo
    lifted and counted, the round, the start player, the Power cards laid down and a Veto,
    all in one correction; then a turn is played from there."""
    yield from _new_tracking_game(d, from_position=True)
    yield from _wait_for(d, lambda: d.current == "position")
    screen = d.screen("position")
    assert screen.starting and d.model.table.state.event_count == 0
    d.position_taps = 0
    # The board: Yellow 3 in Valencia, Ana 2 in Castilla la Vieja, the King to Cataluña,
    # Green's Grande to Granada, the 8-4-0 scoreboard on the Castillo
    yield from _press(d, "colour:yellow")
    yield from _tap_area(d, "valencia", 3)
    yield from _press(d, "colour:red")
    yield from _tap_area(d, "castilla_la_vieja", 2)
    yield from _press(d, "tool:king")
    yield from _tap_area(d, "cataluna")
    yield from _press(d, "colour:green", "tool:grande")
    yield from _tap_area(d, "granada")
    yield from _press(d, "tool:mobile:8-4-0")
    yield from _tap_area(d, "castillo")
    yield from _press(d, "tool:mobile:4-0-0")
    yield from _tap_area(d, "castillo")  # not allowed: the two never share an area
    assert says(screen.message, "scoreboard already lies on") and "8-4-0" in screen.message, screen.message
    yield 0.2
    d.shot("position_board")
    _check_targets(d)
    # Courts and scores: Ana's court 5, Green's score 41 on the number pad
    yield from _press(d, "section:court", "court:red:-1", "court:red:-1", "score:green")
    yield 0.1
    yield from _press(d, "pad:4", "pad:1")
    d.shot("position_score_pad")
    yield from _press(d, "pad:OK")
    yield 0.1
    d.shot("position_courts")
    _check_targets(d)
    # The Castillo: the tower counted nothing in this new game, so the table lifts and counts it
    yield from _press(d, "section:castillo", "castillo:tower")
    assert says(screen.message, "tower has counted nothing"), screen.message
    yield from _press(d, "castillo:red:+1", "castillo:red:+1")
    yield 0.1
    d.shot("position_castillo")
    # Round 4, Yellow starts; Power cards laid down; Green holds a Veto
    yield from _press(
        d,
        "section:start",
        "round:4",
        "start:yellow",
        "power:red:13",
        "power:red:1",
        "power:red:7",
        "power:yellow:12",
        "power:yellow:3",
        "power:green:11",
        "veto:green",
    )
    yield from _press(d, "power:red:9")  # a fourth card before round 4: not allowed
    assert says(screen.message, "has laid down at most {n} Power card", any_case=True) and "3" in screen.message, (
        screen.message
    )
    yield 0.2
    d.shot("position_start")
    _check_targets(d)
    entry_taps = d.position_taps
    events_before = len(d.model.table.records)
    d.tap("Start from this board")
    yield from _wait_for(d, lambda: d.current == "table")
    table = d.model.table
    assert len(table.records) == events_before + 1 and table.records[-1]["e"]["type"] == "table_corrected"
    s = table.state
    game = d.model.public["game"]
    assert (s.round, s.stage, game["start_player"]) == (4, "reveal", "yellow"), (s.round, s.stage)
    assert game["regions"]["valencia"] == {"yellow": 3} and game["regions"]["castilla_la_vieja"] == {"red": 2}
    assert game["king"] == "cataluna" and game["mobile_scoreboards"]["8-4-0"] == "castillo"
    players = {p["id"]: p for p in game["players"]}
    assert players["red"]["court"] == 5 and players["green"]["score"] == 41 and players["green"]["vetoes_held"] == 1
    assert players["green"]["grande"] == "granada"
    assert table.recorded_castillo() == {"red": 2, "yellow": 0, "green": 0}
    # A turn from there: the cards, the Power cards (Yellow starts; what was laid down is greyed)
    yield from _reveal_cards(d, ("any 3 Caballeros", "King is Angry", "Score the Castillo", "relocate your Grande"))
    assert d.ask().kind == "play_power_card" and d.ask().players == ("yellow",), d.ask()
    greyed = {b.text for b in _value_buttons(d) if b.disabled}
    assert {"12", "3"} <= greyed and "13" not in greyed, greyed
    d.shot("round_4_power")
    for value in ("13", "12", "11"):  # Yellow, Green, Ana clockwise from Yellow
        d.tap(value, exact=True)
        yield 0.1
    assert d.ask().kind == "replenish" and d.ask().players == ("yellow",), (d.ask(), d.model.message)
    # Yellow (13): the Grande card, the Grande to País Vasco, two Caballeros to Valencia
    d.tap("relocate your Grande")
    yield 0.1
    assert d.ask().kind == "turn_action", d.model.message
    d.tap("Do the special action")
    yield 0.1
    assert d.ask().kind == "veto" and d.ask().players == ("green",), d.ask()  # Green's Veto, entered at the start
    d.tap("Green: no veto")
    yield 0.1
    d.tap_area("pais_vasco")  # the King stands in Cataluña: no Grande there
    yield 0.1
    d.tap_area("valencia")
    d.tap_area("valencia")
    yield 0.1
    d.tap("Confirm", exact=True)
    yield 0.2
    game = d.model.public["game"]
    assert game["regions"]["valencia"] == {"yellow": 5}, (game["regions"], d.model.message)
    assert {p["id"]: p["grande"] for p in game["players"]}["yellow"] == "pais_vasco"
    assert d.ask().players == ("green",), d.ask()
    d.shot("round_4_after_a_turn")
    d.facts = {"entry_taps": entry_taps, "round": game["round"], "valencia": game["regions"]["valencia"]}


def start_from_position_in_round_4_portrait(d):
    yield from _portrait(d)
    yield from start_from_position_in_round_4(d)


def _value_buttons(d):
    """The Power card buttons the table screen offers now."""
    from kivy.uix.button import Button

    return [w for w in d._walk(d.screen("table").ids.actions) if isinstance(w, Button) and w.text.isdigit()]


def correction_mid_round_and_undo(d):
    """Mid-round, the table sees the board differs: it corrects it (a refusal first), the
    correction is shown in words and kept in the history, and Undo takes it back."""
    yield from _new_tracking_game(d, from_position=False)
    yield from _wait_for(d, lambda: d.current == "table")
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected")
    table_screen = d.screen("table")
    sim = {getattr(w, "sim_colour", None): w for w in table_screen.ids.bar.ids.sim_drops.children}
    yield from _reveal_cards(d, ("any 3 Caballeros", "King is Angry", "Score the Castillo", "relocate your Grande"))
    for value in ("13", "12", "11"):
        d.tap(value, exact=True)
        yield 0.1
    # Ana (13): the Grande card; 2 Caballeros thrown into the tower and 1 to Valencia
    d.tap("relocate your Grande")
    yield 0.1
    for _ in range(2):
        d.tap_widget(sim["red"])
        yield 0.1
    yield from _wait_for(d, lambda: d.model.table.castillo_prefill("red") == 2)
    yield from _castillo_entered(d, "red", 2)
    d.tap_area("valencia")
    yield 0.1
    d.tap("Confirm", exact=True)
    yield 0.2
    d.tap("Do the special action")
    yield 0.1
    d.tap_area("cataluna")
    yield 0.2
    assert d.ask().players == ("yellow",), (d.ask(), d.model.message)
    assert d.model.public["game"]["regions"]["valencia"] == {"red": 1}
    board_before = d.model.public["game"]
    # "Correct the board": the entry opens on the board as the tablet has it
    d.tap("Correct the board")
    yield from _wait_for(d, lambda: d.current == "position")
    screen = d.screen("position")
    assert not screen.starting and not d.has_button("Round, cards")
    # First too many of Ana's: the entry sees regions and court (24 + 7 = 30 once 23 more
    # are added), the engine also counts the 2 in the Castillo and refuses, naming the limit
    yield from _press(d, "colour:red")
    yield from _tap_area(d, "granada", 23)
    yield from _tap_area(d, "granada")  # the 31st the entry can see: refused at once
    assert says(screen.message, "already has all {n} Caballeros") and "30" in screen.message, screen.message
    d.tap("Confirm the correction")
    yield 0.2
    d.shot("correction_confirm_too_many")
    d.tap("Yes, change the board")
    yield 0.2
    assert d.current == "position" and says(screen.message, "would have more than {most} Caballeros"), screen.message
    assert "2" not in before_rule(screen.message).replace("30", "")  # never the hidden figure
    assert d.model.public["game"] == board_before  # nothing applied
    d.shot("correction_refused")
    yield from _press(d, "tool:remove")
    yield from _tap_area(d, "granada", 23)
    # The real correction: Ana's Caballero was in Aragón, not Valencia; Green scored 5
    yield from _tap_area(d, "valencia")
    yield from _press(d, "tool:add")
    yield from _tap_area(d, "aragon")
    yield from _press(d, "section:court", "score:green", "pad:5", "pad:OK")
    yield 0.1
    # The Castillo from the tower: its count goes in, never on screen
    yield from _press(d, "section:castillo", "castillo:tower")
    d.tap("Confirm the correction")
    yield 0.3
    texts = _labels(d)
    for line in (
        said(
            "{area}: {changes}",
            area=names.place("Valencia"),
            changes=said("{who} from {before} to {after}", who="Ana", before=1, after=0),
        ),
        said(
            "{area}: {changes}",
            area=names.place("Aragón"),
            changes=said("{who} from {before} to {after}", who="Ana", before=0, after=1),
        ),
        said("{who}'s score: from {before} to {after}", who=colour_word("green"), before=0, after=5),
        said("The Castillo: as the tower counted it (not shown)"),
    ):
        assert line in texts, texts
    assert not any("Castillo" in t and "2" in t for t in texts), texts
    assert any_says(texts, "Change the board to this? Everyone can see what changes")
    from kivy.uix.textinput import TextInput

    reason = next(w for w in d.widgets() if isinstance(w, TextInput) and d.visible(w))
    reason.text = "Ana's Caballero went to Aragón"
    d.shot("correction_confirm")
    records_before = len(d.model.table.records)
    d.tap("Yes, change the board")
    yield from _wait_for(d, lambda: d.current == "table")
    yield 0.5  # the dialog gone from the picture
    game = d.model.public["game"]
    assert game["regions"]["valencia"] == {} and game["regions"]["aragon"] == {"yellow": 2, "red": 1}, game["regions"]
    undo = d.model.public["undo"]
    assert says(undo, "the table's correction") and "Ana's Caballero went to Aragón" in undo, undo
    assert d.ask().players == ("yellow",)  # the game goes on where it was
    assert d.model.table.recorded_castillo()["red"] == 2  # the Castillo kept, unseen
    added = d.model.table.records[records_before:]
    assert [r["e"]["type"] for r in added] == ["table_corrected"], added  # ONE event
    applied = sum(1 for r in d.model.table.effective if r["t"] == "event" and r["e"]["type"] == "table_corrected")
    d.shot("table_after_correction")
    # The history keeps it, in words
    d.tap("History", exact=True)
    yield 0.2
    d.shot("history_with_correction")
    d.tap("The table's correction (Ana's Caballero went to Aragón)" if language() == "en" else "Ana's Caballero went")
    yield 0.3
    valencia = names.place("Valencia")
    assert any(says(t, "{who} from {before} to {after}") and valencia in t and "Ana" in t for t in _labels(d))
    d.shot("history_correction_reopened")
    d.tap("Done", exact=True)
    yield 0.1
    d.tap("Close", exact=True)
    yield 0.1
    # Undo takes it back
    d.tap("Undo", exact=True)
    yield 0.2
    game = d.model.public["game"]
    assert game["regions"]["valencia"] == {"red": 1} and game["regions"]["aragon"] == {"yellow": 2}, game["regions"]
    assert d.model.history() == [] or all(not says(item.title, "correction") for _, item in d.model.history())
    # Cancel after entering something asks before dropping it
    d.tap("Correct the board")
    yield from _wait_for(d, lambda: d.current == "position")
    yield from _press(d, "colour:green")
    yield from _tap_area(d, "galicia")
    d.tap("Cancel", exact=True)
    yield 0.2
    assert any_says(_labels(d), "Leave the board as the tablet has it? What you entered here is dropped")
    d.tap("No, keep entering")
    yield 0.2
    assert d.current == "position"
    d.tap("Cancel", exact=True)
    yield 0.2
    d.tap("Yes, drop what I entered")
    yield from _wait_for(d, lambda: d.current == "table")
    assert d.model.public["game"]["regions"]["galicia"] == {"red": 2}
    d.facts = {
        "applied": applied,
        "corrections": sum(
            1 for r in d.model.table.effective if r["t"] == "event" and r["e"]["type"] == "table_corrected"
        ),
    }


def correction_mid_round_and_undo_portrait(d):
    yield from _portrait(d)
    yield from correction_mid_round_and_undo(d)
