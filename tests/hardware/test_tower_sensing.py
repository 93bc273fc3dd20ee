"""Counting and colour on realistic traces, run on the real MicroPython."""

import pytest
import towersim
import tracegen


def run(tb):
    return towersim.run_builder(tb, timeout=60)


@pytest.fixture(scope="module")
def standard(micropython):
    tb = tracegen.standard_trace(drops=300, seed=11)
    r, truth = run(tb)
    return r, truth, towersim.score(r, truth)


def test_every_isolated_drop_is_counted_once(standard):
    _, _, s = standard
    assert s["isolated"] > 250
    assert s["exact"] == s["isolated"]
    assert s["missed"] == 0 and s["phantoms"] == 0


def test_colours_including_black_are_right_or_flagged_never_confidently_wrong(standard):
    r, truth, s = standard
    assert s["colour_wrong_confident"] == 0.0
    assert s["colour_right"] >= 0.99
    blacks = [d for d in truth if d["colour"] == "black" and not d["cal"]]
    assert len(blacks) > 30
    assigned, _ = towersim.match(r, truth)
    right_black = [d for d in blacks if assigned.get(d["n"], {}).get("col") == "black"]
    assert len(right_black) >= len(blacks) - 1


def test_close_pairs_are_separated_or_flagged_never_silently_merged(standard):
    _, _, s = standard
    assert s["close"] >= 4
    assert s["silently_merged"] == 0


def test_totals_match_the_drop_frames_and_survive_the_reboot(standard):
    r, truth, _ = standard
    boots = r.boot_ids()
    assert len(boots) == 2 and boots[0] != boots[1]
    drops = r.unique_drops()
    totals = r.of_type("totals")[-1]
    assert totals["boot"] == boots[1]
    assert totals["drops"] == len(drops)  # drops of both boots: persisted across the reboot
    for colour in tracegen.COLOURS:
        assert totals["counts"][colour] == sum(1 for f in drops if f["col"] == colour and not f["multi"])
    assert totals["multi"] == sum(1 for f in drops if f["multi"])
    second = [f for f in drops if f["boot"] == boots[1]]
    assert second and second[0]["seq"] == 1  # sequence numbers restart per boot


def test_drop_frames_carry_what_the_protocol_promises(standard):
    r, truth, _ = standard
    for f in r.unique_drops():
        assert f["col"] in tracegen.COLOURS + ("uncertain",)
        assert 0 <= f["conf"] <= 1000
        assert len(f["raw"]) == 4 and len(f["amb"]) == 4
        assert 4000 <= f["tr"] <= 30000
        assert f["multi"] == (f["est"] >= 2)


def test_flicker_at_the_beam_edge_is_not_double_counted(micropython):
    tb = tracegen.TraceBuilder(seed=4, flicker=1.0, glitches=0)
    tracegen.calibrate(tb)
    for i in range(40):
        tb.wait(400000)
        tb.drop(tracegen.COLOURS[i % 5])
    tb.wait(1000000)
    r, truth = run(tb)
    edges = sum(1 for e in tb.build() if e["k"] == "edge")
    assert edges > 4 * 65  # chatter really is in the trace
    drops = r.unique_drops()
    assert len(drops) == 40
    assert all(not f["multi"] for f in drops)
    s = towersim.score(r, truth)
    assert s["exact"] == 40 and s["colour_right"] == 1.0


def test_glitches_are_not_cubes(micropython):
    tb = tracegen.TraceBuilder(seed=5, glitches=0)
    tracegen.calibrate(tb)
    for _ in range(5):
        tb.wait(300000)
        tb.glitch(tb.t)
    tb.wait(300000)
    tb.drop("red")
    tb.wait(6000000)
    r, _ = run(tb)
    assert [f["col"] for f in r.unique_drops()] == ["red"]
    assert r.of_type("hb")[-1]["glitch"] == 5


def test_two_cubes_together_are_flagged_as_possible_multiple(micropython):
    tb = tracegen.TraceBuilder(seed=6, flicker=0, glitches=0)
    tracegen.calibrate(tb)
    tb.wait(500000)
    tb.drop("red", transit=6500)
    tb.drop("blue", at=tb.t + 5000, transit=6500)  # overlapping: one 11.5 ms block
    tb.wait(1000000)
    r, _ = run(tb)
    [f] = r.unique_drops()
    assert f["multi"] is True and f["est"] >= 2 and f["col"] == "uncertain"
    assert f["tr"] == 11500


def test_an_odd_colour_is_reported_uncertain_with_its_raw_reading(micropython):
    tb = tracegen.TraceBuilder(seed=7, flicker=0, glitches=0)
    tracegen.calibrate(tb)
    tb.wait(500000)
    tb.drop("red", rgbc=[200, 60, 230, 480])  # purple: no player has it
    tb.wait(500000)
    tb.drop("green")
    tb.wait(1000000)
    tb.cmd({"t": "totals_req"})
    tb.wait(100000)
    r, _ = run(tb)
    odd, green = r.unique_drops()
    assert odd["col"] == "uncertain" and odd["best"] in tracegen.COLOURS
    assert odd["raw"][0] > 150 and odd["raw"][2] > 150
    assert green["col"] == "green"
    totals = r.of_type("totals")[-1]
    assert totals["unc"] == 1 and totals["counts"]["green"] == 1 and totals["drops"] == 2


def test_without_calibration_every_drop_is_counted_as_uncertain(micropython):
    tb = tracegen.TraceBuilder(seed=8, glitches=0)
    tb.wait(500000)
    for colour in ("red", "black"):
        tb.drop(colour)
        tb.wait(400000)
    r, _ = run(tb)
    assert "not_calibrated" in [f["code"] for f in r.of_type("fault")]
    assert [f["col"] for f in r.unique_drops()] == ["uncertain", "uncertain"]


def test_a_missing_colour_sensor_is_a_fault_and_the_beam_still_counts(micropython):
    tb = tracegen.TraceBuilder(seed=9, sensor=False, glitches=0)
    tb.wait(500000)
    for colour in ("red", "black", "blue"):
        tb.drop(colour)
        tb.wait(400000)
    r, _ = run(tb)
    hello = r.of_type("hello")[0]
    assert hello["sensor"] is False
    fault = [f for f in r.of_type("fault") if f["code"] == "sensor_missing"]
    assert fault and "0x29" in fault[0]["msg"]
    drops = r.unique_drops()
    assert len(drops) == 3 and all(f["col"] == "uncertain" and f["raw"] is None for f in drops)


def test_a_stuck_beam_is_a_fault_and_the_block_is_flagged(micropython):
    tb = tracegen.TraceBuilder(seed=10, flicker=0, glitches=0)
    tracegen.calibrate(tb)
    tb.wait(500000)
    tb.drop("yellow", transit=1500000)  # wedged in the throat for 1.5 s
    tb.wait(3000000)
    tb.drop("red")
    tb.wait(1000000)
    r, _ = run(tb)
    stuck = [f for f in r.of_type("fault") if f["code"] == "beam_stuck"]
    assert len(stuck) == 1
    wedged, red = r.unique_drops()
    assert wedged["multi"] is True and wedged["col"] == "uncertain"
    assert red["col"] == "red" and not red["multi"]
