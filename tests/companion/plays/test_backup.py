"""companion.plays.backup: one file with everything a tablet keeps, merged into another tablet.

A round trip brings every game (byte for byte, its last write kept), Your board, the settings
and the owner; a second restore adds nothing; 100 games go and come back; a card or board fact
that differs is never overwritten without an answer; a damaged, cut, foreign or newer file and
a game whose id collides are each refused in one line, and the tablet is as it was."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest

from companion.cli import main
from companion.history.records import game_records
from companion.plays import backup as backups
from companion.storage.game_log import rewrite_log, scan_log
from companion.table_rules.board_file import BoardDraft
from tests.companion.plays.plays_fixture import copies, finished_game, snapshot

MARCH, JULY = 1743291000, 1751670900


def _board(root: Path, tile_a, galicia=None, tile_b=None) -> Path:
    draft = BoardDraft("4-5")
    draft.set_tile("tile_a", tile_a)
    if tile_b:
        draft.set_tile("tile_b", tile_b)
    if galicia:
        draft.set_scoreboard("galicia", galicia)
    path = root / "rules" / "board-2023-4-5.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(draft.file, indent=1), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Two finished games and one stopped halfway, as logs to copy into a tablet."""
    folder = tmp_path_factory.mktemp("played")
    return [
        finished_game(folder, ["Ana", "Ben", "Cai"], MARCH),
        finished_game(folder, ["Ana", "Dee"], JULY, seed=2),
        finished_game(folder, ["Ana", "Ben"], JULY + 86_400, finish=False),
    ]


@pytest.fixture
def tablet(tmp_path, played, monkeypatch):
    """Tablet A's data folder (the app's, through ELGRANDE_DATA_DIR), and B's, empty."""
    a, b = tmp_path / "a", tmp_path / "b"
    games = a / "games"
    games.mkdir(parents=True)
    for path in played:
        (games / path.name).write_bytes(path.read_bytes())
        (games / f"{path.name}.tip").write_bytes(Path(f"{path}.tip").read_bytes())
        os.utime(games / path.name, (path.stat().st_mtime, path.stat().st_mtime))
    _board(a, [5, 3, 1], galicia=[5, 3, 1])
    (a / "settings.json").write_text('{"theme": "evening", "language": "de"}', encoding="utf-8")
    (a / "plays.json").write_text('{"owner": "Ana", "location": "Café Central"}', encoding="utf-8")
    b.mkdir()
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(a))
    return a, b


def _restore(source: Path, root: Path, take_backup=None) -> backups.RestoreDone:
    return backups.restore(backups.plan_restore(source, root), take_backup)


def test_a_round_trip_brings_everything_and_a_second_restore_adds_nothing(tablet, tmp_path):
    a, b = tablet
    done = backups.backup(tmp_path / "move.zip")
    assert (done.games, done.players, done.files) == (3, 4, 3)  # Ana, Ben, Cai, Dee; the board, settings, owner
    assert "Backed up 3 games, 4 known players" in done.words()
    restored = _restore(tmp_path / "move.zip", b)
    assert (restored.added, restored.present) == (3, 0)
    assert snapshot(b) == snapshot(a)  # every log and checkpoint, the board, the settings: byte for byte
    for name in (p.name for p in (a / "games").glob("*.jsonl")):  # a game's last write: its length, its place
        assert (b / "games" / name).stat().st_mtime == (a / "games" / name).stat().st_mtime
    assert [r.to_json() | {"file": None} for r in game_records(b / "games")] == [
        r.to_json() | {"file": None} for r in game_records(a / "games")
    ]
    again = _restore(tmp_path / "move.zip", b)
    assert (again.added, again.present, again.facts_added) == (0, 3, 0)
    assert not [p for p in b.iterdir() if p.name.startswith(".restore-")]  # the stage is gone


def test_a_hundred_games_go_and_come_back(tablet, tmp_path, played):
    a, b = tablet
    copies(played[0], a / "games", 97)
    done = backups.backup(tmp_path / "many.zip")
    assert done.games == 100 and done.size < sum(p.stat().st_size for p in (a / "games").iterdir()) / 3
    assert _restore(tmp_path / "many.zip", b).added == 100
    assert _restore(tmp_path / "many.zip", b).added == 0
    assert len(list((b / "games").glob("*.jsonl"))) == 100


def test_this_tablets_settings_stay_and_an_unset_owner_is_filled(tablet, tmp_path):
    a, b = tablet
    backups.backup(tmp_path / "move.zip")
    (b / "settings.json").write_text('{"theme": "day"}', encoding="utf-8")
    (b / "plays.json").write_text('{"owner": "", "location": "Home"}', encoding="utf-8")
    _restore(tmp_path / "move.zip", b)
    assert json.loads((b / "settings.json").read_text()) == {"theme": "day"}
    assert json.loads((b / "plays.json").read_text()) == {"owner": "Ana", "location": "Home"}


def test_a_differing_fact_needs_an_answer(tablet, tmp_path):
    a, b = tablet
    backups.backup(tmp_path / "move.zip")
    board = _board(b, [6, 3, 1], tile_b=[4, 2, 1])  # B's own Scoring tile A, and tile B only B has
    before = snapshot(b)
    plan = backups.plan_restore(tmp_path / "move.zip", b)
    assert [(c.file, c.where(), c.here, c.backup) for c in plan.conflicts] == [
        ("board-2023-4-5.json", "scoring_tiles > tile_a", [6, 3, 1], [5, 3, 1])
    ]
    with pytest.raises(backups.BackupRefused, match="1 card or board fact here differs from the backup's"):
        backups.restore(plan)
    assert snapshot(b) == before  # asked, nothing written
    kept = backups.restore(backups.plan_restore(tmp_path / "move.zip", b), take_backup=False)
    file = json.loads(board.read_text())
    assert file["scoring_tiles"] == {"tile_a": [6, 3, 1], "tile_b": [4, 2, 1]}  # this tablet's kept
    assert file["regions"] == [{"id": "galicia", "scoreboard": [5, 3, 1]}]  # the backup's new fact added
    assert (kept.facts_kept, kept.facts_taken) == (1, 0) and kept.facts_added >= 2
    taken = backups.restore(backups.plan_restore(tmp_path / "move.zip", b), take_backup=True)
    assert json.loads(board.read_text())["scoring_tiles"]["tile_a"] == [5, 3, 1]
    assert taken.facts_taken == 1
    BoardDraft("4-5", json.loads(board.read_text()))  # the merged file opens


def test_the_command_line_asks_for_a_choice_or_takes_one(tablet, tmp_path, capsys, monkeypatch):
    a, b = tablet
    assert main(["backup", str(tmp_path / "move.zip")]) == 0
    assert capsys.readouterr().out.startswith("Backed up 3 games")
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(b))
    _board(b, [6, 3, 1])
    before = snapshot(b)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no keyboard to ask at
    assert main(["restore", str(tmp_path / "move.zip")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--keep-local or --take-backup; nothing was changed" in err
    assert snapshot(b) == before
    assert main(["restore", str(tmp_path / "move.zip"), "--keep-local"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Restored: 3 games added; 0 games were already on this tablet; 2 card or board facts added"
    )
    assert json.loads((b / "rules" / "board-2023-4-5.json").read_text())["scoring_tiles"]["tile_a"] == [6, 3, 1]


def _rezip(source: Path, target: Path, change) -> Path:
    """The backup's members, changed by `change(members)`, zipped again."""
    with zipfile.ZipFile(source) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist()}
    change(members)
    with zipfile.ZipFile(target, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return target


def _newer(members: dict) -> None:
    manifest = json.loads(members["manifest.json"])
    manifest["format"] = 2
    manifest["checksum"] = backups._checksum(manifest)
    members["manifest.json"] = json.dumps(manifest).encode()


def _changed_game(members: dict) -> None:
    name = next(n for n in members if n.endswith(".jsonl"))
    members[name] = members[name].replace(b'"Ana"', b'"Eva"', 1)


BAD = {
    "cut": (lambda data, tmp: data[: len(data) // 2], "it is not a backup of this app, or it was cut short or damaged"),
    "not a zip": (
        lambda data, tmp: b"Ana,Ben\n1,2\n",
        "it is not a backup of this app, or it was cut short or damaged",
    ),
    "foreign": (
        lambda data, tmp: _zip_of({"hello.txt": b"hi"}),
        "it is not a backup of this app (it holds no manifest)",
    ),
    "newer": (None, "it was made by a newer version of the app (backup format 2; this version reads 1)"),
    "changed game": (None, "was changed after the backup was written"),
    "damaged byte": (None, "it is not a backup of this app, or it was cut short or damaged", "it is damaged"),
}


def _zip_of(members: dict) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_file_is_refused_in_one_line_and_nothing_changes(kind, tablet, tmp_path, capsys, monkeypatch):
    a, b = tablet
    good = tmp_path / "move.zip"
    backups.backup(good)
    bad = tmp_path / "bad.zip"
    make, *expected = BAD[kind]
    if kind == "newer":
        _rezip(good, bad, _newer)
    elif kind == "changed game":
        _rezip(good, bad, _changed_game)
    elif kind == "damaged byte":
        data = bytearray(good.read_bytes())
        data[len(data) // 3] ^= 0xFF  # inside a member: its CRC or its deflate stream breaks
        bad.write_bytes(bytes(data))
    else:
        bad.write_bytes(make(good.read_bytes(), tmp_path))
    _board(b, [6, 3, 1])
    before = snapshot(b)
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(b))
    assert main(["restore", str(bad), "--take-backup"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("elgrande restore: bad.zip is not restored: "), err
    assert any(words in err for words in expected) and err.rstrip().endswith("nothing was changed"), err
    assert snapshot(b) == before


def test_a_game_whose_id_collides_with_other_content_is_refused(tablet, tmp_path, played):
    a, b = tablet
    backups.backup(tmp_path / "move.zip")
    loaded = scan_log(played[0])
    (b / "games").mkdir()
    other = b / "games" / "game-here.jsonl"
    rewrite_log(other, loaded.header, loaded.records[:10] + loaded.records[11:20])  # the same header, other records
    before = snapshot(b)
    with pytest.raises(backups.BackupRefused) as refused:
        backups.plan_restore(tmp_path / "move.zip", b)
    line = str(refused.value)
    assert "\n" not in line and "has the same id as game-here.jsonl on this tablet, with other content" in line
    assert snapshot(b) == before


def test_this_tablets_game_further_on_is_the_same_game(tablet, tmp_path, played):
    a, b = tablet
    loaded = scan_log(played[0])
    early = tmp_path / "early" / played[0].name
    early.parent.mkdir()
    rewrite_log(early, loaded.header, loaded.records[:30])  # the game backed up halfway through
    (a / "games" / played[0].name).write_bytes(early.read_bytes())
    os.remove(a / "games" / f"{played[0].name}.tip")
    backups.backup(tmp_path / "early.zip")
    (b / "games").mkdir()
    (b / "games" / played[0].name).write_bytes(played[0].read_bytes())  # here it went on to its end
    done = _restore(tmp_path / "early.zip", b)
    assert (done.added, done.present) == (2, 1)
    assert (b / "games" / played[0].name).read_bytes() == played[0].read_bytes()


def test_a_failed_move_puts_back_what_was_moved(tablet, tmp_path, monkeypatch):
    a, b = tablet
    backups.backup(tmp_path / "move.zip")
    _board(b, [6, 3, 1])
    before = snapshot(b)
    plan = backups.plan_restore(tmp_path / "move.zip", b)
    real, calls = os.replace, []

    def failing(src, dst):
        calls.append(dst)
        if len(calls) == 4:
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(backups.os, "replace", failing)
    with pytest.raises(backups.BackupRefused, match="storage is full"):
        backups.restore(plan, take_backup=True)
    monkeypatch.setattr(backups.os, "replace", real)
    assert snapshot(b) == before and len(calls) == 4


def test_the_words_follow_the_language():
    from companion.words import use_language

    done = backups.RestoreDone(added=2, present=0, facts_added=1, facts_taken=0, facts_kept=0, files=0)
    try:
        use_language("de")
        assert done.words() == (
            "Wiederhergestellt: 2 Partien hinzugefügt; 0 Partien waren schon auf diesem Tablet; "
            "1 Karten- oder Brettdetail hinzugefügt"
        )
        use_language("fr")
        none = backups.RestoreDone(added=0, present=2, facts_added=0, facts_taken=0, facts_kept=0, files=0)
        assert none.words() == (
            "Restauré : 0 partie ajoutée ; 2 parties étaient déjà sur cette tablette ; "
            "0 détail de carte ou de plateau ajouté"
        )  # French: 0 is singular, 2 plural
        use_language("es")
        assert "2 partidas añadidas" in done.words()
    finally:
        use_language("en")
