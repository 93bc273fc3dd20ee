"""The tablet's side of the seats, in words: which phone holds which seat, the "Is this Ana's
phone?" confirmations, the phones of earlier games waiting for a seat, and what a phone without
a confirmed seat is shown. No sockets here: `connected` is asked of the server's sockets."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from companion.phones.refusals import NOT_JOINED, NotConfirmed, Refused
from companion.phones.seats import Phone, Seats, seat_words
from companion.phones.views import pending_view, seat_choice, seat_name
from companion.table.authority import Table
from companion.words import _


class SeatDesk:
    """The seats of the table served now (thread-safe, as Seats is)."""

    def __init__(self, seats: Seats, table: Table):
        self.seats = seats
        self.serve(table)

    def serve(self, table: Table) -> None:
        """The next game's table: its players and names from now on."""
        self.table = table
        self.players = tuple(table.players)

    def known(self, pid: str) -> None:
        if pid not in self.players:
            raise KeyError(f"{pid!r} is not playing (players: {', '.join(self.players)})")

    def name(self, pid: str) -> str:
        return self.table.names.get(pid, pid)

    def where(self, serial: int | None) -> tuple[str | None, Phone | None]:
        """The seat the phone of join `serial` holds (None: in the lobby), and the phone (None: gone)."""
        for pid in self.players:
            phone = self.seats.phone(pid)
            if phone is not None and phone.serial == serial:
                return pid, phone
        return None, next((p for p in self.seats.lobby() if p.serial == serial), None)

    def choice(self, phone: Phone) -> str:
        """The "which seat is yours?" frame for a phone in the lobby."""
        names = self.table.names
        was = seat_words(phone.last_seat, phone.was_name) if phone.last_seat else ""
        return seat_choice(names, self.seats.free_seats(), self.seats.suggested(phone), was).model_dump_json()

    def pending(self, pid: str) -> str | None:
        """The "waiting for the tablet" frame while this seat's phone is unconfirmed, else None."""
        phone = self.seats.phone(pid)
        if phone is None or phone.confirmed:
            return None
        return pending_view(pid, self.name(pid), phone.number).model_dump_json()

    def confirmations(self) -> list[dict]:
        """Phones waiting for the tablet's Yes, in seat order: {"seat", "phone", "question", "detail"}."""
        out = []
        for pid in self.players:
            phone = self.seats.phone(pid)
            if phone is not None and not phone.confirmed:
                if phone.was:
                    detail = _("Its screen shows {number} ({device}); it was {seat}'s phone in an earlier game")
                else:
                    detail = _("Its screen shows {number} ({device})")
                seat = seat_words(phone.last_seat or "", phone.was_name)
                out.append(
                    {
                        "seat": pid,
                        "phone": phone.serial,
                        "question": self.question(pid, phone),
                        "detail": detail.format(number=phone.number, device=phone.device, seat=seat),
                    }
                )
        return out

    def question(self, pid: str, phone: Phone) -> str:
        """ "Is this Bruno's phone?", naming the seat this phone holds already, if it does: a
        player who scans a second seat's code would see that seat's secrets too."""
        name = seat_name(self.table.names, pid)
        question = _("Is this {name}'s phone?").format(name=name)
        if phone.same_device_as is None:
            return question
        other, _phone = self.where(phone.same_device_as)
        if other is None or other == pid:
            return question
        return _("Is this {name}'s phone? This phone already holds {other}'s seat.").format(
            name=name, other=seat_name(self.table.names, other)
        )

    def status(self, connected: Callable[[str], bool]) -> dict[str, dict]:
        """{pid: {"joined", "connected", "awaiting", "code", "expires_in"}} (PhoneServer.seats_status)."""
        out = {}
        for pid in self.players:
            phone = self.seats.phone(pid)
            state = self.seats.code_state(pid)
            out[pid] = {
                "joined": bool(phone and phone.confirmed),
                "connected": connected(pid),
                "awaiting": phone.serial if phone and not phone.confirmed else None,
                "code": None if state == "taken" else state,
                "expires_in": self.seats.expires_in(pid),
            }
        return out

    def lobby(self, connected: Callable[[int], bool]) -> list[dict]:
        """{"phone", "was", "device", "connected"} per phone waiting for a seat, oldest first."""
        return [
            {
                "phone": p.serial,
                "was": seat_words(p.last_seat, p.was_name) if p.last_seat else p.was,
                "device": p.device,
                "connected": connected(p.serial),
            }
            for p in self.seats.lobby()
        ]

    def confirmed_seat(self, credential: str) -> str:
        """The seat of a phone the tablet confirmed, or the refusal to send back."""
        pid, phone = self.seats.locate(credential)
        if phone is not None and pid is None:
            raise Refused(409, _("This phone has no seat in this game yet: pick your seat first."))
        if pid is None:
            raise Refused(401, _(NOT_JOINED))
        if not self.seats.confirmed(pid):
            raise NotConfirmed(self.name(pid))
        return pid

    def bearer_seat(self, authorization: str) -> str:
        """The seat of the credential in an `Authorization: Bearer` header, or Refused(401)."""
        scheme, _sep, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise Refused(401, _("missing credential (Authorization: Bearer <credential>)"))
        pid = self.seats.seat_for(token.strip())
        if pid is None:
            raise Refused(401, _(NOT_JOINED))
        return pid


class CodeTimer:
    """Tells the tablet when the next open join code expires, so it shows it as expired: `expired`
    is called on the loop then, and the timer set for the next one. Loop thread."""

    def __init__(self, seats: Seats, expired: Callable[[], None]):
        self.seats, self._expired = seats, expired
        self._handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def schedule(self, loop: asyncio.AbstractEventLoop | None) -> None:
        self.cancel()
        self._loop = loop
        left = self.seats.next_expiry()
        if left is not None and loop is not None:
            self._handle = loop.call_later(left + 0.05, self._fired)

    def cancel(self) -> None:
        if self._handle:
            self._handle.cancel()

    def _fired(self) -> None:
        self._handle = None
        self._expired()
        self.schedule(self._loop)
