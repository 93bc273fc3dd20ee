"""A 5-player 2023 game with New Regency, Old Hands and Power Shift started from the New game
screen by taps in the real app (run by app_driver.py under Xvfb in test_app_2023.py's launch).

The table's own files stand for what a table entered from its box before (the self-play
stand-ins, written to the user data folder); the game is then started from the New game
screen by taps: the 2023 edition, the five players, the three modules, the cards Old Hands
sent back to the box, the labelled stand-in Modifier cards, Start, and the board confirmed;
then the tower panel calibrates the colours it does not know. (Issue 23: this game was played
to its end with a phone per player in Chromium; the game is now the headless tablet's,
test_game_2023_phones.py, and the phones' at the websocket level, tests/companion/phones/.)"""

from __future__ import annotations

from scenarios import _wait_for
from scenarios_2023 import PATIENCE

PLAYERS = {"purple": "Ana", "blue": "Bruno", "green": "Carmen", "orange": "Dora", "red": "Eva"}
HOMES = {"purple": "Galicia", "blue": "Aragón", "green": "Sevilla", "orange": "Valencia", "red": "Granada"}
KING = "Castilla"
MODULES = ("new-regency", "old-hands", "power-shift")
# Old Hands, 5 players: 1 card from stack 1, 2 from stack 2 and 1 from stack 4 went back to the box
RETURNED = ("infiltration", "withdrawal", "revelation", "standin_court")


def _table_files():
    """The table's board and cards, entered from its box before this game (the self-play
    stand-ins stand for them): kept in the user data folder like Your board and Your cards."""
    from companion.table_rules.board_file import board_path
    from companion.table_rules.card_file import cards_path
    from companion.table_rules.storage import write_json
    from engine.playout import standin_files

    board_file, cards_file = standin_files("2023", 5)
    write_json(board_path("4-5"), board_file)
    write_json(cards_path(), cards_file)


def new_game_by_taps(d):
    """New game: the 2023 edition, five players named, the three modules, Old Hands' cards back in
    the box, the stand-in Modifier cards (labelled), full tracking, a full game; Start; the board
    confirmed. The region cards drawn (the King's and each home) are set as drawn."""
    from rules_scenarios import _keyed, _tap_text

    yield 0.3
    d.tap("New game")
    yield from _wait_for(d, lambda: d.current == "setup")
    yield 0.2
    setup = d.screen("setup")
    d.tap("Classic (1995)", exact=True)  # the rules spinner opens
    yield 0.2
    d.tap("2023 edition", exact=True)
    yield 0.3
    # A fresh New game switched to 2023: the 2023 box's four seats ticked, never the classic ones too
    assert setup.players() == ["purple", "blue", "green", "orange"], setup.players()
    for colour, row in setup.rows.items():  # the five who play ticked, the others not
        if row.plays != (colour in PLAYERS):
            yield from _into(d, row)
            d.tap_widget(row.ids.plays)
            yield 0.15
    for colour, name in PLAYERS.items():
        setup.rows[colour].ids.name.text = name  # typed on the tablet's keyboard
    yield 0.1
    for module in MODULES:
        toggle = next(w for w in setup.ids.modules.children if w.module == module)  # remade after each tap
        if not toggle.chosen:
            yield from _into(d, toggle)
            d.tap_widget(toggle.ids.words)
            yield 0.15
    for spinner, option in (("Scoring only", "Full tracking"), ("Short game (6 rounds)", "Full game (9 rounds)")):
        yield from _tap_text(d, spinner)
        yield from _tap_text(d, option)
    setup.king, setup.start = KING, "Purple"
    for colour, home in HOMES.items():
        setup.rows[colour].home = home
    yield 0.1
    yield from _tap_text(d, setup.returns_words)  # Old Hands: which cards went back to the box
    yield 0.2
    for key in [f"returned:{cid}" for cid in RETURNED] + ["returned:done"]:
        yield from _into(d, _keyed(d, key))
        d.tap_widget(_keyed(d, key))
        yield 0.08
    yield 0.2
    d.facts["returned_words"] = setup.returns_words
    if not setup.stand_in:
        yield from _tap_text(d, "Use the stand-in Modifier cards", exact=False)
    d.facts["setup_notes"] = setup.rules_notes
    yield from _into(d, setup.ids.rules_block)
    yield 0.2
    d.shot("new_game_2023_five")
    yield from _tap_text(d, "Start the game")
    yield from _wait_for(d, lambda: d.current in ("board", "table"), PATIENCE)
    yield 0.2
    if d.current == "board":
        d.facts["board_shown"] = True
        board = d.screen("board")
        d.tap(board.confirm_text, exact=True)
    yield from _wait_for(d, lambda: d.current == "table", PATIENCE)
    yield from _wait_for(d, lambda: (d.model.tower or {}).get("state") == "connected", PATIENCE)
    yield 0.3
    assert d.model.phones is not None, d.model.phone_error
    game = d.model.table.setup.game
    d.facts["setup"] = game.model_dump(
        mode="json",
        include={
            "rules",
            "modules",
            "players",
            "names",
            "variant",
            "removed_cards",
            "stand_in_modifiers",
            "start_player",
        },
    )
    d.facts["mode"] = d.model.table.mode


def calibrate_the_tower(d):
    """The tower panel: "Calibrate the colours" for the seats' colours (the simulated tower knows
    the classic five; purple and orange, and their look-alikes blue and red, would go to a person)."""
    from tower_colour_scenarios import teach_from_the_tower_panel

    d.facts["start_notice"] = d.screen("table").notice
    yield from teach_from_the_tower_panel(d)  # the cubes of the colours it does not know
    yield from _wait_for(d, lambda: len((d.model.tower or {}).get("calibrated") or ()) == len(PLAYERS), PATIENCE)
    assert d.model.table.setup.by_hand() == [], d.model.table.setup.by_hand()
    d.facts["calibrated"] = sorted(d.model.tower["calibrated"])


def _into(d, w):
    from rules_scenarios import _into_view

    yield from _into_view(d, w)


def five_players_new_game(d):
    """The new game by taps, the board confirmed, the tower calibrated; the facts for the test."""
    d.facts = {}
    _table_files()
    yield from new_game_by_taps(d)
    yield from calibrate_the_tower(d)
    from layout_checks import check_screen

    yield 0.2
    d.facts["problems"] = {"table_2023_five": check_screen()}  # five players' side panel: the deal asked
    d.shot("table_2023_five")
