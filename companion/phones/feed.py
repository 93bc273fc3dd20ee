"""The phone server's two feeds: each seat's PhoneView and the public StatusView, numbered (+1
per change of that feed) and kept so that only a change is sent; and the refresh that rebuilds
them, one at a time however many changes arrive meanwhile. Loop thread only."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Awaitable, Callable, Iterable, Iterator

from companion.phones.clients import Client
from companion.phones.sockets import PhoneSockets
from companion.phones.views import PhoneView, Snapshot, StatusView, phone_view, status_view
from companion.words.catalogue import speaking
from engine.board.model import Board


class ViewFeed:
    """Each seat's view in every language its phones read (a view's words are made in its
    reader's language); one seq per seat, whatever the language."""

    def __init__(self) -> None:
        self.views: dict[str, PhoneView] = {}  # the tablet's language; kept in place for the server's lifetime
        self._spoken: dict[str, dict[str, PhoneView]] = {}  # language -> seat -> view
        self._floor: dict[str, int] = {}  # each seat's last view seq in the previous game
        self.status: StatusView | None = None
        self._status_words: dict[str, str] = {}  # language -> the status as sent to a screen reading it

    def view(self, pid: str, lang: str | None = None) -> PhoneView | None:
        """The seat's latest view in `lang` (until that language's is made: the tablet's)."""
        own = self._spoken.get(lang or "", {}).get(pid)
        return own if own is not None else self.views.get(pid)

    def spoken(self, pid: str, lang: str) -> PhoneView | None:
        """A seat's view in `lang`; None until that language's views are made (the next refresh)."""
        return self._spoken[lang].get(pid) if lang in self._spoken else None

    def has(self, lang: str) -> bool:
        return lang in self._spoken

    def next_game(self) -> None:
        """Each seat's feed goes on counting (a phone that stays sees seq go up), from the new table."""
        self._floor = {pid: view.seq for pid, view in self.views.items()}
        self.views.clear()
        self._spoken.clear()

    def publish(
        self,
        board: Board,
        snaps: dict[str, Snapshot],
        default: str,
        players: tuple[str, ...],
        seats: dict[str, dict],
        sockets: PhoneSockets,
        spectators: Iterable[Client],
    ) -> bool:
        """Sends what changed: each seat's view to its sockets (each in its page's language), the
        status to the status screens (`seats` is PhoneServer.seats_status()). `snaps`: the table
        read in each language wanted, `default` (the tablet's) among them. True when a status
        already sent changed."""
        for pid, views in self.changed_views(board, snaps, default, players):
            for client in sockets.by_seat[pid]:
                # an unconfirmed phone sees nothing private
                sockets.send_view(client, views.get(client.lang) or views[default])
        # Public: a seat has a phone once the tablet confirmed it (a phone still awaiting does not count).
        public = {
            pid: {"joined": state["joined"], "connected": state["joined"] and state["connected"]}
            for pid, state in seats.items()
        }
        old = self.status
        text = self.new_status(snaps[default], public)
        if text is None:
            new = [code for code in snaps if code not in self._status_words]
            if new and self.status is not None:  # a status screen that reads another language joined
                self._status_in(snaps, default, public, self.status.model_dump_json())
                for client in spectators:
                    if client.lang in new:
                        client.push(self.status_text(client.lang))
            return False
        self._status_in(snaps, default, public, text)
        for client in spectators:
            client.push(self.status_text(client.lang))
        return old is not None

    def _status_in(self, snaps: dict[str, Snapshot], default: str, public: dict, text: str) -> None:
        """The status as each language read says it (one seq: the words differ, never the facts)."""
        seq = self.status.seq if self.status is not None else 0
        words = {default: text}
        for code, snap in snaps.items():
            if code != default:
                with speaking(code):
                    words[code] = status_view(snap, public, seq).model_dump_json()
        self._status_words = words

    def greet(self, client: Client, lang: str) -> bool:
        """A status screen that opens, reading `lang` (its page's): the latest status sent to it
        (the tablet's language until its own is made); True when its own is still to be made."""
        client.lang = lang
        if self.status is not None:
            client.push(self.status_text(lang))
        return lang not in self._status_words

    def status_text(self, lang: str | None) -> str:
        """The latest status in `lang` (until that language's is made: the tablet's)."""
        found = self._status_words.get(lang or "")
        if found is None:
            found = self.status.model_dump_json() if self.status is not None else ""
        return found

    def changed_views(
        self, board: Board, snaps: dict[str, Snapshot], default: str, players: tuple[str, ...]
    ) -> Iterator[tuple[str, dict[str, PhoneView]]]:
        """Each seat whose view changed (in any language read), with its new views by language
        (numbered and kept). A language no longer read is forgotten."""
        for code in [c for c in self._spoken if c not in snaps]:
            del self._spoken[code]
        for pid in players:
            new = {}
            for code, snap in snaps.items():
                with speaking(code):
                    new[code] = phone_view(board, snap, pid)
            old = self.views.get(pid)
            kept = {code: self._spoken.get(code, {}).get(pid) for code in new}
            if old is not None and all(
                k is not None and k.model_copy(update={"seq": 0}) == new[code] for code, k in kept.items()
            ):
                continue
            seq = old.seq + 1 if old else self._floor.get(pid, 0) + 1
            new = {code: view.model_copy(update={"seq": seq}) for code, view in new.items()}
            for code, view in new.items():
                self._spoken.setdefault(code, {})[pid] = view
            self.views[pid] = new[default]
            yield pid, new

    def new_status(self, snap: Snapshot, seats: dict[str, dict[str, bool]]) -> str | None:
        """The status as sent, if it changed (numbered and kept), else None."""
        status = status_view(snap, seats)
        old = self.status
        if old is not None and old.model_copy(update={"seq": 0}) == status:
            return None
        self.status = status.model_copy(update={"seq": old.seq + 1 if old else 1})
        return self.status.model_dump_json()


class Refresher:
    """One refresh at a time; a change while one runs makes one more after it, never a queue.
    A refresh runs in a context of its own: a phone's language (speaking) where it was asked
    for is not the tablet's, whose language the views and the status are made in first."""

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
        self._task = asyncio.get_running_loop().create_task(self._loop(), context=contextvars.Context())

    async def now(self) -> None:
        """One refresh at once, awaited (in a context of its own, as every refresh)."""
        await asyncio.get_running_loop().create_task(self._refresh(), context=contextvars.Context())

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
