"""Three games as a group leaves them in its games folder: two finished 4-player games
(the same four people in other colours) and a 3-player game stopped halfway. Real logs,
written by the table as it plays a scripted game (companion.scripted)."""
from __future__ import annotations

from pathlib import Path

from companion.scripted import play, scripted_setup, step
from companion.table import Table

GROUP = [(1, ["Ana", "Ben", "Cai", "Dee"], True), (2, ["Ben", "Ana", "Dee", "Cai"], True),
         (3, ["Ana", "Ben", "Cai"], False)]


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
    """The three games, oldest first; their logs' times one minute apart, in that order."""
    import os

    paths = []
    for i, (seed, names, finish) in enumerate(GROUP):
        path = table_game(folder, seed, names, finish).path
        os.utime(path, (1_700_000_000 + 60 * i, 1_700_000_000 + 60 * i))
        paths.append(path)
    return paths
