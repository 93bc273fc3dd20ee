"""The host's half of hardware/PROTOCOL.md section 6, independent of the transport.

Feed it what arrives (serial bytes, MQTT payloads, MQTT availability) and call
tick() now and then; it sends commands through `send(dict)` and hands every
drop to `on_drop(TowerDrop)` exactly once and in sequence order:

- hello / version check: a tower speaking another protocol version is refused;
- de-duplication by (tower, boot, seq): replays, reconnects and QoS 1 repeat frames;
- gaps (a drop, hello or hb beyond what was delivered): `replay` from the first
  missing number, retried while no progress is made; later drops wait in order;
- reboot (a new boot id anywhere): sequence numbers restart, `totals_req`;
- any doubt (bad frames, `replay_gap`, `lost` drops, a sequence that goes back
  without a new boot): counted, logged, and resynchronised from a totals snapshot;
- acks of the highest contiguous sequence number delivered, every few drops.

All entry points take one lock, so a reader thread, a paho thread and a timer
may call in concurrently; callbacks run under that lock, in order.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import Counter, OrderedDict
from typing import Callable, Literal, Optional

from pydantic import BaseModel

from . import framing
from .adapter import TowerDrop, tower_drop
from .messages import (PROTOCOL_VERSION, Ack, Cal, Calibrate, Drop, Empty, Fault, Heartbeat, Hello, HelloReq,
                       MessageError, Ok, Replay, Totals, TotalsReq, UnknownMessage, command, parse_device)

log = logging.getLogger("firmware_bridge.link")

State = Literal["connecting", "connected", "resyncing", "disconnected", "incompatible"]


class LinkStatus(BaseModel):
    """What a person (or the table) needs to know about the tower link."""

    state: State
    since: float  # wall clock of the last state change: "disconnected since ..."
    transport: str = ""
    tower: Optional[str] = None
    fw: Optional[str] = None
    proto: Optional[int] = None
    boot: Optional[str] = None
    delivered: int = 0  # last sequence number handed over in this boot
    last_drop: Optional[dict] = None  # TowerDrop.brief() of the last drop handed over
    message: Optional[str] = None  # why (refused version, silence, fault ...)
    counters: dict[str, int] = {}


class Link:
    def __init__(self, send: Callable[[dict], None], on_drop: Callable[[TowerDrop], None],
                 on_status: Optional[Callable[[LinkStatus], None]] = None, *,
                 on_totals: Optional[Callable[[str, Totals], None]] = None,
                 resume: Optional[tuple[str, str, int]] = None, ack_every: int = 16,
                 ack_delay: float = 0.05, retry_after: float = 1.0,
                 silence_timeout: Optional[float] = None, max_pending: int = 4096,
                 clock: Callable[[], float] = time.monotonic):
        self._send = send
        self._on_drop = on_drop
        self._on_status = on_status
        self._on_totals = on_totals
        self._resume = resume  # (tower, boot, seq) the host already holds durably
        self.ack_every = ack_every
        self.ack_delay = ack_delay
        self.retry_after = retry_after
        self.silence_timeout = silence_timeout
        self.max_pending = max_pending
        self._clock = clock
        self._lock = threading.RLock()
        self.counters: Counter = Counter()
        self.splitter = framing.LineSplitter(rejected=self.counters)
        self.hello: Optional[Hello] = None
        self.totals: Optional[Totals] = None
        self.tower: Optional[str] = None
        self.boot: Optional[str] = None
        self.old_boots: list[str] = []
        self.delivered = 0  # highest contiguous seq handed over, this boot
        self.known_last = 0  # highest seq the device says exists, this boot
        self.pending: dict[int, tuple[Drop, bytes]] = {}  # drops beyond a gap, waiting for it to fill
        self._crcs: OrderedDict[int, bytes] = OrderedDict()  # seq -> wire form, to spot conflicting repeats
        self._acked = 0
        self._ack_due: Optional[float] = None
        self._asked: dict[str, float] = {}  # request kind -> when sent (answer still awaited)
        self._progress = 0.0
        self._last_rx = clock()
        self._last_lost = 0
        self._compatible = True
        self._transport = ""
        self._status = LinkStatus(state="disconnected", since=time.time(), message="not started")
        self._silent = False

    # ---- status ---------------------------------------------------------------

    @property
    def status(self) -> LinkStatus:
        with self._lock:
            return self._status.model_copy(update={"counters": dict(self.counters), "delivered": self.delivered})

    def _set_state(self, state: State, message: Optional[str] = None, force: bool = False) -> None:
        old = self._status
        h = self.hello
        new = LinkStatus(state=state, since=old.since if state == old.state else time.time(),
                         transport=self._transport, tower=self.tower, fw=h.fw if h else None,
                         proto=h.proto if h else None, boot=self.boot, delivered=self.delivered,
                         last_drop=old.last_drop, message=message, counters=dict(self.counters))
        changed = (new.state, new.tower, new.fw, new.boot, new.message) != \
                  (old.state, old.tower, old.fw, old.boot, old.message)
        self._status = new
        if (changed or force) and self._on_status:
            self._on_status(new)

    def _settle(self) -> None:
        # connected once the tower is known and no totals snapshot is awaited
        if self.hello and self._compatible and not self._silent:
            if "totals" in self._asked:
                self._set_state("resyncing", self._status.message if self._status.state == "resyncing" else None)
            else:
                self._set_state("connected")

    # ---- transport events -------------------------------------------------------

    def transport_connecting(self, description: str) -> None:
        with self._lock:
            self._transport = description
            self._set_state("connecting", f"opening {description}")

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

    def transport_down(self, reason: str) -> None:
        with self._lock:
            self._asked.clear()
            self._ack_due = None
            self.counters["disconnects"] += 1
            log.info("tower link down: %s", reason)
            self._set_state("disconnected", reason)

    def feed_bytes(self, data: bytes) -> None:
        """Serial: any chunk of bytes, split or merged frames, garbage included."""
        with self._lock:
            for item in self.splitter.feed(data):
                if isinstance(item, framing.Rejected):
                    self._rejected(item.code, item.reason, item.line)
                else:
                    self._handle(item)
            self._flush_acks(force=False)

    def feed_frame(self, payload: bytes) -> None:
        """MQTT: one payload, a frame without its newline."""
        with self._lock:
            try:
                obj = framing.decode(payload)
            except framing.FrameError as e:
                self.counters[e.code] += 1
                self._rejected(e.code, e.reason, payload[:64])
                return
            self._handle(obj)
            self._flush_acks(force=False)

    def feed_availability(self, payload: bytes) -> None:
        """MQTT `status` topic: `online`, or `offline` (the tower's Last Will)."""
        with self._lock:
            text = payload.decode("ascii", "replace").strip()
            if text == "offline":
                self._set_state("disconnected", "tower offline (its Last Will on the broker)")
            elif text == "online":
                if self._status.state == "disconnected":
                    self._set_state("connecting")
                self._ask("hello", again=True)

    def tick(self) -> None:
        """Timers: acks, retried requests, silence. Call every few tens of ms."""
        with self._lock:
            now = self._clock()
            self._flush_acks(force=self._ack_due is not None and now >= self._ack_due)
            for kind, sent in list(self._asked.items()):
                if now - max(sent, self._progress if kind == "replay" else 0) > self.retry_after:
                    self._asked.pop(kind)
                    self.counters["retries"] += 1
                    if kind == "replay":
                        self._check_gap()
                    else:
                        self._ask(kind)
            if self.silence_timeout and not self._silent and now - self._last_rx > self.silence_timeout \
                    and self._status.state not in ("disconnected", "incompatible"):
                self._silent = True
                self._set_state("disconnected", f"no frame from the tower for {self.silence_timeout:g} s")
                self._ask("hello", again=True)

    def position(self) -> Optional[tuple[str, str, int]]:
        """(tower, boot, seq) delivered so far: what a host stores to resume from."""
        with self._lock:
            return (self.tower, self.boot, self.delivered) if self.tower and self.boot else None

    # ---- requests ---------------------------------------------------------------

    def request_empty(self, token: str) -> None:
        """Tell the tower its Castillo was emptied; the same token twice empties once."""
        with self._lock:
            self._send_cmd(Empty(token=token))

    def request_calibration(self, cancel: bool = False) -> None:
        with self._lock:
            self._send_cmd(Calibrate(cancel=True) if cancel else Calibrate())

    def _send_cmd(self, msg) -> None:
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
        (log.warning if doubt else log.info)("resynchronising with a totals snapshot: %s", why)
        self._ask("totals")
        if self.hello and self._compatible:
            self._set_state("resyncing", why)

    def _check_gap(self) -> None:
        # Ask for what is missing, once, until progress stalls (tick retries).
        if self.boot is None or self.delivered >= self.known_last or "replay" in self._asked:
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

    def _rejected(self, code: str, reason: str, line: bytes) -> None:
        # A bad frame may have been a drop: ask where the device is, and replay.
        log.warning("rejected a frame from the tower (%s: %s): %r", code, reason, line)
        if self.hello:
            self._ask("hello")

    def _handle(self, obj: dict) -> None:
        self._last_rx = self._clock()
        if self._silent:
            self._silent = False
            self._ask("hello", again=True)
        try:
            msg = parse_device(obj)
        except MessageError as e:
            self.counters["bad_message"] += 1
            self._rejected("bad_message", str(e), framing.dumps(obj)[:64])
            return
        if isinstance(msg, UnknownMessage):
            self.counters["unknown_message"] += 1
            log.info("ignored a message of unknown type %r (newer firmware?)", msg.t)
            return
        if isinstance(msg, Hello):
            self._hello(msg, obj)
            return
        if not self._compatible:
            self.counters["refused"] += 1
            return
        if self.tower is None:
            # Nothing is known yet: wait for hello; the device still holds these.
            self.counters["before_hello"] += 1
            self._ask("hello")
            return
        if not self._same_boot(msg):
            return
        if isinstance(msg, Drop):
            self._drop(msg, obj)
        elif isinstance(msg, Heartbeat):
            self._heartbeat(msg)
        elif isinstance(msg, Totals):
            self._totals(msg)
        elif isinstance(msg, Fault):
            self._fault(msg)
        elif isinstance(msg, Ok):
            log.debug("ok %s", msg.cmd)
        elif isinstance(msg, Cal):
            log.info("calibration: %s", msg.model_dump(exclude_none=True))

    def _same_boot(self, msg) -> bool:
        boot = getattr(msg, "boot", None)  # ok and cal frames carry none
        if boot is None or boot == self.boot:
            return True
        if boot in self.old_boots:
            self.counters["stale_boot"] += 1  # late frames of a boot that is over
            return False
        self._new_boot(boot, f"tower rebooted (boot {self.boot} -> {boot})")
        self._ask("hello", again=True)
        return True

    def _new_boot(self, boot: str, why: str) -> None:
        if self.boot is not None:
            self.old_boots = (self.old_boots + [self.boot])[-16:]
            self.counters["reboots"] += 1
        log.info("%s", why)
        self.boot = boot
        self.delivered = 0
        self.known_last = 0
        self._acked = 0
        self._last_lost = 0
        self.pending.clear()
        self._crcs.clear()
        self._asked.pop("replay", None)
        self._resync(why, doubt=False)

    def _hello(self, msg: Hello, obj: dict) -> None:
        self._asked.pop("hello", None)
        if msg.proto != PROTOCOL_VERSION:
            self._compatible = False
            self.hello = msg
            self.counters["refused"] += 1
            text = (f"tower {msg.dev} (firmware {msg.fw}) speaks protocol version {msg.proto}; "
                    f"this companion speaks version {PROTOCOL_VERSION}: update "
                    f"{'the companion' if msg.proto > PROTOCOL_VERSION else 'the tower firmware'}")
            log.error("%s", text)
            self._set_state("incompatible", text)
            return
        self._compatible = True
        self.hello = msg
        if msg.dev != self.tower:
            if self.tower is not None:
                log.warning("another tower on this link: %s replaces %s", msg.dev, self.tower)
            self.tower = msg.dev
            self.boot = None
            self.old_boots = []
            self._new_boot(msg.boot, f"tower {msg.dev} found")
            if self._resume and self._resume[:2] == (msg.dev, msg.boot):
                self.delivered = self._acked = self._resume[2]  # the host already holds these
        elif msg.boot != self.boot:
            if msg.boot in self.old_boots:
                self.counters["stale_boot"] += 1
                return
            self._new_boot(msg.boot, f"tower rebooted (boot {self.boot} -> {msg.boot})")
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
            self._resync(f"{where} says seq {seq}, below the {self.delivered} already delivered, "
                         f"without a new boot id")
            return
        if seq > self.known_last:
            self.known_last = seq
        self._check_gap()

    def _drop(self, msg: Drop, obj: dict) -> None:
        seq = msg.seq
        wire = framing.dumps(obj)
        if seq <= self.delivered:
            seen = self._crcs.get(seq)
            if seen is not None and seen != wire:
                self.counters["conflicting_repeat"] += 1
                self._resync(f"drop {seq} came again with other content")
            else:
                self.counters["duplicates"] += 1
            return
        if seq > self.known_last:
            self.known_last = seq
        if seq != self.delivered + 1:
            if seq in self.pending:
                self.counters["duplicates"] += 1
            elif len(self.pending) < self.max_pending:
                self.pending[seq] = (msg, wire)
            self.counters["out_of_order"] += 1
            self._check_gap()
            return
        self._deliver(msg, wire)
        self._deliver_pending()
        if self.delivered >= self.known_last:
            self._asked.pop("replay", None)
        else:
            self._check_gap()

    def _deliver_pending(self) -> None:
        while self.delivered + 1 in self.pending:
            self._deliver(*self.pending.pop(self.delivered + 1))

    def _deliver(self, msg: Drop, wire: bytes) -> None:
        self.delivered = msg.seq
        self._progress = self._clock()
        self._crcs[msg.seq] = wire
        if len(self._crcs) > 1024:
            self._crcs.popitem(last=False)
        drop = tower_drop(self.tower, msg)
        self.counters["delivered"] += 1
        self._status = self._status.model_copy(update={"last_drop": drop.brief()})
        try:
            self._on_drop(drop)
        except Exception:  # the table's problem must not stop the link
            self.counters["callback_errors"] += 1
            log.exception("on_drop failed for %s", drop.key)

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
            self._on_totals(self.tower, msg)
        self._seen_seq(msg.seq, "totals")
        self._settle()

    def _fault(self, msg: Fault) -> None:
        self.counters["fault_" + msg.code] += 1
        log.warning("tower fault %s: %s", msg.code, msg.msg)
        if msg.code == "replay_gap" and msg.oldest:
            lost = max(0, msg.oldest - 1 - self.delivered)
            if lost:
                self.counters["lost"] += lost
                self.delivered = self._acked = msg.oldest - 1
                self.pending = {s: p for s, p in self.pending.items() if s > self.delivered}
                self._deliver_pending()
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
