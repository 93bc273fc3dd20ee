"""Seat credentials: short-lived one-time join codes, the long credential a phone keeps,
and the tablet's "is this Ana's phone?" confirmation.

A seat starts with a join code (shown on the tablet as a QR code). The code works
once, and only for a few minutes (`code_lifetime`): a QR code photographed or left
on the tablet is worth nothing later. The first phone that presents it gets the
seat's credential (256 bits) and the code is spent. That phone is *awaiting*: it
sees nothing private until the tablet confirms it (one tap); "No" forgets it and
makes a new code, as revoking does. A confirmed phone keeps its seat across reloads
(same credential) without asking again.

Lookups compare against every seat (and the few retired codes), each with
`hmac.compare_digest`, and never stop early, so how long a lookup takes does not
depend on how much of a guess was right, nor on which seat matched.
"""
from __future__ import annotations

import hmac
import itertools
import logging
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Literal, Optional

CREDENTIAL_BYTES = 32   # secrets.token_urlsafe(32): 256 bits, 43 characters
CODE_BYTES = 16         # one-time join code: 128 bits, 22 characters
MAX_TOKEN_CHARS = 100   # anything longer is malformed, not looked up
DEFAULT_CODE_MINUTES = 5.0


def _code_lifetime_from_env() -> float:
    """ELGRANDE_PHONE_CODE_MINUTES (default 5), in seconds; a value that is not a positive number
    is ignored with a warning, never a failure at start."""
    raw = os.environ.get("ELGRANDE_PHONE_CODE_MINUTES", "")
    try:
        minutes = float(raw) if raw else DEFAULT_CODE_MINUTES
        if not 0 < minutes < 24 * 60:
            raise ValueError
    except ValueError:
        logging.getLogger("companion.phones").warning(
            "ELGRANDE_PHONE_CODE_MINUTES=%r is not a number of minutes between 0 and 1440: using %g",
            raw[:40], DEFAULT_CODE_MINUTES)
        minutes = DEFAULT_CODE_MINUTES
    return 60.0 * minutes


CODE_LIFETIME = _code_lifetime_from_env()
RETIRED_PER_SEAT = 4    # old codes remembered per seat, only to say why they no longer work

CodeState = Literal["open", "expired", "taken"]
Refusal = Literal["expired", "used", "replaced", "unknown"]

REFUSALS: dict[str, tuple[str, str]] = {   # refusal -> (title, what to do)
    "expired": ("This code has expired",
                "This code has expired: ask the tablet for a new one (Phones, then New code)."),
    "used": ("This code was already used",
             "This code was already used by a phone. If this phone already joined, open your seat. "
             "If it was not you, tell the table: the tablet will ask \"is this your phone?\"; "
             "answer No there and scan the new code."),
    "replaced": ("This code was replaced",
                 "The tablet made a new code for this seat: scan the one it shows now."),
    "unknown": ("This code is not valid",
                "This join code is not valid: scan your seat's QR code on the tablet again."),
}


@dataclass
class Phone:
    """The phone holding a seat."""

    serial: int                 # which join this is (a tablet answer names it: no mix-up with a later phone)
    credential: bytes
    device: str                 # e.g. "Chrome on Android", from the phone's browser
    number: str                 # two digits shown on the phone and the tablet, to match them
    confirmed: bool = False


@dataclass
class _Seat:
    code: Optional[bytes]             # the open join code (None once used or expired)
    made: float                       # when that code was made (seats' clock)
    phone: Optional[Phone] = None
    retired: list[tuple[bytes, str]] = field(default_factory=list)   # (old code, why it stopped working)


@dataclass(frozen=True)
class Joined:
    seat: str
    credential: str
    phone: Phone


def _as_bytes(token: object) -> Optional[bytes]:
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_CHARS:
        return None
    try:
        return token.encode("ascii")
    except UnicodeEncodeError:
        return None


class Seats:
    """Thread-safe: the tablet confirms and revokes from its thread, the server joins from its own."""

    def __init__(self, players: tuple[str, ...] | list[str], code_lifetime: float = CODE_LIFETIME,
                 clock: Callable[[], float] = time.monotonic):
        if code_lifetime <= 0:
            raise ValueError(f"code_lifetime must be positive seconds, not {code_lifetime!r}")
        self._lock = threading.Lock()
        self._clock = clock
        self.code_lifetime = float(code_lifetime)
        self._serials = itertools.count(1)
        now = clock()
        self._seats = {pid: _Seat(code=self._new_code(), made=now) for pid in players}
        # Compared against for an empty slot, so every lookup does the same work.
        self._filler = secrets.token_urlsafe(CREDENTIAL_BYTES).encode()

    @staticmethod
    def _new_code() -> bytes:
        return secrets.token_urlsafe(CODE_BYTES).encode()

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self._seats)

    # ---- codes ----------------------------------------------------------------------------

    def _retire(self, seat: _Seat, why: str) -> None:
        if seat.code is not None:
            seat.retired = ([(seat.code, why)] + seat.retired)[:RETIRED_PER_SEAT]
            seat.code = None

    def _expire(self) -> None:
        """Retire every code past its lifetime (called under the lock before any read)."""
        now = self._clock()
        for seat in self._seats.values():
            if seat.code is not None and now - seat.made >= self.code_lifetime:
                self._retire(seat, "expired")

    def pending_code(self, pid: str) -> Optional[str]:
        """The seat's open join code, or None once used, expired, or while a phone holds the seat."""
        with self._lock:
            self._expire()
            code = self._seats[pid].code
            return code.decode() if code else None

    def code_state(self, pid: str) -> CodeState:
        """open: a code to show; expired: show "expired" and offer a new one; taken: a phone holds the seat."""
        with self._lock:
            self._expire()
            seat = self._seats[pid]
            if seat.phone is not None:
                return "taken"
            return "open" if seat.code is not None else "expired"

    def expires_in(self, pid: str) -> Optional[float]:
        """Seconds the seat's open code still works, or None."""
        with self._lock:
            self._expire()
            seat = self._seats[pid]
            return None if seat.code is None else seat.made + self.code_lifetime - self._clock()

    def next_expiry(self) -> Optional[float]:
        """Seconds until the next open code expires (the tablet redraws it as expired then), or None."""
        with self._lock:
            self._expire()
            left = [s.made + self.code_lifetime - self._clock() for s in self._seats.values() if s.code]
            return max(0.0, min(left)) if left else None

    def _match_code(self, token: bytes) -> tuple[Optional[str], Optional[str]]:
        """(seat whose open code this is, None) or (None, why a retired code stopped working)."""
        found, why = None, None
        for pid, seat in self._seats.items():   # every code, no early exit
            if hmac.compare_digest(seat.code if seat.code is not None else self._filler, token) \
                    and seat.code is not None:
                found = pid
            for old, reason in seat.retired:
                if hmac.compare_digest(old, token):
                    why = reason
        return (found, None) if found else (None, why)

    def code_valid(self, code: object) -> bool:
        """Is this an open join code? (Does not spend it.)"""
        return self.refusal(code) is None

    def refusal(self, code: object) -> Optional[Refusal]:
        """None for an open code, else why it does not work: expired, used, replaced or unknown."""
        token = _as_bytes(code)
        if token is None:
            return "unknown"
        with self._lock:
            self._expire()
            pid, why = self._match_code(token)
            return None if pid else (why or "unknown")  # type: ignore[return-value]

    def join(self, code: object, device: str = "a browser") -> Joined | Refusal:
        """Spend a join code: the seat, its new credential and the awaiting phone; or why not."""
        token = _as_bytes(code)
        if token is None:
            return "unknown"
        with self._lock:
            self._expire()
            pid, why = self._match_code(token)
            if pid is None:
                return why or "unknown"  # type: ignore[return-value]
            credential = secrets.token_urlsafe(CREDENTIAL_BYTES)
            seat = self._seats[pid]
            self._retire(seat, "used")
            seat.phone = Phone(serial=next(self._serials), credential=credential.encode(), device=device[:40],
                               number=f"{secrets.randbelow(90) + 10}")
            return Joined(seat=pid, credential=credential, phone=seat.phone)

    # ---- phones ---------------------------------------------------------------------------

    def seat_for(self, credential: object) -> Optional[str]:
        """The seat this credential belongs to (confirmed or not), or None."""
        token = _as_bytes(credential)
        if token is None:
            return None
        with self._lock:
            found = None
            for pid, seat in self._seats.items():   # every seat, no early exit
                ref = seat.phone.credential if seat.phone else None
                if hmac.compare_digest(ref if ref is not None else self._filler, token) and ref is not None:
                    found = pid
            return found

    def phone(self, pid: str) -> Optional[Phone]:
        """A copy of the phone holding the seat, or None."""
        with self._lock:
            phone = self._seats[pid].phone
            return Phone(**vars(phone)) if phone else None

    def joined(self, pid: str) -> bool:
        """A phone holds the seat and the tablet confirmed it."""
        with self._lock:
            phone = self._seats[pid].phone
            return phone is not None and phone.confirmed

    def confirmed(self, pid: str, serial: Optional[int] = None) -> bool:
        """Is the seat's phone confirmed (and, if given, is it that phone)?"""
        with self._lock:
            phone = self._seats[pid].phone
            return phone is not None and phone.confirmed and serial in (None, phone.serial)

    def confirm(self, pid: str, serial: int) -> bool:
        """The tablet said yes to this phone. False if the seat now holds another phone (or none)."""
        with self._lock:
            phone = self._seats[pid].phone
            if phone is None or phone.serial != serial:
                return False
            phone.confirmed = True
            return True

    def revoke(self, pid: str) -> str:
        """Forget the seat's phone (its credential stops working now) and make a new join code."""
        with self._lock:
            if pid not in self._seats:
                raise KeyError(pid)
            seat = self._seats[pid]
            self._retire(seat, "replaced")
            seat.phone, seat.code, seat.made = None, self._new_code(), self._clock()
            return seat.code.decode()
