"""A board fact nobody published, asked in the real app when the game first needs it (issue 13
item 2), by taps (run by app_driver.py under Xvfb, test_board_facts_app.py).

A 2-player 2023 game is started from the new-game screen with the 2-3 side's scoreboards not
entered ("Start now: ask for them when the game needs them" on Your board). The game up to the
step that needs them is played through the table (tests/companion/tablet_driver.py, what other
tests enter by taps); from there every input is a tap: the prompt's "Enter the 10 scoreboards
... from your board", the numbers in the dialog (a wrong one refused with the board's rule),
"Enter and go on", then the general scoring opened, counted and closed. The next game on the same
data folder is not asked again."""

from __future__ import annotations

from rules_scenarios import _choose_2023, _into_view, _look, _tap_key, _tap_text
from scenarios import _poll, _wait_for

from tests.companion.tablet_driver import TabletDriver, Unreachable

OUR_BOARD = {
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


def _dialog():
    from kivy.core.window import Window

    from companion.ui.dialogs.board_facts import BoardFacts

    return next((w for w in Window.children if isinstance(w, BoardFacts)), None)


def _new_two_player_game(d, later: bool):
    d.tap("New game")
    yield 0.2
    yield from _choose_2023(d, players=("purple", "blue"), modules=())
    yield from _tap_text(d, "Start the game")
    yield from _wait_for(d, lambda: d.current in ("board", "table"))
    yield 0.2
    if later:
        assert d.current == "board", d.current
        yield from _look(d, "board_start_later")
        yield from _into_view(d, d.button("Start now: ask for them when the game needs them"))
        yield from _tap_key(d, "start_later")
    yield from _wait_for(d, lambda: d.current == "table")
    yield 0.3


def _play_until(d, done, seed: int = 3, limit: int = 4000):
    """The table plays on (the random chooser, entered through the prompts) until `done()`."""
    driver = TabletDriver(d.model.table, seed=seed)
    for n in range(limit):
        if done():
            return
        table = d.model.table
        ask = table.asked()
        if ask.kind == "game_over":
            raise AssertionError("the game ended first")
        try:
            driver.step()
        except Unreachable:  # a card whose facts nobody entered (the prompt offers skipping only)
            driver.step({"type": "special_action_skipped", "player": ask.players[0]})
        if n % 25 == 0:
            yield 0.02
    raise AssertionError("never reached")


QUIET_SECONDS = 1.0  # no dialog for this long: the screen has caught up with the table


def _close_outcomes(d):
    """The "Now move these Caballeros" dialogs the steps played through the table left open:
    read and closed, as the table would. The screen catches up with the steps a frame or more
    later (later still on a loaded machine): done once no dialog has come up for QUIET_SECONDS,
    so none opens late over the next dialog the scenario opens and takes its taps."""
    import time

    quiet_since, deadline = None, time.monotonic() + 60  # real time: frames come as fast as the app draws them
    while time.monotonic() < deadline:
        yield _poll(1)
        dialog = d.dialog()
        if dialog is None:
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since >= QUIET_SECONDS:
                return
            continue
        quiet_since = None
        if dialog.__class__.__name__ != "OutcomeShown":
            dialog.dismiss()  # the action-cards sheet, opened by itself for a reveal played already
            continue
        done = next(w for w in dialog.walk() if getattr(w, "text", None) == "Done")
        d.tap_widget(done)
    raise AssertionError("dialogs kept opening")


def _tap_in_dialog(d, button):
    """Scrolled into view, tapped once laid out where it stays (whole_game_scenarios._tap_found)."""
    from whole_game_scenarios import _tap_found

    yield from _into_view(d, button)
    yield from _tap_found(d, lambda: button)
    yield 0.05


def _enter(d, dialog, values):
    for place, value in enumerate(values):
        yield from _tap_in_dialog(d, dialog.numbers[place][value])


def _the_tables_cards_and_tiles() -> None:
    """What this table entered before: its cards (the self-play stand-ins stand for them) and
    the two Scoring tiles (on the 4-5 side's page; the same tiles on both sides)."""
    from companion.table_rules.board_file import board_path
    from companion.table_rules.card_file import cards_path
    from companion.table_rules.storage import write_json
    from engine.playout import standin_files

    board_file, cards_file = standin_files("2023", 4)
    write_json(cards_path(), cards_file)
    write_json(board_path("4-5"), {"rules": "2023", "side": "4-5", "scoring_tiles": board_file["scoring_tiles"]})


def scoreboards_asked_when_first_needed(d):
    d.facts = {}
    _the_tables_cards_and_tiles()
    yield 0.3
    yield from _new_two_player_game(d, later=True)
    table = d.model.table
    d.facts["missing_at_start"] = len([p for p in table.board.missing if p.endswith(".scoreboard")])
    yield from _play_until(d, lambda: bool(d.model.table.facts_needed()))
    yield from _close_outcomes(d)
    yield 0.3
    ask = table.asked()
    d.facts["asked_at"] = {"kind": ask.kind, "stage": ask.stage, "round": ask.round}
    label = d.screen("table").prompt.choices[0].label
    d.facts["choice"] = label
    yield from _look(d, "fact_needed_prompt")
    taps = len(d.taps)
    yield from _tap_text(d, label)
    yield from _wait_for(d, lambda: _dialog() is not None)
    yield 0.2
    dialog = _dialog()
    d.facts["heading"] = dialog.heading.text
    yield from _look(d, "fact_dialog")
    # A wrong entry: Galicia's 2nd place above its 1st
    yield from _enter(d, dialog, (3, 4, 0))
    yield from _tap_in_dialog(d, dialog.next_button)
    d.facts["refused"] = dialog.message.text
    d.facts["page_after_refusal"] = dialog.entry.page
    yield from _look(d, "fact_dialog_refused")
    yield from _enter(d, dialog, OUR_BOARD["galicia"])
    for area in OUR_BOARD:
        if area != "galicia":
            yield from _tap_in_dialog(d, dialog.next_button)
            assert dialog.entry.current.area == area, (dialog.entry.current, dialog.message.text)
            yield from _enter(d, dialog, OUR_BOARD[area])
    assert dialog.next_button.text == "Enter and go on", dialog.next_button.text
    yield from _tap_in_dialog(d, dialog.next_button)
    yield from _wait_for(d, lambda: _dialog() is None)
    yield 0.3
    d.facts["entry_taps"] = len(d.taps) - taps
    d.facts["said"] = d.model.message
    d.facts["same_step"] = table.asked().kind == ask.kind and table.asked().round == ask.round
    d.facts["still_needed"] = [f.label for f in table.facts_needed()]
    b = table.board
    d.facts["scoreboards"] = {b.area_id(i): list(v) if v is not None else None for i, v in enumerate(b.scoreboards)}
    yield from _look(d, "fact_entered")
    # The game goes on: to the end of its first general scoring
    yield from _play_until(
        d, lambda: any(s.title.startswith("General scoring") for s in d.model.table.state.scoring_log)
    )
    yield from _close_outcomes(d)
    d.facts["general_scoring"] = next(s.title for s in table.state.scoring_log if s.title.startswith("General"))
    from companion.table_rules.board_file import BoardDraft

    kept = BoardDraft.load("2-3")
    d.facts["kept"] = {f.area: [list(f.value), f.status] for f in kept.facts() if f.kind == "scoreboard"}


def next_game_is_not_asked(d):
    """The same data folder: the next 2-player game takes the scoreboards from Your board."""
    d.facts = {}
    yield 0.3
    yield from _new_two_player_game(d, later=False)
    table = d.model.table
    d.facts["missing_at_start"] = sorted(table.board.missing)
    asked = []

    def scored() -> bool:
        if any(f.kind == "scoreboard" for f in d.model.table.facts_needed()):
            asked.append(d.model.table.asked().kind)
        return any(s.title.startswith("General scoring") for s in d.model.table.state.scoring_log)

    yield from _play_until(d, scored)
    d.facts["asked"] = asked
    d.facts["general_scoring"] = True


def exile_asks_the_neighbours(d):
    """A 4-player game with New Regency whose board file lacks France's and Portugal's neighbours:
    Exile is taken; its special action asks for them right there, by tapping regions (none chosen
    is refused with the board's rule); then the King goes to France by taps."""
    import copy

    from companion.table.setup import TableSetup
    from engine.events import GameSetup
    from engine.playout import standin_files

    d.facts = {}
    board_file, cards_file = standin_files("2023", 4)
    board_file = copy.deepcopy(board_file)
    board_file.pop("spaces")
    board_file["provenance"] = {k: v for k, v in board_file["provenance"].items() if not k.startswith("spaces.")}
    players = ["purple", "blue", "green", "orange"]
    game = GameSetup(
        players=players,
        names={p: p.title() for p in players},
        king="castilla",
        homes=dict(zip(players, ("galicia", "aragon", "sevilla", "valencia"))),
        start_player="purple",
        rules="2023",
        modules=["new-regency"],
        board_file=board_file,
        cards_file=cards_file,
    )
    yield 0.3
    d.model.new_game(TableSetup(game=game, mode="tracking", tower={"kind": "simulated"}))
    d.app.root.current = "table"
    yield from _wait_for(d, lambda: d.current == "table")
    table = d.model.table
    stacks = table.asked().options["stacks"]
    table.submit(
        {
            "type": "action_cards_revealed",
            "cards": ["exile" if s == 5 else next(iter(stacks[s])) for s in sorted(stacks)],
        }
    )
    driver = TabletDriver(table, seed=1)
    while table.asked().kind == "play_power_card":
        driver.step()
    ask = table.asked()
    pid = ask.players[0]
    stack = next(int(s) for s, cid in ask.options["stacks"].items() if cid == "exile")
    table.submit_many(
        [
            {"type": "court_replenished", "player": pid, "from_provinces": ask.options["max"], "from_regions": {}},
            {"type": "action_card_chosen", "player": pid, "stack": stack},
        ]
    )
    yield from _close_outcomes(d)
    yield 0.3
    label = d.screen("table").prompt.choices[0].label
    d.facts["choice"] = label
    yield from _tap_text(d, label)
    yield from _wait_for(d, lambda: _dialog() is not None)
    yield 0.2
    dialog = _dialog()
    d.facts["heading"] = dialog.heading.text
    yield from _tap_in_dialog(d, dialog.next_button)  # nothing chosen yet
    d.facts["refused"] = dialog.message.text
    for region in ("navarra", "aragon", "cataluna"):
        yield from _tap_in_dialog(d, dialog.regions[region])
    yield from _look(d, "fact_dialog_neighbours")
    yield from _tap_in_dialog(d, dialog.next_button)
    for region in ("galicia", "castilla", "toledo", "sevilla"):
        yield from _tap_in_dialog(d, dialog.regions[region])
    yield from _tap_in_dialog(d, dialog.next_button)  # "Enter and go on"
    yield from _wait_for(d, lambda: _dialog() is None)
    yield 0.3
    d.facts["said"] = d.model.message
    yield from _tap_text(d, "Do the special action")
    yield from _wait_for(d, lambda: table.asked().kind == "move_king")
    d.facts["king_to"] = sorted(table.asked().options["regions"])
    d.tap_area("france")
    yield 0.3
    d.facts["king"] = table.public().game["king"]
    place = table.asked().options.get("place") or {}
    d.facts["place_next_to"] = sorted(a for a in place.get("areas", []) if a != "castillo")
    from companion.table_rules.board_file import BoardDraft

    d.facts["kept"] = list(BoardDraft.load("4-5").fact("spaces.france.neighbours").value)
