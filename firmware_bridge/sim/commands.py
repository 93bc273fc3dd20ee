"""The host's commands to the simulated tower, as the firmware's device.py handles them: a port
hands each line to `handle_line`; each command is checked and answered by its handler, found in
`HANDLERS` by the frame's `t`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware_bridge import framing
from firmware_bridge.messages import COLOURS, MAX_CAL_COLOURS, TOWER_COLOURS
from firmware_bridge.sim.tower import SimPort, SimulatedTower

TOKEN_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:")


class BadArgument(Exception):
    code = "bad_argument"


class StaleBoot(BadArgument):
    code = "stale_boot"


def int_arg(msg: dict, name: str, low: int, high: int, default: int | None = None) -> int:
    value = msg.get(name, default)
    if value is None:
        raise BadArgument(f"{name} is required")
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadArgument(f"{name} must be an integer")
    if value < low or value > high:
        raise BadArgument(f"{name} must be between {low} and {high}")
    return value


def check_boot(tower: SimulatedTower, msg: dict) -> None:
    if msg.get("boot") != tower.boot_id:
        raise StaleBoot(
            f"boot {msg.get('boot')!r} is not the current boot {tower.boot_id}; resynchronise with totals_req"
        )


def hello_req(tower: SimulatedTower, msg: dict, port: SimPort, ref: Any) -> None:
    tower.emit(tower.hello(), port)


def totals_req(tower: SimulatedTower, msg: dict, port: SimPort, ref: Any) -> None:
    tower.emit(tower.totals_frame(), port)


def ack(tower: SimulatedTower, msg: dict, port: SimPort, ref: Any) -> None:
    check_boot(tower, msg)
    seq = int_arg(msg, "seq", 0, tower.last_seq)
    tower.acked = max(tower.acked, seq)
    port.acked = max(port.acked, seq)


def replay(tower: SimulatedTower, msg: dict, port: SimPort, ref: Any) -> None:
    check_boot(tower, msg)
    first = int_arg(msg, "from", 1, tower.last_seq + 1)
    oldest = tower.oldest_seq
    if first < oldest:
        tower.fault(
            "replay_gap",
            f"drops {first} to {oldest - 1} are no longer held; replaying from {oldest}, resynchronise with totals_req",
            port,
            re=ref,
            oldest=oldest,
            last=tower.last_seq,
        )
        first = oldest
    port.rewind(first)
    tower.ok("replay", port, ref, **{"from": first, "to": tower.last_seq})


def empty(tower: SimulatedTower, msg: dict, port: SimPort, ref: Any) -> None:
    token = msg.get("token")
    if not isinstance(token, str) or not 1 <= len(token) <= 32 or set(token) - TOKEN_CHARS:
        raise BadArgument("token must be 1 to 32 characters of A-Z a-z 0-9 _ - . :")
    emptied = tower.empty(token, port)
    tower.ok("empty", port, ref, token=token, emptied=emptied)


def calibrate(tower: SimulatedTower, msg: dict, port: SimPort, ref: Any) -> None:
    if msg.get("cancel") is True:
        tower.teaching = None
        tower.ok("calibrate", port, ref, state="cancelled")
        return
    per = int_arg(msg, "per", 1, 20, 5)
    colours = msg.get("colours", list(COLOURS))
    if (
        not isinstance(colours, list)
        or not colours
        or len(colours) > MAX_CAL_COLOURS
        or [c for c in colours if not isinstance(c, str) or c not in TOWER_COLOURS]
        or len(set(colours)) != len(colours)
    ):
        raise BadArgument(
            f"colours must be a list of 1 to {MAX_CAL_COLOURS} distinct ids from: " + ", ".join(TOWER_COLOURS)
        )
    keep = msg.get("keep", [])
    if (
        not isinstance(keep, list)
        or [c for c in keep if not isinstance(c, str) or c not in tower.cal_colours or c in colours]
        or len(set(keep)) != len(keep)
        or len(keep) + len(colours) > MAX_CAL_COLOURS
    ):
        raise BadArgument(
            f"keep must list distinct colours the tower is calibrated for "
            f"({', '.join(tower.cal_colours)}), none of those asked, and at most "
            f"{MAX_CAL_COLOURS} colours in all"
        )
    tower.teaching = {"colours": list(colours), "keep": list(keep), "per": per, "index": 0, "samples": {}}
    tower.ok("calibrate", port, ref, state="started")
    tower.emit({"t": "cal", "state": "drop", "colour": colours[0], "got": 0, "need": per})


def identify(tower: SimulatedTower, msg: dict, port: SimPort, ref: Any) -> None:
    tower.ok("identify", port, ref, s=int_arg(msg, "s", 1, 60, 5))


Handler = Callable[[SimulatedTower, dict, SimPort, Any], None]
# In the order the firmware names them in an `unknown_command` fault.
HANDLERS: dict[str, Handler] = {
    "hello_req": hello_req,
    "totals_req": totals_req,
    "ack": ack,
    "replay": replay,
    "empty": empty,
    "calibrate": calibrate,
    "identify": identify,
}


def handle_line(tower: SimulatedTower, line: bytes, port: SimPort) -> None:
    """One line from the host on `port`: a bad frame or command is answered with a fault."""
    with tower.lock:
        try:
            msg = framing.decode(line)
        except framing.FrameError as e:
            tower.counters["bad"] += 1
            tower.fault(e.code, e.reason, port, count=tower.counters["bad"])
            return
        ref = msg.get("id")
        kind = msg["t"]
        handler = HANDLERS.get(kind)
        if handler is None:
            tower.counters["unknown"] += 1
            tower.fault("unknown_command", f"unknown command {kind!r}; known: {', '.join(HANDLERS)}", port, re=ref)
            return
        try:
            handler(tower, msg, port, ref)
        except BadArgument as e:
            tower.fault(e.code, f"{kind}: {e}", port, re=ref)
        except Exception as e:  # never let one command stop the counting
            tower.fault("internal_error", f"{kind} failed: {e!r}", port, re=ref)
