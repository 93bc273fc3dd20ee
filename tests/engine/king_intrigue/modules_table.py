"""A 4-player King and Intrigue table with the modules' cards, red to play: builders shared by
the module cards' effect tests (tests/engine/effects/test_<effect>.py)."""

from __future__ import annotations

from engine import events as ev
from engine.game import Game
from engine.playout import check_invariants, snapshot_for_checks
from tests.engine.king_intrigue.table import ALL, BOTH, WITH_MODULES, finish_turn, new_game, play_powers, through_setup


def red_turn(value: int, **kw):
    """4 players: red plays `value` and holds a Caballero card; blue (180) has had the King's
    Card's turn; red has replenished fully."""
    game = new_game(4, modules=BOTH, cards_file=kw.pop("cards_file", WITH_MODULES))
    through_setup(
        game,
        hands={
            "red": [value] + [v for v in ALL if v != value][:12],
            "blue": ALL[5:],
            "green": ALL[:13],
            "yellow": ALL[:13],
        },
    )
    play_powers(game, {"red": value, "blue": 180, "green": 40, "yellow": 10})
    while game.asked().players[0] != "red":
        finish_turn(game)
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="red", from_provinces=min(ask.options["max"], ask.options["provinces"])))
    return game


def _turn(value):
    game = new_game(4, modules=["special-cards"], cards_file=WITH_MODULES)
    through_setup(
        game,
        discs={p: "aragon" for p in ("red", "blue", "green", "yellow")},
        hands={"red": [value] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]},
    )
    play_powers(game, {"red": value, "blue": 170, "green": 40, "yellow": 10})
    finish_turn(game)  # blue
    game.apply(ev.CourtReplenished(player="red", from_provinces=0))
    return game


def apply_checked(game: Game, event) -> None:
    before = snapshot_for_checks(game.state)
    game.apply(event)
    check_invariants(game.state, before, event)
