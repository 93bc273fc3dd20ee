"""Damaged logs (issue 10, part 3): a real scripted game's log, damaged in more
than 20 ways. For each: reading it for the home screen and resuming it never
raise anything but LogDamaged; nothing is changed silently: the game either
opens exactly as it was (with a warning if anything was dropped, as for the
torn last line a crash leaves), or the damage is reported with its line and
the game opens up to its last intact record, identical to the original there,
with the damaged file kept aside byte for byte. The last test prints the figure."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.scripted import fingerprint, play, scripted_setup
from companion.storage.game_log import CHAIN_TAG, FORMAT, LogDamaged, chained_line, scan_log, tip_path
from companion.storage.games_folder import keep_aside, log_paths
from companion.table.authority import Table
from companion.table.game_check import check_game

ROOT = Path(__file__).parents[3]


# ---- the reference game -------------------------------------------------------------------


@dataclass
class Reference:
    path: Path
    data: bytes
    tip: bytes
    records: list[dict]
    table: Table
    other: list[bytes]  # the lines of another game's log

    def rebuilt(self, n: int, completed: list[dict] = ()) -> dict:
        table = Table(self.table.setup, None)
        table.nonce = self.table.nonce
        table.log.rebuild(self.records[:n] + list(completed))
        return fingerprint(table)

    def split(self, records: list[dict]) -> tuple[int, list[dict]]:
        """How many of `records` are the original's first ones, and what resuming added after
        them: only the record an input writes after itself when the log was cut between the two
        (the emptying after a general scoring's reveal, "finished")."""
        n = len(records)
        while n and records[:n] != self.records[:n]:
            n -= 1
        added = records[n:]
        assert all(r["t"] in ("emptied", "finished") for r in added), added
        return n, added


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Reference:
    return make_reference(tmp_path_factory.mktemp("reference"))


def make_reference(folder: Path) -> Reference:
    table = Table.new(scripted_setup("tracking", "short", 4), folder=folder, nonce="figure")
    play(table, 7)
    table.close()
    kinds = Counter(r["t"] for r in table.records)
    assert kinds["drop"] and kinds["undo"] and kinds["assign"], kinds  # a game night with all record kinds
    other = Table.new(scripted_setup("tracking", "short", 4), folder=folder, nonce="other")
    play(other, 8)
    other.close()
    return Reference(
        table.path,
        table.path.read_bytes(),
        tip_path(table.path).read_bytes(),
        list(table.records),
        table,
        other.path.read_bytes().split(b"\n"),
    )


class Files:
    """The damaged copy: its lines (without newlines) and its checkpoint."""

    def __init__(self, ref: Reference, folder: Path):
        self.path = folder / "game-damaged.jsonl"
        self.lines = ref.data.split(b"\n")[:-1]
        self.tip: bytes | None = ref.tip
        self.raw: bytes | None = None  # set to write these bytes instead of the lines
        self.make: Callable[[Path], None] | None = None  # or to make something else at the log's path
        self.other = ref.other

    def line_of(self, needle: bytes, start: int = 2) -> int:
        """Index of the first line from `start` holding needle."""
        return next(i for i in range(start, len(self.lines)) if needle in self.lines[i])

    def write(self) -> None:
        if self.make:
            self.make(self.path)
        else:
            self.path.write_bytes(self.raw if self.raw is not None else b"".join(ln + b"\n" for ln in self.lines))
        if self.tip is not None:
            tip_path(self.path).write_bytes(self.tip)


def _rechain(f: Files, change: Callable[[list[dict]], None]) -> None:
    """A forger with the app's own code: change the records, recompute the whole chain and checkpoint."""
    objs = [json.loads(ln) for ln in f.lines]
    for o in objs:
        o.pop("n"), o.pop("h")
    change(objs)
    h, out = CHAIN_TAG, []
    for n, o in enumerate(objs):
        line, h = chained_line(h, {**o, "n": n})
        out.append(line.rstrip(b"\n"))
    f.lines = out
    f.tip = f"{len(objs) - 1:>12} {h}\n".encode()


def _flip(line: bytes, at: int) -> bytes:
    return line[:at] + bytes([line[at] ^ 0x04]) + line[at + 1 :]


def _swap(f: Files, i: int) -> None:
    f.lines[i], f.lines[i + 1] = f.lines[i + 1], f.lines[i]


def _sub(f: Files, i: int, old: bytes, new: bytes) -> None:
    assert old in f.lines[i]
    f.lines[i] = f.lines[i].replace(old, new, 1)


MID = 120  # a line in the middle of the game (the header is line index 0)


def _misspell_region(objs):
    i = next(i for i, o in enumerate(objs) if o.get("t") == "event" and "aragon" in json.dumps(o["e"]) and i > 20)
    objs[i] = json.loads(json.dumps(objs[i]).replace('"aragon"', '"aragonn"', 1))


# name -> (how to damage, expected outcome, first damaged line or None)
# outcomes: detected (LogDamaged, the game opens up to there), unopenable (nothing can be opened),
# warned (opens with a warning, nothing silently changed), same (opens exactly as written)
DAMAGE: dict[str, tuple[Callable[[Files], None], str, int | None]] = {
    "cut mid-line": (
        lambda f: setattr(f, "raw", b"\n".join(f.lines)[: len(b"\n".join(f.lines[:MID])) + 40]),
        "detected",
        MID + 1,
    ),
    "cut mid-file at a line end": (lambda f: f.lines.__delitem__(slice(MID, None)), "detected", MID + 1),
    "cut to its header": (lambda f: f.lines.__delitem__(slice(1, None)), "detected", 2),
    "last line cut short (a torn write the checkpoint vouched for)": (
        lambda f: setattr(f, "raw", b"\n".join(f.lines)[:-5]),
        "warned",
        None,
    ),
    "torn write (a crash)": (
        lambda f: setattr(f, "raw", b"\n".join(f.lines) + b'\n{"t":"drop","key":["t"'),
        "warned",
        None,
    ),
    "garbled full last line (a crash)": (lambda f: f.lines.append(b'{"t":"drop","key":["t","b"'), "warned", None),
    "NUL block appended (power loss)": (
        lambda f: setattr(f, "raw", b"\n".join(f.lines) + b"\n" + b"\0" * 512),
        "warned",
        None,
    ),
    "NUL block in the middle": (lambda f: f.lines.__setitem__(MID, b"\0" * 512), "detected", MID + 1),
    "flipped byte in a record": (lambda f: f.lines.__setitem__(MID, _flip(f.lines[MID], 12)), "detected", MID + 1),
    "flipped byte in the header": (lambda f: f.lines.__setitem__(0, _flip(f.lines[0], 30)), "unopenable", 1),
    "drop colour changed": (
        lambda f: _sub(f, f.line_of(b'"colour":"'), b'"colour":"', b'"colour":"x'),
        "detected",
        None,
    ),
    "region id misspelt": (lambda f: _sub(f, f.line_of(b'"aragon"', 20), b'"aragon"', b'"aragonn"'), "detected", None),
    "power card value changed": (
        lambda f: _sub(f, f.line_of(b'"power_card_played"', 40), b'"card":', b'"card":1'),
        "detected",
        None,
    ),
    "record deleted": (lambda f: f.lines.__delitem__(MID), "detected", MID + 1),
    "record duplicated": (lambda f: f.lines.insert(MID, f.lines[MID]), "detected", MID + 2),
    "last record duplicated": (lambda f: f.lines.append(f.lines[-1]), "detected", None),
    "two records swapped": (lambda f: _swap(f, MID), "detected", MID + 1),
    "forged undo appended": (lambda f: f.lines.append(b'{"t":"undo"}'), "detected", None),
    "forged undo in the middle": (lambda f: f.lines.insert(MID, b'{"t":"undo"}'), "detected", MID + 1),
    "forged record with a made-up checksum": (
        lambda f: f.lines.insert(MID, b'{"t":"undo","n":%d,"h":"0123456789abcdef"}' % MID),
        "detected",
        MID + 1,
    ),
    "a line [1]": (lambda f: f.lines.insert(MID, b"[1]"), "detected", MID + 1),
    'a line "x"': (lambda f: f.lines.insert(MID, b'"x"'), "detected", MID + 1),
    "a line 5": (lambda f: f.lines.insert(MID, b"5"), "detected", MID + 1),
    "a line null": (lambda f: f.lines.insert(MID, b"null"), "detected", MID + 1),
    "an empty line": (lambda f: f.lines.insert(MID, b""), "detected", MID + 1),
    "header line 5": (lambda f: f.lines.__setitem__(0, b"5"), "unopenable", 1),
    "header line {}": (lambda f: f.lines.__setitem__(0, b"{}"), "unopenable", 1),
    "header from a newer app": (lambda f: _rechain(f, lambda o: o[0].update(format=FORMAT + 1)), "unopenable", 1),
    "header's format removed": (lambda f: _sub(f, 0, b'"format":2,', b""), "unopenable", 1),
    "checksums stripped (made to look old)": (
        lambda f: setattr(f, "lines", [re.sub(rb',"(n|h|format)":("[0-9a-f]+"|\d+)', b"", ln) for ln in f.lines]),
        "unopenable",
        1,
    ),
    "a line overwritten by a later one": (lambda f: f.lines.__setitem__(MID, f.lines[MID + 2]), "detected", MID + 1),
    "a record from another game": (lambda f: f.lines.__setitem__(MID, f.other[MID]), "detected", MID + 1),
    "a folder named like a log": (lambda f: setattr(f, "make", lambda p: p.mkdir()), "unopenable", None),
    "a link to nowhere": (
        lambda f: setattr(f, "make", lambda p: p.symlink_to(p.with_name("gone"))),
        "unopenable",
        None,
    ),
    "a 6 MB file": (
        lambda f: setattr(f, "make", lambda p: (p.write_bytes(b""), os.truncate(p, 6 << 20))),
        "unopenable",
        None,
    ),
    "deeply nested JSON": (lambda f: f.lines.insert(MID, b"[" * 100_000 + b"]" * 100_000), "detected", MID + 1),
    "a 1 MB line": (lambda f: f.lines.insert(MID, b'{"t":"' + b"a" * 1_000_000 + b'"}'), "detected", MID + 1),
    "a 10,000-digit number": (
        lambda f: f.lines.insert(MID, b'{"t":"drop","est":' + b"9" * 10_000 + b"}"),
        "detected",
        MID + 1,
    ),
    "a number too large for a float": (lambda f: _sub(f, MID, b'"n":', b'"x":1e400,"n":'), "detected", MID + 1),
    "NaN in a record": (lambda f: _sub(f, MID, b'"n":', b'"x":NaN,"n":'), "detected", MID + 1),
    "not UTF-8": (lambda f: f.lines.__setitem__(MID, b"\xff\xfe" + f.lines[MID]), "detected", MID + 1),
    "empty file": (lambda f: setattr(f, "raw", b""), "unopenable", None),
    "binary file": (lambda f: setattr(f, "raw", os.urandom(20_000)), "unopenable", None),
    "file cut inside its header": (lambda f: setattr(f, "raw", f.lines[0][:100]), "unopenable", 1),
    "forged chain, region misspelt": (lambda f: _rechain(f, _misspell_region), "detected", None),
    "forged chain, a setup no game allows": (
        lambda f: _rechain(f, lambda o: o[0]["header"]["setup"]["game"].update(players=["red"])),
        "unopenable",
        1,
    ),
    "checkpoint of another game": (lambda f: setattr(f, "tip", b"         230 0123456789abcdef\n"), "unopenable", None),
    "checkpoint garbled": (lambda f: setattr(f, "tip", b"\0" * 30), "warned", None),
    "checkpoint lost, log cut at a line end": (
        lambda f: (setattr(f, "tip", None), f.lines.__delitem__(slice(MID, None))),
        "warned",
        None,
    ),
    "Windows line ends": (lambda f: setattr(f, "lines", [ln + b"\r" for ln in f.lines]), "same", None),
}


def fill_with_damaged_logs(ref: Reference, games: Path) -> dict[str, Path]:
    """One log per kind of damage in `games` (the app's folder): kind -> path."""
    games.mkdir(parents=True, exist_ok=True)
    made = {}
    for i, name in enumerate(DAMAGE):
        f = Files(ref, games)
        f.path = games / f"damaged-{i:02d}-{re.sub(r'[^a-z0-9]+', '-', name.lower())[:40]}.jsonl"
        DAMAGE[name][0](f)
        f.write()
        made[name] = f.path
    return made


def _try(ref: Reference, name: str, folder: Path) -> dict:
    damage, _, first_line = DAMAGE[name]
    return _try_damage(ref, damage, folder, name, first_line)


def _try_damage(
    ref: Reference, damage: Callable[[Files], None], folder: Path, name: str, first_line: int | None = None
) -> dict:
    """Damage a copy, then do what the app does with it. Returns what happened; raises only
    an AssertionError (a silent change or a wrong report) or whatever escaped (a crash)."""
    f = Files(ref, folder)
    damage(f)
    f.write()
    damaged_bytes = f.path.read_bytes() if f.path.is_file() else None
    check = check_game(f.path)
    try:
        table = Table.resume(f.path)
    except LogDamaged as exc:
        assert check.damaged and str(exc), name
        d = check.damage
        assert re.search(r"line \d|the file|checkpoint|newer version", d.what), d.what
        if first_line is not None:
            assert d.line == first_line, (d.line, d.what)
        if not d.openable:
            assert not check.choices()[0][1] == "open_intact"
            with pytest.raises(LogDamaged):
                Table.resume_intact(f.path)
            aside = keep_aside(f.path)  # the one choice left: out of the list, nothing deleted
            assert os.path.lexists(aside) and not os.path.lexists(f.path) and f.path not in log_paths(folder)
            return {"outcome": "unopenable", "what": d.what}
        assert [a for _, a in check.choices()] == ["open_intact", "keep_aside"]
        assert (
            f"open the game up to record {d.kept} (" if d.kept else "start the game again from it ("
        ) in check.message()
        opened = Table.resume_intact(f.path)
        assert opened.records == ref.records[: d.kept], "the intact part differs from the original"
        assert fingerprint(opened) == ref.rebuilt(d.kept)
        aside = [p for p in folder.iterdir() if ".damaged-" in p.name and not p.name.endswith(".tip")]
        assert len(aside) == 1 and aside[0].read_bytes() == damaged_bytes, "the damaged file is not kept as it was"
        opened.close()
        again = Table.resume(f.path)  # opened up to there, the log is whole again
        assert again.records[: d.kept] == ref.records[: d.kept] and not check_game(f.path).damaged
        assert all(r["t"] in ("emptied", "finished") for r in again.records[d.kept :])  # completed on resume
        again.close()
        return {"outcome": "detected", "what": d.what, "kept": d.kept, "total": d.total}
    assert not check.damaged, check.message()
    held, completed = ref.split(table.records)  # (fails if any record differs from the original)
    assert fingerprint(table) == ref.rebuilt(held, completed)
    table.close()
    outcome = "warned" if table.warnings else "same"
    assert bool(check.warnings) == bool(table.warnings), "the home screen and the resumed table disagree"
    if held < len(ref.records):
        assert table.warnings, f"{name}: {held} of {len(ref.records)} records opened without a word"
    return {"outcome": outcome, "what": "; ".join(table.warnings), "kept": held}


@pytest.mark.parametrize("name", list(DAMAGE))
def test_damage_is_reported_never_replayed_and_never_a_crash(reference, tmp_path, name):
    result = _try(reference, name, tmp_path)
    assert result["outcome"] == DAMAGE[name][1], result


def _random_damage(rng: random.Random) -> Callable[[Files], None]:
    def damage(f: Files) -> None:
        data = bytearray(b"".join(ln + b"\n" for ln in f.lines))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data))
            kind = rng.choice(["flip", "delete", "insert", "cut", "line"])
            if kind == "flip":
                data[at] ^= 1 << rng.randrange(8)
            elif kind == "delete":
                del data[at : at + rng.randint(1, 300)]
            elif kind == "insert":
                data[at:at] = rng.choice([rng.randbytes(rng.randint(1, 40)), b"\n", b"\0" * 512, b'{"t":"undo"}\n'])
            elif kind == "cut":
                del data[at:]
            else:
                lines = bytes(data).split(b"\n")
                i = rng.randrange(len(lines))
                lines.insert(rng.randrange(len(lines)), lines[i])
                data = bytearray(b"\n".join(lines))
        f.raw = bytes(data)

    return damage


def test_random_damage_never_crashes_nor_changes_a_game_silently(reference, tmp_path):
    rng = random.Random(10)
    outcomes = Counter()
    for i in range(300):
        folder = tmp_path / f"r{i}"
        folder.mkdir()
        outcomes[_try_damage(reference, _random_damage(rng), folder, f"random damage {i}")["outcome"]] += 1
    assert outcomes["detected"] > 200, outcomes  # random damage is rarely where a crash tears a line


def test_a_change_names_the_line_and_how_much_is_kept(reference, tmp_path):
    f = Files(reference, tmp_path)
    _sub(f, 59, b'"n":', b'"x":1,"n":')
    f.write()
    check = check_game(f.path)
    assert check.message().startswith(
        f"line 60 was changed after it was written (its checksum does not match). "
        f"The first 58 of {len(reference.records)} records are intact; "
        "open the game up to record 58 (Round "
    )
    with pytest.raises(LogDamaged, match="line 60 was changed"):
        Table.resume(f.path)


def test_a_forged_chain_with_a_bad_move_is_a_message_with_the_replay_failure(reference, tmp_path):
    f = Files(reference, tmp_path)
    _rechain(f, _misspell_region)
    f.write()
    check = check_game(f.path)
    assert re.match(r"line \d+ \(record \d+\) cannot be replayed: ", check.damage.what), check.damage.what
    assert "aragonn" in check.damage.what


def test_damaged_logs_figure(reference, tmp_path, capsys):
    """The figure: every kind of damage, 0 crashes, 0 silent changes."""
    outcomes, crashes, silent = Counter(), [], []
    for i, name in enumerate(DAMAGE):
        folder = tmp_path / f"k{i}"
        folder.mkdir()
        try:
            outcomes[_try(reference, name, folder)["outcome"]] += 1
        except AssertionError as exc:
            silent.append(f"{name}: {exc}")
        except Exception as exc:  # what would have stopped the app
            crashes.append(f"{name}: {type(exc).__name__}: {exc}")
    with capsys.disabled():
        print(
            f"\nDamaged logs: {len(DAMAGE)} kinds of damage on a {len(reference.records)}-record game: "
            f"{len(crashes)} crashes, {len(silent)} silent changes; {outcomes['detected']} detected and "
            f"opened up to the damage, {outcomes['unopenable']} reported as unopenable, "
            f"{outcomes['warned']} opened with a warning, {outcomes['same']} opened unchanged"
        )
    assert len(DAMAGE) >= 20
    assert not crashes and not silent, crashes + silent


# ---- logs of the previous format (no checksums) ----------------------------------------------------


def _old_format(ref: Reference, folder: Path) -> Path:
    """The reference game as the previous version wrote it."""
    path = folder / "game-old.jsonl"
    lines = []
    for ln in ref.data.split(b"\n")[:-1]:
        obj = json.loads(ln)
        for k in ("n", "h", "format"):
            obj.pop(k, None)
        lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
    path.write_bytes(b"".join(lines))
    return path


def test_an_old_log_opens_and_is_upgraded_when_played_on(reference, tmp_path):
    path = _old_format(reference, tmp_path)
    assert scan_log(path).format == 1 and not check_game(path).damaged
    table = Table.resume(path)
    assert table.records == reference.records and fingerprint(table) == reference.rebuilt(len(reference.records))
    table.close()
    upgraded = scan_log(path)  # rewritten in the chained format, same records
    assert upgraded.format == FORMAT and upgraded.records == reference.records and not upgraded.warnings
    assert path.read_bytes() == reference.data and tip_path(path).read_bytes() == reference.tip


def test_a_log_saved_before_rules_revisions_replays_under_revision_1(reference, tmp_path):
    path = _old_format(reference, tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[0] = re.sub(rb',"revision":\d+', b"", lines[0])
    path.write_bytes(b"\n".join(lines))
    assert b"revision" not in lines[0]
    check = check_game(path)  # replayed under its own rules: damaged or not, never a crash
    table = Table.resume_intact(path)
    kept = check.damage.kept if check.damage else len(reference.records)
    assert table.setup.game.revision == 1 and len(table.records) == kept


def test_an_old_log_with_a_torn_line_is_upgraded_without_it(reference, tmp_path):
    path = _old_format(reference, tmp_path)
    lines = path.read_bytes().split(b"\n")[:-1]
    path.write_bytes(b"\n".join(lines[:101]) + b"\n" + b'{"t":"ev')
    table = Table.resume(path)
    assert any("cut short" in w for w in table.warnings) and table.records == reference.records[:100]
    table.close()
    assert scan_log(path).format == FORMAT and [p for p in tmp_path.iterdir() if ".damaged-" in p.name]


@pytest.mark.parametrize(
    "damage",
    [
        "region misspelt",
        "record deleted",
        "record duplicated",
        "[1]",
        '"x"',
        "5",
        "header 5",
        "unknown record kind",
        "drop given to nobody",
        "forged undo",
    ],
)
def test_old_logs_with_damage_never_crash(reference, tmp_path, damage):
    """No checksums: what replaying can find is a message; the rest opens as written."""
    path = _old_format(reference, tmp_path)
    lines = path.read_bytes().split(b"\n")[:-1]
    if damage == "region misspelt":
        i = next(i for i, ln in enumerate(lines) if b'"aragon"' in ln and i > 20)
        lines[i] = lines[i].replace(b'"aragon"', b'"aragonn"', 1)
    elif damage == "record deleted":
        del lines[MID]
    elif damage == "record duplicated":
        lines.insert(MID, lines[MID])
    elif damage == "header 5":
        lines[0] = b"5"
    elif damage == "unknown record kind":
        lines.insert(MID, b'{"t":"teleport"}')
    elif damage == "drop given to nobody":
        lines.insert(MID, b'{"t":"assign","drop":["t","b",1],"player":"purple","count":99}')
    elif damage == "forged undo":
        lines.insert(MID, b'{"t":"undo"}')
    else:
        lines.insert(MID, damage.encode())
    path.write_bytes(b"\n".join(lines) + b"\n")
    check = check_game(path)
    try:
        table = Table.resume(path)
    except LogDamaged as exc:
        assert check.damaged and re.search(r"line \d+", str(exc)), str(exc)
        if check.damage.openable:  # what the file holds up to there (an old log cannot vouch for more)
            table = Table.resume_intact(path)
            assert len(table.records) == check.damage.kept and not check_game(path).damaged
            table.close()
        return
    assert not check.damaged
    table.close()
    # Opened: only what an old log cannot reveal (a deleted or duplicated or forged line that still replays).
    assert damage in ("record deleted", "record duplicated", "forged undo"), damage


def test_resume_on_the_command_line_names_the_damage(reference, tmp_path):
    (tmp_path / "games").mkdir()
    f = Files(reference, tmp_path / "games")
    f.lines.insert(MID, b"[1]")
    f.lines.pop()  # unfinished: `--resume last` would pick it, were it not damaged
    f.tip = None
    f.write()
    env = {**os.environ, "ELGRANDE_DATA_DIR": str(tmp_path)}
    for resume, words in (
        (str(f.path), f"line {MID + 1} is not a record (it holds a list). The first {MID - 1} of "),
        ("last", "there is no unfinished game to resume"),
    ):
        run = subprocess.run(
            [sys.executable, "-m", "companion.cli", "app", "--resume", resume],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
        assert words in run.stderr, run.stderr
