"""`elgrande tower-sim` and `elgrande listen`: a simulated tower, and the builder's check tool."""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import signal
import sys
import threading
import time
from pathlib import Path

from .messages import COLOURS, MAX_CAL_COLOURS, TOWER_COLOURS

SIM_DROPS = TOWER_COLOURS + ("uncertain", "multi")
DEFAULT_TOWER = "castillo-5e1a00"


def _(message: str) -> str:
    """The command line's words in the table's language (companion.words: ELGRANDE_LANG, the
    kept choice, the system's); the tower's output lines (PORT, drop ...) are a format and stay."""
    from companion.words import _ as said

    return said(message)


def _link_words(sentence: str) -> str:
    """A link sentence in the table's language (companion/words/link_words.py reads it back)."""
    from companion.words.link_words import link_words

    return link_words(sentence)


def _security_words(security) -> str:
    from companion.words.link_words import security_words

    return security_words(security.encrypted, security.authenticated)


def N_(message: str) -> str:  # marked for the catalogue, said later
    return message


class _Usage(Exception):
    """A user mistake: one line on stderr, exit status 2 (as companion.cli does)."""


def _usage(msg: str) -> _Usage:
    return _Usage(msg)


def _one_line_errors(name: str, func):
    # Caught here rather than as companion.cli.UsageError: under `python -m
    # companion.cli` that module is __main__ and its class a different object.
    def run(args) -> int:
        try:
            return func(args)
        except _Usage as e:
            print(f"elgrande {name}: {e}", file=sys.stderr)
            return 2

    return run


def register_commands(sub: argparse._SubParsersAction) -> None:
    sim = sub.add_parser(
        "tower-sim",
        help=_("a simulated Castillo tower on a virtual serial port or MQTT"),
        description=_(
            "Speaks the tower's wire protocol v1 like the firmware: drops, acks, "
            "replays, totals, heartbeats. Stays up until interrupted (Ctrl-C)."
        ),
    )
    where = sim.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--pty", action="store_true", help=_("create a virtual serial port; its path is the first line: PORT <path>")
    )
    where.add_argument("--mqtt", metavar="URL", help=_(BROKER_HELP))
    sim.add_argument("--tower-id", default=None, help=_("device id (default {tower})").format(tower=DEFAULT_TOWER))
    _mqtt_options(sim, _("the tower's user name on the broker (a locked-down broker: the tower id)"))
    src = sim.add_mutually_exclusive_group()
    src.add_argument(
        "--script",
        metavar="FILE",
        help=_("lines '<delay ms> <colour>' (colour: {colours}, or 'reboot'); # starts a comment").format(
            colours=", ".join(SIM_DROPS)
        ),
    )
    src.add_argument("--random", type=int, metavar="N", help=_("N random drops"))
    sim.add_argument(
        "--calibrated",
        metavar="IDS",
        help=_(
            "comma-separated colours the tower is calibrated for, 1 to {most} of {colours} (default: the "
            "first five); a colour dropped that is not among them comes out uncertain"
        ).format(most=MAX_CAL_COLOURS, colours=", ".join(TOWER_COLOURS)),
    )
    sim.add_argument("--rate", type=float, default=2.0, metavar="PER_SECOND", help=_("random drops per second"))
    sim.add_argument("--seed", type=int, default=None, help=_("random seed (drops and boot ids)"))
    sim.add_argument("--baud", type=int, default=115200, help=_("pace the pty like a UART (0: unpaced)"))
    sim.add_argument("--heartbeat", type=float, default=5.0, metavar="SECONDS", help=_("heartbeat period"))
    sim.set_defaults(func=_one_line_errors("tower-sim", cmd_tower_sim))

    lis = sub.add_parser(
        "listen",
        help=_("show the drops and link status of a Castillo tower"),
        description=_("Prints each accepted drop exactly once and each link status change."),
    )
    src = lis.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--serial",
        metavar="PORT_OR_URL",
        help=_("/dev/ttyACM0, COM3, a pty, socket://host:port, or 'auto' (first tower on USB)"),
    )
    src.add_argument("--mqtt", metavar="URL", help=_(BROKER_HELP))
    src.add_argument("--list-ports", action="store_true", help=_("list USB serial ports that look like towers"))
    lis.add_argument("--tower-id", help=_("device id on MQTT, e.g. castillo-a1b2c3 (only its topics are read)"))
    _mqtt_options(lis, _("the companion's user name on the broker"))
    lis.add_argument("--json", action="store_true", help=_("one JSON object a line"))
    lis.add_argument("--count", type=int, metavar="N", help=_("exit after N drops"))
    lis.add_argument("--verbose", action="store_true", help=_("log every rejected frame and resync"))
    lis.set_defaults(func=_one_line_errors("listen", cmd_listen))


BROKER_HELP = N_(
    "broker: mqtts://[user:password@]host[:port] (TLS, port 8883 by default) or "
    "mqtt://[user:password@]host[:port] (not encrypted, 1883)"
)
PASSWORD_ENV = "ELGRANDE_MQTT_PASSWORD"


def _mqtt_options(parser, user_help: str) -> None:
    parser.add_argument("--username", help=user_help)
    parser.add_argument(
        "--password", help=_("MQTT password (or set {env}, which stays out of ps)").format(env=PASSWORD_ENV)
    )
    parser.add_argument(
        "--cafile",
        metavar="PEM",
        help=_("mqtts://: the CA that signed the broker's certificate (default: the system's CAs)"),
    )
    parser.add_argument("--cert", metavar="PEM", help=_("mqtts://: a client certificate, when the broker asks for one"))
    parser.add_argument("--key", metavar="PEM", help=_("mqtts://: the client certificate's key"))


def _mqtt_settings(args) -> dict:
    password = args.password if args.password is not None else os.environ.get(PASSWORD_ENV) or None
    return {
        "username": args.username,
        "password": password,
        "cafile": args.cafile,
        "certfile": args.cert,
        "keyfile": args.key,
    }


class _Interrupted(Exception):
    pass


def _on_sigterm(signum, frame):
    raise _Interrupted()


# ---- tower-sim ---------------------------------------------------------------------


def _parse_script(text: str, name: str) -> list[tuple[float, str]]:
    steps = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise _usage(
                _("{where}: expected '<delay ms> <colour>', got {got}").format(
                    where=f"{name}:{n}", got=repr(raw.strip())
                )
            )
        steps.append((_delay(parts[0], f"{name}:{n}"), _what(parts[1], f"{name}:{n}")))
    return steps


def _delay(text: str, where: str) -> float:
    try:
        ms = float(text)
    except ValueError:
        raise _usage(
            _("{where}: delay {got} is not a number of milliseconds").format(where=where, got=repr(text))
        ) from None
    if ms < 0 or ms != ms:
        raise _usage(_("{where}: delay {got} must be 0 or more milliseconds").format(where=where, got=repr(text)))
    return ms / 1000


def _what(text: str, where: str) -> str:
    if text not in SIM_DROPS and text != "reboot":
        raise _usage(
            _("{where}: {got} is not one of {drops}, reboot").format(
                where=where, got=repr(text), drops=", ".join(SIM_DROPS)
            )
        )
    return text


def _calibrated(text) -> list[str]:
    if text is None:
        return list(COLOURS)
    colours = [c.strip() for c in text.split(",") if c.strip()]
    wrong = [c for c in colours if c not in TOWER_COLOURS]
    if wrong or not 1 <= len(colours) <= MAX_CAL_COLOURS or len(set(colours)) != len(colours):
        raise _usage(
            _("--calibrated {got}: give 1 to {most} distinct colours of {colours}").format(
                got=repr(text), most=MAX_CAL_COLOURS, colours=", ".join(TOWER_COLOURS)
            )
            + (" " + _("(not: {wrong})").format(wrong=", ".join(wrong)) if wrong else "")
        )
    return colours


def cmd_tower_sim(args: argparse.Namespace) -> int:
    _ctrl_c_stops()
    from .sim import MqttPort, PtyPort, SimulatedTower

    if args.mqtt and not args.tower_id:
        raise _usage(_("--mqtt needs --tower-id ID (the device id, e.g. castillo-a1b2c3)"))
    if args.pty and any(_mqtt_settings(args).values()):
        raise _usage(_("--username, --password, --cafile, --cert and --key are for --mqtt, not --pty"))
    if args.random is not None and (args.random < 0 or args.rate <= 0):
        raise _usage(_("--random N needs N >= 0 and --rate above 0"))
    steps = None
    if args.script:
        try:
            text = Path(args.script).read_text(encoding="utf-8")
        except OSError as e:
            raise _usage(_("{file}: cannot read the script ({why})").format(file=args.script, why=e.strerror)) from None
        steps = _parse_script(text, args.script)
    calibrated = _calibrated(args.calibrated)
    tower = SimulatedTower(args.tower_id or DEFAULT_TOWER, seed=args.seed)
    tower.cal_colours = calibrated
    if args.pty:
        port = PtyPort(tower, baud=args.baud)
        print(f"PORT {port.path}", flush=True)
    else:
        try:
            port = MqttPort(tower, args.mqtt, on_problem=_say_problem, **_mqtt_settings(args))
        except ValueError as e:
            raise _usage(str(e)) from None
        print(f"MQTT {port.host}:{port.port} {port.base}", flush=True)
        PORT_UP[0] = port.connected.is_set
    stop = threading.Event()
    beat = threading.Thread(target=_heartbeats, args=(tower, args.heartbeat, stop), daemon=True)
    beat.start()
    old = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        tower.heartbeat()
        if steps is not None:
            _play(tower, steps)
        elif args.random is not None:
            _play_random(tower, args.random, args.rate)
        else:
            _play_stdin(tower)
        while True:  # stays up, answering the host, until interrupted
            time.sleep(3600)
    except (KeyboardInterrupt, _Interrupted):
        return 0
    finally:
        signal.signal(signal.SIGTERM, old)
        stop.set()
        port.close()


def _ctrl_c_stops() -> None:
    """SIGINT (Ctrl-C) stops the command even when it was started from a shell that ignores
    SIGINT for background jobs (the ignore is inherited): set first, before anything is said."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _say_problem(text) -> None:
    # The simulated tower's own connection to the broker: why it cannot connect, once per change.
    said = _link_words(text) if text else _("connected to the broker")
    print(f"elgrande tower-sim: {said}", file=sys.stderr, flush=True)


def _heartbeats(tower, period: float, stop: threading.Event) -> None:
    while not stop.wait(period):
        tower.heartbeat()


PORT_UP = [lambda: True]  # MQTT: is the simulated tower's broker connection up? (set in tower-sim)


def _act(tower, what: str) -> None:
    if what == "reboot":
        tower.reboot()
        print(f"reboot boot {tower.boot_id}", flush=True)
    else:
        seq = tower.drop(what)
        if not seq:  # calibrating: the cube was taught, not dropped
            print(f"taught {what}", flush=True)
            return
        queued = "" if PORT_UP[0]() else " (queued: not connected to the broker)"
        print(f"drop {seq} {what}{queued}", flush=True)


def _play(tower, steps) -> None:
    due = time.monotonic()
    for delay, what in steps:
        due += delay
        time.sleep(max(0.0, due - time.monotonic()))  # the script's own timing
        _act(tower, what)


def _play_random(tower, n: int, rate: float) -> None:
    start = time.monotonic()
    for i in range(n):
        time.sleep(max(0.0, start + i / rate - time.monotonic()))
        _act(tower, tower.rng.choice(tuple(tower.cal_colours) * 8 + ("uncertain", "multi")))


def _play_stdin(tower) -> None:
    for n, raw in enumerate(sys.stdin, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        try:
            if len(parts) == 2:
                time.sleep(_delay(parts[0], f"stdin:{n}"))
            _act(tower, _what(parts[-1], f"stdin:{n}"))
        except Exception as e:  # a typo on stdin is reported, the tower stays up
            print(f"elgrande tower-sim: {e}", file=sys.stderr, flush=True)


# ---- listen ------------------------------------------------------------------------


def cmd_listen(args: argparse.Namespace) -> int:
    _ctrl_c_stops()
    from .ports import list_ports

    if args.list_ports:
        found = list_ports()
        for p in found:
            print(f"{p.device}  {p.vid:04x}:{p.pid:04x}  {p.kind}  {p.description}")
        if not found:
            others = ", ".join(p.device for p in list_ports(())) or _("none")
            print(_("no tower found on USB (serial ports: {others})").format(others=others), file=sys.stderr)
        return 0 if found else 1
    if args.count is not None and args.count < 1:
        raise _usage(_("--count must be at least 1"))
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="elgrande listen: %(message)s",
    )
    events: queue.Queue = queue.Queue()
    out = _Printer(args.json, args.count, events)
    bridge = _make_bridge(args, out)
    security = getattr(bridge, "security", None)
    out.security = security
    if security is not None and security.warning:
        out.warn(_("warning: the tower link is {warning}").format(warning=_security_words(security)))
    old = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        bridge.start()
        while True:
            try:
                kind = events.get(timeout=0.5)
            except queue.Empty:
                continue
            if kind == "done":
                return 0
            if kind == "incompatible" and args.serial:
                # On a cable it is the tower itself. On MQTT it may be a stranger's
                # retained hello (a broker without ACL): keep listening, the real
                # tower's hello v1 puts the link right.
                print(f"elgrande listen: {_link_words(bridge.link.status.message or '')}", file=sys.stderr)
                return 1
    except (KeyboardInterrupt, _Interrupted):
        return 0
    finally:
        signal.signal(signal.SIGTERM, old)
        bridge.stop()


def _make_bridge(args, out):
    if args.serial:
        from .ports import find_tower
        from .transport_serial import SerialBridge

        url = args.serial
        if url == "auto":
            url = find_tower()
            if url is None:
                raise _usage(_("no tower found on USB; plug it in, or name the port: --serial /dev/ttyACM0"))
        try:
            return SerialBridge(url, out.drop, out.status)
        except ValueError as e:
            raise _usage(f"--serial {url}: {e}") from None
    if not args.tower_id:
        raise _usage(_("--mqtt needs --tower-id ID (the device id, e.g. castillo-a1b2c3)"))
    from .transport_mqtt import MqttBridge

    try:
        return MqttBridge(args.mqtt, args.tower_id, out.drop, out.status, **_mqtt_settings(args))
    except ValueError as e:
        raise _usage(str(e)) from None


class _Printer:
    """Called under the link's lock, so lines come out in the link's order."""

    def __init__(self, as_json: bool, count, events: queue.Queue):
        self.as_json = as_json
        self.count = count
        self.events = events
        self.seen = 0
        self.security = None  # LinkSecurity of an MQTT link, shown with each status

    def warn(self, text: str) -> None:
        if not self.as_json:
            self._print(f"link  {text}")

    def _print(self, text: str) -> None:
        try:
            print(text, flush=True)
        except (BrokenPipeError, ValueError):
            self.events.put("done")

    def drop(self, d) -> None:
        if self.as_json:
            self._print(json.dumps(d.brief()))
        else:
            what = d.colour or ("possibly several cubes" if d.multi else "uncertain")
            hint = f" (best guess {d.best}, {d.conf / 10:.1f} %)" if d.uncertain and d.best else ""
            self._print(f"drop  {d.tower}  boot {d.boot}  #{d.seq:<5} {what}{hint}")
        self.seen += 1
        if self.count and self.seen >= self.count:
            self.events.put("done")

    def status(self, s) -> None:
        if self.as_json:
            sec = self.security
            self._print(
                json.dumps(
                    {
                        "status": s.state,
                        "tower": s.tower,
                        "fw": s.fw,
                        "proto": s.proto,
                        "boot": s.boot,
                        "since": round(s.since, 3),
                        "message": s.message,
                        "transport": s.transport,
                        "security": sec.model_dump() if sec is not None else None,
                    }
                )
            )
        else:
            who = f" {s.tower} firmware {s.fw} boot {s.boot}" if s.tower else ""
            since = time.strftime("%H:%M:%S", time.localtime(s.since))
            # the line's start is a format (link, its state, since); its reason is for people
            self._print(f"link  {s.state}{who} since {since}" + (f": {_link_words(s.message)}" if s.message else ""))
        if s.state == "incompatible":
            self.events.put("incompatible")
