"""Seat credentials: one-time join codes and the long random credential a phone keeps.

A seat starts with a pending join code (shown on the tablet as a QR code). The
first phone that presents it gets the seat's credential (256 bits) and the code
is spent. Revoking a seat forgets its credential at once and makes a new code.

Lookups compare against every seat, each with `hmac.compare_digest`, and never
stop early, so how long a lookup takes does not depend on how much of a guess
was right, nor on which seat matched.
"""
from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass
from typing import Optional

CREDENTIAL_BYTES = 32   # secrets.token_urlsafe(32): 256 bits, 43 characters
CODE_BYTES = 16         # one-time join code: 128 bits, 22 characters
MAX_TOKEN_CHARS = 100   # anything longer is malformed, not looked up


@dataclass
class _Seat:
    code: Optional[bytes]         # pending one-time join code (None once used)
    credential: Optional[bytes]   # the joined phone's credential (None until joined)


def _as_bytes(token: object) -> Optional[bytes]:
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_CHARS:
        return None
    try:
        return token.encode("ascii")
    except UnicodeEncodeError:
        return None


class Seats:
    """Thread-safe: the tablet revokes from its thread, the server joins from its own."""

    def __init__(self, players: tuple[str, ...] | list[str]):
        self._lock = threading.Lock()
        self._seats = {pid: _Seat(code=self._new_code(), credential=None) for pid in players}
        # Compared against for a seat without a credential, so every lookup does the same work.
        self._filler = secrets.token_urlsafe(CREDENTIAL_BYTES).encode()

    @staticmethod
    def _new_code() -> bytes:
        return secrets.token_urlsafe(CODE_BYTES).encode()

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self._seats)

    def pending_code(self, pid: str) -> Optional[str]:
        """The seat's unused join code, or None once a phone has joined with it."""
        with self._lock:
            code = self._seats[pid].code
            return code.decode() if code else None

    def joined(self, pid: str) -> bool:
        with self._lock:
            return self._seats[pid].credential is not None

    def _match(self, field: str, token: bytes) -> Optional[str]:
        found = None
        for pid, seat in self._seats.items():   # every seat, no early exit
            ref = getattr(seat, field)
            equal = hmac.compare_digest(ref if ref is not None else self._filler, token)
            if equal and ref is not None:
                found = pid
        return found

    def code_valid(self, code: object) -> bool:
        """Is this an unused join code? (Does not spend it.)"""
        token = _as_bytes(code)
        if token is None:
            return False
        with self._lock:
            return self._match("code", token) is not None

    def join(self, code: object) -> Optional[tuple[str, str]]:
        """Spend a join code: (seat, new credential), or None for an unknown or spent code."""
        token = _as_bytes(code)
        if token is None:
            return None
        with self._lock:
            pid = self._match("code", token)
            if pid is None:
                return None
            credential = secrets.token_urlsafe(CREDENTIAL_BYTES)
            self._seats[pid] = _Seat(code=None, credential=credential.encode())
            return pid, credential

    def seat_for(self, credential: object) -> Optional[str]:
        """The seat this credential belongs to, or None."""
        token = _as_bytes(credential)
        if token is None:
            return None
        with self._lock:
            return self._match("credential", token)

    def revoke(self, pid: str) -> str:
        """Forget the seat's credential (it stops working now) and make a new join code."""
        with self._lock:
            if pid not in self._seats:
                raise KeyError(pid)
            code = self._new_code()
            self._seats[pid] = _Seat(code=code, credential=None)
            return code.decode()
