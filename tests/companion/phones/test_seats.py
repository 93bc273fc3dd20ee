"""Seat credentials: one-time codes, long credentials, revoke."""
from __future__ import annotations

import threading

from companion.phones.seats import Seats


def test_join_spends_the_code_and_gives_a_long_credential():
    seats = Seats(["red", "blue"])
    code = seats.pending_code("red")
    assert code and len(code) >= 22 and seats.code_valid(code)
    pid, credential = seats.join(code)
    assert pid == "red" and len(credential) >= 43  # token_urlsafe(32): 256 bits
    assert seats.seat_for(credential) == "red"
    assert seats.pending_code("red") is None and not seats.code_valid(code)
    assert seats.join(code) is None          # spent
    assert seats.joined("red") and not seats.joined("blue")


def test_unknown_malformed_and_cross_seat_tokens_find_nothing():
    seats = Seats(["red", "blue"])
    _, cred = seats.join(seats.pending_code("red"))
    for bad in ("", "x", cred[:-1], cred + "x", cred.upper(), "é" * 10, "a" * 5000, None, 42, b"bytes",
                seats.pending_code("blue")):
        assert seats.seat_for(bad) is None
    for bad in ("", cred, "é", None, "a" * 5000):
        assert seats.join(bad) is None
    assert seats.pending_code("blue")  # a failed join spends nothing


def test_revoke_forgets_the_credential_and_makes_a_new_code():
    seats = Seats(["red"])
    first = seats.pending_code("red")
    _, cred = seats.join(first)
    new = seats.revoke("red")
    assert seats.seat_for(cred) is None and not seats.joined("red")
    assert new != first and seats.pending_code("red") == new and not seats.code_valid(first)
    _, cred2 = seats.join(new)
    assert cred2 != cred and seats.seat_for(cred2) == "red"


def test_only_one_phone_wins_a_code():
    seats = Seats(["red"])
    code = seats.pending_code("red")
    wins = []
    threads = [threading.Thread(target=lambda: wins.append(seats.join(code))) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(1 for w in wins if w) == 1
