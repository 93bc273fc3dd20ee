"""Organiser tokens that cannot be guessed: after 5 wrong ones an address is locked out, the
lockout doubling up to 15 minutes, a right token forgetting the tries, memory bounded."""

from __future__ import annotations

from companion.club.board_access import TokenThrottle


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_throttle_per_address():
    clock = Clock()
    throttle = TokenThrottle(clock=clock)
    for _ in range(4):
        assert throttle.wrong("10.0.0.7") == 0
    assert throttle.wrong("10.0.0.7") == 30 and throttle.locked_for("10.0.0.7") == 30
    assert throttle.locked_for("10.0.0.8") == 0 and throttle.wrong("10.0.0.8") == 0  # others unaffected
    lockouts = []
    for _ in range(8):
        clock.now += throttle.locked_for("10.0.0.7") + 0.1
        lockouts.append(throttle.wrong("10.0.0.7"))
    assert lockouts == [60, 120, 240, 480, 900, 900, 900, 900]  # doubling, at most 15 min
    clock.now += 900 + 900 + 1  # its lockout, then a quiet window
    assert throttle.locked_for("10.0.0.7") == 0 and throttle.wrong("10.0.0.7") == 0  # a fresh start
    throttle.right("10.0.0.8")
    for _ in range(4):
        assert throttle.wrong("10.0.0.8") == 0  # the right token forgot its one try
    small = TokenThrottle(clock=clock, max_addresses=3)
    for n in range(10):
        small.wrong(f"10.0.1.{n}")
    assert len(small._wrong) == 3  # memory stays bounded
