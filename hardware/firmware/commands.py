# The host's commands to the tower (PROTOCOL.md section 4): each checked, carried out on the
# Device and answered by its handler, found in HANDLERS by the frame's `t`. Board-free.
from colour import COLOURS, MAX_COLOURS, VOCABULARY, Calibration

TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:"


class BadArgument(Exception):
    code = "bad_argument"


class StaleBoot(BadArgument):
    code = "stale_boot"


def int_arg(msg, name, low, high, default=None):
    value = msg.get(name, default)
    if value is None:
        raise BadArgument(f"{name} is required")
    # bool is not an int here (on MicroPython it is not one either)
    if not isinstance(value, int) or value is True or value is False:
        raise BadArgument(f"{name} must be an integer")
    if value < low or value > high:
        raise BadArgument(f"{name} must be between {low} and {high}")
    return value


def check_boot(device, msg):
    boot = msg.get("boot")
    if boot != device.boot_id:
        raise StaleBoot(f"boot {boot!r} is not the current boot {device.boot_id}; resynchronise with totals_req")


def hello_req(device, msg, link, ref):
    device.emit(device.hello(), link)


def totals_req(device, msg, link, ref):
    device.emit(device.totals_frame(), link)


def ack(device, msg, link, ref):
    check_boot(device, msg)
    seq = int_arg(msg, "seq", 0, device.ring.last_seq)
    device.ring.ack(seq)
    if seq > link.acked:
        link.acked = seq


def replay(device, msg, link, ref):
    check_boot(device, msg)
    last = device.ring.last_seq
    first = int_arg(msg, "from", 1, last + 1)
    oldest = device.ring.oldest_seq
    if first < oldest:
        device.fault(
            "replay_gap",
            f"drops {first} to {oldest - 1} are no longer held; replaying from {oldest}, resynchronise with totals_req",
            link,
            re=ref,
            oldest=oldest,
            last=last,
        )
        first = oldest
    link.rewind(first)
    device.ok("replay", link, ref, **{"from": first, "to": last})


def empty(device, msg, link, ref):
    token = msg.get("token")
    if not isinstance(token, str) or not 1 <= len(token) <= 32 or [ch for ch in token if ch not in TOKEN_CHARS]:
        raise BadArgument("token must be 1 to 32 characters of A-Z a-z 0-9 _ - . :")
    emptied = device.empty(token, link)
    device.ok("empty", link, ref, token=token, emptied=emptied)


def calibrate(device, msg, link, ref):
    if msg.get("cancel") is True:
        device.calibration = None
        device.ok("calibrate", link, ref, state="cancelled")
        return
    per = int_arg(msg, "per", 1, 20, device.cfg["calibration_drops"])
    colours = msg.get("colours", list(COLOURS))
    if (
        not isinstance(colours, list)
        or not colours
        or len(colours) > MAX_COLOURS
        or [c for c in colours if not isinstance(c, str) or c not in VOCABULARY]
        or len(set(colours)) != len(colours)
    ):
        vocabulary = ", ".join(VOCABULARY)
        raise BadArgument(f"colours must be a list of 1 to {MAX_COLOURS} distinct ids from: {vocabulary}")
    keep = msg.get("keep", [])
    known = (device.cal or {}).get("refs") or {}
    if (
        not isinstance(keep, list)
        or [c for c in keep if not isinstance(c, str) or c not in known or c in colours]
        or len(set(keep)) != len(keep)
        or len(keep) + len(colours) > MAX_COLOURS
    ):
        calibrated = ", ".join(c for c in VOCABULARY if c in known) or "none"
        raise BadArgument(
            f"keep must list distinct colours the tower is calibrated for ({calibrated}), none of "
            f"those asked, and at most {MAX_COLOURS} colours in all"
        )
    device.calibration = Calibration(colours, per, dict((c, known[c]) for c in keep), keep)
    device.ok("calibrate", link, ref, state="started")
    device.calibration_prompt()


def identify(device, msg, link, ref):
    seconds = int_arg(msg, "s", 1, 60, 5)
    if device.led:
        device.led.show("identify", device.clock.ticks_ms(), seconds)
    device.ok("identify", link, ref, s=seconds)


# In the order an `unknown_command` fault names them (a MicroPython dict keeps no order).
COMMANDS = ("hello_req", "totals_req", "ack", "replay", "empty", "calibrate", "identify")
HANDLERS = {
    "hello_req": hello_req,
    "totals_req": totals_req,
    "ack": ack,
    "replay": replay,
    "empty": empty,
    "calibrate": calibrate,
    "identify": identify,
}
