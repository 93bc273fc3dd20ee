"""Seat credentials: short-lived one-time codes, long credentials, confirmation, revoke."""

from __future__ import annotations

import threading

import pytest

from companion.phones.seats import REFUSALS, Joined, Seats


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_join_spends_the_code_and_gives_a_long_credential():
    seats = Seats(["red", "blue"])
    code = seats.pending_code("red")
    assert code and len(code) >= 22 and seats.code_valid(code)
    joined = seats.join(code, "Chrome on Android")
    assert isinstance(joined, Joined) and joined.seat == "red"
    assert len(joined.credential) >= 43  # token_urlsafe(32): 256 bits
    assert seats.seat_for(joined.credential) == "red"
    assert seats.pending_code("red") is None and not seats.code_valid(code)
    assert seats.join(code) == "used" and seats.refusal(code) == "used"
    assert seats.code_state("red") == "taken" and seats.code_state("blue") == "open"


def test_a_joined_phone_waits_for_the_tablet():
    seats = Seats(["red"])
    joined = seats.join(seats.pending_code("red"), "Safari on iPhone")
    phone = seats.phone("red")
    assert phone.serial == joined.phone.serial and phone.device == "Safari on iPhone"
    assert len(phone.number) == 2 and phone.number.isdigit()
    assert not seats.joined("red") and not seats.confirmed("red")
    assert not seats.confirm("red", phone.serial + 1)  # the tablet answered about another phone
    assert seats.confirm("red", phone.serial)
    assert seats.joined("red") and seats.confirmed("red", phone.serial)
    assert not seats.confirmed("red", phone.serial + 1)
    seats.phone("red").confirmed = False  # a copy: the seat is unchanged
    assert seats.joined("red")


def test_a_join_remembers_the_seated_phone_the_same_browser_holds():
    seats = Seats(["red", "blue", "green"])
    ana = seats.join(seats.pending_code("red"))
    bruno = seats.join(seats.pending_code("blue"), held=ana.credential)
    assert bruno.phone.same_device_as == ana.phone.serial == seats.phone("red").serial
    # A credential nobody holds (revoked, made up, malformed) says nothing.
    seats.revoke("red")
    for held in (ana.credential, "x" * 43, "", "é" * 10, None, 42):
        assert seats.join(seats.pending_code("red"), held=held).phone.same_device_as is None
        seats.revoke("red")
    assert seats.join(seats.pending_code("green")).phone.same_device_as is None


def test_codes_expire_after_their_lifetime():
    clock = Clock()
    seats = Seats(["red", "blue"], code_lifetime=300, clock=clock)
    red, blue = seats.pending_code("red"), seats.pending_code("blue")
    assert seats.expires_in("red") == 300 and seats.next_expiry() == 300
    clock.now += 120
    seats.revoke("blue")  # a fresh code for blue: its own five minutes
    new_blue = seats.pending_code("blue")
    assert seats.next_expiry() == 180
    clock.now += 180
    assert seats.code_state("red") == "expired" and seats.pending_code("red") is None
    assert seats.join(red) == "expired" and seats.refusal(red) == "expired"
    assert seats.next_expiry() == 120 and seats.expires_in("red") is None
    assert seats.refusal(blue) == "replaced" and seats.join(blue) == "replaced"
    assert isinstance(seats.join(new_blue), Joined)
    assert seats.next_expiry() is None
    seats.revoke("red")
    assert seats.code_state("red") == "open"


def test_unknown_malformed_and_cross_seat_tokens_find_nothing():
    seats = Seats(["red", "blue"])
    cred = seats.join(seats.pending_code("red")).credential
    for bad in (
        "",
        "x",
        cred[:-1],
        cred + "x",
        cred.upper(),
        "é" * 10,
        "a" * 5000,
        None,
        42,
        b"bytes",
        seats.pending_code("blue"),
    ):
        assert seats.seat_for(bad) is None
    for bad in ("", cred, "é", None, "a" * 5000):
        assert seats.join(bad) == "unknown"
    assert seats.pending_code("blue")  # a failed join spends nothing
    assert set(REFUSALS) == {"expired", "used", "replaced", "unknown"}
    assert REFUSALS["expired"][1].startswith("This code has expired: ask the tablet for a new one")


def test_revoke_forgets_the_phone_and_makes_a_new_code():
    seats = Seats(["red"])
    first = seats.pending_code("red")
    cred = seats.join(first).credential
    serial = seats.phone("red").serial
    seats.confirm("red", serial)
    new = seats.revoke("red")
    assert seats.seat_for(cred) is None and not seats.joined("red") and seats.phone("red") is None
    assert new != first and seats.pending_code("red") == new and not seats.code_valid(first)
    again = seats.join(new)
    assert again.credential != cred and seats.seat_for(again.credential) == "red"
    assert again.phone.serial != serial and not seats.confirm("red", serial)  # a new phone: asked again


def test_only_one_phone_wins_a_code():
    seats = Seats(["red"])
    code = seats.pending_code("red")
    wins = []
    threads = [threading.Thread(target=lambda: wins.append(seats.join(code))) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(1 for w in wins if isinstance(w, Joined)) == 1
    assert sorted(w for w in wins if not isinstance(w, Joined)) == ["used"] * 15


def test_a_lifetime_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        Seats(["red"], code_lifetime=0)


def test_the_code_lifetime_comes_from_the_environment(monkeypatch, caplog):
    from companion.phones import seats as seats_module

    monkeypatch.setenv("ELGRANDE_PHONE_CODE_MINUTES", "2.5")
    assert seats_module._code_lifetime_from_env() == 150
    for bad in ("abc", "-1", "0", "nan", "99999"):
        monkeypatch.setenv("ELGRANDE_PHONE_CODE_MINUTES", bad)
        assert seats_module._code_lifetime_from_env() == 300
    assert "is not a number of minutes" in caplog.text
