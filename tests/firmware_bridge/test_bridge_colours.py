"""The colours a tower may calibrate beyond the classic five (the 2023 box): typed messages, the
link, the simulated tower and `elgrande tower-sim --calibrated`, old hosts kept working."""

import json
import subprocess
import sys
from typing import Literal

import pytest
from pydantic import ValidationError

from firmware_bridge import framing
from firmware_bridge.messages import (
    COLOURS,
    TOWER_COLOURS,
    Calibrate,
    Drop,
    MessageError,
    command,
    parse_device,
    parse_host,
)
from firmware_bridge.sim import InProcessPort, SimulatedTower
from tests.firmware_bridge.bridge_helpers import Wire, assert_exactly_once_in_order
from tests.firmware_bridge.test_bridge_messages import DROP

PURPLE = {**DROP, "col": "uncertain", "best": None, "xcol": "purple", "xbest": "purple"}


def test_an_added_colour_is_read_from_xcol_and_xbest():
    d = parse_device(PURPLE)
    assert isinstance(d, Drop) and d.colour == "purple" and d.nearest == "purple" and not d.uncertain
    unsure = parse_device({**PURPLE, "xcol": None, "xbest": "orange", "conf": 870})
    assert unsure.uncertain and unsure.colour is None and unsure.nearest == "orange"
    classic = parse_device(DROP)
    assert classic.colour == "red" and classic.nearest == "red" and classic.xcol is None


@pytest.mark.parametrize(
    "change,needle",
    [
        ({"col": "red"}, "xcol 'purple' comes with col 'uncertain'"),
        ({"best": "blue"}, "xbest 'purple' comes with best null"),
        ({"xcol": "pink"}, "xcol"),
        ({"xcol": "red"}, "xcol"),
        ({"xbest": 3}, "xbest"),
        ({"col": "purple", "xcol": None}, "col"),  # an added colour never travels in col
    ],
)
def test_contradictory_or_unknown_added_colours_are_refused_with_the_rule(change, needle):
    with pytest.raises(MessageError) as e:
        parse_device({**PURPLE, **change})
    assert str(e.value).startswith("drop: ") and needle in str(e.value)


class OldDrop(Drop):
    """A drop as a protocol 1.0 host typed it (firmware_bridge before the added colours)."""

    col: Literal["red", "yellow", "green", "blue", "black", "uncertain"]
    best: Literal["red", "yellow", "green", "blue", "black"] | None = None


def test_a_host_that_knows_only_the_classic_five_reads_an_added_colour_as_uncertain():
    tower = SimulatedTower(seed=3)
    tower.cal_colours = ["purple", "blue", "green", "orange", "white"]
    frames = []
    port = InProcessPort(tower, lambda kind, frame: frames.append(frame))
    for colour in ("purple", "orange", "white", "blue", "red"):
        tower.drop(colour)
    port.pump()
    # an old host keeps xcol/xbest as extra fields it never reads: left out here
    old = [
        OldDrop.model_validate({k: v for k, v in framing.decode(f).items() if k not in ("xcol", "xbest")})
        for f in frames
    ]
    assert [d.col for d in old] == ["uncertain", "uncertain", "uncertain", "blue", "uncertain"]
    assert [framing.decode(f).get("xcol") for f in frames] == ["purple", "orange", "white", None, None]
    assert framing.decode(frames[-1])["best"] in ("blue", "green", None)  # red is not calibrated: unsure


def test_calibrate_takes_one_to_six_distinct_ids_of_the_vocabulary():
    assert command(Calibrate(colours=["purple", "blue", "green", "orange", "white", "black"])) == {
        "t": "calibrate",
        "colours": ["purple", "blue", "green", "orange", "white", "black"],
    }
    assert command(Calibrate()) == {"t": "calibrate"}  # the classic command, byte for byte
    for bad in (["purple", "purple"], [], ["pink"], list(TOWER_COLOURS[:7])):
        with pytest.raises(ValidationError):
            Calibrate(colours=bad)
    with pytest.raises(MessageError, match="distinct"):
        parse_host({"t": "calibrate", "colours": ["white", "white"]})


def test_the_link_calibrates_the_added_colours_and_hands_them_over_once_in_order():
    w = Wire(seed=5).connect()
    assert w.link.status.calibrated == list(COLOURS)
    w.link.request_calibration(colours=["purple", "orange", "white"], keep=["blue", "green"])
    w.settle()
    assert w.sent[-1] == {"t": "calibrate", "colours": ["purple", "orange", "white"], "keep": ["blue", "green"]}
    assert w.link.status.calibration == {"state": "drop", "colour": "purple", "got": 0, "need": 5}
    for colour in ["purple"] * 5 + ["multi"] + ["orange"] * 5 + ["white"] * 5:  # taught: never drops
        w.tower.drop(colour)
        w.settle()
    assert w.c.drops == []
    learnt = [s.calibration for s in w.c.statuses if (s.calibration or {}).get("state") == "learnt"]
    assert [c["colour"] for c in learnt] == ["purple", "orange", "white"]
    assert learnt[0]["near"] == "blue" and {c["near"] for c in learnt} <= {"blue", "green", "purple", "orange"}
    assert all(c["dist"] > 60 for c in learnt)
    assert [s.calibration.get("msg") for s in w.c.statuses if (s.calibration or {}).get("state") == "retry"] == [
        "several cubes at once; drop that one again"
    ]
    st = w.link.status
    assert st.calibrated == ["green", "blue", "purple", "orange", "white"]  # the hello asked again after done
    assert st.calibration["state"] == "done" and st.calibration["colours"] == [
        "blue",
        "green",
        "purple",
        "orange",
        "white",
    ]
    for colour in ("purple", "orange", "white", "green", "uncertain", "red"):
        w.tower.drop(colour)
    w.settle()
    assert_exactly_once_in_order(w.c.drops, [(w.tower.boot_id, 6)])
    assert [d.colour for d in w.c.drops] == ["purple", "orange", "white", "green", None, None]
    w.port.command({"t": "totals_req"})
    w.settle()
    totals = w.link.totals
    assert {c: n for c, n in totals.counts.items() if n} == {"purple": 1, "orange": 1, "white": 1, "green": 1}
    assert set(totals.counts) == set(TOWER_COLOURS) and totals.unc == 2
    with pytest.raises(ValidationError):
        w.link.request_calibration(colours=["purple", "pink"])
    with pytest.raises(ValidationError, match="not among those taught"):
        w.link.request_calibration(colours=["purple"], keep=["purple"])


def test_the_status_shows_a_calibration_in_progress():
    w = Wire(seed=6).connect()
    w.link.feed_bytes(framing.encode({"t": "cal", "state": "drop", "colour": "orange", "got": 2, "need": 5}) + b"\n")
    assert w.link.status.calibration == {"state": "drop", "colour": "orange", "got": 2, "need": 5}
    assert w.c.statuses[-1].calibration["colour"] == "orange"  # a status change, handed on


def test_tower_sim_cli_drops_added_colours_to_listen(tmp_path):
    script = tmp_path / "drops.txt"
    script.write_text("50 purple\n20 orange\n20 white\n20 red\n")
    cli = [sys.executable, "-m", "companion.cli"]
    sim = subprocess.Popen(
        [
            *cli,
            "tower-sim",
            "--pty",
            "--script",
            str(script),
            "--seed",
            "3",
            "--calibrated",
            "purple,orange,white,blue",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        path = sim.stdout.readline().split(" ", 1)[1].strip()
        out = subprocess.run(
            [*cli, "listen", "--serial", path, "--json", "--count", "4"], capture_output=True, text=True, timeout=60
        )
        drops = [json.loads(x) for x in out.stdout.splitlines() if '"seq"' in x]
        assert [(d["colour"], d["uncertain"]) for d in drops] == [
            ("purple", False),
            ("orange", False),
            ("white", False),
            (None, True),
        ]
    finally:
        sim.terminate()
        sim.wait(10)
    bad = subprocess.run(
        [*cli, "tower-sim", "--pty", "--calibrated", "purple,pink"], capture_output=True, text=True, timeout=30
    )
    assert bad.returncode == 2 and "pink" in bad.stderr and "Traceback" not in bad.stderr
