"""Seat credentials: short-lived one-time join codes, the long credential a phone keeps,
and the tablet's "is this Ana's phone?" confirmation.

A seat starts with a join code (shown on the tablet as a QR code). The code works
once, and only for a few minutes (`code_lifetime`): a QR code photographed or left
on the tablet is worth nothing later. The first phone that presents it gets the
seat's credential (256 bits) and the code is spent. That phone is *awaiting*: it
sees nothing private until the tablet confirms it (one tap); "No" forgets it and
makes a new code, as revoking does. A confirmed phone keeps its seat across reloads
(same credential) without asking again.

A game night: the seats live as long as the phone server, and `reseat` moves them
to the next game's table. A phone keeps its credential and follows its player: the
seat whose player has the same name, or, for seats nobody named, the same colour
(`seat_identity`). It stays confirmed when the tablet has confirmed it as that
player before. A phone whose player has no seat in the new game waits in the
*lobby*: it picks a free seat on its own screen (`take_seat`), and the tablet
confirms it unless the tablet already confirmed it as that seat's player (the
earlier Yes said "this is Ana's phone", not "this is Carl's"). A phone may also
leave its seat for the lobby (`leave_seat`): its player took another colour.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from companion.words import N_, _

CREDENTIAL_BYTES = 32  # secrets.token_urlsafe(32): 256 bits, 43 characters
CODE_BYTES = 16  # one-time join code: 128 bits, 22 characters
MAX_TOKEN_CHARS = 100  # anything longer is malformed, not looked up
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
            raw[:40],
            DEFAULT_CODE_MINUTES,
        )
        minutes = DEFAULT_CODE_MINUTES
    return 60.0 * minutes


CODE_LIFETIME = _code_lifetime_from_env()
RETIRED_PER_SEAT = 4  # old codes remembered per seat, only to say why they no longer work
LOBBY_LIMIT = 10  # phones of earlier games waiting for a seat (the oldest is forgotten first)
EARLIER_CODES = 20  # codes of earlier games' seats remembered, only to say they were replaced

CodeState = Literal["open", "expired", "taken"]
Refusal = Literal["expired", "used", "replaced", "unknown"]

REFUSALS: dict[str, tuple[str, str]] = {  # refusal -> (title, what to do); translated where shown
    "expired": (
        N_("This code has expired"),
        N_("This code has expired: ask the tablet for a new one (Phones, then New code)."),
    ),
    "used": (
        N_("This code was already used"),
        N_(
            "This code was already used by a phone. If this phone already joined, open your seat. "
            'If it was not you, tell the table: the tablet will ask "is this your phone?"; '
            "answer No there and scan the new code."
        ),
    ),
    "replaced": (
        N_("This code was replaced"),
        N_("The tablet made a new code for this seat: scan the one it shows now."),
    ),
    "unknown": (
        N_("This code is not valid"),
        N_("This join code is not valid: scan your seat's QR code on the tablet again."),
    ),
}
SEAT_REFUSALS: dict[str, str] = {  # why a phone in the lobby cannot take a seat; translated where shown
    "unknown": N_("This phone is not waiting for a seat (the tablet replaced it, or it already has one)."),
    "no_seat": N_("There is no such seat in this game: pick one of the seats listed."),
    "taken": N_("Another phone has just taken that seat: pick a free one."),
}


def seat_identity(pid: str, name: str) -> str:
    """Who sits at a seat, as far as the table knows: the player's name, or, for a seat nobody
    named (its name is its colour's, as the setup screen leaves it), the colour."""
    clean = " ".join(str(name).split()).casefold()
    return f"colour:{pid}" if clean in ("", pid.replace("_", " ").casefold()) else f"name:{clean}"


@dataclass
class Phone:
    """The phone holding a seat."""

    serial: int  # which join this is (a tablet answer names it: no mix-up with a later phone)
    credential: bytes
    device: str  # e.g. "Chrome on Android", from the phone's browser
    number: str  # two digits shown on the phone and the tablet, to match them
    confirmed: bool = False  # the tablet confirmed it for the seat it holds now
    vouched: tuple[str, ...] = ()  # the players (seat_identity) the tablet confirmed it as, last one last
    home: str | None = None  # the player whose seat it held last (a phone in the lobby)
    was: str = ""  # that seat in words, "Ana (Red)", for the tablet and the phone
    was_name: str = ""  # the name typed for that seat (seat_words says it in the reader's language)
    last_seat: str | None = None  # that seat's colour
    # The join whose credential the same browser held when it spent this code: the tablet's
    # question names that seat ("this phone already holds Ana's seat").
    same_device_as: int | None = None


@dataclass
class _Seat:
    code: bytes | None  # the open join code (None once used or expired)
    made: float  # when that code was made (seats' clock)
    phone: Phone | None = None
    retired: list[tuple[bytes, str]] = field(default_factory=list)  # (old code, why it stopped working)


@dataclass(frozen=True)
class Joined:
    seat: str
    credential: str
    phone: Phone


def _as_bytes(token: object) -> bytes | None:
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_CHARS:
        return None
    try:
        return token.encode("ascii")
    except UnicodeEncodeError:
        return None


class Seats:
    """Thread-safe: the tablet confirms and revokes from its thread, the server joins from its own."""

    def __init__(
        self,
        players: tuple[str, ...] | list[str],
        code_lifetime: float = CODE_LIFETIME,
        clock: Callable[[], float] = time.monotonic,
        names: dict[str, str] | None = None,
    ):
        if code_lifetime <= 0:
            raise ValueError(f"code_lifetime must be positive seconds, not {code_lifetime!r}")
        self._lock = threading.Lock()
        self._clock = clock
        self.code_lifetime = float(code_lifetime)
        self._serials = itertools.count(1)
        now = clock()
        self._seats = {pid: _Seat(code=self._new_code(), made=now) for pid in players}
        self._name_seats(players, names or {})
        self._lobby: list[Phone] = []  # phones of earlier games without a seat, oldest first
        self._earlier: list[bytes] = []  # earlier games' codes: "replaced"
        # Compared against for an empty slot, so every lookup does the same work.
        self._filler = secrets.token_urlsafe(CREDENTIAL_BYTES).encode()

    def _name_seats(self, players, names: dict[str, str]) -> None:
        self._identity = {pid: seat_identity(pid, names.get(pid, "")) for pid in players}
        self._words = {pid: seat_words(pid, names.get(pid, "")) for pid in players}
        self._names = {pid: str(names.get(pid, "")) for pid in players}

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

    def pending_code(self, pid: str) -> str | None:
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

    def expires_in(self, pid: str) -> float | None:
        """Seconds the seat's open code still works, or None."""
        with self._lock:
            self._expire()
            seat = self._seats[pid]
            return None if seat.code is None else seat.made + self.code_lifetime - self._clock()

    def next_expiry(self) -> float | None:
        """Seconds until the next open code expires (the tablet redraws it as expired then), or None."""
        with self._lock:
            self._expire()
            left = [s.made + self.code_lifetime - self._clock() for s in self._seats.values() if s.code]
            return max(0.0, min(left)) if left else None

    def _match_code(self, token: bytes) -> tuple[str | None, str | None]:
        """(seat whose open code this is, None) or (None, why a retired code stopped working)."""
        found, why = None, None
        for pid, seat in self._seats.items():  # every code, no early exit
            if (
                hmac.compare_digest(seat.code if seat.code is not None else self._filler, token)
                and seat.code is not None
            ):
                found = pid
            for old, reason in seat.retired:
                if hmac.compare_digest(old, token):
                    why = reason
        for old in self._earlier:
            if hmac.compare_digest(old, token):
                why = "replaced"
        return (found, None) if found else (None, why)

    def code_valid(self, code: object) -> bool:
        """Is this an open join code? (Does not spend it.)"""
        return self.refusal(code) is None

    def refusal(self, code: object) -> Refusal | None:
        """None for an open code, else why it does not work: expired, used, replaced or unknown."""
        token = _as_bytes(code)
        if token is None:
            return "unknown"
        with self._lock:
            self._expire()
            pid, why = self._match_code(token)
            return None if pid else (why or "unknown")  # type: ignore[return-value]

    def join(self, code: object, device: str = "a browser", held: object = None) -> Joined | Refusal:
        """Spend a join code: the seat, its new credential and the awaiting phone; or why not.
        `held`: the credential the joining browser already holds, if any (a seated phone's is
        remembered as `same_device_as`)."""
        token = _as_bytes(code)
        if token is None:
            return "unknown"
        held_token = _as_bytes(held)
        with self._lock:
            self._expire()
            pid, why = self._match_code(token)
            if pid is None:
                return why or "unknown"  # type: ignore[return-value]
            held_seat, held_phone = self._find(held_token) if held_token is not None else (None, None)
            credential = secrets.token_urlsafe(CREDENTIAL_BYTES)
            seat = self._seats[pid]
            self._retire(seat, "used")
            seat.phone = Phone(
                serial=next(self._serials),
                credential=credential.encode(),
                device=device[:40],
                number=f"{secrets.randbelow(90) + 10}",
                same_device_as=held_phone.serial if held_seat is not None else None,
            )
            return Joined(seat=pid, credential=credential, phone=seat.phone)

    # ---- phones ---------------------------------------------------------------------------

    def _find(self, token: bytes) -> tuple[str | None, Phone | None]:
        """(seat, phone) of this credential, (None, phone) for a phone in the lobby, else (None, None).
        Every seat and every phone in the lobby is compared: no early exit."""
        found: tuple[str | None, Phone | None] = (None, None)
        for pid, seat in self._seats.items():
            ref = seat.phone.credential if seat.phone else None
            if hmac.compare_digest(ref if ref is not None else self._filler, token) and ref is not None:
                found = (pid, seat.phone)
        for phone in self._lobby:
            if hmac.compare_digest(phone.credential, token):
                found = (None, phone)
        return found

    def seat_for(self, credential: object) -> str | None:
        """The seat this credential belongs to (confirmed or not), or None."""
        token = _as_bytes(credential)
        if token is None:
            return None
        with self._lock:
            return self._find(token)[0]

    def locate(self, credential: object) -> tuple[str | None, Phone | None]:
        """(seat, a copy of the phone) for a seated phone, (None, copy) for a phone in the lobby,
        (None, None) for a credential nobody holds."""
        token = _as_bytes(credential)
        if token is None:
            return None, None
        with self._lock:
            pid, phone = self._find(token)
            return pid, (_copy(phone) if phone else None)

    def phone(self, pid: str) -> Phone | None:
        """A copy of the phone holding the seat, or None."""
        with self._lock:
            phone = self._seats[pid].phone
            return _copy(phone) if phone else None

    def joined(self, pid: str) -> bool:
        """A phone holds the seat and the tablet confirmed it."""
        with self._lock:
            phone = self._seats[pid].phone
            return phone is not None and phone.confirmed

    def confirmed(self, pid: str, serial: int | None = None) -> bool:
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
            ident = self._identity[pid]
            phone.vouched = tuple(v for v in phone.vouched if v != ident) + (ident,)
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

    # ---- a game night: the next game's seats, the lobby ----------------------------------

    def reseat(self, players: tuple[str, ...] | list[str], names: dict[str, str]) -> None:
        """The next game's seats. Each phone of the last game (and of the lobby) goes to the seat
        of the same player (`seat_identity`), confirmed if the tablet confirmed it as that player;
        the others wait in the lobby. Every seat without a phone gets a fresh join code; the last
        game's codes stop working ("replaced")."""
        with self._lock:
            now = self._clock()
            phones: list[Phone] = []
            for pid, seat in self._seats.items():
                self._earlier = ([c for c in [seat.code] + [old for old, _ in seat.retired] if c] + self._earlier)[
                    :EARLIER_CODES
                ]
                if seat.phone is not None:
                    self._remember_seat(seat.phone, pid)
                    phones.append(seat.phone)
            phones += self._lobby
            self._seats = {pid: _Seat(code=self._new_code(), made=now) for pid in players}
            self._name_seats(players, names)
            self._lobby = []
            seat_of = {
                ident: pid for pid, ident in self._identity.items() if list(self._identity.values()).count(ident) == 1
            }
            for phone in phones:
                pid = seat_of.get(phone.home or "")
                if pid is not None and self._seats[pid].phone is None:
                    self._place(pid, phone)
                else:
                    phone.confirmed = False
                    self._lobby.append(phone)
            self._trim_lobby()

    def _remember_seat(self, phone: Phone, pid: str) -> None:
        phone.home, phone.was, phone.last_seat = self._identity[pid], self._words[pid], pid
        phone.was_name = self._names.get(pid, "")

    def _place(self, pid: str, phone: Phone) -> None:
        seat = self._seats[pid]
        self._retire(seat, "used")
        seat.phone = phone
        phone.confirmed = self._identity[pid] in phone.vouched

    def _trim_lobby(self) -> None:
        self._lobby.sort(key=lambda p: p.serial)
        del self._lobby[: max(0, len(self._lobby) - LOBBY_LIMIT)]

    def lobby(self) -> list[Phone]:
        """Copies of the phones waiting for a seat, oldest first."""
        with self._lock:
            return [_copy(p) for p in self._lobby]

    def free_seats(self) -> list[str]:
        """Seats no phone holds (a phone in the lobby may take one)."""
        with self._lock:
            return [pid for pid, seat in self._seats.items() if seat.phone is None]

    def suggested(self, phone: Phone) -> str | None:
        """The free seat of the phone's last player, or else of its last colour, if any."""
        with self._lock:
            free = [pid for pid, seat in self._seats.items() if seat.phone is None]
            same = [pid for pid in free if self._identity[pid] == phone.home]
            colour = [pid for pid in free if pid == phone.last_seat]
            return (same + colour + [None])[0]

    def take_seat(self, credential: object, pid: str) -> Phone | str:
        """A phone in the lobby takes a free seat: the phone (a copy) or why not (SEAT_REFUSALS).
        It is confirmed at once only if the tablet confirmed it as this seat's player before."""
        token = _as_bytes(credential)
        with self._lock:
            seat_pid, phone = self._find(token) if token is not None else (None, None)
            if phone is None or seat_pid is not None:
                return "unknown"
            if pid not in self._seats:
                return "no_seat"
            if self._seats[pid].phone is not None:
                return "taken"
            self._lobby.remove(phone)
            self._place(pid, phone)
            return _copy(phone)

    def leave_seat(self, credential: object) -> str | None:
        """The seated phone with this credential goes to the lobby (its player plays another
        colour); the seat gets a fresh join code. Returns the seat it left, or None."""
        token = _as_bytes(credential)
        with self._lock:
            pid, phone = self._find(token) if token is not None else (None, None)
            if pid is None or phone is None:
                return None
            self._unseat(pid)
            return pid

    def unseat(self, pid: str, serial: int) -> bool:
        """The tablet's No for a phone it confirmed as someone else before: back to the lobby
        (it is still that player's phone) and a fresh code for the seat. False if the seat
        holds another phone by now."""
        with self._lock:
            phone = self._seats[pid].phone
            if phone is None or phone.serial != serial:
                return False
            before = phone.home, phone.was, phone.last_seat, phone.was_name  # it never was this seat's player's
            self._unseat(pid)
            phone.home, phone.was, phone.last_seat, phone.was_name = before
            return True

    def _unseat(self, pid: str) -> None:
        seat = self._seats[pid]
        phone, seat.phone = seat.phone, None
        phone.confirmed = False
        self._remember_seat(phone, pid)
        seat.code, seat.made = self._new_code(), self._clock()
        self._lobby.append(phone)
        self._trim_lobby()

    def forget(self, serial: int) -> bool:
        """A phone in the lobby is forgotten (its credential stops working). False if none has that serial."""
        with self._lock:
            kept = [p for p in self._lobby if p.serial != serial]
            found = len(kept) != len(self._lobby)
            self._lobby = kept
            return found


def _copy(phone: Phone) -> Phone:
    return Phone(**vars(phone))


def seat_words(pid: str, name: str) -> str:
    """ "Ana (Red)", or "Red" for a seat nobody named, in the reader's language."""
    from companion.phones.views import COLOUR_NAMES, colour_word

    colour = colour_word(pid) if pid in COLOUR_NAMES else pid.replace("_", " ").title()
    clean = " ".join(str(name).split())
    if seat_identity(pid, clean).startswith("colour:") or clean == COLOUR_NAMES.get(pid):
        return colour
    return _("{name} ({colour})").format(name=clean, colour=colour)
