"""A board fact nobody published, asked at the table when the game first needs it (issue 13
item 2), without Kivy: the 2-3 player side's scoreboards at a 2-player general scoring, and
France's and Portugal's neighbours when Exile is taken. The prompt offers the entry right
there; a wrong entry is refused with the board's rule; the entry goes into the game as one
BoardFactsEntered input, the step goes on, and the side's board file in the user data folder
keeps it: the next game does not ask again."""

from __future__ import annotations

import copy

import pytest

from companion.entry.facts import FactsEntry
from companion.scripted import fingerprint
from companion.table.authority import Table
from companion.table.setup import TableSetup
from companion.table_rules.board_file import BoardDraft
from companion.table_rules.new_game import game_files
from companion.table_rules.rules_choice import RulesChoice
from companion.table_rules.storage import RuleFileError
from engine.card_entry import merged_board_file
from engine.playout import standin_files
from tests.companion.table.test_authority_2023 import game_setup
from tests.companion.tablet_driver import TabletDriver

SIDE_2_3 = {
    "galicia": [4, 2, 0],
    "navarra": [5, 3, 1],
    "aragon": [5, 4, 1],
    "cataluna": [4, 2, 1],
    "castilla": [6, 4, 2],
    "toledo": [7, 4, 2],
    "valencia": [5, 3, 2],
    "sevilla": [4, 3, 1],
    "granada": [6, 3, 1],
    "castillo": [5, 3, 1],
}  # what "our board" says in these tests


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def _without_scoreboards(board_file: dict) -> dict:
    """The stand-in board file less the 2-3 side's scoreboards: as a table that has not entered them."""
    out = copy.deepcopy(board_file)
    out.pop("regions", None)
    out.pop("castillo", None)
    out["provenance"] = {k: v for k, v in out["provenance"].items() if not k.endswith(".scoreboard")}
    return out


def _table(n: int, modules=(), board_file=None) -> Table:
    setup = game_setup(n, modules, variant="full").model_copy(update={"board_file": board_file})
    return Table.new(TableSetup(game=setup, mode="tracking", tower={"kind": "simulated"}))


def _until_facts_needed(driver: TabletDriver, limit: int = 3000) -> None:
    for _ in range(limit):
        if driver.table.facts_needed():
            return
        assert driver.step() is not None, "the game ended without needing the missing facts"
    raise AssertionError("no step needed the missing facts")


def _enter_scoreboards(entry: FactsEntry) -> None:
    for fact in entry.facts:
        for place, value in enumerate(SIDE_2_3[fact.area]):
            entry.pick(place, value)
        assert entry.next(), entry.message


def test_the_two_player_sides_scoreboards_are_asked_when_first_needed_then_the_game_goes_on():
    board_file = _without_scoreboards(standin_files("2023", 2)[0])
    table = _table(2, board_file=board_file)
    assert len([p for p in table.board.missing if p.endswith(".scoreboard")]) == 10
    driver = TabletDriver(table, seed=3)
    _until_facts_needed(driver)
    ask = table.asked()
    prompt = table.prompt()
    first = prompt.choices[0]
    assert first.action == "board_facts" and "10 scoreboards" in first.label, first
    if ask.stage == "scoring_discs":  # the general scoring: it cannot open before they are in
        assert all(not c.enabled for c in prompt.choices if c.action == "open_castillo")
        assert "general scoring needs" in prompt.notes[0]
    else:  # a scoring card turned up first: skipping stays possible
        assert any(c.label == "Skip the special action" for c in prompt.choices)

    entry = FactsEntry.for_table(table)
    assert [f.area for f in entry.facts] == list(SIDE_2_3) and entry.current.label == "Galicia's scoreboard"
    entry.pick(0, 13)
    assert "13 is not a number offered" in entry.message and entry.values["regions.galicia.scoreboard"][0] is None
    assert not entry.next() and entry.message == "Tap a number for 1st place first"
    for place, value in enumerate((3, 4, 0)):
        entry.pick(place, value)
    assert not entry.next() and entry.page == 0
    assert entry.message == ("Galicia's scoreboard: 3·4·0: a scoreboard must not increase (1st ≥ 2nd ≥ 3rd place)")
    records = len(table.records)
    assert not entry.send(table) and len(table.records) == records  # nothing sent half entered
    _enter_scoreboards(entry)
    assert entry.complete and entry.send(table), entry.message
    assert "the game goes on" in entry.message and "Your board keeps them" in entry.message

    assert table.facts_needed() == [] and not [p for p in table.board.missing if p.endswith(".scoreboard")]
    assert table.asked().kind == ask.kind  # the same step, now possible
    kept = BoardDraft.load("2-3").fact("regions.toledo.scoreboard")
    assert kept.value == (7, 4, 2) and kept.status == "yours"
    driver.play()
    assert table.over and any(s.title.startswith("General scoring") for s in table.state.scoring_log)
    assert fingerprint(Table.resume(table.path)) == fingerprint(table)

    # The next game takes them from the table's board file: never asked again
    files = game_files(RulesChoice("2023"), 2)
    assert files.board_file["castillo"] == {"scoreboard": [5, 3, 1]}
    nxt = _table(2, board_file=merged_board_file(board_file, [files.board_file], "2023"))  # + the tiles
    assert not [p for p in nxt.board.missing if p.endswith(".scoreboard")]
    second = TabletDriver(nxt, seed=3)
    while second.step() is not None:
        assert not [f for f in nxt.facts_needed() if f.kind == "scoreboard"]
    assert nxt.over


def _reveal_exile(table: Table, driver: TabletDriver) -> None:
    stacks = table.asked().options["stacks"]
    cards = [("exile" if s == 5 else next(iter(stacks[s]))) for s in sorted(stacks)]
    table.submit({"type": "action_cards_revealed", "cards": cards})
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


def test_exile_asks_france_and_portugals_neighbours_and_the_king_goes_there():
    table = _table(4, ("new-regency",))
    assert "spaces.france.neighbours" in table.board.missing
    driver = TabletDriver(table, seed=1)
    _reveal_exile(table, driver)
    ask = table.asked()
    pid = ask.players[0]
    assert ask.kind == "turn_action" and "spaces[france].neighbours" in ask.options["special"]["refused"]
    prompt = table.prompt()
    assert prompt.choices[0].label == "Enter France's neighbours and Portugal's neighbours from your board"
    assert any(c.label == "Skip the special action" for c in prompt.choices)

    entry = FactsEntry.for_table(table)
    assert [f.label for f in entry.facts] == ["France's neighbours", "Portugal's neighbours"]
    entry.toggle("france")
    assert entry.message.startswith("france is not a region")
    assert not entry.next()
    assert entry.message == "France's neighbours: none chosen: tap the regions it borders on your board"
    for region in ("cataluna", "navarra", "aragon", "galicia"):
        entry.toggle(region)
    entry.toggle("galicia")  # tapped again: taken off
    assert entry.neighbours["spaces.france.neighbours"] == ["navarra", "aragon", "cataluna"]  # the board's order
    assert entry.next() and entry.current.area == "portugal"
    for region in ("galicia", "castilla", "toledo", "sevilla"):
        entry.toggle(region)
    assert entry.next() and entry.send(table), entry.message

    ask = table.asked()
    assert ask.kind == "turn_action" and not ask.options["special"].get("refused") and table.facts_needed() == []
    table.submit({"type": "special_action_started", "player": pid, "option": None})
    move = table.asked()
    assert move.kind == "move_king" and set(move.options["regions"]) == {"france", "portugal"}
    table.submit({"type": "king_moved", "player": pid, "region": "france"})
    assert table.public().game["king"] == "france"
    place = table.asked().options.get("place")
    if place:  # Caballeros go next to France now
        assert set(place["areas"]) - {"castillo"} == {"navarra", "aragon", "cataluna"}
    saved = BoardDraft.load("4-5")
    assert saved.fact("spaces.portugal.neighbours").value == ("galicia", "castilla", "toledo", "sevilla")

    # The next game with New Regency knows them
    files = game_files(RulesChoice("2023", ("new-regency",)), 4)
    nxt = _table(4, ("new-regency",), board_file=files.board_file)
    assert "spaces.france.neighbours" not in nxt.board.missing
    _reveal_exile(nxt, TabletDriver(nxt, seed=1))
    assert nxt.facts_needed() == [] and not nxt.asked().options["special"].get("refused")


def test_a_complete_board_and_the_classic_game_never_ask():
    table = _table(4, ("new-regency",), board_file=standin_files("2023", 4)[0])
    driver = TabletDriver(table, seed=2)
    while driver.step() is not None:
        assert table.facts_needed() == []
    assert table.over


def test_the_board_confirmed_to_ask_later_starts_the_game_and_is_not_shown_again():
    choice = RulesChoice("2023")
    board = BoardDraft("2-3")
    with pytest.raises(RuleFileError, match="Still to enter from your board: "):
        board.confirm(())
    board.confirm((), later=True)  # "Start now: ask for them when the game needs them"
    board.save()
    files = game_files(choice, 2)
    assert not files.confirm_board and len(BoardDraft.load("2-3").needed(())) == 10
    assert any("asked when the game first needs them" in n for n in files.notes), files.notes
    table = _table(
        2,
        board_file=merged_board_file(
            files.board_file, [{"scoring_tiles": {"tile_a": [8, 4, 0], "tile_b": [4, 0, 0]}}], "2023"
        ),
    )
    assert len([p for p in table.board.missing if p.endswith(".scoreboard")]) == 10
