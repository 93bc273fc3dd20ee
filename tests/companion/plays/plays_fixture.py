"""Games for the plays tests: finished scripted games with the names, the start and the last write
chosen, and many distinct games made cheaply from one (its header's nonce changed, its records
the same, the log's chain written again: each a game of its own to a backup)."""

from __future__ import annotations

import os
from pathlib import Path

from companion.scripted import play, scripted_setup, step
from companion.storage.game_log import rewrite_log, scan_log
from companion.table.authority import Table

NAMES5 = ["Ana", "Ben", "Cai", "Dee", "Eve"]


def finished_game(
    folder: Path, names: list[str], started: int, minutes: int = 95, seed: int = 1, finish: bool = True
) -> Path:
    """A scripted game of `names` begun at `started` (Unix time) and last written `minutes` later."""
    setup = scripted_setup(players=len(names))
    game = setup.game.model_copy(update={"names": dict(zip(setup.game.players, names))})
    table = Table.new(setup.model_copy(update={"game": game}), folder, started=started)
    if finish:
        play(table, seed)
    else:
        for _ in range(60):
            step(table, seed)
    table.close()
    os.utime(table.path, (started + 60 * minutes, started + 60 * minutes))
    return table.path


def copies(source: Path, folder: Path, n: int) -> list[Path]:
    """`n` games of their own made from `source`: the same records under another nonce and start."""
    loaded = scan_log(source)
    made = []
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        header = {**loaded.header, "nonce": f"{i:08x}", "started": loaded.header["started"] - 86_400 * (i + 1)}
        path = folder / f"game-copy-{i:04d}.jsonl"
        rewrite_log(path, header, loaded.records)
        os.utime(path, (header["started"] + 5400, header["started"] + 5400))
        made.append(path)
    return made


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under `root` and its bytes (what 'nothing changed' compares)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
