"""The phone server's two feeds: each seat's PhoneView and the public StatusView, numbered (+1
per change of that feed) and kept so that only a change is sent; and the refresh that rebuilds
them, one at a time however many changes arrive meanwhile. Loop thread only."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable, Iterator

from companion.phones.clients import Client
from companion.phones.sockets import PhoneSockets
from companion.phones.views import PhoneView, Snapshot, StatusView, phone_view, status_view
from engine.board.model import Board


class ViewFeed:
    def __init__(self) -> None:
        self.views: dict[str, PhoneView] = {}  # kept in place: one dict for the server's lifetime
        self._floor: dict[str, int] = {}  # each seat's last view seq in the previous game
        self.status: StatusView | None = None

    def view(self, pid: str) -> PhoneView | None:
        return self.views.get(pid)

    def next_game(self) -> None:
        """Each seat's feed goes on counting (a phone that stays sees seq go up), from the new table."""
        self._floor = {pid: view.seq for pid, view in self.views.items()}
        self.views.clear()

    def publish(
        self,
        board: Board,
        snap: Snapshot,
        players: tuple[str, ...],
        seats: dict[str, dict],
        sockets: PhoneSockets,
        spectators: Iterable[Client],
    ) -> bool:
        """Sends what changed: each seat's view to its sockets, the status to the status screens
        (`seats` is PhoneServer.seats_status()). True when a status already sent changed."""
        for pid, view in self.changed_views(board, snap, players):
            for client in sockets.by_seat[pid]:
                sockets.send_view(client, view)  # an unconfirmed phone sees nothing private
        # Public: a seat has a phone once the tablet confirmed it (a phone still awaiting does not count).
        public = {
            pid: {"joined": state["joined"], "connected": state["joined"] and state["connected"]}
            for pid, state in seats.items()
        }
        old = self.status
        text = self.new_status(snap, public)
        if text is None:
            return False
        for client in spectators:
            client.push(text)
        return old is not None

    def changed_views(self, board: Board, snap: Snapshot, players: tuple[str, ...]) -> Iterator[tuple[str, PhoneView]]:
        """Each seat whose view changed, with its new view (numbered and kept)."""
        for pid in players:
            view = phone_view(board, snap, pid)
            old = self.views.get(pid)
            if old is not None and old.model_copy(update={"seq": 0}) == view:
                continue
            view = view.model_copy(update={"seq": old.seq + 1 if old else self._floor.get(pid, 0) + 1})
            self.views[pid] = view
            yield pid, view

    def new_status(self, snap: Snapshot, seats: dict[str, dict[str, bool]]) -> str | None:
        """The status as sent, if it changed (numbered and kept), else None."""
        status = status_view(snap, seats)
        old = self.status
        if old is not None and old.model_copy(update={"seq": 0}) == status:
            return None
        self.status = status.model_copy(update={"seq": old.seq + 1 if old else 1})
        return self.status.model_dump_json()


class Refresher:
    """One refresh at a time; a change while one runs makes one more after it, never a queue."""

    def __init__(self, refresh: Callable[[], Awaitable[None]]):
        self._refresh = refresh
        self._running = self._dirty = False
        self._task: asyncio.Task | None = None

    def reset(self) -> None:
        self._running = self._dirty = False  # a task cancelled by a previous stop never reset them

    def request(self) -> None:
        if self._running:
            self._dirty = True
            return
        self._running = True
        self._task = asyncio.ensure_future(self._loop())

    async def _loop(self) -> None:
        try:
            while True:
                self._dirty = False
                await self._refresh()
                if not self._dirty:
                    break
        finally:
            self._running = False

    async def cancel(self) -> None:
        if self._task and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
