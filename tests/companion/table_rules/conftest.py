"""What the table_rules tests share: a 2023 GameSetup made with the files a new game got."""

import pytest

from companion.table_rules.new_game import GameFiles
from engine import events as ev


def _setup(files: GameFiles, players=("purple", "blue", "green", "orange"), **kw) -> ev.GameSetup:
    homes = dict(zip(players, ("galicia", "aragon", "sevilla", "valencia")))
    return ev.GameSetup(
        players=list(players),
        king="toledo",
        homes=homes,
        start_player=players[0],
        rules="2023",
        board_file=files.board_file,
        cards_file=files.cards_file,
        **kw,
    )


@pytest.fixture
def setup_2023():
    """`setup_2023(files, modules=[...])`: a 2023 GameSetup of four players with `files`' board and cards."""
    return _setup
