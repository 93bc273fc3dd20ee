"""The Special card that discards a card or removes a limit table (King and Intrigue).

Cards: King and Intrigue "Discard (a 25/75 card or a limit table)" (sc_cancel).

Rule text: "With this card you may discard a 25 or 75 card placed in front of another player or
remove a limit table. Optional rule: You may choose to allow this card to cancel effects
represented by tokens and tiles. (e.g., alliance markers, risk of collapse tile, the bridge)." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.modules_table import apply_checked, red_turn
from tests.engine.king_intrigue.table import WITH_MODULES, _start, idx


def test_the_discard_card_removes_a_limit_table_or_a_25_75_card_in_front_of_another_player():
    game = red_turn(15)
    s = game.state
    s.markers["limit_1"] = idx(game, "aragon")
    s.markers["mistress"] = "green"  # the Mistress (75 in the tests' set) in front of green
    ask = _start(game)
    assert ask.kind == "remove_token" and {"limit_1", "mistress"} <= set(ask.options["tokens"])
    with pytest.raises(RuleViolation, match="removes one of"):
        game.apply(ev.TokenRemoved(player="red", token="kings_guard"))
    apply_checked(game, ev.TokenRemoved(player="red", token="limit_1"))
    assert s.markers["limit_1"] is None and s.markers["mistress"] == "green"


def test_the_discard_card_needs_the_optional_rule_for_other_tokens():
    off = {
        **WITH_MODULES,
        "power_cards": [c for c in WITH_MODULES["power_cards"] if c["id"] != "sc_cancel"]
        + [{"id": "sc_cancel", "value": 15, "court": 4}],
    }
    game = red_turn(15, cards_file=off)
    game.state.markers["alliance_1"], game.state.markers["alliance_2"] = idx(game, "aragon"), idx(game, "galicia")
    _start(game)  # nothing it may remove without the optional rule: done
    assert game.state.special is None and game.state.markers["alliance_1"] == idx(game, "aragon")
