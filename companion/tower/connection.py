"""The table's tower: the bridge the setup asked for, wired to the table.

Drops arrive on the bridge's thread and go straight to `Table.tower_drop`
(which logs them durably); status changes go to `on_status`. Nothing here
touches the UI: the app hops to its thread with Clock. With `simulated`, a
SimulatedTower speaks the real protocol over a real pty to a SerialBridge, so
the on-screen drop buttons exercise the same path as a USB tower.

The tower's own totals are reconciled with the table's: each snapshot goes to
`Table.tower_totals` once every drop it counts has been handed over (a snapshot
may be older or newer than the drops the table holds: its `seq` says up to
where it counts). A tower still counting since another emptying is sent the
table's emptying again (the same token empties once). A new game starts the
tower's count from an emptying of its own, and after the last game's last drop
(`after`), so a tower that stayed on does not replay the last game's drops.

Colours: the tower names only the colours it was calibrated for (its hello says which); the
table is told (`TableSetup.tower_calibrated`), so a seat of another colour enters its throws by
hand, and `calibrate()` starts teaching it the seats' colours it lacks (`teaching`, companion/
teaching.py; a drop arriving meanwhile goes to a person). A colour the
tower was not calibrated for can pass for a look-alike it knows (an orange cube for red, in the
trace model about half the time): while a seat's colour is not calibrated, drops named as its
look-alike go to a person, and the tower's totals are read the same way, so the two counts still
compare.

Every status handed on is a `TowerStatus`: the link's status plus how private
the link is (`security`), so the tower bar can warn about an MQTT link that is
not encrypted or anonymous. A setting the bridge cannot use (a bad broker
address, a certificate file gone since the game was set up) becomes a
"disconnected" status saying why, never an exception.
"""

from __future__ import annotations

import concurrent.futures
import logging
import time
from collections.abc import Callable

from companion.table.authority import Table
from companion.table.setup import TowerConfig
from companion.tower.teaching import TowerTeaching
from companion.words import N_, _
from companion.words.colours import colour_adjective, player_name
from firmware_bridge.adapter import TowerDrop
from firmware_bridge.link import LinkStatus
from firmware_bridge.messages import COLOURS, MAX_CAL_COLOURS, TOWER_COLOURS, Totals
from firmware_bridge.security import LOCAL, LinkSecurity, mqtt_security
from firmware_bridge.sim import PtyPort, SimulatedTower
from firmware_bridge.transport_mqtt import MqttBridge, parse_broker_url
from firmware_bridge.transport_serial import SerialBridge

log = logging.getLogger("companion.tower.connection")

SIM_DEVICE = "castillo-sim"

# Colours a TCS34725 tower tells apart least well (hardware/README.md, "Colours"): a tower that
# knows one of a pair but not the other may name the unknown one as the known one.
LOOK_ALIKES = {
    "orange": ("red", "yellow"),
    "red": ("orange",),
    "yellow": ("orange", "white"),
    "purple": ("blue",),
    "blue": ("purple",),
    "white": ("yellow",),
}


def calibration_colours(setup) -> list[str] | None:
    """The colours to calibrate the tower for this game: the seats' (the dummy's too), in seat
    order; None for a table of classic colours only (the tower's default five, the command as it
    always was, which also tells a stray cube of another classic colour)."""
    seats = list(setup.game.players) + ([setup.game.dummy] if setup.game.dummy else [])
    if all(c in COLOURS for c in seats):
        return None
    return [c for c in seats if c in TOWER_COLOURS][:MAX_CAL_COLOURS]


def suspect_colours(setup) -> frozenset:
    """Seat colours a drop may be named by mistake: look-alikes of a seat's colour the tower was
    not calibrated for (their drops go to a person)."""
    seats = set(setup.game.players) | ({setup.game.dummy} if setup.game.dummy else set())
    return frozenset(c for unknown in setup.by_hand() for c in LOOK_ALIKES.get(unknown, ()) if c in seats)


class TowerStatus(LinkStatus):
    """The link's status and how private the link is (the tower bar warns)."""

    security: LinkSecurity = LOCAL


def mqtt_options(config: TowerConfig) -> dict:
    """The bridge's MQTT settings from the game's tower config."""
    return {
        "username": config.username or None,
        "password": config.password or None,
        "cafile": config.ca_file or None,
        "certfile": config.cert_file or None,
        "keyfile": config.key_file or None,
    }


def check_mqtt(config: TowerConfig) -> None:
    """ValueError in one line for what the MQTT bridge could not use (broker address,
    tower id, certificate files), before a game starts with it."""
    MqttBridge(config.broker, config.tower_id, lambda drop: None, **mqtt_options(config))


class TowerConnection:
    def __init__(
        self,
        table: Table,
        config: TowerConfig,
        on_status: Callable[[LinkStatus], None] | None = None,
        after: tuple[str, str, int] | None = None,
    ):
        """after: (tower, boot, seq) of the last drop the previous game at this tablet took; a
        game with no drop of its own resumes after it."""
        self.table = table
        self.config = config
        self._on_status = on_status
        self._after = after
        self._totals_waiting: tuple[str, Totals] | None = None  # a snapshot whose drops are on the way
        # Commands go out from a thread of their own: the table asks for an emptying while holding its
        # lock, and the bridge's thread takes the link's lock, then the table's (drops, totals).
        self._sender = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tower-commands")
        self.sim: SimulatedTower | None = None
        self._pty: PtyPort | None = None
        self.bridge = None
        self.last_status: TowerStatus | None = None
        self.security: LinkSecurity = LOCAL
        self.teaching = TowerTeaching(table.setup, self._request_calibration, table.names)

    def start(self) -> TowerConnection:
        c = self.config
        resume = self.table.tower_position() or self._after
        options = {"resume": resume, "on_status": self._status, "on_totals": self._totals}
        if c.kind == "none":
            return self
        if c.kind == "simulated":
            self.sim = SimulatedTower(SIM_DEVICE)
            self._pty = PtyPort(self.sim, baud=0)
            self.bridge = SerialBridge(self._pty.path, self._drop, **options)
        elif c.kind == "serial":
            self.bridge = SerialBridge(c.port, self._drop, **options)
        else:
            try:
                self.bridge = MqttBridge(c.broker, c.tower_id, self._drop, **mqtt_options(c), **options)
            except ValueError as e:  # a setting the bridge cannot use: say so on the tower bar
                self._not_started(str(e))
                return self
            self.security = self.bridge.security
        self.table.on_tower_empty = self.empty
        token = self.table.start_tower_count()
        self.bridge.start()
        if token:  # the tower may not have heard it (a new game, a restart); the same token empties once
            self.empty(token)
        return self

    # ---- from the bridge's thread, under the link's lock ------------------------------------------

    def _drop(self, drop: TowerDrop) -> None:
        if self.teaching.busy or drop.colour in suspect_colours(self.table.setup):
            # While teaching, the tower takes cubes without a number: a drop now was thrown while it
            # was not listening for them (before it answered, or after a restart), so a person says.
            drop = drop.model_copy(update={"colour": None, "uncertain": True, "best": drop.colour})
        self.table.tower_drop(drop)  # a failure here is the link's to retry: the drop is not acknowledged
        waiting = self._totals_waiting
        if waiting and drop.boot == waiting[1].boot and drop.seq >= waiting[1].seq:
            try:
                self._compare(*waiting)
            except Exception:  # the drop is taken; the next snapshot is compared instead
                log.exception("comparing the tower's totals failed")

    def _totals(self, tower: str, totals: Totals) -> None:
        """A snapshot counts every drop of its boot up to totals.seq: compared once the table holds them."""
        link = self.bridge.link
        if link.boot == totals.boot and link.delivered < totals.seq:
            self._totals_waiting = (tower, totals)
            return
        self._compare(tower, totals)  # raising: the link asks for totals again

    def _compare(self, tower: str, totals: Totals) -> None:
        self._totals_waiting = None
        totals = self._as_handed_over(tower, totals)
        if self.table.tower_totals(tower, totals) == "other_emptying" and self.table.empty_token:
            self.empty(self.table.empty_token)  # it missed the table's emptying (the link was down)

    def _as_handed_over(self, tower: str, totals: Totals) -> Totals:
        """The snapshot as the table received its drops: a drop the tower named that went to a
        person as a look-alike (_drop) counts as uncertain here too. Found from the table's own
        drops (so it holds after a restart): in the snapshot's range, uncertain single drops whose
        best guess is a colour the tower counted more of than the table received."""
        table = self.table
        first = totals.seq - totals.drops
        received: dict[str, int] = {}
        asked: dict[str, int] = {}
        with table.lock:
            for key, colour in table.received:
                if key[0] != tower or (key[1] == totals.boot and not first < key[2] <= totals.seq):
                    continue
                entry = table.drops.get(key)
                if colour is not None:
                    received[colour] = received.get(colour, 0) + 1
                elif entry is not None and entry.best and entry.est == 1:
                    asked[entry.best] = asked.get(entry.best, 0) + 1
        moved = {c: min(asked.get(c, 0), n - received.get(c, 0)) for c, n in totals.counts.items()}
        moved = {c: n for c, n in moved.items() if n > 0}
        if not moved:
            return totals
        counts = {c: n - moved.get(c, 0) for c, n in totals.counts.items()}
        return totals.model_copy(update={"counts": counts, "unc": totals.unc + sum(moved.values())})

    def _not_started(self, why: str) -> None:
        log.warning("tower link not started: %s", why)
        try:
            broker = parse_broker_url(self.config.broker)
            self.security = mqtt_security(broker.tls, self.config.username or broker.user)
        except ValueError:
            self.security = mqtt_security(False, None)
        self._status(LinkStatus(state="disconnected", since=time.time(), message=f"not started: {why}"))

    def _status(self, status: LinkStatus) -> None:
        if status.calibrated is not None:
            self.table.setup.tower_calibrated(status.calibrated)
        self.teaching.on_status(status.model_dump())
        full = TowerStatus(**status.model_dump(), security=self.security)
        self.last_status = full
        if self._on_status:
            self._on_status(full)

    @property
    def status(self) -> TowerStatus | None:
        if self.bridge is None:
            return self.last_status
        return TowerStatus(**self.bridge.link.status.model_dump(), security=self.security)

    def empty(self, token: str) -> None:
        if self.bridge:
            self._send(self.bridge.link.request_empty, token)

    def _send(self, command: Callable, *args) -> None:
        try:
            self._sender.submit(command, *args)
        except RuntimeError:  # stopped: a restart sends the emptying again
            pass

    def calibrate(self, again: bool = False) -> list[str] | None:
        """Starts teaching the tower this game's colours it does not know (`again`: all of them
        anew; companion.tower.teaching): returns the colours it will ask cubes of, in order, or None
        when it cannot start (the teaching's view says why)."""
        if not self.bridge or self.teaching.start(again) is not None:
            return None
        return list(self.teaching.colours)

    def _request_calibration(self, **request) -> None:
        if not self.bridge:
            raise RuntimeError("no tower link")
        self.bridge.link.request_calibration(**request)

    def simulate_drop(self, colour: str) -> None:
        """The simulated tower's on-screen buttons: a colour, "uncertain" or "multi"."""
        if self.sim is None:
            raise RuntimeError("only a simulated tower takes drops from the screen")
        if colour not in TOWER_COLOURS + ("uncertain", "multi"):
            raise ValueError(f"unknown drop {colour!r}")
        self.sim.drop(colour)

    def stop(self) -> None:
        self._sender.shutdown(wait=True)  # an emptying asked for goes out first
        if self.bridge:
            self.bridge.stop()
        if self._pty:
            self._pty.close()


# ---- words for the tower panel (no Kivy: the panel only shows them) -------------------------------

# Shown as _(TOTALS_MISMATCH) (companion/ui/model.py)
TOTALS_MISMATCH = N_(
    "The tower and the table disagree on the Castillo's count: nothing was changed; see the tower panel"
)


def _clock(at) -> str:
    return time.strftime("%H:%M", time.localtime(at)) if at else "?"


def _count_words(count: dict, names: dict[str, str]) -> str:
    colours = ", ".join(_("{who} {n}").format(who=player_name(names, c), n=n) for c, n in count["counts"].items()) or _(
        "no colour sure"
    )
    unsure = count["drops"] - sum(count["counts"].values())
    if unsure:
        return _("{colours}, {unsure} uncertain or multiple ({n} drops)").format(
            colours=colours, unsure=unsure, n=count["drops"]
        )
    return _("{colours} ({n} drops)").format(colours=colours, n=count["drops"])


def totals_lines(check: dict, names: dict[str, str]) -> list[str]:
    """Table.totals_check() in words. Per-colour figures only when the check holds them, i.e. once
    the Castillo has been lifted; before that only that the two counts differ."""
    seen = check.get("seen") or {}
    lines = []
    if check.get("fault"):
        lines.append(
            _(
                "The tower's own count and the table's disagree (found at {time}): "
                "a drop one of them counted did not reach the other. Nothing was changed."
            ).format(time=_clock(check.get("fault_at")))
        )
        if check.get("counts"):
            lines.append(
                _(
                    "The tower counted since its last emptying: {tower}. The table received: {table}. "
                    "Count the Castillo by hand: that count decides."
                ).format(
                    tower=_count_words(check["counts"]["tower"], names),
                    table=_count_words(check["counts"]["table"], names),
                )
            )
        else:
            lines.append(
                _(
                    "At the next general scoring, count the Castillo by hand when it is lifted: that count "
                    "decides, and this panel then shows both counts."
                )
            )
    elif seen.get("state") == "agree":
        lines.append(
            _("The tower's own count agrees with the table's (checked at {time}).").format(time=_clock(seen.get("at")))
        )
    elif seen.get("state") == "other_emptying":
        lines.append(
            _("The tower still counts since an earlier emptying: this game's was sent to it again.")
            if seen.get("ours")
            else _(
                "This game began before the tower was emptied for it: its count is compared from the "
                "next general scoring on."
            )
        )
    else:
        lines.append(_("No count from the tower to compare yet."))
    if check.get("settled_at") and not check.get("fault"):
        lines.append(
            _("The disagreement found at {time} was settled by the hand count.").format(
                time=_clock(check["settled_at"])
            )
        )
    return lines


def calibration_lines(status: dict, setup, names: dict[str, str]) -> list[str]:
    """The tower's colours in words: what it is calibrated for, a calibration in progress or just
    done, and the seats whose colour it does not know (status: TowerStatus as a dict)."""
    lines = []
    cal = status.get("calibration") or {}
    state = cal.get("state")

    def whose(colour: str) -> str:
        return _("the dummy") if colour == setup.game.dummy else player_name(names, colour)

    def listed(colours) -> str:
        return ", ".join(colour_adjective(c) for c in colours)

    if state in ("drop", "retry"):
        colour = cal.get("colour") or "?"
        args = {"colour": colour_adjective(colour), "got": cal.get("got", 0), "need": cal.get("need", "?")}
        if colour in names:
            # Translators: "Calibrating: throw one white Caballero (the dummy's) at a time, as in play: 0 of 5 taken."
            line = _(
                "Calibrating: throw one {colour} Caballero ({whose}'s) at a time, as in play: {got} of {need} taken."
            )
            lines.append(line.format(whose=whose(colour), **args))
        else:
            lines.append(
                _("Calibrating: throw one {colour} Caballero at a time, as in play: {got} of {need} taken.").format(
                    **args
                )
            )
        if state == "retry" and cal.get("msg"):
            lines.append(_("Not usable: {why}.").format(why=cal["msg"]))
    elif state == "done":
        sep = (cal.get("sep") or 0) / 10
        lines.append(
            _("Calibrated for {colours}: colours {spread} spreads apart.").format(
                colours=listed(cal.get("colours") or []), spread=f"{sep:.1f}"
            )
        )
        if cal.get("warn"):
            lines.append(
                _(
                    "Some colours lie close together (under 6 spreads): a drop between them is asked of "
                    "you, never guessed. Orange next to red or yellow and purple next to blue are the "
                    "hardest; check the shroud and the sensor window, and calibrate again if many are asked."
                )
            )
    if status.get("calibrated") and state != "done" and (state or calibration_colours(setup) is not None):
        # (a classic table's panel is as it was)
        lines.append(_("The tower names: {colours}.").format(colours=listed(status["calibrated"])))
    unknown = setup.by_hand() if setup.tower.kind != "none" else []
    if unknown:
        who = ", ".join(_("{colour} ({who})").format(colour=colour_adjective(c), who=whose(c)) for c in unknown)
        lines.append(
            _(
                "Not calibrated for {players}: their throws are entered by hand until you calibrate "
                "the colours of this game."
            ).format(players=who)
        )
    return lines
