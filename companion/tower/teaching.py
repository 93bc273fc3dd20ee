"""Teaching the tower the game's colours (hardware/PROTOCOL.md 3.6, `calibrate` with `keep`).

A tower knows the colours it was calibrated for. When a game seats colours it does not know (a
2023 box's purple, orange and white on a tower fresh from a classic game), the tablet offers to
teach it: only the missing colours are thrown (5 cubes each), the seats' colours it knows are
kept, and the colours no seat plays are forgotten (each one more is a look-alike to confuse). The
tower answers each throw (`cal` frames); this object turns them into what the table is told:
which cube to throw next, how many are in, and, once a colour is learnt, how far it lies from the
nearest other colour. The tower keeps what it learnt (its flash).

Throws while teaching are never drops: the tower gives them no sequence number. A drop that
does arrive while teaching runs was thrown while the tower was not listening for cubes (before
it answered, or after it restarted): `TowerConnection` sends it to a person instead of counting.

Pure: no I/O, no Kivy. `TowerConnection` feeds it every link status, in order, from the
bridge's thread; the view reads `view()` from the UI thread (a lock keeps the two apart).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.words import N_, _
from companion.words.colours import colour_adjective, colour_word
from firmware_bridge.messages import COLOURS, MAX_CAL_COLOURS, TOWER_COLOURS

PER_COLOUR = 5  # cubes per colour: the firmware's default, enough for a usable spread
CLOSE = 60  # ten times the distance in spreads under which drops are often asked (PROTOCOL 3.1)


def seat_colours(setup) -> list[str]:
    """The colours at the table, the dummy's too, in seat order."""
    return list(setup.game.players) + ([setup.game.dummy] if setup.game.dummy else [])


def plan(setup, calibrated: list[str] | None, again: bool = False) -> tuple[list[str], list[str]]:
    """(colours to throw, colours to keep): the seats' colours the tower does not know, keeping
    those it does; `again`: every seat colour thrown anew (a tower that asks too often)."""
    seats = [c for c in seat_colours(setup) if c in TOWER_COLOURS][:MAX_CAL_COLOURS]
    known = set(calibrated or ())
    if again:  # a classic table relearns the classic five: a stray cube of another is told too
        return (list(COLOURS) if all(c in COLOURS for c in seats) else seats), []
    return [c for c in seats if c not in known], [c for c in seats if c in known]


def _listed(colours: list[str]) -> str:
    """ "red, blue and green" (the colours in the table's language)."""
    words = [colour_adjective(c) for c in colours]
    if len(words) == 1:
        return words[0]
    return _("{places} and {last}").format(places=", ".join(words[:-1]), last=words[-1])


@dataclass
class Learnt:
    colour: str
    near: str | None
    dist: int | None  # ten times the distance, in spreads

    @property
    def close(self) -> bool:
        return self.dist is not None and self.dist < CLOSE


@dataclass
class TeachingView:
    """What the teaching screen shows; the widget lays it out and adds nothing."""

    headline: str
    lines: list[str] = field(default_factory=list)
    got: int = 0
    need: int = 0
    throw: str | None = None  # the colour to throw now (the simulated tower's button)
    action: str = ""  # "start", "again", "stop" or "" (the view's one button)
    busy: bool = False  # teaching runs: the tower takes cubes, not drops


class TowerTeaching:
    """One table's teaching: idle -> asked -> throwing -> done, or stopped (by the table, or
    because the tower went away)."""

    def __init__(self, setup, request: Callable[..., None], names: dict[str, str] | None = None):
        """request(colours=..., keep=...) asks the tower; request(cancel=True) stops it."""
        self.setup = setup
        self._request = request
        self.names = names or {}
        self._lock = threading.Lock()
        self.state = "idle"
        self.colours: list[str] = []
        self.keep: list[str] = []
        self.current: str | None = None
        self.got = 0
        self.need = PER_COLOUR
        self.retry: str | None = None
        self.learnt: list[Learnt] = []
        self.why_stopped = ""
        self.warn = False
        self._boot: str | None = None
        self._status: dict = {}

    # ---- what the table asks ----------------------------------------------------------------

    def missing(self) -> list[str]:
        """The seats' colours the tower does not know (empty without a tower or before its hello)."""
        return self.setup.by_hand()

    def offered(self) -> bool:
        """Whether the tablet offers to teach (a connected tower missing a seat's colour)."""
        return bool(self.missing()) and self._status.get("state") == "connected" and not self.busy

    @property
    def busy(self) -> bool:
        return self.state in ("asked", "throwing")

    def start(self, again: bool = False) -> str | None:
        """Asks the tower to learn; returns why it cannot, in one line, or None."""
        with self._lock:
            if self.busy:
                return _("The tower is learning already: throw the cubes it asks for, or stop.")
            if self._status.get("state") != "connected":
                return _("The tower is not connected: teaching needs it listening.")
            colours, keep = plan(self.setup, self._status.get("calibrated"), again)
            if not colours:
                colours, keep = plan(self.setup, None, again=True)
            if not colours:
                return _("No colour of this game is one a tower can learn.")
            self.colours, self.keep = colours, keep
            self.state, self.current, self.got, self.retry = "asked", colours[0], 0, None
            self.learnt, self.why_stopped, self.warn = [], "", False
            self._boot = self._status.get("boot")
        try:
            self._request(colours=colours, keep=keep)
        except Exception as e:  # a colour the link refuses: nothing was sent
            with self._lock:
                self.state = "idle"
            return _("The tower was not asked: {why}").format(why=e)
        return None

    def stop(self) -> None:
        with self._lock:
            if not self.busy:
                return
            self.state, self.why_stopped = "stopped", N_("You stopped the teaching.")  # _ where shown
        self._request(cancel=True)

    # ---- what the tower says (the bridge's thread, every status in order) ---------------------

    def on_status(self, status: dict) -> None:
        with self._lock:
            self._status = status
            if not self.busy:
                return
            if status.get("state") != "connected" or (self._boot and status.get("boot") not in (None, self._boot)):
                self.state = "stopped"
                self.why_stopped = N_(
                    "The tower went away while learning; what it had not finished is lost. "
                    "Throw no more cubes; when it is back, teach again."
                )
                return
            cal = status.get("calibration") or {}
            kind = cal.get("state")
            if cal.get("colour") not in self.colours and kind != "done":
                return  # a frame of an earlier calibration, still in the status
            if kind in ("drop", "retry"):
                self.state = "throwing"
                self.current, self.got, self.need = cal.get("colour"), cal.get("got", 0), cal.get("need", PER_COLOUR)
                self.retry = cal.get("msg") if kind == "retry" else None
            elif (
                kind == "learnt"
                and self.state == "throwing"
                and not any(x.colour == cal.get("colour") for x in self.learnt)
            ):
                self.learnt.append(Learnt(cal.get("colour"), cal.get("near"), cal.get("dist")))
                self.got, self.retry = self.need, None
            elif kind == "done" and self.state in ("asked", "throwing"):
                # the tower's word that it has finished: a tower before firmware 1.2 sends no
                # learnt frames, and a lost one must not hold every drop for a person
                self.state, self.current, self.warn = "done", None, bool(cal.get("warn"))

    # ---- words -----------------------------------------------------------------------------

    def _whose(self, colour: str) -> str:
        """Whose cubes a colour's are ("the dummy's", "Ana's"), "" when the seat is called by its colour."""
        if colour == self.setup.game.dummy:
            return _("the dummy")
        name = self.names.get(colour)
        return name if name and name.lower() != colour else ""

    def _learnt_line(self, x: Learnt) -> str:
        colour = colour_word(x.colour)
        if x.near is None:
            return _("{colour} learnt (nothing to compare it with yet).").format(colour=colour)
        d = f"{x.dist / 10:.1f}"
        near = colour_adjective(x.near)
        if not x.close:
            return _(
                "{colour} learnt: separates well from the others (nearest: {near}, {spread} spreads apart)."
            ).format(colour=colour, near=near, spread=d)
        return _(
            "{colour} learnt, but it lies close to {near} ({spread} spreads; under 6 a drop between "
            "them is often asked of you, never guessed). Wipe the sensor window, keep daylight out of the "
            "shroud, then Teach again; if it stays close, the table answers those drops."
        ).format(colour=colour, near=near, spread=d)

    def view(self) -> TeachingView:
        with self._lock:
            return self._view()

    def _view(self) -> TeachingView:
        lines = [self._learnt_line(x) for x in self.learnt]
        if self.state == "asked":
            return TeachingView(
                _("Asking the tower to listen for cubes: throw nothing yet."),
                lines,
                0,
                self.need,
                action="stop",
                busy=True,
            )
        if self.state == "throwing":
            c = self.current or "?"
            if self.retry:
                lines.append(_("That throw did not count: {why}. Throw it again.").format(why=self.retry.split(";")[0]))
            lines.append(_("Throw them as in play. These throws are not Castillo drops: the game waits as it is."))
            whose = self._whose(c)
            heading = (
                _("Throw {n} {colour} cubes ({whose}'s) in, one at a time").format(
                    n=self.need, colour=colour_adjective(c), whose=whose
                )
                if whose
                else _("Throw {n} {colour} cubes in, one at a time").format(n=self.need, colour=colour_adjective(c))
            )
            return TeachingView(
                heading,
                lines,
                self.got,
                self.need,
                throw=c,
                action="stop",
                busy=True,
            )
        if self.state == "done":
            missing = self.missing()
            known = _listed(self.keep + self.colours)
            if missing:  # a tower before firmware 1.2 forgets the colours it was not taught (no keep)
                lines.append(
                    _(
                        "The tower did not keep {colours} (its firmware is older than 1.2): "
                        "Teach again throws every colour of this game."
                    ).format(colours=_listed(missing))
                )
                return TeachingView(
                    _("The tower learnt {colours}.").format(colours=_listed(self.colours)), lines, action="again"
                )
            if self.warn:
                lines.append(_("Some colours lie close together: drops between them are asked of you."))
            lines.append(_("It keeps them when switched off. Its throws count from now on."))
            return TeachingView(_("Done: the tower knows {colours}.").format(colours=known), lines, action="again")
        if self.state == "stopped":
            lines.append(_(self.why_stopped) if self.why_stopped else "")
            return TeachingView(_("Teaching stopped."), lines, action="start" if self.missing() else "again")
        return self._offer(lines)

    def _offer(self, lines: list[str]) -> TeachingView:
        colours, keep = plan(self.setup, self._status.get("calibrated"))
        if not colours:
            colours = plan(self.setup, None, again=True)[0]
            throws = len(colours) * PER_COLOUR
            return TeachingView(
                _("The tower knows every colour of this game."),
                [
                    _("Teach them again if many drops are asked of you: {n} cubes of each, {throws} throws.").format(
                        n=PER_COLOUR, throws=throws
                    )
                ],
                action="again",
            )
        throws = len(colours) * PER_COLOUR
        teach = (
            _(
                "Teach it now: {n} cubes of each, one at a time ({throws} throws, about a minute). "
                "It keeps {kept} as they are. Until then those throws are entered by hand."
            )
            if keep
            else _(
                "Teach it now: {n} cubes of each, one at a time ({throws} throws, about a minute). "
                "Until then those throws are entered by hand."
            )
        )
        return TeachingView(
            _("The tower does not know {colours}.").format(colours=_listed(colours)),
            [teach.format(n=PER_COLOUR, throws=throws, kept=_listed(keep) if keep else "")],
            action="start",
        )
