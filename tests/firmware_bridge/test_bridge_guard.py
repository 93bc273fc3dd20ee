"""firmware_bridge.guard: the guards the link and the transports wrap their
callbacks and threads in."""

import logging
import threading

from firmware_bridge.guard import LogLimiter, Worker, brief, describe, entry_point, guarded


def test_guarded_hands_the_error_over_and_the_caller_carries_on():
    seen = []

    @guarded("paho on_message", lambda where, e: seen.append((where, describe(e))))
    def on_message(payload):
        if payload == b"bad":
            raise ValueError("floats are not used\non the wire")
        return payload

    assert on_message(b"ok") == b"ok"
    assert on_message(b"bad") is None
    where, text = seen[0]
    assert where == "paho on_message"
    assert text.startswith("ValueError: floats are not used on the wire (test_bridge_guard.py:")
    assert "\n" not in text and "in on_message)" in text


def test_an_entry_point_reports_what_escapes_it_to_its_objects_report_fault():
    class Link:
        def __init__(self):
            self.faults = []

        def report_fault(self, where, error):
            self.faults.append((where, type(error).__name__))

        @entry_point("feed_bytes")
        def feed_bytes(self, data):
            return data[0]

    link = Link()
    assert link.feed_bytes(b"a") == ord("a")
    assert link.feed_bytes(b"") is None and link.faults == [("feed_bytes", "IndexError")]


def test_brief_is_a_short_repr_even_of_an_object_that_cannot_be_printed():
    class Unprintable:
        def __repr__(self):
            raise RuntimeError("no")

    assert brief(b"x" * 200).endswith("...") and len(brief(b"x" * 200)) == 80
    assert brief(Unprintable()) == "<unprintable>"


def test_a_fault_handler_that_fails_too_is_logged_once_and_swallowed(caplog):
    def broken(where, e):
        raise RuntimeError("status view gone")

    with caplog.at_level(logging.ERROR, logger="firmware_bridge.guard"):
        assert guarded("tick", broken, lambda: 1 / 0)() is None
    assert len(caplog.records) == 1
    assert "tick failed (ZeroDivisionError" in caplog.text and "status view gone" in caplog.text


def test_worker_runs_its_body_again_after_a_crash_then_ends_when_it_returns():
    runs, crashes = [], []
    done = threading.Event()

    def body():
        runs.append(1)
        if len(runs) < 3:
            raise OSError(f"crash {len(runs)}")
        done.set()

    w = Worker(body, "reader", lambda where, e: crashes.append((where, str(e))), backoff_min=0.01).start()
    assert done.wait(5)
    w.join(5)
    assert not w.is_alive()
    assert len(runs) == 3 and w.restarts == 2
    assert crashes == [("reader", "crash 1"), ("reader", "crash 2")]


def test_worker_stop_ends_the_backoff_wait():
    crashed = threading.Event()

    def body():
        raise RuntimeError("always")

    w = Worker(body, "ticker", lambda where, e: crashed.set(), backoff_min=30).start()
    assert crashed.wait(5)
    w.stop(timeout=5)
    assert not w.is_alive() and w.restarts == 1


def test_log_limiter_a_burst_per_key_then_one_summary_per_window(caplog):
    now = [0.0]
    limiter = LogLimiter(logging.getLogger("firmware_bridge.test"), burst=2, window=10, clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="firmware_bridge.test"):
        logged = [limiter.log(logging.WARNING, "bad_frame", "bad frame %d", i) for i in range(500)]
        logged += [limiter.log(logging.WARNING, "bad_checksum", "bad checksum %d", i) for i in range(5)]
        now[0] = 10.5
        limiter.flush()
        limiter.log(logging.WARNING, "bad_frame", "bad frame again")
    assert logged.count(True) == 4
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "bad frame 0",
        "bad frame 1",
        "bad checksum 0",
        "bad checksum 1",
        "501 more like the above in the last 10 s, not logged one by one (bad_frame 498, bad_checksum 3)",
        "bad frame again",
    ]
