"""A 2023 table's colours at the tower: the companion asks the tower to calibrate the game's
colours, and purple and orange throws are then counted, end to end over a real pty with the
simulated tower (which speaks the firmware's frames: an added colour in xcol). Before that, the
table is told which colours the tower does not know, and a look-alike of such a colour (red for
an uncalibrated orange) goes to a person instead of being counted wrong."""
from __future__ import annotations

import time

import pytest

from companion.table import Table, TableSetup, TowerConfig
from companion.tower import TowerConnection, calibration_colours, calibration_lines
from engine.freeplay import RoundFinished
from firmware_bridge.messages import COLOURS
from firmware_bridge.sim import PtyPort, SimulatedTower

from .test_table_2023 import game_setup


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


def wait_for(predicate, timeout: float = 10.0, what: str = "condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


class Rig:
    """A simulated tower on a real pty, calibrated for the classic five as a tower fresh from a
    classic game is, and a scoring-only 2023 table connected to it over serial."""

    def __init__(self, players: list[str]):
        self.sim = SimulatedTower("castillo-2023aa", seed=23)
        self.port = PtyPort(self.sim, baud=0)
        setup = TableSetup(game=game_setup(len(players), players=players), mode="scoring",
                           tower=TowerConfig(kind="serial", port=self.port.path))
        self.table = Table.new(setup)
        self.link = TowerConnection(self.table, setup.tower).start()
        wait_for(lambda: self.table.totals_check()["seen"].get("state") == "agree", what="connected and compared")

    def throw(self, *colours: str) -> None:
        before = len(self.table.drops)
        for colour in colours:
            self.sim.drop(colour)
        wait_for(lambda: len(self.table.drops) == before + len(colours), what=f"drops {colours}")

    def counted_since(self, before: int) -> list:
        entries = list(self.table.drops.values())[before:]
        return [(e.colour, e.status, e.player) for e in entries]

    def totals_agree(self) -> None:
        start = time.time()
        self.sim.reboot()   # a fresh snapshot: compared once every drop it counts is in
        seen = wait_for(lambda: (lambda s: s if s.get("at", 0) >= start else None)(self.table.totals_check()["seen"]),
                        what="a fresh comparison")
        assert seen["state"] == "agree", seen

    def close(self) -> None:
        self.link.stop()
        self.table.close()
        self.port.close()


def test_the_companion_calibrates_the_games_colours_and_purple_and_orange_are_counted():
    rig = Rig(["purple", "blue", "green", "orange"])
    try:
        table = rig.table
        assert table.setup.by_hand() == ["purple", "orange"]
        notes = table.setup.colour_notes()
        assert [n.split(":")[0] for n in notes[:-1]] == ["The tower does not know purple",
                                                         "The tower does not know orange"]
        assert notes[-1].startswith("Or calibrate the tower for this game's colours")
        words = " ".join(calibration_lines(rig.link.status.model_dump(), table.setup, table.names))
        assert "Not calibrated for purple (Purple), orange (Orange)" in words
        rig.throw("orange", "blue", "green")
        # orange: not calibrated, so not named; blue: named, but a purple cube may pass for blue
        # while purple is not calibrated, so it is asked too; green is counted
        assert rig.counted_since(0) == [(None, "uncertain", None), (None, "uncertain", None),
                                        ("green", "expected", "green")]
        table.assign_drop(table.public().model_dump()["drops_waiting"][1]["id"], "blue")

        asked = rig.link.calibrate()
        assert asked == ["purple", "blue", "green", "orange"]
        wait_for(lambda: rig.sim.cal_colours == asked, what="the calibrate command at the tower")
        wait_for(lambda: rig.link.status.calibrated == ["green", "blue", "purple", "orange"],
                 what="the tower's hello naming the calibrated colours")
        assert table.setup.by_hand() == [] and table.setup.colour_notes() == []
        words = " ".join(calibration_lines(rig.link.status.model_dump(), table.setup, table.names))
        assert "Calibrated for purple, blue, green, orange" in words and "Not calibrated" not in words

        rig.throw("purple", "orange", "orange", "green", "purple")
        assert rig.counted_since(3) == [("purple", "expected", "purple"), ("orange", "expected", "orange"),
                                        ("orange", "expected", "orange"), ("green", "expected", "green"),
                                        ("purple", "expected", "purple")]
        assert table.hidden_tallies() == {"purple": 2, "blue": 1, "green": 2, "orange": 2}
        rig.totals_agree()
        assert not table.public().totals_mismatch
        assert rig.sim.totals_frame()["counts"]["orange"] == 2   # the tower's own count, keyed by orange

        # the table goes on: the next round's throws count too
        table.submit(RoundFinished())
        rig.throw("orange")
        assert table.hidden_tallies()["orange"] == 3
    finally:
        rig.close()


def test_a_look_alike_of_a_colour_the_tower_does_not_know_goes_to_a_person():
    # A tower calibrated without orange may name an orange cube red (hardware README, "Colours"):
    # with a red and an orange player at the table, its "red" is asked until orange is calibrated.
    rig = Rig(["red", "orange", "blue"])
    try:
        table = rig.table
        assert table.setup.by_hand() == ["orange"]
        rig.throw("red", "blue")
        assert rig.counted_since(0) == [(None, "uncertain", None), ("blue", "expected", "blue")]
        assert table.public().model_dump()["drops_waiting"][0]["best"] == "red"
        rig.totals_agree()   # the tower counted a red: read as the drop was handed over, the counts agree
        rig.link.calibrate()
        wait_for(lambda: table.setup.by_hand() == [], what="orange calibrated")
        rig.throw("red", "orange")
        assert rig.counted_since(2) == [("red", "expected", "red"), ("orange", "expected", "orange")]
        rig.totals_agree()   # the red asked before the calibration still reads as asked
        assert not table.public().totals_mismatch
    finally:
        rig.close()


def test_the_colours_asked_for_are_the_seats_and_a_classic_table_sends_the_command_as_ever():
    classic = TableSetup(game=game_setup(4, players=list(COLOURS[:4])))
    assert calibration_colours(classic) is None
    two = TableSetup(game=game_setup(2, players=["purple", "blue"]))
    assert calibration_colours(two) == ["purple", "blue", "white"]   # the dummy's colour too
    five = TableSetup(game=game_setup(5, players=["purple", "blue", "green", "orange", "white"]))
    assert calibration_colours(five) == ["purple", "blue", "green", "orange", "white"]


def test_a_calibration_in_progress_is_told_in_words():
    setup = TableSetup(game=game_setup(2, players=["purple", "blue"]))
    names = {"purple": "Ana", "blue": "Ben", "white": "Dummy"}
    status = {"calibration": {"state": "drop", "colour": "purple", "got": 2, "need": 5}}
    assert calibration_lines(status, setup, names)[0] == (
        "Calibrating: throw one purple Caballero (Ana's) at a time, as in play: 2 of 5 taken.")
    retry = {"calibration": {"state": "retry", "colour": "white", "got": 0, "need": 5,
                             "msg": "several cubes at once; drop that one again"}}
    assert calibration_lines(retry, setup, names)[:2] == [
        "Calibrating: throw one white Caballero (the dummy's) at a time, as in play: 0 of 5 taken.",
        "Not usable: several cubes at once; drop that one again."]
    done = {"calibration": {"state": "done", "colours": ["purple", "blue", "white"], "sep": 43, "warn": True},
            "calibrated": ["blue", "purple", "white"]}
    setup.tower_calibrated(["blue", "purple", "white"])
    lines = calibration_lines(done, setup, names)
    assert lines[0] == "Calibrated for purple, blue, white: colours 4.3 spreads apart."
    assert "asked of you, never guessed" in lines[1] and len(lines) == 2
    setup.tower_calibrated(["blue", "purple"])
    status = {"calibrated": ["blue", "purple"]}
    assert calibration_lines(status, setup, names) == [
        "The tower names: blue, purple.",
        "Not calibrated for white (the dummy): their throws are entered by hand until you calibrate the "
        "colours of this game."]


def test_a_calibration_during_a_game_reaches_the_prompts_already_made():
    """The tablet keeps one prompt builder per game: when the tower is calibrated for purple
    after the game opened, purple's throws are the tower's from then on, and the Castillo is
    no longer tapped by hand for them (tapping too would count a cube twice)."""
    from engine.board import CASTILLO

    setup = TableSetup(game=game_setup(3, players=["purple", "green", "orange"]),
                       tower=TowerConfig(kind="serial", port="/dev/ttyACM0"))
    table = Table.new(setup)
    builder = table.prompt_builder()
    assert builder._placeable([CASTILLO], "purple") == [CASTILLO]      # by hand: the tower does not know it
    assert builder._placeable([CASTILLO], "green") == []               # the tower counts green
    setup.tower_calibrated(COLOURS + ("purple",))
    assert builder._placeable([CASTILLO], "purple") == []
    assert builder._placeable([CASTILLO], "orange") == [CASTILLO]
    assert setup.by_hand() == ["orange"]
