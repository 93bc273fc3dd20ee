"""Host commands over serial, the ring buffer, replay, and bad input."""

import towersim
import tracegen


def run(tb):
    return towersim.run_builder(tb, timeout=60)


def quick_drops(tb, n, gap_us=40000, colour="red"):
    for _ in range(n):
        tb.drop(colour)
        tb.wait(gap_us)


def calibrated(seed, **kw):
    tb = tracegen.TraceBuilder(seed=seed, flicker=0, glitches=0, **kw)
    tracegen.calibrate(tb)
    tb.wait(500000)
    return tb


def replies(r, after_t=0):
    return [f for t, f in r.frames if t >= after_t and f["t"] in ("ok", "fault", "totals")]


def test_ring_holds_256_and_replay_from_a_lost_sequence_is_a_fault(micropython):
    tb = calibrated(21)
    quick_drops(tb, 300)
    tb.wait(500000)
    tb.cmd({"t": "replay", "boot": "$boot", "from": 1, "id": 5})
    tb.wait(2000000)
    r, _ = run(tb)
    gap = [f for f in r.of_type("fault") if f["code"] == "replay_gap"]
    assert len(gap) == 1 and gap[0]["oldest"] == 300 - 256 + 1 and gap[0]["last"] == 300 and gap[0]["re"] == 5
    ok = [f for f in r.of_type("ok") if f["cmd"] == "replay"][0]
    assert ok["from"] == 45 and ok["to"] == 300
    drops = r.of_type("drop")
    assert len(drops) == 300 + 256  # live, then the replay of everything held
    assert [f["seq"] for f in drops[300:]] == list(range(45, 301))
    assert drops[300] == drops[44]  # a replay repeats the very same frame
    hb = r.of_type("hb")[-1]
    assert hb["held"] == 256 and hb["lost"] == 300 - 256  # nobody acked the overwritten ones


def test_ack_marks_drops_delivered_so_overwriting_them_loses_nothing(micropython):
    tb = calibrated(22)
    quick_drops(tb, 100)
    tb.cmd({"t": "ack", "boot": "$boot", "seq": 100})
    tb.wait(100000)
    quick_drops(tb, 200)
    tb.wait(6000000)
    tb.cmd({"t": "ack", "boot": "$boot", "seq": 999})
    tb.cmd({"t": "ack", "boot": "0badb007", "seq": 1})
    tb.wait(100000)
    r, _ = run(tb)
    hb = r.of_type("hb")[-1]
    assert hb["acked"] == 100
    assert hb["lost"] == 0  # the 44 overwritten drops had all been acknowledged
    codes = [f["code"] for f in r.of_type("fault")]
    assert "bad_argument" in codes  # ack past the last sequence number
    assert "stale_boot" in codes


def test_replay_resends_after_a_cable_was_pulled(micropython):
    tb = calibrated(23)
    quick_drops(tb, 5)
    tb.cmd({"t": "replay", "boot": "$boot", "from": 3})
    tb.wait(100000)
    r, _ = run(tb)
    assert [f["seq"] for f in r.of_type("drop")] == [1, 2, 3, 4, 5, 3, 4, 5]


def test_empty_is_idempotent_by_token(micropython):
    tb = calibrated(24)
    quick_drops(tb, 3, colour="blue")
    tb.cmd({"t": "empty", "token": "game1-round3", "id": 7})
    tb.wait(50000)
    quick_drops(tb, 2, colour="yellow")
    tb.cmd({"t": "empty", "token": "game1-round3", "id": 8})  # the host retried
    tb.wait(50000)
    tb.cmd({"t": "totals_req"})
    tb.wait(50000)
    r, _ = run(tb)
    oks = [f for f in r.of_type("ok") if f["cmd"] == "empty"]
    assert [(f["re"], f["emptied"]) for f in oks] == [(7, True), (8, False)]
    totals = r.of_type("totals")
    assert totals[0]["epoch"] == 1 and totals[0]["drops"] == 0 and totals[0]["token"] == "game1-round3"
    last = totals[-1]
    assert last["counts"]["yellow"] == 2 and last["counts"]["blue"] == 0 and last["epoch"] == 1


def test_empty_survives_a_reboot_and_its_token_still_counts(micropython):
    tb = calibrated(25)
    quick_drops(tb, 2)
    tb.cmd({"t": "empty", "token": "g1"})
    tb.wait(50000)
    quick_drops(tb, 1, colour="black")
    tb.wait(1000000)
    tb.reboot()
    tb.wait(1000000)
    tb.cmd({"t": "empty", "token": "g1"})
    tb.cmd({"t": "totals_req"})
    tb.wait(100000)
    r, _ = run(tb)
    assert [f["emptied"] for f in r.of_type("ok") if f["cmd"] == "empty"] == [True, False]
    last = r.of_type("totals")[-1]
    assert last["counts"]["black"] == 1 and last["drops"] == 1 and last["boot"] == r.boot_ids()[1]
    assert r.of_type("hello")[1]["boots"] == 2 and r.of_type("hello")[1]["cal"]["ok"] is True


def test_bad_input_gets_fault_frames_and_counting_goes_on(micropython):
    tb = calibrated(26)
    tb.drop("green")
    tb.wait(30000)
    tb.cmd(line="hello there\n")
    tb.cmd(line="\x00\xff\xfe garbage \x07\n")
    tb.cmd(line="{" + "a" * 2000 + "}*0000\n")
    tb.cmd(line='{"t":"totals_req"}*0000\n')
    tb.cmd(line=tracegen.frame({"t": "self_destruct"}) + "\n")
    tb.cmd(line=tracegen.frame({"t": "identify", "s": "long"}) + "\n")
    tb.cmd(line=tracegen.frame({"t": "empty", "token": "no spaces allowed"}) + "\n")
    tb.cmd(line=tracegen.frame({"t": "calibrate", "colours": ["pink"]}) + "\n")
    tb.cmd(line="\n\r\n")  # blank lines are keep-alives, not errors
    tb.drop("red")
    tb.wait(30000)
    tb.cmd(line=tracegen.frame({"t": "totals_req", "id": 3}) + "\r\n")
    tb.wait(50000)
    r, _ = run(tb)
    codes = [f["code"] for f in r.of_type("fault") if f["code"] != "not_calibrated"]
    assert codes == [
        "bad_frame",
        "bad_frame",
        "line_too_long",
        "bad_checksum",
        "unknown_command",
        "bad_argument",
        "bad_argument",
        "bad_argument",
    ]
    assert all(f["msg"] for f in r.of_type("fault"))
    assert [f["col"] for f in r.unique_drops()] == ["green", "red"]
    totals = r.of_type("totals")
    assert len(totals) == 1  # the bad-checksum totals_req was not acted on
    assert totals[0]["drops"] == 2


def test_identify_and_hello_req(micropython):
    tb = calibrated(27)
    tb.cmd({"t": "identify", "s": 3, "id": 1})
    tb.cmd({"t": "hello_req", "id": 2})
    tb.wait(100000)
    r, _ = run(tb)
    assert [f for f in r.of_type("ok") if f["cmd"] == "identify"][0]["s"] == 3
    hellos = r.of_type("hello")
    assert len(hellos) == 2 and hellos[1]["proto"] == 1 and hellos[1]["cal"]["per"] == 5
