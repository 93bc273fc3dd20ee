"""Tracking mode's board entry (companion/entry/position.py, no Kivy): the whole position for a
correction or a start, and its changes in words (companion/entry/position_words.py). Every event
built here goes through the real table authority, which checks it with the engine."""

import re

import pytest

from companion.entry.position import NotAllowed, PositionEntry
from companion.entry.position_words import position_changes
from companion.input_errors import InputError
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine.board.build import classic_board
from engine.events import GameSetup

BOARD = classic_board()
NAMES = {"red": "Ana", "yellow": "Ben", "green": "Cy"}


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))


def tracked(variant="full") -> Table:
    game = GameSetup(
        players=["red", "yellow", "green"],
        names=NAMES,
        variant=variant,
        king="castilla_la_nueva",
        homes={"red": "galicia", "yellow": "aragon", "green": "sevilla"},
        start_player="red",
    )
    return Table.new(TableSetup(game=game, mode="tracking"))


def entry(table: Table, starting: bool, tower=None) -> PositionEntry:
    return PositionEntry(table.public().game, table.names, BOARD, starting=starting, tower_count=tower)


def test_a_start_from_a_position_is_one_event_the_table_accepts():
    table = tracked()
    e = entry(table, starting=True)
    assert e.castillo_source == "counted"  # a new game's tower has counted nothing
    e.colour = "yellow"
    for _ in range(3):
        e.tap("valencia")
    e.tool = "remove"
    e.tap("aragon")
    e.tool, e.colour = "grande", "green"
    e.tap("granada")
    e.tool = "king"
    e.tap("cataluna")
    e.tool = "mobile:8-4-0"
    e.tap("castillo")
    e.step_court("red", -2)
    e.set_score("green", 41)
    e.step_castillo("red", +1)
    e.step_castillo("red", +1)
    e.set_round(4)
    e.set_start_player("yellow")
    for value in (13, 1, 7):
        e.toggle_power("red", value)
    e.toggle_power("yellow", 12)
    e.toggle_veto("green")
    table.submit(e.event("opened in round 4"))
    s = table.state
    assert (s.round, s.stage, s.players[s.start_player]) == (4, "reveal", "yellow")
    game = table.public().game
    assert game["regions"]["valencia"] == {"yellow": 3} and game["regions"]["aragon"] == {"yellow": 1}
    assert game["king"] == "cataluna" and game["mobile_scoreboards"]["8-4-0"] == "castillo"
    assert {p["id"]: (p["court"], p["score"], p["grande"], p["vetoes_held"]) for p in game["players"]} == {
        "red": (5, 0, "galicia", 0),
        "yellow": (7, 0, "aragon", 0),
        "green": (7, 41, "granada", 1),
    }
    assert table.recorded_castillo() == {"red": 2, "yellow": 0, "green": 0}
    assert sorted(s.power_spent[0]) == [1, 7, 13] and s.provinces[0] == 30 - 2 - 5 - 2
    assert len([r for r in table.records if r["t"] == "event"]) == 1


def test_only_what_a_table_could_hold_can_be_entered():
    table = tracked(variant="short")
    e = entry(table, starting=True)
    with pytest.raises(NotAllowed, match="round 4 is not a round of this game"):
        e.set_round(4)  # the short game has no round 4
    with pytest.raises(NotAllowed, match="at most 0 Power cards"):
        e.toggle_power("red", 13)  # round 2 is the short game's first
    e.set_round(5)
    for value in (13, 12):
        e.toggle_power("red", value)
    with pytest.raises(NotAllowed, match="at most 2 Power cards"):
        e.toggle_power("red", 11)
    with pytest.raises(NotAllowed, match="Ana laid down more Power cards"):
        e.set_round(3)
    e.toggle_power("red", 12)  # tapped again: taken back
    e.set_round(3)
    e.toggle_veto("red")
    e.toggle_veto("yellow")
    with pytest.raises(NotAllowed, match="2 Veto cards and Ana, Ben hold them"):
        e.toggle_veto("green")
    with pytest.raises(NotAllowed, match="Ben has no Caballero in Galicia"):
        e.colour, e.tool = "yellow", "remove"
        e.tap("galicia")
    e.tool = "add"
    while e.on_table("yellow") < 30:
        e.tap("galicia")
    with pytest.raises(NotAllowed, match="Ben already has all 30 Caballeros on the table"):
        e.tap("valencia")
    with pytest.raises(NotAllowed, match="all 30"):
        e.step_court("yellow", +1)
    with pytest.raises(NotAllowed, match="all 30"):
        e.step_castillo("yellow", +1)
    for tool, words in (
        ("add", "Castillo is entered on its own page"),
        ("king", "King stands in a region"),
        ("grande", "Grande stands in a region"),
    ):
        e.tool = tool
        with pytest.raises(NotAllowed, match=words):
            e.tap("castillo")
    e.tool = "mobile:4-0-0"
    e.tap("galicia")
    e.tool = "mobile:8-4-0"
    with pytest.raises(NotAllowed, match="4-0-0 scoreboard already lies on Galicia"):
        e.tap("galicia")
    with pytest.raises(NotAllowed, match="0 to 999"):
        e.set_score("red", 1000)
    with pytest.raises(NotAllowed, match="tower has counted nothing"):
        e.set_castillo_source("tower")
    with pytest.raises(NotAllowed, match="court is empty"):
        for _ in range(8):
            e.step_court("red", -1)
    table.submit(e.event())  # everything the entry let through, the engine accepts
    assert table.state.round == 3


def test_the_hidden_castillo_counts_towards_thirty_and_the_engine_says_so_without_its_figure():
    table = tracked()
    start = entry(table, starting=True)
    start.step_castillo("red", +1)
    start.step_castillo("red", +1)
    start.step_castillo("red", +1)
    table.submit(start.event())
    e = entry(table, starting=False)
    assert e.castillo_source == "keep"
    with pytest.raises(NotAllowed, match="only where tracking starts"):
        e.set_round(5)
    while e.on_table("red") < 30:  # the entry cannot see the 3 in the Castillo
        e.tap("valencia")
    before = table.public()
    with pytest.raises(InputError) as refused:
        table.submit(e.event("too many"))
    message = str(refused.value)
    assert "Ana would have more than 30 Caballeros" in message and not re.search(r"\b3\b", message)
    assert table.public() == before  # nothing applied


def test_the_tower_count_goes_in_but_never_into_words():
    table = tracked()
    table.submit(entry(table, starting=True).event())
    e = entry(table, starting=False, tower={"red": 4, "green": 1})
    e.set_castillo_source("tower")
    e.colour = "green"
    e.tap("galicia")
    words = e.changes()
    assert words == ["Galicia: Cy from 0 to 1", "The Castillo: as the tower counted it (not shown)"]
    table.submit(e.event(e.reason()))
    assert table.recorded_castillo() == {"red": 4, "yellow": 0, "green": 1}
    assert table.public().undo == "the table's correction (Galicia: Cy from 0 to 1)"


def test_changes_name_nothing_that_did_not_change():
    table = tracked()
    game = table.public().game
    e = entry(table, starting=False)
    assert e.changes() == [] and position_changes(game, e.event(), NAMES, BOARD) == []
    assert e.reason() == ""
    e.colour = "green"
    for _ in range(30):
        try:
            e.tap("cataluna")
        except NotAllowed:
            break
    assert len(e.reason()) <= 200
