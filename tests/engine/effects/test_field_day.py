"""Field Day (Player's Edition, 13; engine/effects/field_day.py): the opponents move their
Grande to another region chosen in secret. "If an opponent's Grande is in the King's region,
they do not participate. If an opponent chooses the King's region, their Grande remains where
it is.\""""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import (
    ALL,
    KING,
    WITH_MODULES,
    finish_turn,
    idx,
    new_game,
    play_powers,
    through_setup,
)


def test_the_opponents_grandes_move_where_their_discs_show():
    game = new_game(4, modules=["players-edition"], cards_file=WITH_MODULES)
    through_setup(game, hands={"red": [13] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    game.state.grandes[3] = idx(game, KING)  # yellow's Grande stands in the King's region: not asked
    play_powers(game, {"red": 13, "blue": 170, "green": 90, "yellow": 10})  # red: a Caballero card
    finish_turn(game)
    finish_turn(game)
    game.apply(ev.CourtReplenished(player="red", from_provinces=5))
    game.apply(ev.SpecialActionStarted(player="red"))
    ask = game.asked()
    assert ask.kind == "secret_disc" and ask.options["purpose"] == "field_day" and ask.players == ("blue", "green")
    assert "sevilla" not in ask.options["regions"]["blue"] and KING in ask.options["regions"]["blue"]
    with pytest.raises(RuleViolation, match="to another region"):
        game.apply(ev.SecretDiscSet(player="blue", region="sevilla"))
    game.apply(ev.SecretDiscSet(player="blue", region="cataluna"))
    game.apply(ev.SecretDiscSet(player="green", region=KING))
    game.apply(ev.SecretDiscsRevealed())
    s = game.state
    assert s.grandes[1] == idx(game, "cataluna") and s.grandes[2] == idx(game, "granada")  # green's stays
    assert s.grandes[0] == idx(game, "galicia") and s.turn.special_done
    assert s.outcomes[-1].discs == {"blue": "cataluna", "green": KING}
