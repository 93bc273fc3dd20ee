"""The colours a tower may calibrate beyond the classic five (the 2023 box), on the real MicroPython.

The added colours' readings are modelled in tools/tracegen.py (REFLECT), not measured."""

import pytest
import towersim
import tracegen


def run(tb):
    return towersim.run_builder(tb, timeout=60)


def calibrated(seed, colours, **kw):
    tb = tracegen.TraceBuilder(seed=seed, flicker=0, glitches=0, **kw)
    tracegen.calibrate(tb, colours=colours)
    tb.wait(500000)
    return tb


def throw(tb, colours, rounds, gap_us=400000):
    for _ in range(rounds):
        for colour in colours:
            tb.drop(colour)
            tb.wait(gap_us)


@pytest.fixture(scope="module")
def box_2023(micropython):
    tb = tracegen.standard_trace(drops=300, seed=12, colours=tracegen.SET_2023)
    r, truth = run(tb)
    return r, truth, towersim.score(r, truth)


def test_a_2023_set_is_counted_and_named_right_or_flagged_never_confidently_wrong(box_2023):
    r, truth, s = box_2023
    assert s["exact"] == s["isolated"] > 250 and s["missed"] == 0 and s["phantoms"] == 0
    assert s["colour_wrong_confident"] == 0.0
    assert s["colour_right"] >= 0.99
    assigned, _ = towersim.match(r, truth)
    for colour in ("purple", "orange", "white"):
        mine = [d for d in truth if d["colour"] == colour and not d["cal"] and not d["close"]]
        right = [d for d in mine if towersim.drop_colour(assigned[d["n"]]) == colour]
        assert len(mine) > 40 and len(right) >= len(mine) - 1, colour


def test_added_colours_travel_in_xcol_so_an_old_host_sees_an_uncertain_drop(box_2023):
    r, _, _ = box_2023
    drops = r.unique_drops()
    added = [f for f in drops if "xcol" in f]
    assert {f["xcol"] for f in added} == {"purple", "orange", "white"}
    for f in drops:
        assert f["col"] in tracegen.COLOURS + ("uncertain",)  # what a protocol 1.0 host accepts
        assert f["best"] in tracegen.COLOURS + (None,)
        if "xcol" in f:
            assert f["col"] == "uncertain" and f["xbest"] == f["xcol"] and f["best"] is None
            assert not f["multi"] and f["conf"] >= 995
        if "xbest" in f:
            assert f["best"] is None and f["xbest"] in tracegen.ADDED


def test_hello_and_totals_name_the_calibrated_colours_and_totals_survive_the_reboot(box_2023):
    r, _, _ = box_2023
    done = [f for f in r.of_type("cal") if f["state"] == "done"][-1]
    assert done["colours"] == list(tracegen.SET_2023)
    # every hello after the calibration (the reboot's), colours in the vocabulary's order
    assert r.of_type("hello")[-1]["cal"]["colours"] == ["green", "blue", "purple", "orange", "white"]
    drops = r.unique_drops()
    totals = r.of_type("totals")[-1]
    assert sorted(totals["counts"]) == sorted(tracegen.COLOURS + tracegen.ADDED)
    for colour in tracegen.SET_2023:
        assert (
            totals["counts"][colour]
            == sum(1 for f in drops if towersim.drop_colour(f) == colour and not f["multi"])
            > 40
        )
    assert all(totals["counts"][c] == 0 for c in ("red", "yellow", "black"))
    assert totals["drops"] == len(drops)
    assert totals["unc"] == sum(1 for f in drops if towersim.drop_colour(f) == "uncertain" and not f["multi"])


def test_a_classic_calibration_keeps_the_classic_frames(micropython):
    tb = calibrated(31, None)
    throw(tb, tracegen.COLOURS, 2)
    tb.cmd({"t": "totals_req"})
    tb.cmd({"t": "hello_req"})
    tb.wait(100000)
    r, _ = run(tb)
    assert not [f for f in r.unique_drops() if "xcol" in f or "xbest" in f]
    assert sorted(r.of_type("totals")[-1]["counts"]) == sorted(tracegen.COLOURS)
    assert r.of_type("hello")[-1]["cal"]["colours"] == list(tracegen.COLOURS)


@pytest.mark.parametrize("colour", ["purple", "white"])
def test_a_colour_the_tower_was_not_calibrated_for_is_uncertain_never_a_classic_colour(micropython, colour):
    # A 2023 cube thrown into a tower calibrated for the classic five: nearest is blue or
    # yellow, but too far from it to be named.
    tb = calibrated(40 + len(colour), None)
    throw(tb, [colour], 30, gap_us=300000)
    r, _ = run(tb)
    drops = r.unique_drops()
    assert len(drops) == 30
    assert [f["col"] for f in drops] == ["uncertain"] * 30
    assert not [f for f in drops if "xcol" in f]


def test_an_orange_cube_may_pass_for_red_until_orange_is_calibrated(micropython):
    # The known limit: orange lies about 5 of red's spreads from red, at the edge of the
    # 4.5 a colour may be named within; a tower calibrated without orange names some orange
    # cubes red (the companion sends such drops to a person: companion/tower/connection.py). Calibrated
    # with orange, they are orange.
    tb = calibrated(46, None)
    throw(tb, ["orange"], 30, gap_us=300000)
    tracegen.calibrate(tb, colours=["red", "orange"])
    throw(tb, ["orange", "red"], 15, gap_us=300000)
    r, _ = run(tb)
    drops = r.unique_drops()
    before, after = drops[:30], drops[30:]
    assert {f["col"] for f in before} == {"uncertain", "red"}
    assert [towersim.drop_colour(f) for f in after].count("orange") >= 12  # the rest uncertain
    assert "red" not in [towersim.drop_colour(f) for f in after[0::2]]


def test_a_pair_it_cannot_tell_apart_warns_at_calibration_and_is_flagged_not_named_wrong(micropython):
    # Orange next to red (and purple next to blue) is the hard case: calibration says so, and a
    # drop between them is uncertain rather than confidently wrong.
    hard = ["red", "orange", "yellow", "purple", "blue"]
    tb = calibrated(52, hard)
    throw(tb, hard, 24, gap_us=250000)
    r, truth = run(tb)
    done = [f for f in r.of_type("cal") if f["state"] == "done"][-1]
    assert done["warn"] is True and done["sep"] < 60
    s = towersim.score(r, truth)
    assert s["exact"] == s["isolated"] == 120
    assert s["colour_wrong_confident"] == 0.0, s["confusion"]
    assert s["colour_right"] >= 0.9


def test_calibrate_takes_up_to_six_distinct_ids_of_the_vocabulary(micropython):
    tb = tracegen.TraceBuilder(seed=61, flicker=0, glitches=0)
    tb.wait(300000)
    bad = [
        ["pink"],
        ["purple", "purple"],
        [],
        "purple",
        [7],
        [["purple"]],
        ["red", "yellow", "green", "blue", "black", "purple", "orange"],
    ]
    for i, colours in enumerate(bad):
        tb.cmd({"t": "calibrate", "colours": colours, "id": 10 + i})
    tb.cmd({"t": "calibrate", "colours": ["white", "purple", "red", "orange", "blue", "black"], "id": 30})
    tb.wait(100000)
    r, _ = run(tb)
    faults = [f for f in r.of_type("fault") if f["code"] != "not_calibrated"]
    assert [f["re"] for f in faults] == list(range(10, 10 + len(bad)))
    assert {f["code"] for f in faults} == {"bad_argument"}
    assert "1 to 6 distinct ids" in faults[0]["msg"] and "purple, orange, white" in faults[0]["msg"]
    ok = r.of_type("ok")[-1]
    assert ok["re"] == 30 and ok["state"] == "started"
    assert r.of_type("cal")[-1] == {"t": "cal", "colour": "white", "got": 0, "need": 5, "state": "drop"}


def test_emptying_zeroes_the_added_colours_too(micropython):
    tb = calibrated(71, ["purple", "orange"])
    throw(tb, ["purple", "orange"], 3)
    tb.cmd({"t": "totals_req"})
    tb.cmd({"t": "empty", "token": "g1-r3"})
    tb.wait(100000)
    r, _ = run(tb)
    before, after = r.of_type("totals")[-2:]
    assert before["counts"]["purple"] + before["counts"]["orange"] + before["unc"] + before["multi"] == 6
    assert before["counts"]["purple"] >= 2 and before["counts"]["orange"] >= 2
    assert after["counts"] == dict.fromkeys(tracegen.COLOURS + ("purple", "orange"), 0)
    assert after["drops"] == 0 and after["epoch"] == 1


def test_teaching_a_classic_tower_the_2023_box_keeps_blue_and_green_and_survives_a_reboot(micropython):
    # What the tablet asks of a tower calibrated for the classic five at a 2023 table: only the
    # three colours it does not know (15 throws), blue and green kept; each colour is reported
    # learnt with its nearest neighbour; the throws get no sequence number; the tower keeps it.
    tb = calibrated(81, None)
    tracegen.calibrate(tb, colours=["purple", "orange", "white"], keep=["blue", "green"])
    tb.wait(300000)
    tb.reboot()
    tb.wait(1000000)
    throw(tb, tracegen.SET_2023, 8, gap_us=300000)
    r, truth = run(tb)
    cals = r.of_type("cal")
    learnt = [f for f in cals if f["state"] == "learnt"]
    assert [f["colour"] for f in learnt][-3:] == ["purple", "orange", "white"]
    purple, orange, white = learnt[-3:]
    assert (
        purple["near"] == "blue"
        and orange["near"] in ("green", "purple")
        and white["near"] in ("blue", "green", "purple", "orange")
    )
    assert all(isinstance(f["dist"], int) and f["dist"] > 0 for f in learnt[-3:])
    assert [f["got"] for f in cals if f["state"] == "drop" and f["colour"] == "purple"] == [0, 1, 2, 3, 4]
    done = [f for f in cals if f["state"] == "done"][-1]
    assert done["colours"] == ["blue", "green", "purple", "orange", "white"]
    assert r.of_type("hello")[-1]["cal"]["colours"] == ["green", "blue", "purple", "orange", "white"]
    assert len(r.boot_ids()) == 2
    drops = r.unique_drops()
    assert len(drops) == 40  # the taught throws are not drops
    s = towersim.score(r, truth)
    assert s["colour_wrong_confident"] == 0.0 and s["colour_right"] >= 0.95, s


def test_keep_names_only_colours_the_tower_knows_and_six_at_most(micropython):
    tb = calibrated(91, None)
    bad = [
        {"colours": ["purple"], "keep": ["orange"]},
        {"colours": ["purple"], "keep": ["purple"]},
        {"colours": ["purple"], "keep": "blue"},
        {"colours": ["purple", "orange"], "keep": ["red", "yellow", "green", "blue", "black"]},
    ]
    for i, cmd in enumerate(bad):
        tb.cmd({"t": "calibrate", "id": 20 + i, **cmd})
    tb.cmd({"t": "hello_req"})
    tb.wait(100000)
    r, _ = run(tb)
    faults = [f for f in r.of_type("fault") if f["code"] == "bad_argument"]
    assert [f["re"] for f in faults] == [20, 21, 22, 23]
    assert "calibrated for (red, yellow, green, blue, black)" in faults[0]["msg"]
    assert r.of_type("hello")[-1]["cal"]["colours"] == list(tracegen.COLOURS)  # nothing half-applied
