"""Three games as a group leaves them in its games folder: two finished 4-player games
(the same four people in other colours) and a 3-player game stopped halfway. Real logs,
written by the table as it plays a scripted game (companion.scripted)."""

from __future__ import annotations

from pathlib import Path

from companion.scripted import play, scripted_setup, step
from companion.table.authority import Table

GROUP = [
    (1, ["Ana", "Ben", "Cai", "Dee"], True),
    (2, ["Ben", "Ana", "Dee", "Cai"], True),
    (3, ["Ana", "Ben", "Cai"], False),
]


def table_game(folder: Path, seed: int, names: list[str], finish: bool = True) -> Table:
    setup = scripted_setup(players=len(names))
    game = setup.game.model_copy(update={"names": dict(zip(setup.game.players, names))})
    table = Table.new(setup.model_copy(update={"game": game}), folder)
    if finish:
        play(table, seed)
    else:
        for _ in range(60):
            step(table, seed)
    table.close()
    return table


def group_folder(folder: Path) -> list[Path]:
    """The three games, oldest first: each last written 95 + i minutes after it began (its
    log's name), so they list in that order and the first lasted 95 minutes."""
    import os

    from companion.history.records import started_at

    paths = []
    for i, (seed, names, finish) in enumerate(GROUP):
        path = table_game(folder, seed, names, finish).path
        ended = started_at(path).timestamp() + 60 * (95 + i)
        os.utime(path, (ended, ended))
        paths.append(path)
    return paths
