"""The link's state machine (see the package's docstring): entry points for what arrives, the
frames' dispatch, the requests to the tower and their retries, acks, and the status."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable

from firmware_bridge import framing
from firmware_bridge.adapter import TowerDrop
from firmware_bridge.guard import LogLimiter, brief, describe, entry_point, guarded
from firmware_bridge.link.boots import BootBook
from firmware_bridge.link.delivery import Delivery
from firmware_bridge.link.status import OFFLINE, LinkStatus, Notices, State
from firmware_bridge.messages import (
    PROTOCOL_VERSION,
    WITH_BOOT,
    Ack,
    Cal,
    Calibrate,
    Drop,
    Empty,
    Fault,
    Heartbeat,
    Hello,
    HelloReq,
    Message,
    MessageError,
    Ok,
    Replay,
    Totals,
    TotalsReq,
    UnknownMessage,
    command,
    parse_device,
)

log = logging.getLogger("firmware_bridge.link")


class Link:
    """The host's end of one tower link: `send(command dict)` towards the tower, each drop to
    `on_drop` once and in order, each status change to `on_status`, the totals to `on_totals`."""

    def __init__(
        self,
        send: Callable[[dict], None],
        on_drop: Callable[[TowerDrop], None],
        on_status: Callable[[LinkStatus], None] | None = None,
        *,
        on_totals: Callable[[str, Totals], None] | None = None,
        resume: tuple[str, str, int] | None = None,
        ack_every: int = 16,
        ack_delay: float = 0.05,
        retry_after: float = 1.0,
        silence_timeout: float | None = None,
        max_pending: int = 4096,
        max_delivery_attempts: int = 5,
        notice_every: float = 1.0,
        log_burst: int = 3,
        log_window: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._send = send
        self._on_drop = on_drop
        self._on_status = on_status
        self._on_totals = on_totals
        self.ack_every = ack_every
        self.ack_delay = ack_delay
        self.retry_after = retry_after
        self.silence_timeout = silence_timeout
        self._clock = clock
        self._lock = threading.RLock()
        self.counters: Counter = Counter()
        self.splitter = framing.LineSplitter(rejected=self.counters)
        self._logs = LogLimiter(log, burst=log_burst, window=log_window, clock=clock)
        self.hello: Hello | None = None
        self.totals: Totals | None = None
        self.tower: str | None = None
        self.boot: str | None = None
        self._boots = BootBook(resume)
        self._delivery = Delivery(
            self.counters,
            self._logs,
            clock,
            offer=lambda drop: self._on_drop(drop),  # looked up at each drop: a host may swap it
            notice=self._notice,
            resync=self._resync,
            handed_over=self._handed_over,
            max_pending=max_pending,
            max_delivery_attempts=max_delivery_attempts,
            retry_after=retry_after,
        )
        self._acked = 0
        self._ack_due: float | None = None
        self._asked: dict[str, float] = {}  # request kind -> when sent (answer still awaited)
        self._last_rx = clock()
        self._last_lost = 0
        self._compatible = True
        self._transport = ""
        self._status = LinkStatus(state="disconnected", since=time.time(), message="not started")
        self._silent = False
        self._offline = False  # MQTT: the tower's Last Will ("offline") stands
        self._last_fault: tuple[str, float] | None = None  # (text, wall clock)
        self._notices = Notices(notice_every, clock)
        self._calibration: dict | None = None  # the last cal frame, for the status

    @property
    def delivered(self) -> int:
        """Highest contiguous sequence number handed over, this boot."""
        return self._delivery.delivered

    # ---- status ---------------------------------------------------------------

    @property
    def status(self) -> LinkStatus:
        with self._lock:
            return self._status.model_copy(update={"counters": dict(self.counters), "delivered": self.delivered})

    def _set_state(self, state: State, message: str | None = None, force: bool = False) -> None:
        old = self._status
        h = self.hello
        fault, fault_at = self._last_fault or (None, None)
        calibrated = list(h.cal.colours) if h and h.cal.ok and self._compatible else None
        new = LinkStatus(
            state=state,
            since=old.since if state == old.state else time.time(),
            transport=self._transport,
            tower=self.tower,
            fw=h.fw if h else None,
            proto=h.proto if h else None,
            boot=self.boot,
            delivered=self.delivered,
            last_drop=old.last_drop,
            message=message,
            counters=dict(self.counters),
            last_fault=fault,
            last_fault_at=fault_at,
            calibrated=calibrated,
            calibration=self._calibration,
        )
        self._status = new
        if (new.differs_from(old) or force) and self._on_status:
            try:
                self._on_status(new)
            except Exception as error:  # the status callback is broken: say so in the log only
                self.counters["callback_errors"] += 1
                self._logs.log(
                    logging.ERROR, "on_status", "the status callback failed (%s); the link carries on", describe(error)
                )

    def _settle(self) -> None:
        # connected once the tower is known and no totals snapshot is awaited
        if self._offline:  # its Last Will stands: a retained hello does not make it connected
            self._set_state("disconnected", OFFLINE)
            return
        if self.hello and self._compatible and not self._silent:
            if "totals" in self._asked:
                self._set_state("resyncing", self._status.message if self._status.state == "resyncing" else None)
            else:
                self._set_state("connected")

    # ---- faults -----------------------------------------------------------------

    def report_fault(self, where: str, error: BaseException, *, restarted: bool = False) -> None:
        """Something raised where nothing should have (`where` names the entry point,
        callback or worker): count it, log one line (rate-limited), show it as a status
        change, and ask the tower where it is, since the step it interrupted may have
        been left half done. Never raises."""
        try:
            with self._lock:
                self.counters["faults"] += 1
                if restarted:
                    self.counters["worker_restarts"] += 1
                text = f"{where} failed ({describe(error)}); " + ("restarted" if restarted else "the link carries on")
                self._logs.log(logging.ERROR, "fault " + where, "%s", text)
                log.debug("%s failed", where, exc_info=error)
                self._notice(text)
                self._ask("hello")  # one outstanding: a flood of faults is not a flood of requests
        except Exception as second:
            log.error("%s failed (%s); reporting it failed too (%s)", where, describe(error), describe(second))

    def guarded(self, where: str, fn: Callable) -> Callable:
        """fn wrapped so that whatever it raises becomes `report_fault(where, error)`:
        for a transport's own callbacks (paho's on_message, on_connect ...)."""
        return guarded(where, self.report_fault, fn)

    def _notice(self, text: str) -> None:
        # A fault or a refused frame shown as a status change, paced (status.Notices).
        shown = self._notices.add(text)
        if shown is not None:
            self._show_notice(shown)

    def _show_notice(self, text: str) -> None:
        self._last_fault = (text, time.time())
        self._set_state(self._status.state, text)

    # ---- transport events -------------------------------------------------------

    @entry_point("transport_connecting")
    def transport_connecting(self, description: str) -> None:
        with self._lock:
            self._transport = description
            self._set_state("connecting", f"opening {description}")

    @entry_point("transport_up")
    def transport_up(self, description: str) -> None:
        with self._lock:
            self._transport = description
            self.splitter.reset()
            self._asked.clear()
            self._acked = 0  # say again what we hold, whatever the device remembers
            self._last_rx = self._clock()
            self._silent = False
            self._set_state("connecting", self._status.message if self._status.state == "connecting" else None)
            self._ask("hello")

    @entry_point("transport_down")
    def transport_down(self, reason: str) -> None:
        with self._lock:
            self._asked.clear()
            self._ack_due = None
            self.counters["disconnects"] += 1
            log.info("tower link down: %s", reason)
            self._set_state("disconnected", reason)

    @entry_point("feed_bytes")
    def feed_bytes(self, data: bytes) -> None:
        """Serial: any chunk of bytes, split or merged frames, garbage included."""
        with self._lock:
            for item in self.splitter.feed(bytes(data)):
                if isinstance(item, framing.Rejected):
                    self._rejected(item.code, item.reason, item.line)
                else:
                    self._handle_guarded(item)
            self._flush_acks(force=False)

    @entry_point("feed_frame")
    def feed_frame(self, payload: bytes, retained: bool = False) -> None:
        """MQTT: one payload, a frame without its newline. A retained frame is the broker's
        memory of the tower, not a sign it is up: after its Last Will it stays offline."""
        with self._lock:
            if not retained and self._offline:
                self._offline = False  # a live frame: the tower is back
            try:
                obj = framing.decode(payload)
            except framing.FrameError as e:
                self.counters[e.code] += 1
                self._rejected(e.code, e.reason, bytes(payload[:64]))
                return
            self._handle_guarded(obj)
            self._flush_acks(force=False)

    @entry_point("feed_availability")
    def feed_availability(self, payload: bytes) -> None:
        """MQTT `status` topic: `online`, or `offline` (the tower's Last Will)."""
        with self._lock:
            raw = payload.encode("utf-8", "replace") if isinstance(payload, str) else bytes(payload)
            text = raw[:16].decode("ascii", "replace").strip()
            if text == "offline":
                self._offline = True
                self._set_state("disconnected", OFFLINE)
            elif text == "online":
                self._offline = False
                if self._status.state == "disconnected":
                    self._set_state("connecting")
                self._ask("hello", again=True)
            else:
                self.counters["bad_availability"] += 1
                self._logs.log(
                    logging.WARNING,
                    "bad_availability",
                    "ignored a tower status that is neither online nor offline: %r",
                    raw[:32],
                )

    @entry_point("tick")
    def tick(self) -> None:
        """Timers: acks, retried requests and deliveries, silence. Call every few tens of ms."""
        with self._lock:
            now = self._clock()
            if self._delivery.redeliver_due(now):
                self._after_delivery()
            self._flush_acks(force=self._ack_due is not None and now >= self._ack_due)
            for kind, sent in list(self._asked.items()):
                if now - max(sent, self._delivery.progress if kind == "replay" else 0) > self.retry_after:
                    self._asked.pop(kind)
                    self.counters["retries"] += 1
                    if kind == "replay":
                        self._check_gap()
                    else:
                        self._ask(kind)
            if (
                self.silence_timeout
                and not self._silent
                and now - self._last_rx > self.silence_timeout
                and self._status.state not in ("disconnected", "incompatible")
            ):
                self._silent = True
                self._set_state("disconnected", f"no frame from the tower for {self.silence_timeout:g} s")
                self._ask("hello", again=True)
            shown = self._notices.due(now)
            if shown is not None:
                self._show_notice(shown)
            self._logs.flush()

    def position(self) -> tuple[str, str, int] | None:
        """(tower, boot, seq) delivered so far: what a host stores to resume from."""
        with self._lock:
            return (self.tower, self.boot, self.delivered) if self.tower and self.boot else None

    # ---- requests ---------------------------------------------------------------

    def request_empty(self, token: str) -> None:
        """Tell the tower its Castillo was emptied; the same token twice empties once."""
        with self._lock:
            self._send_cmd(Empty(token=token))

    def request_calibration(
        self, cancel: bool = False, colours: list[str] | None = None, keep: list[str] | None = None
    ) -> None:
        """Calibrate (`colours`: 1 to 6 distinct ids of messages.TOWER_COLOURS; None: the
        tower's default five; `keep`: colours calibrated now that stay), or cancel a calibration
        that runs. ValueError for colours the protocol does not allow, before anything is sent."""
        msg = (
            Calibrate(cancel=True)
            if cancel
            else Calibrate(colours=list(colours) if colours else None, keep=list(keep) if keep else None)
        )
        with self._lock:
            self._send_cmd(msg)

    def _send_cmd(self, msg: Message) -> None:
        try:
            self._send(command(msg))
        except Exception as e:  # a dying transport; its reader reports the cut
            self.counters["send_failed"] += 1
            log.debug("send failed: %r", e)

    def _ask(self, kind: str, again: bool = False) -> None:
        # One outstanding request per kind; tick() sends it again if unanswered.
        if kind in self._asked and not again:
            return
        self._asked[kind] = self._clock()
        if kind == "hello":
            self._send_cmd(HelloReq())
        elif kind == "totals":
            self._send_cmd(TotalsReq())

    def _resync(self, why: str, doubt: bool = True) -> None:
        self.counters["resyncs"] += 1
        self._logs.log(
            logging.WARNING if doubt else logging.INFO, "resync", "resynchronising with a totals snapshot: %s", why
        )
        self._ask("totals")
        if self.hello and self._compatible:
            self._set_state("resyncing", why)

    def _check_gap(self) -> None:
        # Ask for what is missing, once, until progress stalls (tick retries).
        # Not while the table is refusing a drop: the link holds it already.
        if self.boot is None or "replay" in self._asked or not self._delivery.gap():
            return
        self._asked["replay"] = self._clock()
        self.counters["replays"] += 1
        self._send_cmd(Replay(boot=self.boot, from_=self.delivered + 1))

    def _flush_acks(self, force: bool) -> None:
        if self.boot is None or self.delivered <= self._acked:
            self._ack_due = None
            return
        if force or self.delivered - self._acked >= self.ack_every:
            self._acked = self.delivered
            self._ack_due = None
            self._send_cmd(Ack(boot=self.boot, seq=self.delivered))
        elif self._ack_due is None:
            self._ack_due = self._clock() + self.ack_delay

    # ---- incoming ---------------------------------------------------------------

    def _rejected(self, code: str, reason: str, line: bytes, shown: bool = False) -> None:
        # A bad frame may have been a drop: ask where the device is, and replay.
        self._logs.log(logging.WARNING, code, "refused a frame from the tower (%s: %s): %r", code, reason, line)
        if shown:
            self._notice(f"refused a frame from the tower: {reason}")
        if self.hello:
            self._ask("hello")

    def _handle_guarded(self, obj: dict) -> None:
        # One frame's bug must not take the frames after it in the same read.
        try:
            self._handle(obj)
        except Exception as error:
            self.report_fault("handling a frame", error)

    def _handle(self, obj: dict) -> None:
        self._last_rx = self._clock()
        if self._silent:
            self._silent = False
            self._ask("hello", again=True)
        try:
            msg = parse_device(obj)
        except MessageError as e:
            # CRC right, content wrong: a firmware bug or someone else on the wire.
            self.counters["bad_message"] += 1
            self._rejected("bad_message", str(e), brief(obj), shown=True)
            return
        if isinstance(msg, UnknownMessage):
            self.counters["unknown_message"] += 1
            self._logs.log(
                logging.INFO, "unknown_message", "ignored a message of unknown type %r (newer firmware?)", msg.t[:32]
            )
            return
        if isinstance(msg, Hello):
            self._hello(msg)
            return
        if not self._compatible:
            # Refused until a hello says protocol 1 again: the refusal may have come
            # from a stale or forged hello while the tower really speaks version 1.
            self.counters["refused"] += 1
            self._ask("hello")
            return
        if self.tower is None:
            # Nothing is known yet: wait for hello; the device still holds these.
            self.counters["before_hello"] += 1
            self._ask("hello")
            return
        if not self._same_boot(msg):
            return
        if isinstance(msg, Drop):
            self._drop(msg)
        elif isinstance(msg, Heartbeat):
            self._heartbeat(msg)
        elif isinstance(msg, Totals):
            self._totals(msg)
        elif isinstance(msg, Fault):
            self._fault(msg)
        elif isinstance(msg, Ok):
            log.debug("ok %s", msg.cmd)
        elif isinstance(msg, Cal):
            self._cal(msg)

    def _cal(self, msg: Cal) -> None:
        self._logs.log(
            logging.INFO, "cal", "calibration: state %s, colour %s, %s of %s", msg.state, msg.colour, msg.got, msg.need
        )
        fields = ("state", "colour", "got", "need", "msg", "colours", "sep", "warn", "near", "dist")
        self._calibration = {k: getattr(msg, k) for k in fields if getattr(msg, k) is not None}
        if msg.state == "done":
            self._ask("hello", again=True)  # its cal summary names the colours now calibrated
        self._set_state(self._status.state, self._status.message)

    def _same_boot(self, msg: Message) -> bool:
        if not isinstance(msg, WITH_BOOT) or msg.boot == self.boot:
            return True
        if self._boots.knows(self.tower, msg.boot):
            self.counters["stale_boot"] += 1  # late frames of a boot that is over
            self._ask("hello")  # or the link was taken back by a stale hello: the tower's own says which
            return False
        self._new_boot(msg.boot, f"tower rebooted (boot {self.boot} -> {msg.boot})")
        self._ask("hello", again=True)  # its hello says whether this boot is the newest
        return True

    def _new_boot(self, boot: str, why: str, boots: int | None = None) -> None:
        if self.boot is not None:
            self.counters["reboots"] += 1
        self._logs.log(logging.INFO, "boot", "%s", why)
        self.boot = boot
        record = self._boots.enter(self.tower, boot, boots)
        self._delivery.restart(self.tower, record)  # a boot seen before resumes after its last drop handed over
        self._acked = record.delivered
        self._last_lost = 0
        self._asked.pop("replay", None)
        self._resync(why, doubt=False)

    def _stale_hello(self, msg: Hello) -> bool:
        return self._boots.stale_hello(msg.dev, msg.boots, self._boots.record(self.tower, self.boot))

    def _hello(self, msg: Hello) -> None:
        if msg.proto == PROTOCOL_VERSION and msg.dev == self.tower and msg.boot != self.boot and self._stale_hello(msg):
            self.counters["stale_boot"] += 1  # a hello from before: the tower has moved on
            self._ask("hello")  # not the answer: ask where it is now (once, tick retries)
            return
        self._asked.pop("hello", None)
        if msg.proto != PROTOCOL_VERSION:
            self._compatible = False
            self.hello = msg
            self.counters["refused"] += 1
            text = (
                f"tower {msg.dev} (firmware {msg.fw}) speaks protocol version {msg.proto}; "
                f"this companion speaks version {PROTOCOL_VERSION}: update "
                f"{'the companion' if msg.proto > PROTOCOL_VERSION else 'the tower firmware'}"
            )
            self._logs.log(logging.ERROR, "incompatible", "%s", text)
            self._set_state("incompatible", text)
            return
        if not self._compatible:
            self._logs.log(logging.INFO, "compatible", "tower %s speaks protocol %d: link resumed", msg.dev, msg.proto)
        self._compatible = True
        self.hello = msg
        self._boots.saw_hello(msg.dev, msg.boots)
        if msg.dev != self.tower:
            if self.tower is not None:
                self._logs.log(
                    logging.WARNING, "tower", "another tower on this link: %s replaces %s", msg.dev, self.tower
                )
            self.tower = msg.dev
            self.boot = None
            self._new_boot(msg.boot, f"tower {msg.dev} found", msg.boots)
        elif msg.boot != self.boot:
            self._new_boot(msg.boot, f"tower rebooted (boot {self.boot} -> {msg.boot})", msg.boots)
        else:
            self._delivery.record.boots = msg.boots
        self._seen_seq(msg.seq, "hello")
        if self._acked < self.delivered:
            self._flush_acks(force=True)
        self._settle()

    def _seen_seq(self, seq: int, where: str) -> None:
        if seq < self.delivered:
            # Same boot, fewer drops than already delivered: a late frame (MQTT may
            # hand over a queued heartbeat or totals after a reconnect) or a device
            # that lost count. Either way the totals decide; what was handed over
            # stays handed over, so no (tower, boot, seq) ever reaches the table twice.
            self.counters["seq_backwards"] += 1
            self._resync(f"{where} says seq {seq}, below the {self.delivered} already delivered, without a new boot id")
            return
        if seq > self._delivery.known_last:
            self._delivery.known_last = seq
        self._check_gap()

    def _drop(self, msg: Drop) -> None:
        taken = self._delivery.take(msg)
        if taken == "waiting":
            self._check_gap()
        elif taken == "handled":
            self._after_delivery()

    def _after_delivery(self) -> None:
        if self.delivered >= self._delivery.known_last:
            self._asked.pop("replay", None)
        else:
            self._check_gap()

    def _handed_over(self, drop: TowerDrop) -> None:
        self._status = self._status.model_copy(update={"last_drop": drop.brief()})

    def _heartbeat(self, msg: Heartbeat) -> None:
        self._seen_seq(msg.seq, "heartbeat")
        if msg.acked < min(self._acked, self.delivered):
            # an ack of ours was lost on the way: say it again, or the ring fills with held drops
            self.counters["acks_resent"] += 1
            self._acked = msg.acked
            self._flush_acks(force=True)
        if msg.lost > self._last_lost:
            self._last_lost = msg.lost
            self._resync(f"the tower overwrote {msg.lost} drops no host had acknowledged")

    def _totals(self, msg: Totals) -> None:
        self.totals = msg
        self._asked.pop("totals", None)
        if self._on_totals:
            try:
                self._on_totals(self.tower, msg)
            except Exception as error:  # asked for again (tick) until the table takes it
                self.counters["callback_errors"] += 1
                self._asked["totals"] = self._clock()
                text = f"the table could not take the tower's totals ({describe(error)}): asking again"
                self._logs.log(logging.ERROR, "on_totals", "%s", text)
                self._notice(text)
        self._seen_seq(msg.seq, "totals")
        self._settle()

    def _fault(self, msg: Fault) -> None:
        self.counters["fault_" + msg.code] += 1
        self._logs.log(logging.WARNING, "fault " + msg.code, "tower fault %s: %s", msg.code, msg.msg)
        if msg.code == "replay_gap" and msg.oldest:
            if self._delivery.skip_to(msg.oldest - 1):
                self._acked = msg.oldest - 1  # what the tower no longer holds needs no ack
            self._resync(f"drops up to {msg.oldest - 1} are no longer held by the tower")
        elif msg.code == "stale_boot":
            self._ask("hello", again=True)
        elif msg.code in ("bad_checksum", "bad_frame", "line_too_long"):
            # one of our commands got mangled on the way: ask again sooner
            for kind in list(self._asked):
                self._asked[kind] = min(self._asked[kind], self._clock() - self.retry_after / 2)
        elif msg.code in ("sensor_missing", "sensor_error", "beam_stuck", "not_calibrated", "storage_error"):
            if msg.code == "storage_error":
                self._resync("the tower could not use its storage")
            self._set_state(self._status.state, f"tower: {msg.msg}")
