"""Where each phone socket is now, and what it may see there: a seat's sockets (its confirmed
phone's view, or the "waiting for the tablet" frame), or a phone's sockets in the lobby (the free
seats to choose from). Loop thread only. Each socket is told in its page's language (client.lang)."""

from __future__ import annotations

from collections.abc import Callable

from companion.phones.clients import CLOSE_REPLACED, CLOSE_UNKNOWN, REMOVED, Client
from companion.phones.lobby import SeatDesk
from companion.phones.refusals import NOT_JOINED, Refused
from companion.phones.seats import SEAT_REFUSALS, Phone
from companion.phones.views import PhoneView
from companion.words import _
from companion.words.catalogue import speaking


class PhoneSockets:
    def __init__(self, desk: SeatDesk, view_of: Callable[[str, str], PhoneView | None], moved: Callable[[], None]):
        self.desk = desk
        self._view_of = view_of  # a seat's latest view, in a language
        self._moved = moved  # a phone took, left or lost a seat, or was confirmed: the tablet is told
        self.by_seat: dict[str, dict[Client, None]] = {pid: {} for pid in desk.players}  # oldest first
        self.waiting: dict[int, dict[Client, None]] = {}  # sockets of phones in the lobby, by phone serial

    def all(self) -> list[Client]:
        return [c for cs in self.by_seat.values() for c in cs] + [c for cs in self.waiting.values() for c in cs]

    def reset(self) -> None:
        """Nobody placed, for the seats of the game served now (the sockets are placed again)."""
        self.by_seat = {pid: {} for pid in self.desk.players}
        self.waiting = {}

    def connected(self, pid: str) -> bool:
        return bool(self.by_seat.get(pid))

    def in_lobby(self, serial: int) -> bool:
        return bool(self.waiting.get(serial))

    def place(self, client: Client) -> None:
        """Puts a phone's socket where its phone is now and tells it what it may see there."""
        pid, phone = self.desk.where(client.serial)
        if phone is None:
            client.kill(CLOSE_UNKNOWN, REMOVED)
            return
        client.pid, client.view_seq = pid, 0
        if pid is None:
            self.waiting.setdefault(phone.serial, {})[client] = None
            client.lobby_text = ""
            self.send_choice(client, phone)
            return
        self.by_seat[pid][client] = None
        with speaking(client.lang):
            pending = self.desk.pending(pid)
        if pending is not None:
            client.push(pending)
        else:
            self.send_view(client, self._view_of(pid, client.lang))

    def speak(self, client: Client, lang: str, made: Callable[[str], bool]) -> None:
        """A page's language switch: what it is sent now and from now on is in `lang` (a seat's
        view once that language's views are `made`: the server's next refresh)."""
        client.lang = lang
        if client.pid is None or self.desk.pending(client.pid) is not None or made(lang):
            self.place(client)

    def add(self, client: Client, per_seat: int) -> None:
        """The newest socket wins: a reload or a second tab must not be locked out by stale ones."""
        sockets = self.by_seat[client.pid] if client.pid else self.waiting.setdefault(client.serial, {})
        while len(sockets) >= per_seat:
            oldest = next(iter(sockets))
            sockets.pop(oldest)
            oldest.kill(CLOSE_REPLACED, "this seat was opened on a newer page")
        self.place(client)

    def remove(self, client: Client) -> None:
        """Wherever the socket is now (its phone may have changed seat, or the game changed)."""
        if client.pid is not None:
            self.by_seat.get(client.pid, {}).pop(client, None)
        waiting = self.waiting.get(client.serial)
        if waiting is not None:
            waiting.pop(client, None)
            if not waiting:
                self.waiting.pop(client.serial, None)

    def send_view(self, client: Client, view: PhoneView | None) -> None:
        """A seat's view to one of its sockets: only once its phone is confirmed, each view once."""
        if view is not None and view.seq > client.view_seq and self.desk.seats.confirmed(client.pid, client.serial):
            client.view_seq = view.seq
            client.push(view.model_dump_json())

    def send_seat_view(self, pid: str) -> None:
        for client in self.by_seat.get(pid, ()):
            self.send_view(client, self._view_of(pid, client.lang))  # an unconfirmed phone sees nothing private

    def send_choice(self, client: Client, phone: Phone) -> None:
        with speaking(client.lang):
            text = self.desk.choice(phone)
        if text != client.lobby_text:  # a frame only when the free seats changed
            client.lobby_text = text
            client.push(text)

    def lobby_changed(self) -> None:
        if not self.waiting:
            return
        phones = {p.serial: p for p in self.desk.seats.lobby()}
        for serial, clients in list(self.waiting.items()):
            phone = phones.get(serial)
            for client in list(clients):
                if phone is None:
                    clients.pop(client, None)
                    client.kill(CLOSE_UNKNOWN, REMOVED)
                else:
                    self.send_choice(client, phone)
            if not clients:
                self.waiting.pop(serial, None)

    def confirmed(self, pid: str) -> None:
        """The tablet's Yes: the seat's sockets get its private view."""
        self.send_seat_view(pid)
        self._moved()

    def take_seat(self, credential: str, pid: str) -> str:
        """A phone without a seat takes a free one; its sockets follow it there."""
        seats = self.desk.seats
        taken = seats.take_seat(credential, pid)
        if isinstance(taken, str):
            if taken == "unknown" and seats.seat_for(credential) is None:
                raise Refused(401, _(NOT_JOINED))
            raise Refused(409, _(SEAT_REFUSALS[taken]))
        for client in list(self.waiting.pop(taken.serial, {})):
            self.place(client)
        self._moved()
        return pid

    def leave_seat(self, credential: str) -> None:
        """A seated phone goes back to choosing (its player plays another colour): the seat gets a new code."""
        seats = self.desk.seats
        pid, phone = seats.locate(credential)
        if phone is None:
            raise Refused(401, _(NOT_JOINED))
        if pid is None or seats.leave_seat(credential) != pid:
            raise Refused(409, _("This phone has no seat to leave."))
        self.to_lobby(pid, phone.serial)

    def to_lobby(self, pid: str, serial: int) -> None:
        """A seat's sockets of phone `serial` now belong to the lobby."""
        for client in [c for c in self.by_seat.get(pid, {}) if c.serial == serial]:
            self.by_seat[pid].pop(client, None)
            self.place(client)
        self._moved()

    def drop_seat(self, pid: str, reason: str) -> None:
        """The seat's phone was revoked: its sockets are closed with `reason`."""
        for client in list(self.by_seat.get(pid, ())):
            client.kill(CLOSE_UNKNOWN, reason)
        self._moved()
