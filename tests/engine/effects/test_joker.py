"""The Joker (Player's Edition; rules/king_intrigue.py): "When you play this card, you will wait
for all of your opponents to play a Power card. Once all have done so, you play another Power
card out of your hand. You may not play a number that has already been played." (The Player's
Edition rules: the second card is fitted into the order by its value.) Our Joker is numbered 5."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.table import ALL, WITH_MODULES, new_game, through_setup

MODULES = ["players-edition"]


def _game(hands=None):
    game = new_game(4, modules=MODULES, cards_file=WITH_MODULES)
    mine = [5] + ALL[:12]
    through_setup(game, hands=hands or {"red": mine, "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    return game


def test_the_joker_waits_for_everyone_then_plays_a_second_card_fitted_by_its_value():
    game = _game()
    game.apply(ev.PowerCardPlayed(player="red", card=5))
    assert game.asked().players == ("blue",) and 5 in game.state.discards[0]
    game.apply(ev.PowerCardPlayed(player="blue", card=170))
    game.apply(ev.PowerCardPlayed(player="green", card=90))
    game.apply(ev.PowerCardPlayed(player="yellow", card=10))
    ask = game.asked()
    assert ask.players == ("red",) and 90 not in ask.options["cards"] and 10 not in ask.options["cards"]
    with pytest.raises(RuleViolation, match="already played this round"):
        game.apply(ev.PowerCardPlayed(player="red", card=90))
    game.apply(ev.PowerCardPlayed(player="red", card=100))
    s = game.state
    assert s.turn_order == [1, 0, 2, 3] and s.played == [100, 170, 90, 10]  # red second, by its 100
    assert game.asked().kind == "replenish" and game.asked().players == ("blue",)


def test_the_tablet_says_whose_second_card_it_is_after_the_joker():
    """The Joker lies face up: the table is told, at red's second play, what the card does."""
    from companion.prompts.king_intrigue import KIPromptBuilder
    from engine.views import public_view

    game = _game()
    state = game.state
    builder = KIPromptBuilder(
        state.names, lambda: state.board, public=lambda: public_view(state).model_dump(mode="json")
    )
    first = builder.build(game.asked())
    assert "after_joker" not in game.asked().options and first.title.endswith("plays next"), first.title
    game.apply(ev.PowerCardPlayed(player="red", card=5))
    assert "after_joker" not in game.asked().options  # blue's turn: an ordinary play
    for pid, card in (("blue", 170), ("green", 90), ("yellow", 10)):
        game.apply(ev.PowerCardPlayed(player=pid, card=card))
    ask = game.asked()
    assert ask.players == ("red",) and ask.options["after_joker"] is True
    prompt = builder.build(ask)
    red = state.names["red"]
    assert prompt.title.endswith(f"{red} plays a second card (Joker)"), prompt.title
    assert (
        prompt.hint.startswith(
            f"{red} played the Joker: now they lay down a second Power card, not a number played this round"
        )
        and prompt.hint.count(red) == 1
    ), prompt.hint
    played = {c.event["card"]: c.enabled for c in prompt.choices}
    assert played[170] is False and played[90] is False and played[10] is False and played[100] is True


def test_the_joker_is_not_offered_while_no_card_might_be_left_after_everyone():
    hands = {"red": [5, 10, 20, 30] + ALL[9:18], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]}
    game = _game(hands)
    game.state.hands[0] = {5, 10, 20, 30}  # late in a game: three cards besides the Joker, three to play after
    assert 5 not in game.asked().options["cards"]
    with pytest.raises(RuleViolation, match="cannot play the Joker now"):
        game.apply(ev.PowerCardPlayed(player="red", card=5))
    game.state.hands[0] = {5, 10, 20, 30, 40}
    assert 5 in game.asked().options["cards"]


def test_joker_the_second_card_may_not_repeat_a_number_played_this_round():
    """ "You may not play a number that has already been played." (the Joker's second card)"""
    game = new_game(4, modules=["players-edition"], cards_file=WITH_MODULES)
    through_setup(game, hands={"red": [5] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    game.apply(ev.PowerCardPlayed(player="red", card=5))
    game.apply(ev.PowerCardPlayed(player="blue", card=120))
    game.apply(ev.PowerCardPlayed(player="green", card=60))
    game.apply(ev.PowerCardPlayed(player="yellow", card=20))
    for taken in (120, 60, 20):
        with pytest.raises(RuleViolation):
            game.apply(ev.PowerCardPlayed(player="red", card=taken))
    game.apply(ev.PowerCardPlayed(player="red", card=10))  # the lowest now: the Intrigue card
    from engine.rules.king_intrigue.round import action_cards_by_rank

    assert action_cards_by_rank(game.state)[0][0] == "intrigue"
