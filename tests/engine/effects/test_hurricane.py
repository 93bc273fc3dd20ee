"""Hurricane (King and Intrigue, Special cards).

Cards: King and Intrigue "Hurricane" (sc_hurricane).

Rule text (a clarification only): "You reveal your secret disc at the beginning of your turn." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.modules_table import apply_checked, red_turn
from tests.engine.king_intrigue.table import _module_turn, _start, idx, put, seat


def test_hurricane_the_disc_is_revealed_at_the_beginning_of_the_turn():
    """ "You reveal your secret disc at the beginning of your turn." (before the turn's
    placement: placing first is neither offered nor accepted)"""
    game = _module_turn(175)
    assert game.asked().kind == "turn_action" and game.asked().options["place"] is None
    with pytest.raises(RuleViolation, match="beginning of your turn"):
        game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1}))
    _start(game)
    game.apply(ev.SecretDiscSet(player="red", region="galicia"))
    while game.asked().kind != "turn_action":  # the reveal, as the table does it
        game.apply(ev.SecretDiscsRevealed())
    assert game.asked().options["place"] is not None  # then the placement, as in every turn


def test_hurricane_your_disc_names_the_region_it_strikes():
    game = red_turn(175)
    put(game, "green", "aragon", 2)
    put(game, "red", "aragon", 1)
    ask = _start(game)
    assert ask.kind == "secret_disc" and ask.players == ("red",)
    assert "castilla_la_nueva" not in ask.options["regions"]["red"]
    apply_checked(game, ev.SecretDiscSet(player="red", region="aragon"))
    assert game.asked().kind == "reveal_secret_discs"
    provinces = game.state.provinces[seat(game, "green")]
    apply_checked(game, ev.SecretDiscsRevealed())
    s = game.state
    assert sum(s.counts[idx(game, "aragon")]) == 0 and s.provinces[seat(game, "green")] == provinces + 2
    assert s.outcomes[-1].discs == {"red": "aragon"}


def test_the_hurricane_disc_is_secret_until_revealed():
    from engine.views import player_view, public_view

    games = [red_turn(175), red_turn(175)]
    for game, region in zip(games, ("aragon", "galicia")):
        _start(game)
        game.apply(ev.SecretDiscSet(player="red", region=region))
    views = [[public_view(g.state)] + [player_view(g.state, pid) for pid in ("blue", "green", "yellow")] for g in games]
    assert views[0] == views[1]
    assert player_view(games[0].state, "red") != player_view(games[1].state, "red")
