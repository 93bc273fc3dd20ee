"""`elgrande club` (the room board and tournament desk), `elgrande club-sim` (a table
that plays a scripted game and publishes it: for trying club night without tablets) and
`elgrande club-setup` (a large event's broker files: one bridge user per hall, writing only its tables)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path

from companion.safe_text import for_terminal
from companion.words import N_, _
from companion.words.link_words import security_words

TOKEN_ENV = "ELGRANDE_CLUB_TOKEN"
PASSWORD_ENV = "ELGRANDE_CLUB_PASSWORD"
BROKER_HELP = N_("the club broker: mqtts://host[:port] (TLS) or mqtt://host[:port]")


def _broker_args(p: argparse.ArgumentParser, user_help: str) -> None:
    p.add_argument("--broker", required=True, metavar="URL", help=_(BROKER_HELP))
    p.add_argument("--club", default="club", help=_("the club's name in the topics (default: club)"))
    p.add_argument("--user", help=user_help)
    password = _("the user's password (or the environment variable {name})").format(name=PASSWORD_ENV)
    p.add_argument("--password", help=password)
    p.add_argument("--cafile", metavar="FILE", help=_("mqtts: the CA that signed the broker's certificate"))


def register_commands(sub) -> None:
    club = sub.add_parser(
        "club",
        help=_("the club's room board and tournament standings"),
        description=_(
            "Subscribes to the club broker, serves the room board (read-only) and "
            "keeps a tournament; organiser actions need the organiser's token."
        ),
    )
    _broker_args(club, _("the board's user on the broker (it reads every table)"))
    club.add_argument("--host", default="0.0.0.0", help=_("address to serve the board on (default: every one)"))
    club.add_argument("--port", type=int, default=8080, help=_("port of the board (default 8080)"))
    club.add_argument(
        "--certfile",
        metavar="FILE",
        help=_(
            "serve the board over HTTPS with this certificate "
            "(PEM; make-certs.sh's server.crt): the organiser's token is then never sent in clear"
        ),
    )
    keyfile = _("the certificate's private key (make-certs.sh's server.key)")
    club.add_argument("--keyfile", metavar="FILE", help=keyfile)
    club.add_argument(
        "--data",
        default="tournament.jsonl",
        metavar="FILE",
        help=_("the tournament's journal (append-only; created if missing; default tournament.jsonl)"),
    )
    club.add_argument(
        "--token",
        help=_(
            "the organiser's token (or the environment variable {name}); "
            "prefer the variable: a command line is visible to other users of the machine"
        ).format(name=TOKEN_ENV),
    )
    club.add_argument(
        "--halls",
        metavar="FILE",
        help=_(
            "a large event's hall plan (elgrande club-setup's halls.json): "
            "a hall's bridge is taken only for the tables the plan puts in that hall"
        ),
    )
    club.set_defaults(func=_one_line_errors("club", cmd_club))

    setup = sub.add_parser(
        "club-setup",
        help=_("a large event's broker files: users, passwords, ACLs and each hall's bridge"),
        description=_(
            "Writes, in a new folder: the hall plan (halls.json, for elgrande "
            "club --halls), the club broker's acl and passwd (the board, one bridge user per hall "
            "writing only its hall's tables, the tables given with --tables), and for each hall its "
            "broker's acl, passwd (its tables) and bridge.conf; every password in passwords.txt."
        ),
    )
    setup.add_argument("--club", default="club", help=_("the club's name in the topics (default: club)"))
    setup.add_argument(
        "--hall",
        action="append",
        default=[],
        metavar="HALL=TABLE,TABLE,...",
        required=True,
        help=_("a hall and its tables (repeat for each hall), e.g. hall-a=table-1,table-2"),
    )
    direct = _("tables that log in to the club broker itself (no hall)")
    setup.add_argument("--tables", default="", metavar="TABLE,TABLE,...", help=direct)
    setup.add_argument(
        "--club-broker",
        required=True,
        metavar="HOST[:PORT]",
        help=_("the club broker as the halls' brokers reach it (port 8883 if left out)"),
    )
    setup.add_argument("--out", required=True, metavar="FOLDER", help=_("a new (or empty) folder for the files"))
    setup.set_defaults(func=_one_line_errors("club-setup", cmd_club_setup))

    sim = sub.add_parser(
        "club-sim",
        help=_("a table that plays a scripted game and publishes it to the club"),
        description=_(
            "Plays a scripted game (companion.scripted) at a set pace, publishing the "
            "table's public state like a tablet does."
        ),
    )
    _broker_args(sim, _("the table's user on the broker (its table id by default)"))
    sim.add_argument("--table-id", help=_("the table's id (default: the user name)"))
    sim.add_argument("--seed", type=int, default=1, help=_("the scripted game's seed"))
    sim.add_argument("--pace", type=float, default=0.5, metavar="SECONDS", help=_("seconds between inputs"))
    sim.add_argument("--players", type=int, default=4, choices=range(3, 6), help=_("with --names: how many"))
    sim.add_argument(
        "--wait",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help=_("how long to wait for the board's seating before giving up (default 60)"),
    )
    sim.add_argument(
        "--names",
        help=_(
            "comma-separated player names, in seat order (default: the ones the board's "
            "seating puts at this table, and as many players)"
        ),
    )
    sim.add_argument("--mode", choices=("tracking", "scoring"), default="tracking")
    sim.add_argument("--heartbeat", type=float, default=10.0, metavar="SECONDS")
    sim.set_defaults(func=_one_line_errors("club-sim", cmd_club_sim))


class _Usage(Exception):
    """A mistake on the command line: one line on stderr, exit status 2."""


def _usage(message: str) -> int:
    raise _Usage(message)


def _one_line_errors(name: str, func):
    def run(args) -> int:
        try:
            return func(args)
        except _Usage as exc:  # (companion.cli's UsageError is another class when run as python -m)
            print(f"elgrande {name}: {for_terminal(str(exc))}", file=sys.stderr)
            return 2

    return run


def _password(args) -> str | None:
    return args.password if args.password is not None else os.environ.get(PASSWORD_ENV)


def cmd_club(args) -> int:
    from companion.club.board import ClubBoard
    from companion.club.halls import HallPlan
    from companion.club.tournament import Journal, Tournament, TournamentError

    token = args.token or os.environ.get(TOKEN_ENV, "")
    if not token:
        words = _("give the organiser's token: the environment variable {name} (or --token)")
        return _usage(words.format(name=TOKEN_ENV))
    if not 0 <= args.port <= 65535:
        return _usage(_("--port {port}: a port is a number from 0 to 65535").format(port=args.port))
    try:
        journal = Journal(Path(args.data))
        tournament = Tournament(journal)
    except (TournamentError, OSError) as exc:
        return _usage(f"--data {args.data}: {getattr(exc, 'strerror', None) or exc}")
    for warning in journal.warnings:
        print(f"elgrande club: {for_terminal(warning)}", file=sys.stderr)
    try:
        halls = HallPlan.load(Path(args.halls)) if args.halls else None
        board = ClubBoard(
            args.broker,
            args.club,
            tournament,
            token,
            username=args.user,
            password=_password(args),
            ca_file=args.cafile,
            host=args.host,
            port=args.port,
            certfile=args.certfile,
            keyfile=args.keyfile,
            halls=halls,
        ).start()
    except (ValueError, OSError) as exc:
        return _usage(str(exc))
    logging.basicConfig(level=logging.WARNING, format="elgrande club: %(message)s")
    if board.security.warning:
        sec = board.security
        warning = _("warning: {what}").format(what=security_words(sec.encrypted, sec.authenticated, "club"))
        print(f"elgrande club: {warning}", file=sys.stderr)
    if not board.tls and args.host not in ("127.0.0.1", "localhost", "::1"):
        warning = _(
            "warning: the board is plain HTTP on the network: open the organiser page on this "
            "machine only (http://127.0.0.1:{port}/organiser), or serve HTTPS (--certfile, --keyfile), or the "
            "organiser's token crosses the Wi-Fi in clear"
        )
        print(f"elgrande club: {warning.format(port=board.port)}", file=sys.stderr)
    print(f"BOARD {board.url}", flush=True)
    serving = _("club {club} on {broker}; {players} players, {rounds} rounds in {data}")
    counts = {"players": len(tournament.players), "rounds": len(tournament.rounds)}
    print(serving.format(club=args.club, broker=args.broker, data=args.data, **counts), flush=True)
    _wait_for_signal()
    board.stop()
    return 0


def cmd_club_setup(args) -> int:
    from companion.club.halls import CLUB_BROKER_DIR, PASSWORDS_FILE, PLAN_FILE, HallPlan, write_setup

    halls: dict[str, list[str]] = {}
    for given in args.hall:
        hall, sep, tables = given.partition("=")
        if not sep or hall.strip() in halls:
            words = _("--hall {hall}: give each hall once, as HALL=TABLE,TABLE,... (e.g. hall-a=table-1,table-2)")
            return _usage(words.format(hall=repr(given)))
        halls[hall.strip()] = [t.strip() for t in tables.split(",") if t.strip()]
    direct = tuple(t.strip() for t in args.tables.split(",") if t.strip())
    try:
        write_setup(Path(args.out), HallPlan(args.club, halls), args.club_broker, direct)
    except ValueError as exc:
        return _usage(str(exc))
    except OSError as exc:
        words = _("--out {folder}: {reason}; nothing was written")
        return _usage(words.format(folder=args.out, reason=exc.strerror or exc))
    out = Path(args.out)
    wrote = _(
        "wrote {out}: the club broker's acl and passwd in {broker}; for each hall ({halls}) its acl, passwd "
        "and bridge.conf in its folder; the hall plan {plan} (elgrande club --halls); every password in {passwords}"
    )
    files = {"broker": out / CLUB_BROKER_DIR, "plan": out / PLAN_FILE, "passwords": out / PASSWORDS_FILE}
    print(wrote.format(out=out, halls=", ".join(halls), **files))
    return 0


def _wait_for_signal() -> None:
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *a: done.set())
    while not done.wait(1):
        pass


def cmd_club_sim(args) -> int:
    from companion import scripted
    from companion.club.config import ClubConfig
    from companion.club.publisher import ClubPublisher, club_line
    from companion.table.authority import Table

    try:
        config = ClubConfig(
            broker=args.broker,
            club=args.club,
            table_id=args.table_id,
            username=args.user,
            password=_password(args),
            ca_file=args.cafile,
        )
    except ValueError as exc:
        return _usage(_one_line(exc))
    names = None
    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != args.players or not all(names):
            return _usage(_("--names: give {n} names, comma-separated").format(n=args.players))
    # Like a tablet at a club night: the table waits for the board's seating, then starts its game,
    # which then carries that seating (without --names: the players the seating puts here).
    table = Table(scripted.scripted_setup(mode=args.mode, players=args.players))
    logging.basicConfig(level=logging.WARNING, format=f"club-sim {config.table}: %(message)s")
    # the link's status lines in the table's words (its log lines, in English, are not printed too)
    logging.getLogger("companion.club").setLevel(logging.ERROR)

    def said(status) -> None:
        print(f"club-sim {config.table}: {club_line(status)}", file=sys.stderr, flush=True)

    try:
        publisher = ClubPublisher(table, config, heartbeat=args.heartbeat, on_status=said).start()
    except ValueError as exc:
        return _usage(str(exc))
    seated = _seated_names(publisher, config.table, names is None, args.wait)
    if seated is None:
        publisher.stop()
        words = _(
            "no seating for this table from the board within {seconds} s (is `elgrande club` running, and the "
            "round seated?)"
        )
        print(f"club-sim {config.table}: {words.format(seconds=f'{args.wait:g}')}", file=sys.stderr)
        return 1
    names = names or seated
    setup = scripted.scripted_setup(mode=args.mode, players=len(names))
    setup.game.names.update(dict(zip(setup.game.players, names)))
    table = Table(setup)  # in memory: a simulated table keeps no game log
    table.nonce = os.urandom(4).hex()
    publisher.switch_table(table)
    print(f"TABLE {config.table} GAME {table.nonce}", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *a: stop.set())
    while not stop.is_set() and scripted.step(table, args.seed):
        stop.wait(args.pace)
    if not stop.is_set():
        print(f"OVER {table.nonce}", flush=True)
        stop.wait()  # stays online, its final state retained, until stopped
    publisher.stop()
    table.close()
    return 0


def _seated_names(publisher, table_id: str, from_seating: bool, wait: float):
    """The names the board's seating puts at this table ([] when names are given and any seating
    will do); None if none came within `wait` seconds."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        seating = publisher.seating
        if seating is not None:
            names = seating.tables.get(table_id)
            if not from_seating:
                return []
            if names and 3 <= len(names) <= 5:
                return list(names)
        publisher.seating_known.wait(0.1)
        publisher.seating_known.clear()
    return None


def _one_line(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        return str(first.get("msg", exc)).removeprefix("Value error, ")
    return str(exc)
