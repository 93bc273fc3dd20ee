"""Backup and restore of 100 games (issue 35's figures): the backup's time and size, the
restore's time into an empty tablet, a second restore's time and the games it adds (goal 0), and
BG Stats' push link of a 5-player game: its length and the QR code version that holds it.

    .venv/bin/python bench/backup_restore.py        (about 20 s; no display needed)

The 100 games are one scripted 5-player full game and 99 of its copies under other nonces and
starts (each a game of its own to the backup: its own id), in a throw-away data folder."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.companion.plays.plays_fixture import NAMES5, copies


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="backup-bench-"))
    a, b = root / "a", root / "b"
    os.environ["ELGRANDE_DATA_DIR"] = str(a)
    from companion.history.records import read_record
    from companion.plays import backup as backups
    from companion.plays.bgstats import push_link
    from companion.plays.qr import qr_code
    from companion.scripted import play, scripted_setup
    from companion.table.authority import Table

    setup = scripted_setup(players=5, variant="full")
    game = setup.game.model_copy(update={"names": dict(zip(setup.game.players, NAMES5))})
    table = Table.new(setup.model_copy(update={"game": game}), a / "games", started=1751670900)
    play(table, 1)
    table.close()
    os.utime(table.path, (1751670900 + 6000, 1751670900 + 6000))
    copies(table.path, a / "games", 99)
    logs = sum(p.stat().st_size for p in (a / "games").iterdir())

    t0 = time.perf_counter()
    done = backups.backup(root / "backup.zip")
    t_backup = time.perf_counter() - t0
    b.mkdir()
    t0 = time.perf_counter()
    first = backups.restore(backups.plan_restore(root / "backup.zip", b))
    t_restore = time.perf_counter() - t0
    t0 = time.perf_counter()
    second = backups.restore(backups.plan_restore(root / "backup.zip", b))
    t_again = time.perf_counter() - t0

    link = push_link(read_record(table.path))
    code = qr_code(link)
    print(f"games: {done.games} (logs and checkpoints {logs / 1e6:.2f} MB on disk)")
    print(f"backup: {t_backup:.2f} s, {done.size / 1e6:.2f} MB ({done.size / logs:.0%} of the logs)")
    print(f"restore into an empty tablet: {t_restore:.2f} s, {first.added} games added")
    print(f"restore again: {t_again:.2f} s, {second.added} games added, {second.present} already there (goal 0 added)")
    print(f"5-player push link: {len(link)} characters, QR version {code.version if code else 'none'} (at most 40)")


if __name__ == "__main__":
    main()
