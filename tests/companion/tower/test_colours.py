"""A 2023 table's colours at the tower: the companion asks the tower to calibrate the game's
colours, and purple and orange throws are then counted, end to end over a real pty with the
simulated tower (which speaks the firmware's frames: an added colour in xcol). Before that, the
table is told which colours the tower does not know, and a look-alike of such a colour (red for
an uncalibrated orange) goes to a person instead of being counted wrong."""

from __future__ import annotations

import time

import pytest

from companion.table.authority import Table
from companion.table.setup import TableSetup, TowerConfig
from companion.tower.connection import TowerConnection, calibration_colours, calibration_lines
from engine.freeplay import RoundFinished
from firmware_bridge.messages import COLOURS
from firmware_bridge.sim import PtyPort, SimulatedTower
from tests.companion.table.test_authority_2023 import game_setup


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


def wait_for(predicate, timeout: float = 20.0, what: str = "condition"):
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= end:
            raise AssertionError(f"waited {timeout:g} s for {what}; the last value: {value!r}")
        time.sleep(0.02)


class Rig:
    """A simulated tower on a real pty, calibrated for the classic five as a tower fresh from a
    classic game is, and a scoring-only 2023 table connected to it over serial."""

    def __init__(self, players: list[str]):
        self.sim = SimulatedTower("castillo-2023aa", seed=23)
        self.port = PtyPort(self.sim, baud=0)
        setup = TableSetup(
            game=game_setup(len(players), players=players),
            mode="scoring",
            tower=TowerConfig(kind="serial", port=self.port.path),
        )
        self.table = Table.new(setup)
        self.link = TowerConnection(self.table, setup.tower).start()
        wait_for(lambda: self.table.totals_check()["seen"].get("state") == "agree", what="connected and compared")

    def throw(self, *colours: str) -> None:
        before = len(self.table.drops)
        for colour in colours:
            self.sim.drop(colour)
        wait_for(lambda: len(self.table.drops) == before + len(colours), what=f"drops {colours}")

    def teach(self, again: bool = False) -> list[str]:
        """Starts teaching and throws each cube the tablet asks for, as a person would: the
        colour its view names, one at a time, until it is done. Returns the colours thrown."""
        thrown = []
        assert self.link.calibrate(again) is not None, self.link.teaching.view()
        while True:
            view = wait_for(
                lambda: (lambda v: v if v.throw or not v.busy else None)(self.link.teaching.view()),
                what="the tablet asking for a cube",
            )
            if not view.busy:
                return thrown
            got = view.got
            self.sim.drop(view.throw)
            thrown.append(view.throw)
            wait_for(
                lambda got=got, view=view: (lambda v: v.got != got or v.throw != view.throw or not v.busy)(
                    self.link.teaching.view()
                ),
                what="the tower taking the cube",
            )

    def counted_since(self, before: int) -> list:
        entries = list(self.table.drops.values())[before:]
        return [(e.colour, e.status, e.player) for e in entries]

    def totals_agree(self) -> None:
        start = time.time()
        self.sim.reboot()  # a fresh snapshot: compared once every drop it counts is in
        seen = wait_for(
            lambda: (lambda s: s if s.get("at", 0) >= start else None)(self.table.totals_check()["seen"]),
            what="a fresh comparison",
        )
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
        assert [n.split(":")[0] for n in notes[:-1]] == [
            "The tower does not know purple",
            "The tower does not know orange",
        ]
        assert notes[-1].startswith("Or calibrate the tower for this game's colours")
        words = " ".join(calibration_lines(rig.link.status.model_dump(), table.setup, table.names))
        assert "Not calibrated for purple (Purple), orange (Orange)" in words
        rig.throw("orange", "blue", "green")
        # orange: not calibrated, so not named; blue: named, but a purple cube may pass for blue
        # while purple is not calibrated, so it is asked too; green is counted
        assert rig.counted_since(0) == [
            (None, "uncertain", None),
            (None, "uncertain", None),
            ("green", "expected", "green"),
        ]
        table.assign_drop(table.public().model_dump()["drops_waiting"][1]["id"], "blue")

        thrown = rig.teach()
        assert thrown == ["purple"] * 5 + ["orange"] * 5  # blue and green kept, not thrown
        assert rig.sim.cal_colours == ["blue", "green", "purple", "orange"]
        assert len(table.drops) == 3  # the 10 cubes taught are not Castillo drops
        wait_for(
            lambda: rig.link.status.calibrated == ["green", "blue", "purple", "orange"],
            what="the tower's hello naming the calibrated colours",
        )
        assert table.setup.by_hand() == [] and table.setup.colour_notes() == []
        words = " ".join(calibration_lines(rig.link.status.model_dump(), table.setup, table.names))
        assert "Calibrated for blue, green, purple, orange" in words and "Not calibrated" not in words

        rig.throw("purple", "orange", "orange", "green", "purple")
        assert rig.counted_since(3) == [
            ("purple", "expected", "purple"),
            ("orange", "expected", "orange"),
            ("orange", "expected", "orange"),
            ("green", "expected", "green"),
            ("purple", "expected", "purple"),
        ]
        assert table.hidden_tallies() == {"purple": 2, "blue": 1, "green": 2, "orange": 2}
        rig.totals_agree()
        assert not table.public().totals_mismatch
        assert rig.sim.totals_frame()["counts"]["orange"] == 2  # the tower's own count, keyed by orange

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
        rig.totals_agree()  # the tower counted a red: read as the drop was handed over, the counts agree
        assert rig.teach() == ["orange"] * 5
        wait_for(lambda: table.setup.by_hand() == [], what="orange calibrated")
        rig.throw("red", "orange")
        assert rig.counted_since(2) == [("red", "expected", "red"), ("orange", "expected", "orange")]
        rig.totals_agree()  # the red asked before the calibration still reads as asked
        assert not table.public().totals_mismatch
    finally:
        rig.close()


def test_the_colours_asked_for_are_the_seats_and_a_classic_table_sends_the_command_as_ever():
    classic = TableSetup(game=game_setup(4, players=list(COLOURS[:4])))
    assert calibration_colours(classic) is None
    two = TableSetup(game=game_setup(2, players=["purple", "blue"]))
    assert calibration_colours(two) == ["purple", "blue", "white"]  # the dummy's colour too
    five = TableSetup(game=game_setup(5, players=["purple", "blue", "green", "orange", "white"]))
    assert calibration_colours(five) == ["purple", "blue", "green", "orange", "white"]


def test_a_calibration_in_progress_is_told_in_words():
    setup = TableSetup(game=game_setup(2, players=["purple", "blue"]))
    names = {"purple": "Ana", "blue": "Ben", "white": "Dummy"}
    status = {"calibration": {"state": "drop", "colour": "purple", "got": 2, "need": 5}}
    assert calibration_lines(status, setup, names)[0] == (
        "Calibrating: throw one purple Caballero (Ana's) at a time, as in play: 2 of 5 taken."
    )
    retry = {
        "calibration": {
            "state": "retry",
            "colour": "white",
            "got": 0,
            "need": 5,
            "msg": "several cubes at once; drop that one again",
        }
    }
    assert calibration_lines(retry, setup, names)[:2] == [
        "Calibrating: throw one white Caballero (the dummy's) at a time, as in play: 0 of 5 taken.",
        "Not usable: several cubes at once; drop that one again.",
    ]
    done = {
        "calibration": {"state": "done", "colours": ["purple", "blue", "white"], "sep": 43, "warn": True},
        "calibrated": ["blue", "purple", "white"],
    }
    setup.tower_calibrated(["blue", "purple", "white"])
    lines = calibration_lines(done, setup, names)
    assert lines[0] == "Calibrated for purple, blue, white: colours 4.3 spreads apart."
    assert "asked of you, never guessed" in lines[1] and len(lines) == 2
    setup.tower_calibrated(["blue", "purple"])
    status = {"calibrated": ["blue", "purple"]}
    assert calibration_lines(status, setup, names) == [
        "The tower names: blue, purple.",
        "Not calibrated for white (the dummy): their throws are entered by hand until you calibrate the "
        "colours of this game.",
    ]


def test_a_calibration_during_a_game_reaches_the_prompts_already_made():
    """The tablet keeps one prompt builder per game: when the tower is calibrated for purple
    after the game opened, purple's throws are the tower's from then on, and the Castillo is
    no longer tapped by hand for them (tapping too would count a cube twice)."""
    from engine.board.model import CASTILLO

    setup = TableSetup(
        game=game_setup(3, players=["purple", "green", "orange"]), tower=TowerConfig(kind="serial", port="/dev/ttyACM0")
    )
    table = Table.new(setup)
    builder = table.prompt_builder()
    assert builder.placeable([CASTILLO], "purple") == [CASTILLO]  # by hand: the tower does not know it
    assert builder.placeable([CASTILLO], "green") == []  # the tower counts green
    setup.tower_calibrated(COLOURS + ("purple",))
    assert builder.placeable([CASTILLO], "purple") == []
    assert builder.placeable([CASTILLO], "orange") == [CASTILLO]
    assert setup.by_hand() == ["orange"]


def test_the_tablet_teaches_a_classic_tower_a_2023_box_throw_by_throw():
    """A 5-player 2023 table on a tower fresh from a classic game: the tablet offers to teach the
    three colours it does not know (blue and green kept), says which cube to throw and how many
    are in, refuses nothing silently (a double throw is said), and says per colour how well it
    separates; no cube taught is a Castillo drop; the tower keeps it through a restart."""
    rig = Rig(["purple", "blue", "green", "orange", "white"])
    try:
        teaching, table = rig.link.teaching, rig.table
        offer = teaching.view()
        assert teaching.offered() and offer.action == "start"
        assert offer.headline == "The tower does not know purple, orange and white."
        assert (
            "5 cubes of each, one at a time (15 throws" in offer.lines[0] and "keeps blue and green" in offer.lines[0]
        )
        assert rig.link.calibrate() == ["purple", "orange", "white"]
        assert teaching.start() == "The tower is learning already: throw the cubes it asks for, or stop."
        view = wait_for(lambda: (lambda v: v if v.throw else None)(teaching.view()), what="the first cube asked")
        assert (view.headline, view.got, view.need) == ("Throw 5 purple cubes in, one at a time", 0, 5)
        rig.sim.drop("purple")
        rig.sim.drop("multi")
        view = wait_for(
            lambda: (lambda v: v if v.lines[0].startswith("That") else None)(teaching.view()),
            what="the double throw said",
        )
        assert view.got == 1 and view.lines[0] == "That throw did not count: several cubes at once. Throw it again."
        for _ in range(4):
            rig.sim.drop("purple")
        view = wait_for(lambda: (lambda v: v if v.throw == "orange" else None)(teaching.view()), what="orange asked")
        assert view.lines[0].startswith("Purple learnt: separates well from the others (nearest: blue, ")
        for colour in ["orange"] * 5 + ["white"] * 5:
            rig.sim.drop(colour)
        done = wait_for(lambda: (lambda v: v if not v.busy else None)(teaching.view()), what="done")
        assert done.headline == "Done: the tower knows blue, green, purple, orange and white."
        assert [line.split(":")[0] for line in done.lines[:3]] == ["Purple learnt", "Orange learnt", "White learnt"]
        assert done.lines[-1] == "It keeps them when switched off. Its throws count from now on."
        assert done.action == "again" and not teaching.offered()
        wait_for(lambda: table.setup.by_hand() == [], what="the hello naming the colours learnt")
        assert len(table.drops) == 0  # 16 throws, none of them a drop
        rig.sim.reboot()
        rig.throw("white", "purple", "orange")
        assert rig.counted_since(0) == [
            ("white", "expected", "white"),
            ("purple", "expected", "purple"),
            ("orange", "expected", "orange"),
        ]
    finally:
        rig.close()


def test_a_drop_while_teaching_goes_to_a_person_and_a_restart_stops_the_teaching():
    rig = Rig(["purple", "blue", "red"])
    try:
        teaching = rig.link.teaching
        rig.link.calibrate()
        wait_for(lambda: teaching.view().throw == "purple", what="purple asked")
        with rig.sim.lock:
            rig.sim.teaching = None  # the tower forgot it was being taught, and the link has not heard yet
        rig.throw("blue")
        assert rig.counted_since(0) == [(None, "uncertain", None)]  # not counted: a person says whose
        rig.sim.reboot()
        view = wait_for(lambda: (lambda v: v if not v.busy else None)(teaching.view()), what="stopped")
        assert view.headline == "Teaching stopped." and "went away while learning" in view.lines[-1]
        assert view.action == "start" and rig.table.setup.by_hand() == ["purple"]
    finally:
        rig.close()


def test_a_colour_learnt_too_close_to_another_says_what_to_do():
    from companion.tower.teaching import TowerTeaching

    setup = TableSetup(
        game=game_setup(3, players=["purple", "blue", "orange"]), tower=TowerConfig(kind="serial", port="/dev/ttyACM0")
    )
    setup.tower_calibrated(COLOURS)
    asked = []
    t = TowerTeaching(setup, lambda **kw: asked.append(kw), {"purple": "Ana"})
    t.on_status({"state": "connected", "boot": "0000000a", "calibrated": list(COLOURS)})
    assert t.start() is None and asked == [{"colours": ["purple", "orange"], "keep": ["blue"]}]
    for cal in (
        {"state": "drop", "colour": "purple", "got": 0, "need": 5},
        {"state": "learnt", "colour": "purple", "near": "blue", "dist": 43},
        {"state": "drop", "colour": "orange", "got": 0, "need": 5},
    ):
        t.on_status({"state": "connected", "boot": "0000000a", "calibration": cal})
    view = t.view()
    assert view.headline == "Throw 5 orange cubes in, one at a time"
    assert view.lines[0] == (
        "Purple learnt, but it lies close to blue (4.3 spreads; under 6 a drop between them is "
        "often asked of you, never guessed). Wipe the sensor window, keep daylight out of the "
        "shroud, then Teach again; if it stays close, the table answers those drops."
    )
    t.stop()
    assert asked[-1] == {"cancel": True} and t.view().lines[-1] == "You stopped the teaching."


def test_a_tower_that_forgets_the_colours_kept_is_taught_every_colour_again():
    """Firmware before 1.2 ignores `keep`: after teaching purple it knows purple only. The tablet
    says so, and Teach again throws every seat colour (no keep), which any firmware takes."""
    from companion.tower.teaching import TowerTeaching

    setup = TableSetup(
        game=game_setup(2, players=["purple", "blue"]), tower=TowerConfig(kind="serial", port="/dev/ttyACM0")
    )
    setup.tower_calibrated(COLOURS)
    asked = []
    t = TowerTeaching(setup, lambda **kw: asked.append(kw))
    t.on_status({"state": "connected", "boot": "0000000b", "calibrated": list(COLOURS)})
    assert t.start() is None and asked[-1] == {"colours": ["purple", "white"], "keep": ["blue"]}
    # such a tower sends no `learnt` frames (firmware 1.2 added them): its `done` ends the teaching,
    # so no later drop is held for a person
    for cal in (
        {"state": "drop", "colour": "purple", "got": 0, "need": 5},
        {"state": "drop", "colour": "white", "got": 0, "need": 5},
        {"state": "done", "colours": ["purple", "white"], "sep": 71, "warn": False},
    ):
        t.on_status({"state": "connected", "boot": "0000000b", "calibration": cal})
    assert not t.busy
    setup.tower_calibrated(["purple", "white"])  # its hello after the calibration
    view = t.view()
    assert view.headline == "The tower learnt purple and white." and view.action == "again"
    assert "did not keep blue (its firmware is older than 1.2)" in view.lines[-1]
    t.on_status({"state": "connected", "boot": "0000000b", "calibrated": ["purple", "white"]})
    assert t.start(again=True) is None and asked[-1] == {"colours": ["purple", "blue", "white"], "keep": []}
