"""2023 tables for the phone tests: the self-play stand-in board and card files (standing in for
what a table enters from its own box), and seeded random play up to a given question."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine import events as ev
from engine.playout import random_event, standin_files

COLOURS = ["purple", "blue", "green", "orange", "red"]
NAMES = {"purple": "Ana", "blue": "Bruno", "green": "Carmen", "orange": "Dora", "red": "Eva"}
HOMES = ["galicia", "aragon", "sevilla", "valencia", "granada"]


def setup_2023(n: int = 4, modules=("power-shift",), variant: str = "full") -> ev.GameSetup:
    board_file, cards = standin_files("2023", n)
    players = COLOURS[:n]
    return ev.GameSetup(
        players=players,
        names={p: NAMES[p] for p in players},
        king="castilla",
        homes=dict(zip(players, HOMES)),
        start_player=players[0],
        rules="2023",
        modules=list(modules),
        dummy="white" if n == 2 else None,
        variant=variant,
        board_file=board_file,
        cards_file=cards,
        stand_in_modifiers="power-shift" in modules,
    )


def table_2023(n: int = 4, modules=("power-shift",)) -> Table:
    """A tracked 2023 table held in memory (no log: these tests are about what phones see)."""
    return Table(TableSetup(game=setup_2023(n, modules), mode="tracking", tower={"kind": "none"}))


def play_until(
    table: Table,
    wanted: Callable[[Table, object], bool],
    rng: random.Random,
    answer: Callable[[Table, object], bool] | None = None,
) -> bool:
    """Random legal inputs until `wanted(table, ask)`; `answer(table, ask)` may make an input
    itself (True when it did). False if the game ended first."""
    while (ask := table.asked()).kind != "game_over":
        if wanted(table, ask):
            return True
        if answer is None or not answer(table, ask):
            table.submit(random_event(rng, ask))
    return False


def find_table(wanted: Callable[[Table, object], bool], n: int = 4, modules=("power-shift",), seeds=range(80)) -> Table:
    """The first seeded random 2023 game that reaches `wanted`, stopped there."""
    for seed in seeds:
        table = table_2023(n, modules)
        if play_until(table, wanted, random.Random(seed)):
            return table
    raise AssertionError("no seeded game reached the question wanted")


def disc_purpose(purpose: str, card: str | None = None) -> Callable[[Table, object], bool]:
    """A secret-disc question of `purpose` (and card), nobody chosen yet."""

    def wanted(table: Table, ask) -> bool:
        return (
            ask.kind == "secret_disc"
            and ask.options["purpose"] == purpose
            and not ask.options["chosen"]
            and (card is None or ask.card == card)
        )

    return wanted


def grande_in_castillo_scoring(table: Table, ask) -> bool:
    """A general scoring's discs while someone's Grande is in the Castillo (Competition)."""
    return disc_purpose("castillo_destination")(table, ask) and any(
        p["grande"] == "castillo" and p["id"] in ask.players for p in table.public().game["players"]
    )
