"""Scenarios for app_driver.py (test_rules_setup.py): a table that owns the 2023 box chooses
the rules, confirms its board and completes its card set, tap by tap."""

from __future__ import annotations

import json

from layout_checks import check_screen
from scenarios import _wait_for
from words_match import colour as colour_word
from words_match import said, says

from companion.words import names


def _look(d, name: str):
    """Let the layout settle, check what is on screen (48 dp targets, nothing cut or overlapping),
    keep a picture."""
    yield 0.2
    d.facts.setdefault("problems", {})[name] = check_screen()
    d.facts.setdefault("screens", []).append(name)
    d.shot(name)


def _keyed(d, key: str):
    """A button of the rule screens by what it does (its `key`)."""
    found = [w for w in d.widgets() if getattr(w, "key", None) == key and d.visible(w)]
    if not found:
        keys = sorted({w.key for w in d.widgets() if getattr(w, "key", "") and d.visible(w)})
        raise AssertionError(f"no button {key!r} on screen; keys: {keys}")
    return found[0]


def _tap_key(d, key: str, times: int = 1):
    """Each tap once the button is on screen and laid out where it stays (a list just remade, a
    dialog just opened: on a loaded machine a frame or two later), never at a stale place."""
    from whole_game_scenarios import _tap_found

    for _ in range(times):
        yield from _tap_found(d, lambda: _keyed(d, key))
        yield 0.05


def _tap_board_area(d, area: str):
    m = d.screen("board").ids.map
    d.tap_xy(*m.to_window(*m.area_centre(area)))
    yield 0.1


def _into_view(d, w):
    """Scrolls the page or panel holding the widget until it is on screen (as a person would)."""
    p = w.parent
    while p is not None and p.__class__.__name__ != "ScrollView":
        p = p.parent if p.parent is not p else None  # the window is its own parent
    if p is not None:
        p.scroll_to(w, padding=10, animate=False)
    yield 0.15


def _scroll_to(d, key: str):
    yield from _into_view(d, _keyed(d, key))


def _tap_text(d, words: str, exact: bool = True):
    """A button by its words, scrolled into view first."""
    yield from _into_view(d, d.button(words, exact))
    d.tap(words, exact)
    yield 0.2


def _choose_2023(d, players=("purple", "blue", "green", "orange"), modules=("new-regency",), mode="Full tracking"):
    """New game: the 2023 edition by taps (the rules spinner, then the modules' check boxes)."""
    setup = d.screen("setup")
    if setup.rules != names.rule_set("2023 edition"):
        d.tap("Classic (1995)", exact=True)  # the rules spinner opens
        yield 0.2
        d.tap("2023 edition", exact=True)
        yield 0.2
    setup.mode = mode
    for colour, row in setup.rows.items():
        row.plays = colour in players
    yield 0.1
    for module in [w.module for w in setup.ids.modules.children]:
        toggle = next(w for w in setup.ids.modules.children if w.module == module)  # remade after each tap
        if toggle.chosen != (module in modules) and not toggle.always:
            yield from _into_view(d, toggle)
            d.tap_widget(toggle.ids.words)
            yield 0.1
    assert sorted(setup.choice.modules_for(len(players))) == sorted(modules), setup.choice
    assert setup.choice.rules == "2023", setup.choice


def look_at_rule_screens(d):
    """Every new screen once, checked and photographed (test_rules_setup runs it at three shapes)."""
    d.facts = {}
    yield 0.3
    yield from _look(d, "rules_home")
    d.tap("New game")
    yield 0.2
    yield from _choose_2023(d, modules=("new-regency", "power-shift"))
    yield from _into_view(d, d.screen("setup").ids.rules_block)
    yield from _look(d, "rules_setup_2023")
    setup = d.screen("setup")
    setup.rows["orange"].plays = setup.rows["green"].plays = False
    yield 0.2
    assert setup.has_dummy, setup.rules_words
    yield from _look(d, "rules_setup_2023_two_players")
    yield from _tap_text(d, "Your board")
    yield 0.1
    yield from _look(d, "rules_board_2_3")
    yield from _tap_board_area(d, "galicia")
    yield from _look(d, "rules_board_scoreboard")
    yield from _tap_key(d, "section:borders")
    yield from _tap_board_area(d, "aragon")
    yield from _look(d, "rules_board_borders")
    yield from _tap_key(d, "section:tiles")
    yield from _look(d, "rules_board_tiles")
    d.tap(d.screen("board").back_text, exact=True)
    yield 0.2
    yield from _tap_text(d, "Your cards")
    yield 0.1
    yield from _look(d, "rules_cards")
    yield from _tap_key(d, "card:civil_war")
    yield from _look(d, "rules_card_detail")
    d.tap("Add a card from the box")
    yield 0.2
    yield from _scroll_to(d, "effect:entourage")
    yield from _tap_key(d, "effect:entourage")
    yield from _look(d, "rules_add_card")
    d.tap("Import a file")
    yield 0.3
    yield from _look(d, "rules_import")
    d.tap("Cancel", exact=True)
    yield 0.1
    d.tap("Back to the cards")
    yield 0.2
    yield from _scroll_to(d, "modifiers")
    yield from _tap_key(d, "modifiers")
    yield from _scroll_to(d, "ability:court")
    yield from _tap_key(d, "ability:court")
    yield from _look(d, "rules_modifier")


def _set_scoreboard(d, area: str, values):
    """Tap the area, step each place from what is shown to `values`, then Set."""
    yield from _tap_board_area(d, area)
    board = d.screen("board")
    for place, want in enumerate(values, start=1):
        have = board.pending[place - 1]
        key = f"place:{place}:{'+1' if want > have else '-1'}"
        if want != have:
            yield from _scroll_to(d, key)
            yield from _tap_key(d, key, abs(want - have))
    yield from _scroll_to(d, "set_scoreboard")
    yield from _tap_key(d, "set_scoreboard")
    yield 0.1


def _borders(d, area: str, regions):
    """In the Borders section: tap the area, then each region it borders (adds or removes it)."""
    yield from _tap_board_area(d, area)
    for region in regions:
        yield from _tap_board_area(d, region)
    yield from _tap_board_area(d, area)  # tapped again: done with it


def _start_and_wait_for_board(d):
    yield from _tap_text(d, "Start the game")
    yield from _wait_for(d, lambda: d.current == "board")
    yield 0.2


def first_2023_game_confirms_the_board(d):
    """A 4-player tracked game with New Regency and Power Shift (the stand-in set ticked, labelled):
    Start opens Your board (never confirmed); France's and Portugal's neighbours are asked (New
    Regency's Exile needs them); a scoreboard entered wrong is refused with its rule; Confirm starts
    the game with the table's board file."""
    d.facts = {}
    yield 0.3
    d.tap("New game")
    yield 0.2
    yield from _choose_2023(d, modules=("new-regency", "power-shift"))
    setup = d.screen("setup")
    assert setup.stand_in_offered, setup.rules_notes
    yield from _tap_text(d, "Use the stand-in Modifier cards", exact=False)
    assert setup.choice.stand_in_modifiers
    yield from _start_and_wait_for_board(d)
    board = d.screen("board")
    assert _neighbours_asked(board.hint, "France") and _neighbours_asked(board.hint, "Portugal"), board.hint
    # Confirming too early is refused, naming what is missing
    d.tap(board.confirm_text, exact=True)
    yield 0.1
    assert d.current == "board" and says(board.message, "Still to enter"), board.message
    assert names.place("France") in board.message, board.message
    d.facts["early_confirm"] = board.message
    # A wrong entry: Galicia's 2nd place above its 1st
    yield from _set_scoreboard(d, "galicia", (4, 5, 0))
    assert says(board.message, "a scoreboard must not increase"), board.message
    assert board.draft.fact("regions.galicia.scoreboard").value == (4, 2, 0)  # unchanged
    d.facts["wrong_entry"] = board.message
    yield from _look(d, "first_game_wrong_entry")
    # France has no scoreboard: a tap on it says so
    yield from _tap_board_area(d, "france")
    d.facts["france_scoreboard"] = board.message
    # A region tapped as its own neighbour is refused too
    yield from _tap_key(d, "section:borders")
    yield from _tap_board_area(d, "france")
    yield from _tap_board_area(d, "navarra")
    yield from _tap_board_area(d, "cataluna")
    yield from _tap_board_area(d, "aragon")
    yield from _look(d, "first_game_france")
    yield from _tap_board_area(d, "aragon")  # taken back
    yield from _tap_board_area(d, "france")  # done
    yield from _borders(d, "portugal", ("galicia", "castilla", "toledo", "sevilla"))
    # A border corrected: Galicia and Aragón
    yield from _borders(d, "galicia", ("aragon",))
    assert "aragon" in board.draft.fact("regions.galicia.neighbours").value
    assert "galicia" in board.draft.fact("regions.aragon.neighbours").value  # both sides of a border
    d.facts["france"] = list(board.draft.fact("spaces.france.neighbours").value)
    d.facts["portugal"] = list(board.draft.fact("spaces.portugal.neighbours").value)
    d.tap(board.confirm_text, exact=True)
    yield from _wait_for(d, lambda: d.current == "table")
    game = d.model.table.setup.game
    d.facts["setup"] = game.model_dump(
        mode="json", include={"rules", "modules", "dummy", "board_file", "stand_in_modifiers"}
    )
    d.facts["mode"] = d.model.table.mode
    d.facts["board_spaces"] = [sorted(d.model.board.area_id(i) for i in n) for n in d.model.board.space_neighbours]
    yield 0.3


def next_game_remembers_the_choice(d):
    """The app started again: New game shows the 2023 edition and its modules as last time; the
    board, confirmed once, is not asked again; this time in scoring-only mode."""
    d.facts = {}
    yield 0.3
    d.tap("New game")
    yield 0.2
    setup = d.screen("setup")
    d.facts["rules_shown"] = setup.rules
    d.facts["modules_shown"] = sorted(w.module for w in setup.ids.modules.children if w.chosen)
    d.facts["colours"] = list(setup.rows)
    setup.mode = "Scoring only"
    yield 0.1
    yield from _tap_text(d, "Start the game")
    yield from _wait_for(d, lambda: d.current == "table")
    game = d.model.table.setup.game
    d.facts["setup"] = game.model_dump(mode="json", include={"rules", "modules", "board_file"})
    d.facts["mode"] = d.model.table.mode
    yield 0.2


def two_players_enter_the_missing_side(d):
    """2 players: the 2-3 side, the dummy's colour picked; its ten scoreboards are not published:
    entered from the table's board by steppers, then the game starts."""
    d.facts = {}
    yield 0.3
    d.tap("New game")
    yield 0.2
    yield from _choose_2023(d, players=("purple", "blue"), modules=())
    setup = d.screen("setup")
    assert setup.has_dummy and setup.dummy == colour_word("green"), (setup.has_dummy, setup.dummy)
    yield from _tap_text(d, "Green")  # the dummy's colour spinner opens
    yield from _tap_text(d, "Orange")
    assert setup.dummy == colour_word("orange")
    yield from _start_and_wait_for_board(d)
    board = d.screen("board")
    assert board.draft.side == "2-3" and len(board.draft.needed()) == 10
    entered = {
        "galicia": (3, 1, 0),
        "navarra": (4, 2, 0),
        "aragon": (4, 3, 0),
        "cataluna": (3, 1, 0),
        "castilla": (5, 3, 1),
        "toledo": (6, 3, 1),
        "valencia": (4, 2, 1),
        "sevilla": (3, 2, 0),
        "granada": (5, 2, 0),
        "castillo": (4, 2, 0),
    }
    for area, values in entered.items():
        yield from _set_scoreboard(d, area, values)
        assert not board.message, board.message
    yield from _look(d, "two_players_side_entered")
    d.tap(board.confirm_text, exact=True)
    yield from _wait_for(d, lambda: d.current == "table")
    d.facts["entered"] = {a: list(v) for a, v in entered.items()}
    b = d.model.board
    d.facts["scoreboards"] = {b.area_id(i): list(v) for i, v in enumerate(b.scoreboards)}
    game = d.model.table.setup.game
    d.facts["setup"] = game.model_dump(mode="json", include={"rules", "modules", "dummy", "players"})
    d.facts["side"] = b.side
    yield 0.2


def _card_file(d) -> dict:
    from companion.table_rules.card_file import cards_path

    return json.loads(cards_path().read_text())


def card_set_by_taps(d):
    """Your cards from the home screen: a known card's stack and copies set by steppers; a card
    found in the box added by its effect (a wrong stack refused first); the set exported, changed,
    then imported back to what was exported; a file with a mistake refused naming the field, the
    set unchanged."""
    from companion.table_rules.storage import exports_folder

    d.facts = {}
    yield 0.3
    d.tap("Your cards", exact=True)
    yield 0.3
    cards = d.screen("cards")
    # Veto: stack ? -> 2, copies ? -> 2
    yield from _scroll_to(d, "card:veto")
    yield from _tap_key(d, "card:veto")
    yield from _tap_key(d, "edit:stack:+1", 2)
    yield from _tap_key(d, "edit:copies:+1", 2)
    yield from _tap_key(d, "save_card")
    row = cards.draft.row("veto")
    d.facts["veto"] = [row.stack, row.copies, list(row.unknown)]
    yield from _look(d, "cards_veto_saved")
    # A card found in the box: Decay, named Veterans, an Old Hands card
    d.tap("Add a card from the box")
    yield 0.2
    yield from _scroll_to(d, "effect:decay")
    yield from _tap_key(d, "effect:decay")
    name = _keyed(d, "add:name")
    name.text = "Veterans"  # typed on the tablet's keyboard
    yield from _tap_key(d, "add:module:old-hands")
    yield from _tap_key(d, "add:stack:+1", 2)  # stack 3: Old Hands has none
    yield from _scroll_to(d, "add:param:count:+1")
    yield from _tap_key(d, "add:param:count:+1", 2)  # not set -> 1 -> 2
    yield from _scroll_to(d, "add_card")
    yield from _tap_key(d, "add_card")
    d.facts["wrong_stack"] = cards.message
    assert "veterans" not in cards.draft.cards.cards, cards.draft.cards.cards
    assert says(cards.message, "has no stack") and "3" in cards.message, cards.message
    yield from _look(d, "cards_wrong_stack")
    yield from _scroll_to(d, "add:stack:-1")
    yield from _tap_key(d, "add:stack:-1")  # stack 2
    yield from _scroll_to(d, "add_card")
    yield from _tap_key(d, "add_card")
    assert not cards.message, cards.message
    row = cards.draft.row("veterans")
    d.facts["veterans"] = [row.name, row.effect, row.stack, row.copies, row.params, row.module]
    yield from _look(d, "cards_added")
    # Export; change the set; import what was exported
    d.tap("Export to a file", exact=True)
    yield 0.2
    exported = exports_folder() / "el-grande-cards-2023.json"
    d.facts["export_notice"] = cards.notice
    saved_at_export = _card_file(d)
    rows_at_export = [r.id for r in cards.draft.rows()], {r.id: (r.stack, r.copies) for r in cards.draft.rows()}
    yield from _scroll_to(d, "card:fiesta")
    yield from _tap_key(d, "card:fiesta")
    yield from _tap_key(d, "edit:copies:+1")
    yield from _tap_key(d, "save_card")
    assert cards.draft.row("fiesta").copies == 1
    d.tap("Import a file", exact=True)
    yield 0.3
    yield from _tap_key(d, f"file:{exported.name}")
    yield 0.2
    d.facts["import_notice"] = cards.notice
    d.facts["same_after_import"] = (
        _card_file(d)["cards"] == saved_at_export["cards"]
        and ([r.id for r in cards.draft.rows()], {r.id: (r.stack, r.copies) for r in cards.draft.rows()})
        == rows_at_export
    )
    # Another tablet's file with a mistake in it
    bad = exports_folder() / "from-another-tablet.json"
    bad.write_text(
        json.dumps(
            {
                "rules": "2023",
                "cards": [{"id": "veto", "stack": 2, "copies": 2}, {"id": "militia", "params": {"count": 9}}],
            }
        )
    )
    before = _card_file(d)
    d.tap("Import a file", exact=True)
    yield 0.3
    yield from _tap_key(d, f"file:{bad.name}")
    yield 0.2
    dialog = next(w for w in d.widgets() if w.__class__.__name__ == "ImportDialog")
    d.facts["bad_import"] = dialog.error.text
    yield from _look(d, "cards_bad_import")
    d.facts["unchanged_after_bad_import"] = _card_file(d) == before and "militia" not in [
        c["id"] for c in cards.draft.file["cards"]
    ]
    d.tap("Cancel", exact=True)
    yield 0.2
    # Power Shift: a Modifier card entered from the box (+2, its ability: 2 Caballeros to the court)
    yield from _scroll_to(d, "modifiers")
    yield from _tap_key(d, "modifiers")
    yield from _tap_key(d, "modifier:value:+1")
    yield from _scroll_to(d, "ability:court")
    yield from _tap_key(d, "ability:court")
    yield from _scroll_to(d, "modifier:param:count:+1")
    yield from _tap_key(d, "modifier:param:count:+1")
    yield from _scroll_to(d, "modifier:add")
    yield from _tap_key(d, "modifier:add")
    d.facts["modifiers"] = [(m.value, m.ability) for m in cards.draft.modifiers()]
    d.facts["modifier_notice"] = cards.notice
    yield from _look(d, "cards_modifier_added")


def old_hands_names_the_returned_cards(d):
    """After card_set_by_taps (Veterans, an Old Hands card of stack 2; the Veto in stack 2): a game with
    Old Hands names the card drawn from stack 2 and returned to the box, by taps, and starts with it."""
    d.facts = {}
    yield 0.3
    d.tap("New game")
    yield 0.2
    yield from _choose_2023(d, modules=("old-hands",))
    setup = d.screen("setup")
    d.facts["before"] = setup.returns_words
    yield from _tap_text(d, setup.returns_words)
    yield 0.2
    yield from _look(d, "old_hands_returned")
    yield from _tap_key(d, "returned:veto")
    yield from _tap_key(d, "returned:done")
    d.facts["after"] = setup.returns_words
    yield from _start_and_wait_for_board(d)
    board = d.screen("board")
    d.tap(board.confirm_text, exact=True)  # the 4-5 side as shipped: nothing is missing for these modules
    yield from _wait_for(d, lambda: d.current == "table")
    game = d.model.table.setup.game
    d.facts["setup"] = game.model_dump(mode="json", include={"modules", "removed_cards"})
    d.facts["veterans_in_play"] = "veterans" in d.model.board.cards
    yield 0.2


def _neighbours_asked(hint: str, place: str) -> bool:
    """The board's hint asks for `place`'s neighbours, in the language in use."""
    return said("{place}'s neighbours", place=names.place(place)) in hint
