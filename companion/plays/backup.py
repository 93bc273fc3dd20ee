"""Everything a tablet keeps, in one file, and that file merged into another tablet's data folder.

The backup is a zip file (stored with Python's zipfile, deflated). Why a zip and not JSON lines:
the game logs go in byte for byte, so each keeps its own checksum chain and its checkpoint and
is checked again as it is restored; a zip compresses the logs' repeated keys about tenfold; each
member carries a CRC and the archive's directory is at its end, so a file cut short is no
archive at all (never read as a shorter backup); and the share sheet and the system's file
picker on Android know application/zip. It holds:

    manifest.json        what the backup holds: its app and format version, when it was made,
                         every game (its file, stable id, SHA-256, last write), the known
                         players, every other file's SHA-256, and its own checksum
    games/<log>.jsonl    every game log, and its checkpoint (<log>.jsonl.tip) when it has one
    rules/<file>.json    Your cards and Your board, for every rule system (the rules folder)
    settings.json        the tablet's settings (theme, language)
    plays.json           the owner, the location, the owner's BoardGameGeek name

Written whole or not at all (files.replace_durably). A restore reads it all and checks it all
first (its manifest's checksum, every member's SHA-256 against the manifest, every log's
header against its id) and refuses, in one line and changing nothing, a damaged, truncated,
foreign or newer-version file and a game whose id is here with other content. Then it stages
every file it will write in a folder of its own inside the data folder and moves them in; a
move that fails puts back what was moved (nothing half-restored). A game already here (the
same id and the same bytes, or this tablet's log the same game further on) is not added again.
Your cards and Your board merge fact by fact (companion.plays.facts): a fact that differs is
settled by the person (this tablet's or the backup's), never overwritten without a question.
This tablet's settings stay; the owner, location and BGG name fill in only where none is set.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from companion.plays.bgstats import stable_id
from companion.plays.facts import Conflict, Merge, merge
from companion.storage.files import SaveFailed, data_dir, fsync_dir, replace_durably, unlink_quietly
from companion.storage.game_log import MAX_LOG_BYTES, TIP_SUFFIX, canonical
from companion.words import _, ngettext

APP = "elgrande-companion-backup"
FORMAT = 1
MANIFEST = "manifest.json"
RULES = "rules"
GAMES = "games"
KEPT_FILES = ("settings.json", "plays.json")  # the tablet's own: this tablet's stay
MAX_MEMBER_BYTES = MAX_LOG_BYTES  # a log is at most 4 MB; a rules file far less
MAX_MEMBERS = 20_000


class BackupRefused(ValueError):
    """A backup that cannot be written or restored, in one line; nothing was changed."""


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _checksum(manifest: dict) -> str:
    return _sha(canonical({k: v for k, v in manifest.items() if k != "checksum"}).encode("ascii"))


# ---- what the data folder holds -------------------------------------------------------------


def _regular(path: Path) -> bool:
    try:
        return path.is_file() and not path.is_symlink()
    except OSError:
        return False


def _game_files(folder: Path) -> list[Path]:
    """Every game log in the games folder (regular files only: a FIFO is never opened)."""
    try:
        return sorted(p for p in folder.glob("*.jsonl") if _regular(p))
    except OSError:
        return []


def _rules_files(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.glob("*.json") if _regular(p))
    except OSError:
        return []


def _read(path: Path) -> bytes:
    with open(path, "rb") as f:
        return f.read(MAX_MEMBER_BYTES + 1)


def _game_id(data: bytes, name: str) -> str:
    """A log's stable id from its bytes (its header's); a log whose header cannot be read: its
    bytes' hash, so even a damaged game moves with the tablet."""
    first = data.split(b"\n", 1)[0]
    try:
        header = json.loads(first).get("header")
    except (ValueError, AttributeError):
        header = None
    return stable_id(header) if isinstance(header, dict) else "bytes-" + _sha(data)[:16]


def _known_players(folder: Path) -> list[dict]:
    from companion.history.records import cached_records, known_players

    return [{"name": k.name, "colour": k.colour, "games": k.games} for k in known_players(cached_records(folder))]


# ---- backup ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BackupDone:
    path: Path
    games: int
    players: int
    files: int  # rules and settings files
    size: int  # bytes

    def words(self) -> str:
        games = ngettext("{n} game", "{n} games", self.games).format(n=self.games)
        players = ngettext("{n} known player", "{n} known players", self.players).format(n=self.players)
        return _("Backed up {games}, {players}, Your cards, Your board and the settings to {file}").format(
            games=games, players=players, file=self.path.name
        )


def backup(target: Path, root: Path | None = None) -> BackupDone:
    """Every game, the known players, Your cards and Your board and the settings of the data folder
    `root` (default: the app's) in one file at `target`, written whole or not at all."""
    root = root or data_dir()
    members: dict[str, bytes] = {}
    games = []
    for path in _game_files(root / GAMES):
        try:
            data = _read(path)
            tip = path.with_name(path.name + TIP_SUFFIX)
            tip_data = _read(tip) if _regular(tip) else None
            mtime = path.stat().st_mtime
        except OSError as exc:
            raise BackupRefused(
                _("{file} cannot be read ({why}): nothing was written").format(file=path.name, why=exc.strerror or exc)
            ) from None
        members[f"{GAMES}/{path.name}"] = data
        if tip_data is not None:
            members[f"{GAMES}/{path.name}{TIP_SUFFIX}"] = tip_data
        games.append({"file": path.name, "id": _game_id(data, path.name), "sha256": _sha(data), "mtime": mtime})
    others = [(f"{RULES}/{p.name}", p) for p in _rules_files(root / RULES)]
    others += [(name, root / name) for name in KEPT_FILES if _regular(root / name)]
    for name, path in others:
        try:
            members[name] = _read(path)
        except OSError as exc:
            raise BackupRefused(
                _("{file} cannot be read ({why}): nothing was written").format(file=path.name, why=exc.strerror or exc)
            ) from None
    players = _known_players(root / GAMES)
    manifest = {
        "app": APP,
        "format": FORMAT,
        "written": round(time.time()),
        "games": games,
        "players": players,
        "files": {name: _sha(data) for name, data in members.items()},
    }
    manifest["checksum"] = _checksum(manifest)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False))
        for name, data in members.items():
            archive.writestr(name, data)
    data = out.getvalue()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        replace_durably(target, data)
    except SaveFailed as exc:
        raise BackupRefused(exc.words(_("the backup"))) from None
    except OSError as exc:
        raise BackupRefused(
            _("{folder}: cannot make the folder ({why})").format(folder=target.parent, why=exc.strerror or exc)
        ) from None
    return BackupDone(target, len(games), len(players), len(others), len(data))


# ---- reading a backup ------------------------------------------------------------------------


def _refused(file: Path, why: str) -> BackupRefused:
    return BackupRefused(_("{file} is not restored: {why}; nothing was changed").format(file=file.name, why=why))


def read_backup(path: Path) -> tuple[dict, dict[str, bytes]]:
    """The manifest and every member, all checked; BackupRefused (one line) for anything wrong."""
    try:
        archive = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise _refused(path, _("there is no such file")) from None
    except IsADirectoryError:
        raise _refused(path, _("it is a folder, not a backup")) from None
    except OSError as exc:
        raise _refused(path, _("it cannot be read ({why})").format(why=exc.strerror or exc)) from None
    except Exception:  # BadZipFile, and whatever else a damaged directory makes zipfile raise
        raise _refused(path, _("it is not a backup of this app, or it was cut short or damaged")) from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_MEMBERS or any(i.file_size > MAX_MEMBER_BYTES for i in infos):
            raise _refused(path, _("it holds more than a backup of this app holds"))
        try:
            members = {i.filename: archive.read(i) for i in infos}
        except Exception:  # a CRC that does not match, a broken deflate stream (zlib.error), a cut member
            raise _refused(path, _("it is damaged (a part of it does not match its check)")) from None
    try:
        manifest = json.loads(members.pop(MANIFEST))
    except (KeyError, ValueError):
        raise _refused(path, _("it is not a backup of this app (it holds no manifest)")) from None
    if not isinstance(manifest, dict) or manifest.get("app") != APP:
        raise _refused(path, _("it is not a backup of this app"))
    version = manifest.get("format")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT:
        raise _refused(
            path,
            _("it was made by a newer version of the app (backup format {found}; this version reads {known})").format(
                found=version, known=FORMAT
            ),
        )
    if version != FORMAT:
        raise _refused(path, _("its format is unknown"))
    if manifest.get("checksum") != _checksum(manifest):
        raise _refused(path, _("its manifest was changed after it was written (its checksum does not match)"))
    listed = manifest.get("files")
    if not isinstance(listed, dict) or set(listed) != set(members):
        raise _refused(path, _("its parts are not the ones its manifest lists"))
    for name, data in members.items():
        if listed[name] != _sha(data):
            raise _refused(path, _("{part} was changed after the backup was written").format(part=name))
        if not _safe_name(name):
            raise _refused(path, _("it names a file outside the data folder ({part})").format(part=name))
    for game in manifest.get("games", []):
        data = members.get(f"{GAMES}/{game.get('file')}")
        if data is None or _sha(data) != game.get("sha256") or _game_id(data, game["file"]) != game.get("id"):
            raise _refused(path, _("its list of games does not match the games it holds"))
    return manifest, members


def _safe_name(name: str) -> bool:
    parts = name.split("/")
    if len(parts) == 1:
        return name in KEPT_FILES
    return (
        len(parts) == 2
        and parts[0] in (GAMES, RULES)
        and parts[1] not in ("", ".", "..")
        and not parts[1].startswith(".")
        and "\\" not in parts[1]
        and "\x00" not in parts[1]
    )


# ---- the restore's plan ----------------------------------------------------------------------


@dataclass
class RestorePlan:
    source: Path
    root: Path
    games: list[tuple[str, bytes, bytes | None, float]] = field(default_factory=list)  # name, log, tip, mtime
    present: int = 0  # games already here
    merges: list[Merge] = field(default_factory=list)  # rules files here and in the backup
    new_files: dict[str, bytes] = field(default_factory=dict)  # rules, settings files not here yet
    plays: dict[str, str] = field(default_factory=dict)  # plays.json's values to fill in
    players: int = 0

    @property
    def conflicts(self) -> list[Conflict]:
        return [c for m in self.merges for c in m.conflicts]

    def question(self) -> str:
        """The question a conflict asks (one line)."""
        n = len(self.conflicts)
        return ngettext(
            "{n} card or board fact here differs from the backup's: keep this tablet's, or take the backup's?",
            "{n} card or board facts here differ from the backup's: keep this tablet's, or take the backup's?",
            n,
        ).format(n=n)


def _local_games(folder: Path) -> dict[str, tuple[Path, bytes]]:
    found = {}
    for path in _game_files(folder):
        try:
            data = _read(path)
        except OSError:
            continue
        found[_game_id(data, path.name)] = (path, data)
    return found


def plan_restore(source: Path, root: Path | None = None) -> RestorePlan:
    """What restoring `source` into the data folder `root` would do, checked; nothing written."""
    root = root or data_dir()
    manifest, members = read_backup(source)
    plan = RestorePlan(source, root, players=len(manifest.get("players", [])))
    here = _local_games(root / GAMES)
    taken = {p.name for p in _game_files(root / GAMES)}
    for game in manifest["games"]:
        name, gid = game["file"], game["id"]
        data = members[f"{GAMES}/{name}"]
        if gid in here:
            local_path, local = here[gid]
            if local == data or local.startswith(data):  # the same game, or this tablet's further on
                plan.present += 1
                continue
            raise _refused(
                source,
                _("its game {game} has the same id as {here} on this tablet, with other content").format(
                    game=name, here=local_path.name
                ),
            )
        target = _free_name(name, taken)
        taken.add(target)
        mtime = game.get("mtime") if isinstance(game.get("mtime"), (int, float)) else time.time()
        plan.games.append((target, data, members.get(f"{GAMES}/{name}{TIP_SUFFIX}"), float(mtime)))
        here[gid] = (root / GAMES / target, data)  # the same game twice in one backup: added once
    for name, data in members.items():
        if name.startswith(f"{RULES}/"):
            _plan_rules(plan, source, name, data)
        elif name in KEPT_FILES:
            _plan_kept(plan, source, name, data)
    return plan


def _free_name(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    stem, n = name.removesuffix(".jsonl"), 2
    while f"{stem}-{n}.jsonl" in taken:
        n += 1
    return f"{stem}-{n}.jsonl"


def _json(source: Path, name: str, data: bytes):
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _refused(source, _("{part} is not JSON").format(part=name)) from None


def _plan_rules(plan: RestorePlan, source: Path, name: str, data: bytes) -> None:
    theirs = _json(source, name, data)
    path = plan.root / name
    if not _regular(path):
        plan.new_files[name] = data
        return
    try:
        mine = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        mine = None  # this tablet's file is damaged: the question settles it whole
    if mine == theirs:
        return
    if not (isinstance(mine, dict) and mine and isinstance(theirs, dict) and theirs):
        plan.merges.append(Merge(path.name, {(): mine}, 0, [Conflict(path.name, (), mine, theirs, True)], {(): theirs}))
        return
    plan.merges.append(merge(path.name, mine, theirs))


def _plan_kept(plan: RestorePlan, source: Path, name: str, data: bytes) -> None:
    path = plan.root / name
    if not _regular(path):  # a tablet with none takes the backup's as it is
        plan.new_files[name] = data
        return
    if name == "plays.json":
        from companion.plays.owner import KEYS

        theirs = _json(source, name, data)
        try:
            mine = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            mine = {}
        mine = mine if isinstance(mine, dict) else {}
        if isinstance(theirs, dict):
            plan.plays = {
                k: theirs[k] for k in KEYS if isinstance(theirs.get(k), str) and theirs[k] and not mine.get(k)
            }
            if plan.plays:
                plan.new_files[name] = json.dumps({**mine, **plan.plays}, indent=1, ensure_ascii=False).encode("utf-8")
    # settings.json: this tablet's stay (its theme, its language)


# ---- the restore -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RestoreDone:
    added: int  # games
    present: int  # games already here
    facts_added: int  # card or board facts only the backup had
    facts_taken: int  # conflicts settled for the backup
    facts_kept: int  # conflicts settled for this tablet
    files: int  # rules and settings files new to this tablet

    def words(self) -> str:
        added = ngettext("{n} game added", "{n} games added", self.added).format(n=self.added)
        present = ngettext(
            "{n} game was already on this tablet", "{n} games were already on this tablet", self.present
        ).format(n=self.present)
        facts = ngettext(
            "{n} card or board fact added", "{n} card or board facts added", self.facts_added + self.facts_taken
        ).format(n=self.facts_added + self.facts_taken)
        return _("Restored: {added}; {present}; {facts}").format(added=added, present=present, facts=facts)


def _check_rules(source: Path, name: str, value) -> None:
    """A merged rules file is one the table can open (its own drafts check it), else refused."""
    import re

    from companion.table_rules import board_file, card_file, ki_cards
    from companion.table_rules.storage import RuleFileError

    side = re.fullmatch(r"board-2023-(.+)\.json", name)
    try:
        if name == card_file.CARDS_FILE:
            card_file.CardSetDraft(value)
        elif name == ki_cards.KI_CARDS_FILE:
            ki_cards.KICardsDraft(value)
        elif side:
            board_file.BoardDraft(side.group(1), value)
    except (RuleFileError, TypeError, AttributeError, KeyError, ValueError) as exc:
        raise _refused(
            source, _("Your cards or Your board merged would not open ({part}: {why})").format(part=name, why=exc)
        ) from None


def _writes(plan: RestorePlan, take_backup: bool) -> tuple[list[tuple[Path, bytes]], int, int]:
    """Every file the restore writes (games first), and the facts taken and kept."""
    root, writes, taken, kept = plan.root, [], 0, 0
    for name, data, tip, _mtime in plan.games:
        writes.append((root / GAMES / name, data))
        if tip is not None:
            writes.append((root / GAMES / f"{name}{TIP_SUFFIX}", tip))
    for m in plan.merges:
        value = m.value(take_backup)
        _check_rules(plan.source, m.file, value)
        taken += len(m.conflicts) if take_backup else 0
        kept += 0 if take_backup else len(m.conflicts)
        if m.added or (take_backup and m.conflicts):
            writes.append((root / RULES / m.file, (json.dumps(value, ensure_ascii=False, indent=1) + "\n").encode()))
    for name, data in plan.new_files.items():
        if name.startswith(f"{RULES}/"):
            _check_rules(plan.source, name.split("/", 1)[1], _json(plan.source, name, data))
        writes.append((root / name, data))
    return writes, taken, kept


def restore(plan: RestorePlan, take_backup: bool | None = None) -> RestoreDone:
    """Carry out a plan: every file staged, then moved in; all of it or none (BackupRefused). A
    plan with conflicts needs the person's answer: take_backup True (the backup's facts) or False
    (this tablet's); None refuses with the question."""
    if plan.conflicts and take_backup is None:
        raise BackupRefused(plan.question())
    writes, taken, kept = _writes(plan, bool(take_backup))
    for target in (plan.root / GAMES / game[0] for game in plan.games):
        if target.exists():  # made meanwhile
            raise _refused(plan.source, _("{file} appeared on this tablet meanwhile").format(file=target.name))
    mtimes = {plan.root / GAMES / name: mtime for name, _d, _t, mtime in plan.games}
    stage = plan.root / f".restore-{os.urandom(4).hex()}"
    try:
        stage.mkdir(parents=True)
        staged = []
        for i, (target, data) in enumerate(writes):
            part = stage / str(i)
            with open(part, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if target in mtimes:  # a game keeps its last write: its length and its place in the lists
                os.utime(part, (mtimes[target], mtimes[target]))
            staged.append((part, target))
        fsync_dir(stage)
        _move_in(staged)
    except OSError as exc:
        from companion.storage.files import storage_trouble

        raise BackupRefused(storage_trouble(exc, _("the restore"))) from None
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    facts_added = sum(m.added for m in plan.merges)
    files = sum(1 for name in plan.new_files if name.startswith(f"{RULES}/"))
    return RestoreDone(len(plan.games), plan.present, facts_added, taken, kept, files)


def _move_in(staged: list[tuple[Path, Path]]) -> None:
    """Each staged file renamed into place; a failure puts back what was moved, then raises."""
    moved: list[tuple[Path, bytes | None]] = []
    try:
        for part, target in staged:
            target.parent.mkdir(parents=True, exist_ok=True)
            before = target.read_bytes() if target.exists() else None
            os.replace(part, target)
            moved.append((target, before))
        for folder in {target.parent for _, target in staged}:
            fsync_dir(folder)
    except OSError:
        for target, before in reversed(moved):
            try:
                if before is None:
                    unlink_quietly(target)
                else:
                    replace_durably(target, before)
            except SaveFailed:
                pass
        raise
