"""A large event's halls: which tables each hall's broker carries (the hall plan), and the broker
files that make only those reach the board (`elgrande club-setup`).

Each hall's broker is bridged to the club broker by one user of its own, named after the hall.
Its bridge carries the hall's tables under the hall's name (topics.hall_topic); the club broker's
ACL lets that user write only its own tables' state and online topics there, so a hall's bridge
cannot post another hall's table (the club broker drops it) nor a table's own topic. The board is
given the same plan (`elgrande club --halls halls.json`) and takes a hall's message only for a
table of that hall: should the broker's ACL and the plan ever differ (an ACL written by hand, a
plan changed after the brokers were set up), such a result is refused with its reason on the
organiser page instead of counted.

`write_setup` makes every file from the shipped ones (hardware/mosquitto/club/: acl, bridge.conf)
and fresh random passwords, hashed as mosquitto_passwd does (PBKDF2-SHA512, mosquitto 2's `$7$`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import shutil
import tempfile
from pathlib import Path

from companion.club.errors import Reason
from companion.club.topics import check_name, hall_prefix, online_topic, seating_topic, state_topic
from companion.words import N_, _

SHIPPED = Path(__file__).resolve().parents[2] / "hardware" / "mosquitto" / "club"
BOARD_USER = "club-board"
CLUB_BROKER_DIR = "club-broker"
PLAN_FILE = "halls.json"
PASSWORDS_FILE = "passwords.txt"
MAX_HALLS = 64
MAX_PLAN = 256 * 1024
HASH_ITERATIONS = 101  # mosquitto_passwd's (mosquitto 2.0)


class _NotAPlan(ValueError):
    """A file too large to be a plan (said as it is, not as "not JSON")."""


class HallPlan:
    """hall -> its tables, for one club. Checked when made: names are topic-safe, a table plays in
    one hall only, and no hall shares a name with a table or the board (each is a broker user)."""

    def __init__(self, club: str, halls: dict[str, list[str]]):
        self.club = check_name(club, "club name")
        if not halls:
            raise ValueError(_("a hall plan names at least one hall and its tables"))
        if len(halls) > MAX_HALLS:
            raise ValueError(_("{n} halls: a plan takes at most {most}").format(n=len(halls), most=MAX_HALLS))
        self.halls: dict[str, list[str]] = {}
        self._hall_of: dict[str, str] = {}
        for hall, tables in halls.items():
            check_name(hall, "hall name")
            if not isinstance(tables, list) or not tables:
                raise ValueError(_("hall {hall}: give its tables (at least one)").format(hall=hall))
            for table in tables:
                check_name(table if isinstance(table, str) else None, "hall's table", hall=hall)
                if table in self._hall_of:
                    words = _("{table} is in two halls ({first} and {second}): a table plays in one hall")
                    raise ValueError(words.format(table=table, first=self._hall_of[table], second=hall))
                self._hall_of[table] = hall
            self.halls[hall] = list(tables)
        for hall in self.halls:
            if hall in self._hall_of or hall == BOARD_USER or hall == CLUB_BROKER_DIR:
                words = _(
                    "hall name {hall}: a hall's bridge logs in as its hall's name, so it must "
                    "differ from every table and from {board} and {broker}"
                )
                raise ValueError(words.format(hall=hall, board=BOARD_USER, broker=CLUB_BROKER_DIR))

    def hall_of(self, table: str) -> str | None:
        return self._hall_of.get(table)

    def to_json(self) -> str:
        return json.dumps({"club": self.club, "halls": self.halls}, indent=1) + "\n"

    @classmethod
    def load(cls, path: Path) -> HallPlan:
        """A plan file (`elgrande club-setup`'s halls.json); ValueError in one line if it is not one."""
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_PLAN + 1)
            if len(raw) > MAX_PLAN:
                words = _("hall plan {path}: larger than {kb} KB, not a plan")
                raise _NotAPlan(words.format(path=path, kb=MAX_PLAN // 1024))
            data = json.loads(raw or b"null")
        except OSError as exc:
            raise ValueError(_("hall plan {path}: {reason}").format(path=path, reason=exc.strerror or exc)) from None
        except _NotAPlan:
            raise
        except ValueError:
            words = _("hall plan {path}: not JSON (elgrande club-setup writes it)")
            raise ValueError(words.format(path=path)) from None
        if not isinstance(data, dict) or not isinstance(data.get("halls"), dict):
            words = _('hall plan {path}: give {{"club": ..., "halls": {{"hall-a": ["table-1", ...]}}}}')
            raise ValueError(words.format(path=path))
        try:
            return cls(data.get("club") if isinstance(data.get("club"), str) else "", data["halls"])
        except ValueError as exc:
            raise ValueError(_("hall plan {path}: {reason}").format(path=path, reason=exc)) from None


# Why a message that came through a hall's bridge is not taken (Reason: said in the page's language).
MISROUTES = {
    "no plan": N_(
        "it came through hall {hall}'s bridge, but the board was given no hall plan "
        "(start it with --halls, the plan elgrande club-setup wrote)"
    ),
    "no such hall": N_(
        "it came through {hall}, which is not a hall of the plan: only {table} or its hall's bridge may post it"
    ),
    "in no hall": N_("it came through {hall}'s bridge, but the hall plan puts {table} in no hall"),
    "other hall": N_(
        "it came through {hall}'s bridge, but {table} plays in {where}: only {table} or its hall's "
        "bridge may post its result"
    ),
}


def misrouted(plan: HallPlan | None, hall: str, table: str) -> Reason:
    """Why a message for `table` that came through `hall`'s bridge is not taken (empty if it is)."""
    if plan is None:
        return Reason(MISROUTES["no plan"], hall=hall)
    if plan.hall_of(table) == hall:
        return Reason()
    where = plan.hall_of(table)
    if hall not in plan.halls:
        return Reason(MISROUTES["no such hall"], hall=hall, table=table)
    if where is None:
        return Reason(MISROUTES["in no hall"], hall=hall, table=table)
    return Reason(MISROUTES["other hall"], hall=hall, table=table, where=where)


# ---- the broker files ----------------------------------------------------------------------


def mosquitto_hash(password: str, salt: bytes | None = None) -> str:
    """A password as mosquitto_passwd stores it (mosquitto 2: PBKDF2-SHA512, 101 rounds)."""
    salt = os.urandom(12) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, HASH_ITERATIONS)
    return f"$7${HASH_ITERATIONS}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def passwd_text(users: dict[str, str]) -> str:
    return "".join(f"{user}:{mosquitto_hash(password)}\n" for user, password in users.items())


def shipped(name: str) -> str:
    try:
        return (SHIPPED / name).read_text()
    except OSError:
        words = _(
            "the shipped broker file hardware/mosquitto/club/{name} is not beside this program: "
            "run it from the project's folder"
        )
        raise ValueError(words.format(name=name)) from None


def hall_acl(plan: HallPlan, hall: str) -> str:
    """The club broker's ACL lines for one hall's bridge user: its tables' topics under its hall, and the seating."""
    lines = [f"user {hall}"]
    for table in plan.halls[hall]:
        for topic in (state_topic(plan.club, table), online_topic(plan.club, table)):
            lines.append(f"topic write {hall_prefix(hall)}{topic.removeprefix('elgrande/')}")
    lines.append(f"topic read {seating_topic(plan.club)}")
    return "\n".join(lines) + "\n"


def club_acl(plan: HallPlan, base: str | None = None) -> str:
    """The shipped club ACL and one block per hall."""
    base = shipped("acl") if base is None else base
    blocks = "\n".join(hall_acl(plan, hall) for hall in plan.halls)
    head = (
        "# The halls' bridges (written by elgrande club-setup): each hall's user writes only its own\n"
        "# tables' topics, under its hall's name.\n\n"
    )
    return base.rstrip("\n") + "\n\n" + head + blocks


def bridge_conf(plan: HallPlan, hall: str, club_address: str, password: str, template: str | None = None) -> str:
    """The shipped bridge.conf filled in for one hall."""
    text = shipped("bridge.conf") if template is None else template
    for placeholder, value in (
        ("MAIN_BROKER_HOST:8883", club_address),
        ("HALL_BRIDGE_PASSWORD", password),
        ("CLUB_NAME", plan.club),
        ("HALL_NAME", hall),
    ):
        if placeholder not in text:
            words = _("the shipped bridge.conf has no {placeholder} to fill in: it was changed")
            raise ValueError(words.format(placeholder=placeholder))
        text = text.replace(placeholder, value)
    return text


def check_address(address: str) -> str:
    host, sep, port = address.rpartition(":")
    if not sep:
        host, port = address, "8883"
    if not host or any(c in host for c in " /@") or not port.isdigit() or not 0 < int(port) < 65536:
        words = _(
            "--club-broker {address}: give the club broker's HOST[:PORT] as the halls reach it "
            "(e.g. club-laptop.local:8883)"
        )
        raise ValueError(words.format(address=repr(address)))
    return f"{host}:{port}"


def write_setup(out: Path, plan: HallPlan, club_address: str, direct: tuple[str, ...] = ()) -> dict[str, str]:
    """Every file of an event with halls, in `out` (a new or empty folder); returns the passwords made."""
    club_address = check_address(club_address)
    for table in direct:
        check_name(table, "table id")
        if plan.hall_of(table) or table in plan.halls or table == BOARD_USER:
            words = _("{table} is given twice (a table of the club broker and a hall or table of a hall)")
            raise ValueError(words.format(table=table))
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        words = _(
            "{out} already holds files: give a new folder (a new setup makes new passwords, "
            "which the installed brokers and tablets do not have)"
        )
        raise ValueError(words.format(out=out))
    base_acl, template = shipped("acl"), shipped("bridge.conf")
    passwords = {
        user: secrets.token_urlsafe(18)
        for user in (BOARD_USER, *plan.halls, *direct, *(t for ts in plan.halls.values() for t in ts))
    }
    files = {
        PLAN_FILE: plan.to_json(),
        f"{CLUB_BROKER_DIR}/acl": club_acl(plan, base_acl),
        f"{CLUB_BROKER_DIR}/passwd": passwd_text({u: passwords[u] for u in (BOARD_USER, *plan.halls, *direct)}),
        PASSWORDS_FILE: "# user password (give each tablet its own; keep this file off the Wi-Fi)\n"
        + "".join(f"{u} {p}\n" for u, p in passwords.items()),
    }
    for hall, tables in plan.halls.items():
        files[f"{hall}/acl"] = base_acl
        files[f"{hall}/passwd"] = passwd_text({t: passwords[t] for t in tables})
        files[f"{hall}/bridge.conf"] = bridge_conf(plan, hall, club_address, passwords[hall], template)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:  # all or nothing: made aside, then renamed into place
        for name, text in files.items():
            path = staging / name
            path.parent.mkdir(exist_ok=True)
            secret = name.endswith(("passwd", "bridge.conf", PASSWORDS_FILE))
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if secret else 0o644)
            with os.fdopen(fd, "w") as f:
                f.write(text)
        staging.chmod(0o755)
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return passwords
