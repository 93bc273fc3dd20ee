"""The host's half of hardware/PROTOCOL.md section 6, independent of the transport.

Feed it what arrives (serial bytes, MQTT payloads, MQTT availability) and call
tick() now and then; it sends commands through `send(dict)` and hands every
drop to `on_drop(TowerDrop)` exactly once and in sequence order:

- hello / version check: a tower speaking another protocol version is refused;
- de-duplication by (tower, boot, seq): replays, reconnects and QoS 1 repeat frames;
  what was handed over is remembered per (tower, boot) (`held`), so a boot that comes
  back (a late or redelivered frame, a retained hello, a tower unplugged and plugged
  back) resumes after its last drop handed over, never from 1 again;
- boot order: a hello names its `boots` count, so a hello older than the newest one
  seen (a retained or redelivered one) is stale and ignored, like any frame of a boot
  that is over; a frame of a boot never seen is taken as a reboot and the tower asked;
- gaps (a drop, hello or hb beyond what was delivered): `replay` from the first
  missing number, retried while no progress is made; later drops wait in order;
- reboot (a new boot id anywhere): sequence numbers restart, `totals_req`;
- any doubt (bad frames, `replay_gap`, `lost` drops, a sequence that goes back
  without a new boot): counted, logged, and resynchronised from a totals snapshot;
- acks of the highest contiguous sequence number delivered, every few drops.

All entry points take one lock, so a reader thread, a paho thread and a timer
may call in concurrently; callbacks run under that lock, in order.

Nothing the tower (or anyone on its wire) sends can stop the link: a frame is
taken or rejected with a reason (logged at most a few times a window, always
counted); a callback that raises is counted and shown (a drop the table could
not take is kept, not acknowledged, and offered again); and each entry point
has a last-resort guard that turns any other exception into a counted fault,
one log line and a status change (`report_fault`). `guarded(where, fn)` gives a
transport the same guard for its own callbacks.

Its parts: `core` (`Link`: the entry points, each frame's handling, requests and acks),
`delivery` (one boot's drops handed over exactly once and in order, a refused one offered
again), `boots` (the boots seen and how far each was handed over), `status` (`LinkStatus`,
and the pacing of the faults shown in it).
"""

from firmware_bridge.link.core import Link
from firmware_bridge.link.status import LinkStatus

__all__ = ["Link", "LinkStatus"]
