"""Tower fuzz (issue 10): hostile frames mixed into a simulated tower's real
traffic, over both transports' entry points. No exception escapes, no call
takes long, every real drop is handed over exactly once, in order. The full
200,000-frame run is bench/bench_link_fuzz.py; here 4,000 per transport, and 3,000 with the
tower's own frames late or twice, reboots and app restarts (a real table and its game log):
enough to meet every kind of hostile frame hundreds of times in a second or two."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import framing
from tests.firmware_bridge.bridge_helpers import Wire, assert_exactly_once_in_order
from tests.firmware_bridge.fuzz_frames import FuzzRun, HostileFrames, claims_something, wire_bytes

SLOW_CALL = 0.5  # CPU seconds: far above the ~2 ms slowest call measured, far below a hang (a loaded machine
#                 stretches a call's wall-clock time, not its CPU time)


@pytest.mark.parametrize("transport,seed", [("serial", 101), ("mqtt", 202)])
def test_4000_hostile_frames_nothing_escapes_every_real_drop_once_in_order(transport, seed):
    run = FuzzRun(seed, transport)
    f = run.run(4_000)
    assert f.escaped == 0, f.escaped_examples
    assert f.slowest_call_cpu < SLOW_CALL
    assert f.real_drops > 100
    assert (f.delivered, f.doubled, f.missing, f.out_of_order, f.wrong_content) == (f.real_drops, 0, 0, 0, 0)
    assert run.link.counters["faults"] == 0  # each killer fixed at its root, not only caught by the guard
    assert run.link.counters["bad_message"] > 800 and run.link.counters["refused"] > 0  # the fuzz did bite
    assert run.link.status.state == "connected"


@pytest.mark.parametrize("transport,seed", [("serial", 303), ("mqtt", 404)])
def test_late_and_repeated_tower_frames_reboots_and_app_restarts_no_drop_twice(transport, seed, tmp_path):
    """Issue 25: the tower's own frames (hellos of earlier boots too) come back late or twice among
    the hostile ones, the tower reboots, the app restarts (table from its log, a new link). No link
    hands a drop over twice; the game log applies none twice; none is missing."""
    run = FuzzRun(seed, transport, late=True, table_dir=tmp_path, reboot_every=250, restart_every=1000)
    f = run.run(3_000)
    assert f.escaped == 0, f.escaped_examples
    assert (f.late_hellos > 20, f.reboots > 3, f.restarts >= 1) == (True, True, True)  # the fuzz did bite
    assert (f.doubled, f.doubled_at_table) == (0, 0)
    assert (f.delivered, f.missing, f.out_of_order, f.wrong_content) == (f.real_drops, 0, 0, 0)
    assert run.link.counters["stale_boot"] > 0 and run.link.counters["faults"] == 0
    assert run.link.status.state == "connected"


def test_the_hostile_corpus_has_every_kind_and_no_valid_claim():
    frames = HostileFrames(5)
    lines = [frames.item() for _ in range(3000)]
    assert set(frames.kinds) == {"typed", "other_proto", "bytes_valid_crc", "bad_crc", "cut", "random_bytes", "long"}
    assert not any(claims_something(line) for line in lines)
    decoded = []
    for line in lines:
        try:
            decoded.append(framing.decode(line))
        except framing.FrameError:
            pass
    text = json.dumps(decoded, allow_nan=True)
    for needle in ('"boot": 12345678', "1.5", "NaN", "100000000000000000000000000000", '"t": "weather"', "-1"):
        assert needle in text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
device_types = st.sampled_from(["drop", "hello", "hb", "totals", "fault", "cal", "ok", "weather"])
fields = st.sampled_from(
    [
        "boot",
        "seq",
        "col",
        "best",
        "conf",
        "raw",
        "amb",
        "tr",
        "multi",
        "est",
        "ms",
        "dev",
        "proto",
        "acked",
        "lost",
        "oldest",
        "code",
        "msg",
        "counts",
        "cmd",
        "x",
    ]
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(device_types, st.dictionaries(fields, json_values, max_size=8)), min_size=1, max_size=6))
def test_any_json_object_with_a_valid_crc_is_taken_or_refused_never_raised(objects):
    w = Wire(seed=3).connect()
    w.tower.drop("red")
    for t, body in objects:
        line = wire_bytes({**body, "t": t})
        if claims_something(line):
            continue
        w.link.feed_frame(line)
        w.link.feed_bytes(line + b"\n")
    w.tower.drop("blue")
    w.settle()
    assert w.link.counters["faults"] == 0
    assert_exactly_once_in_order(w.c.drops, [(w.tower.boot_id, 2)])
