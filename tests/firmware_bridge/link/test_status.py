"""The faults a link shows are paced: at most one a window, those between summed into the next."""

from firmware_bridge.link.status import Notices


def test_a_notice_shows_at_once_then_the_next_ones_wait_and_are_summed():
    now = [0.0]
    notices = Notices(every=1.0, clock=lambda: now[0])
    assert notices.add("first") == "first"
    assert notices.add("second") is None and notices.add("third") is None
    assert notices.due(0.5) is None
    now[0] = 1.0
    assert notices.due(1.0) == "third (1 more since the last one)"
    assert notices.due(5.0) is None  # nothing waits
