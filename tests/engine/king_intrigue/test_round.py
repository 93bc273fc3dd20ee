"""The King and Intrigue round (engine/rules/king_intrigue.py), sentence by sentence of the
rule text, and its example (Benita's turn)."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.rules.king_intrigue.round import action_cards_by_rank
from engine.views import player_view, public_view
from tests.engine.king_intrigue.table import ALL, COLOURS, KING, finish_turn, idx, new_game, play_powers, through_setup

# --- setup -------------------------------------------------------------------------------


def test_each_player_places_one_caballero_from_the_province_where_their_disc_shows():
    game = new_game(3)
    ask = game.asked()
    assert ask.kind == "secret_disc" and ask.options["purpose"] == "setup_caballero"
    assert KING not in ask.options["regions"]["red"]  # "not the King's region"
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.SecretDiscSet(player="red", region=KING))
    game.apply(ev.SecretDiscSet(player="red", region="aragon"))
    with pytest.raises(RuleViolation, match="still to choose: Blue, Green"):
        game.apply(ev.SecretDiscsRevealed())
    game.apply(ev.SecretDiscSet(player="blue", region="aragon"))
    game.apply(ev.SecretDiscSet(player="green", region="galicia"))
    before = list(game.state.provinces)
    game.apply(ev.SecretDiscsRevealed())
    s = game.state
    assert s.counts[idx(game, "aragon")][:2] == [1, 1] and s.counts[idx(game, "galicia")][2] == 1
    assert [b - a for a, b in zip(s.provinces, before)] == [1, 1, 1]
    assert s.outcomes[-1].discs == {"red": "aragon", "blue": "aragon", "green": "galicia"}
    assert game.asked().kind == "choose_power_cards"


def test_each_player_secretly_keeps_13_of_their_18_power_cards():
    game = new_game(3)
    ask = game.asked()
    for pid in ask.players:
        game.apply(ev.SecretDiscSet(player=pid, region=ask.options["regions"][pid][0]))
    game.apply(ev.SecretDiscsRevealed())
    ask = game.asked()
    assert ask.options["cards"] == ALL and ask.options["keep"] == 13 and set(ask.players) == {"red", "blue", "green"}
    with pytest.raises(RuleViolation, match="choose 13 different Power cards, not 12"):
        game.apply(ev.PowerCardsChosen(player="red", cards=ALL[:12]))
    with pytest.raises(RuleViolation, match="a value twice"):
        game.apply(ev.PowerCardsChosen(player="red", cards=ALL[:12] + [10]))
    with pytest.raises(RuleViolation, match="15: not a Power card of this game"):
        game.apply(ev.PowerCardsChosen(player="red", cards=ALL[:12] + [15]))
    game.apply(ev.PowerCardsChosen(player="red", cards=ALL[5:]))
    with pytest.raises(RuleViolation, match="already chosen"):
        game.apply(ev.PowerCardsChosen(player="red", cards=ALL[:13]))
    assert game.state.hands[0] == set(ALL[5:])
    # The 5 left out are seen by nobody: not in the public view, nor in another player's.
    assert "power_cards_in_hand" not in str(public_view(game.state).asked)
    assert player_view(game.state, "blue").private.power_cards_in_hand == ALL
    assert game.asked().players == ("blue", "green")
    game.apply(ev.PowerCardsChosen(player="blue", cards=ALL[:13]))
    game.apply(ev.PowerCardsChosen(player="green", cards=ALL[:13]))
    ask = game.asked()
    assert ask.kind == "play_power_card" and ask.players == ("red",) and ask.options["cards"] == ALL[5:]


def _refused(game, player: str, card: int) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        game.apply(ev.PowerCardPlayed(player=player, card=card))
    return refused.value


def test_a_card_not_held_is_refused_in_the_same_public_words_whatever_the_reason_and_why_goes_to_its_player():
    """ "Each player then puts the 5 cards he chose not to use back in the box, without showing
    the other players." A card not held, tapped on the public tablet, is refused in the same words
    whether it was left out, laid down in an earlier round or is not a card of the game: nothing
    in them tells a kept card from a left-out one. Why goes to that player alone (`private`)."""
    game = new_game(3)
    through_setup(game, hands={"red": ALL[5:], "blue": ALL[:13], "green": ALL[:13]})
    left_out = _refused(game, "red", 10)
    never_dealt = _refused(game, "red", 999)
    public = (
        "Red cannot play Power card {} now: what a hand holds is secret, so Red sees why on their phone or "
        "behind the private screen"
    )
    assert left_out.detail == public.format(10) and never_dealt.detail == public.format(999)
    for text in (str(left_out), str(never_dealt)):
        assert "earlier round" not in text and "kept" not in text and "left out" not in text and "hand:" not in text
    assert left_out.private == (
        "red",
        "You left Power card 10 out of your hand at the start of the game: it is not in your hand.",
    )
    assert never_dealt.private == ("red", "Power card 999 is not one of your cards in this game.")
    game.apply(ev.PowerCardPlayed(player="red", card=60))
    while game.state.round_index == 0:
        finish_turn(game) if game.state.stage != "power" else game.apply(
            ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][0])
        )
    while game.asked().players[0] != "red":
        game.apply(ev.PowerCardPlayed(player=game.asked().players[0], card=game.asked().options["cards"][0]))
    laid_down = _refused(game, "red", 60)
    assert laid_down.detail == public.format(60) and str(laid_down) == str(left_out).replace("10", "60")
    assert laid_down.private == ("red", "You laid Power card 60 down in an earlier round: it is not in your hand.")
    assert game.state.hands[0] == set(ALL[5:]) - {60}  # nothing of it changed the game


# --- the round ------------------------------------------------------------------------------


def test_benitas_turn():
    """ "Benita begins by playing Power card 40. The other players follow in clockwise order."
    "Benita takes 4 Caballeros from the Province into her Court. The Veto stays in front of
    her. The Caballero card allows her to place 2 Caballeros in Spain." (4 players)"""
    game = new_game(4, start="red")  # red is Benita
    game.state.names["red"] = "Benita"
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    # Highest the King's Card, then the Caballero cards by most Caballeros, lowest the Intrigue card.
    assert action_cards_by_rank(game.state) == {
        1: ("kings_card", 4),
        2: ("caballero", 3),
        0: ("caballero", 2),
        3: ("intrigue", 1),
    }
    assert game.state.turn_order == [1, 2, 0, 3]  # the King's Card first, then descending
    finish_turn(game)  # blue
    finish_turn(game)  # green
    ask = game.asked()
    assert ask.kind == "replenish" and ask.players == ("red",) and ask.options["max"] == 4
    assert game.state.vetoes == [(0, 1)]  # the Veto stays in front of her
    court = game.state.court[0]
    game.apply(ev.CourtReplenished(player="red", from_provinces=4))
    assert game.state.court[0] == court + 4
    ask = game.asked()
    assert ask.kind == "turn_action" and ask.options["special"] is None  # the Veto is held, nothing to start
    assert ask.options["place"]["max"] == 2 and ask.options["place"]["card_allows"] == 2
    with pytest.raises(RuleViolation, match="at most 2"):
        game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 3}))
    game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1, "castillo": 1}))
    assert game.asked().players == ("yellow",)


def test_fewer_caballeros_to_the_court_allowed_not_more():
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    with pytest.raises(RuleViolation, match="at most 2"):
        game.apply(ev.CourtReplenished(player="blue", from_provinces=3))
    game.apply(ev.CourtReplenished(player="blue", from_provinces=1))
    assert game.state.stage == "turn"


@pytest.mark.parametrize(
    "n, expected",
    [
        (2, {0: ("kings_card", 5), 1: ("intrigue", 2)}),
        (3, {0: ("kings_card", 5), 1: ("caballero", 3), 2: ("intrigue", 2)}),
        (5, {0: ("kings_card", 5), 1: ("caballero", 4), 2: ("caballero", 3), 3: ("caballero", 2), 4: ("intrigue", 1)}),
    ],
)
def test_action_cards_handed_out_by_rank(n, expected):
    game = new_game(n)
    through_setup(game)
    play_powers(game, dict(zip(COLOURS, [120, 90, 70, 40, 10][:n])))
    assert action_cards_by_rank(game.state) == expected


def test_four_players_the_kings_card_holder_does_only_the_kings_cards_action():
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})  # blue's 120: the Castillo scoring
    game.apply(ev.CourtReplenished(player="blue", from_provinces=2))
    special = game.asked().options["special"]
    assert special["card"] == "kings_card" and special["options"] is None
    game.apply(ev.SpecialActionStarted(player="blue"))
    ask = game.asked()
    assert ask.kind == "move_king" and "sevilla" in ask.options["regions"] and "galicia" in ask.options["regions"]
    game.apply(ev.KingMoved(player="blue", region="galicia"))  # any region (not adjacent only)
    assert game.state.king == idx(game, "galicia") and not game.state.scoring_log  # the 120 card ignored


def test_four_players_the_intrigue_holder_does_only_the_intrigue_cards_action():
    game = new_game(4)
    through_setup(game, discs={"red": "aragon", "blue": "aragon", "green": "aragon", "yellow": "aragon"})
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 30})
    for _ in range(3):
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="yellow", from_provinces=5))
    special = game.asked().options["special"]
    assert special["card"] == "intrigue" and special["options"] == ["move", "move_all_own"]  # not the 30's decay
    court = list(game.state.court)
    game.apply(ev.SpecialActionStarted(player="yellow", option="move"))
    game.apply(ev.VetoWaived(player="red"))  # red's 40 is held since red's turn
    ask = game.asked()
    assert ask.kind == "move_caballeros" and ask.options["own_left"] == 1 and ask.options["foreign_left"] == 1
    game.apply(ev.CaballerosMoved(player="yellow", owner="red", source="aragon", target="pais_vasco"))
    assert game.state.counts[idx(game, "pais_vasco")][0] == 1 and game.state.court == court  # nobody's court decayed


def test_three_players_the_kings_card_offers_a_choice_of_its_action_or_the_power_cards():
    game = new_game(3)
    through_setup(game)
    play_powers(game, {"red": 90, "blue": 40, "green": 10})  # red: the 90 (mobile scoreboard) and the King's Card
    game.apply(ev.CourtReplenished(player="red", from_provinces=3))
    special = game.asked().options["special"]
    assert special["options"] == ["kings_card", "power_card"]
    with pytest.raises(RuleViolation, match="chooses one of kings_card, power_card"):
        game.apply(ev.SpecialActionStarted(player="red", option="move"))
    game.apply(ev.SpecialActionStarted(player="red", option="power_card"))
    assert game.asked().kind == "place_mobile_scoreboard"
    game.apply(ev.MobileScoreboardPlaced(player="red", scoreboard="8-4-0", area="galicia"))
    assert game.state.mobile["8-4-0"] == idx(game, "galicia")
    assert game.state.turn.special_done


def test_three_players_the_kings_card_chosen_moves_the_king():
    game = new_game(3)
    through_setup(game)
    play_powers(game, {"red": 90, "blue": 40, "green": 10})
    game.apply(ev.CourtReplenished(player="red", from_provinces=3))
    game.apply(ev.SpecialActionStarted(player="red", option="kings_card"))
    game.apply(ev.KingMoved(player="red", region="cataluna"))
    assert game.state.king == idx(game, "cataluna") and game.state.mobile["8-4-0"] is None


def test_two_players_the_intrigue_card_offers_its_two_actions_or_the_power_cards():
    game = new_game(2)
    through_setup(game, discs={"red": "aragon", "blue": "aragon"})
    play_powers(game, {"red": 130, "blue": 70})  # blue: the 70 (one of each) and the Intrigue card
    finish_turn(game)
    game.apply(ev.CourtReplenished(player="blue", from_provinces=4))
    assert game.asked().options["special"]["options"] == ["intrigue_move", "intrigue_move_all_own", "power_card"]
    game.apply(ev.SpecialActionStarted(player="blue", option="intrigue_move_all_own"))
    ask = game.asked()
    assert ask.kind == "move_caballeros" and list(ask.options["sources"]) == ["aragon", "sevilla"]
    assert ask.options["sources"]["aragon"] == {"blue": 1}  # only your own: all of them from one region
    game.apply(ev.CaballerosMoved(player="blue", owner="blue", source="aragon", target="galicia", count=1))
    assert game.state.counts[idx(game, "galicia")][1] == 1 and game.state.turn.special_done


def test_power_cards_go_to_the_discard_pile_and_the_lowest_starts_the_next_round():
    game = new_game(3)
    through_setup(game)
    play_powers(game, {"red": 90, "blue": 40, "green": 10})
    for _ in range(3):
        finish_turn(game)
    s = game.state
    assert s.round == 2 and s.stage == "power" and [40 in s.discards[1], 90 in s.discards[0]] == [True, True]
    assert s.start_player == 2 and 10 not in s.hands[2]
    with pytest.raises(RuleViolation, match="cannot play Power card 10 now") as refused:
        game.apply(ev.PowerCardPlayed(player="green", card=10))
    assert refused.value.private == (
        "green",
        "You laid Power card 10 down in an earlier round: it is not in your hand.",
    )


def test_two_cards_of_the_same_value_may_not_be_played_in_a_round():
    game = new_game(3)
    through_setup(game)
    game.apply(ev.PowerCardPlayed(player="red", card=90))
    with pytest.raises(RuleViolation, match="already played this round"):
        game.apply(ev.PowerCardPlayed(player="blue", card=90))
