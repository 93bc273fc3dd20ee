"""The 2023 2-player game's dummy: every duty the rule book gives it (2-player game,
"Gameplay changes"), one test per sentence, quoted in each test's docstring."""

from __future__ import annotations

from engine import events as ev
from engine.views import player_view, public_view
from tests.engine.rules.tables import (
    DUMMY,
    KING,
    ROUND_CARDS,
    area,
    begin_round,
    finish_round,
    game,
    plain_turn,
    refused,
    seat,
)


def dummy_count(g, rid: str) -> int:
    return g.state.counts[area(g, rid)][g.state.dummy]


def test_the_dummy_is_a_third_colour_with_its_caballeros_beside_the_board():
    """ "Choose a third color for a dummy and place the Caballeros of that color next to the
    game board." No Grande, no court, no home: all 30 wait in its supply."""
    g = game()
    s = g.state
    d = s.dummy
    assert s.players[d] == DUMMY and d == 2
    assert s.grandes[d] is None and s.court[d] == 0 and s.provinces[d] == 30
    assert public_view(s).dummy == DUMMY
    assert next(p for p in public_view(s).players if p.id == DUMMY).grande is None


def test_two_region_cards_each_round_place_two_dummy_caballeros_each():
    """ "At the beginning of each round, draw 2 Region cards. Place 2 Caballeros of the dummy
    in each of the drawn regions." The table draws them: the engine asks before the reveal."""
    g = game()
    ask = g.asked()
    assert ask.kind == "dummy_region_cards" and ask.players == ("table",)
    assert ask.options["draw"] == 2 and len(ask.options["pile"]) == 9
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "valencia"]))
    assert dummy_count(g, "galicia") == 2 and dummy_count(g, "valencia") == 2
    assert g.state.provinces[g.state.dummy] == 26
    assert g.asked().kind == "reveal_action_cards"
    told = g.state.outcomes[-1]
    assert "Galicia" in told.title and {(m["target"], m["count"]) for m in told.moves} == {
        ("galicia", 2),
        ("valencia", 2),
    }


def test_a_card_showing_the_kings_region_places_no_dummy_caballeros():
    """ "If a card shows the King's region, do not place any Caballeros there.\""""
    g = game()
    g.apply(ev.DummyRegionCardsDrawn(regions=[KING, "sevilla"]))
    assert dummy_count(g, KING) == 0 and dummy_count(g, "sevilla") == 2
    assert g.state.provinces[g.state.dummy] == 28
    assert "King's region" in g.state.outcomes[-1].title


def test_drawn_cards_are_discarded_until_the_general_scoring_reshuffles_all_nine():
    """ "Then place the cards on a discard pile. After each general scoring, shuffle all
    Region cards." A card drawn since the last shuffle cannot come up again."""
    g = game()
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "valencia"]))
    begin_round(g, ROUND_CARDS, dummy_card=1)
    finish_round(g)
    assert g.asked().kind == "dummy_region_cards" and len(g.asked().options["pile"]) == 7
    msg = refused(
        g,
        ev.DummyRegionCardsDrawn(regions=["galicia", "aragon"]),
        "dummy-region-cards",
        "already drawn since the last shuffle",
    )
    assert "Galicia" in msg
    g.apply(ev.DummyRegionCardsDrawn(regions=["aragon", "sevilla"]))
    begin_round(g, ["intrigue_any_4", "decay_all", "eviction"], dummy_card=2)
    finish_round(g)
    g.apply(ev.DummyRegionCardsDrawn(regions=["cataluna", "pais_vasco"]))
    begin_round(g, ["intrigue_own_4", "veto", "grande"], dummy_card=3)
    finish_round(g)  # round 3 and its general scoring
    assert g.state.round == 4 and g.asked().kind == "dummy_region_cards"
    assert len(g.asked().options["pile"]) == 9  # all nine shuffled again
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "valencia"]))


def test_two_cards_are_drawn_not_one_nor_the_same_twice():
    """ "draw 2 Region cards": one card, or one card named twice, is refused."""
    g = game()
    refused(g, ev.DummyRegionCardsDrawn(regions=["galicia"]), "dummy-region-cards", "draw 2 Region cards")
    refused(g, ev.DummyRegionCardsDrawn(regions=["galicia", "galicia"]), "dummy-region-cards", "twice")
    refused(g, ev.DummyRegionCardsDrawn(regions=["castillo", "galicia"]), "unknown-id")


def test_no_more_region_cards_once_all_30_dummy_caballeros_are_out():
    """ "If all 30 are on the game board, do not draw any more Region cards." With one left,
    the first card (not the King's region) places it and no second card is drawn; with none
    left the round begins at the reveal."""
    g = game()
    s = g.state
    d = s.dummy
    s.counts[area(g, "granada")][d] += 29
    s.provinces[d] -= 29
    assert g.asked().options["last_caballeros"]
    refused(
        g,
        ev.DummyRegionCardsDrawn(regions=["galicia", "valencia"]),
        "dummy-region-cards",
        "If all 30 are on the game board",
    )
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia"]))
    assert dummy_count(g, "galicia") == 1 and s.provinces[d] == 0
    begin_round(g, ROUND_CARDS, dummy_card=1)
    finish_round(g)
    assert s.round == 2 and g.asked().kind == "reveal_action_cards"


def test_a_kings_region_card_does_not_end_the_draw_when_few_are_left():
    """With 2 left, the King's region card places none, so the second card is still drawn."""
    g = game()
    s = g.state
    d = s.dummy
    s.counts[area(g, "granada")][d] += 28
    s.provinces[d] -= 28
    g.apply(ev.DummyRegionCardsDrawn(regions=[KING, "galicia"]))
    assert dummy_count(g, "galicia") == 2 and s.provinces[d] == 0


def test_the_dummys_power_card_is_turned_up_before_the_players_play():
    """ "Before you play a Power card, turn over the top Power card from the dummy's stack.
    Then, the player with the First Player marker begins." The table enters its value."""
    g = game(start="yellow")
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "valencia"]))
    g.apply(ev.ActionCardsRevealed(cards=ROUND_CARDS))
    ask = g.asked()
    assert ask.kind == "dummy_power_card" and ask.players == ("table",)
    assert ask.options["cards"] == list(range(1, 14))
    refused(g, ev.PowerCardPlayed(player="yellow", card=5), "phase-order")
    g.apply(ev.DummyPowerCardRevealed(card=7))
    assert g.asked().kind == "play_power_card" and g.asked().players == ("yellow",)
    assert 7 in g.asked().options["unavailable"] and 7 not in g.asked().options["cards"]


def test_no_player_may_play_the_dummys_value():
    """ "As with other players, you can not play a card with the same value.\""""
    g = game()
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "valencia"]))
    g.apply(ev.ActionCardsRevealed(cards=ROUND_CARDS))
    g.apply(ev.DummyPowerCardRevealed(card=9))
    refused(g, ev.PowerCardPlayed(player="red", card=9), "power-card-distinct")


def test_the_dummys_power_cards_are_used_once_and_discarded():
    """ "At the end of the round, discard the dummy's Power card, too": its shuffled stack
    never gives the same value twice."""
    g = game()
    begin_round(g, ROUND_CARDS, dummy_card=4)
    finish_round(g)
    s = g.state
    assert 4 in s.discards[s.dummy] and 4 not in s.hands[s.dummy]
    g.apply(ev.DummyRegionCardsDrawn(regions=["aragon", "sevilla"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue_any_4", "decay_all", "eviction"]))
    assert 4 not in g.asked().options["cards"]
    refused(g, ev.DummyPowerCardRevealed(card=4), "dummy-power-card", "earlier round")


def test_the_dummy_moves_by_its_cards_value_like_anyone():
    """ "As usual, the value of the revealed Power card defines when the dummy makes its
    move." Red 13, the dummy 8, Yellow 2: the dummy's turn comes second."""
    g = game()
    begin_round(g, ROUND_CARDS, dummy_card=8, power={"red": 13, "yellow": 2})
    s = g.state
    assert s.turn_order == [seat(g, "red"), s.dummy, seat(g, "yellow")]
    assert s.power_order == [seat(g, "red"), seat(g, "yellow")]  # it never plays in turn


def test_the_dummy_takes_the_card_with_the_most_caballeros_and_discards_it_unused():
    """ "The dummy always takes the remaining Action card with the most Caballeros shown on
    the bottom. Immediately put this card on the discard pile [...] The dummy does not use
    the card." Red took the King's card (5): the dummy takes Grande (4) without a question."""
    g = game()
    begin_round(g, ROUND_CARDS, dummy_card=8, power={"red": 13, "yellow": 2})
    s = g.state
    plain_turn(g, stack=5)
    assert s.revealed[4] is None and s.discard_pile == ["grande"]
    assert s.grandes[s.dummy] is None and s.court[s.dummy] == 0
    assert "discards it unused" in s.outcomes[-1].title
    assert g.asked().players == ("yellow",)


def test_the_kings_card_taken_by_the_dummy_is_turned_face_down_not_discarded():
    """ "(or flip it over if it is the King's card)": gone for this round, up again the next."""
    g = game()
    begin_round(g, ROUND_CARDS, dummy_card=13)
    s = g.state
    assert s.revealed[5] is None and "kings_card" not in s.discard_pile
    assert "face down" in s.outcomes[-1].title
    finish_round(g)
    begin_round(g, ["intrigue_any_4", "decay_all", "eviction"], dummy_card=12)
    assert "kings_card" not in s.discard_pile


def test_a_tie_for_the_most_caballeros_is_left_to_the_table():
    """The book does not say which card the dummy takes when two show the same number: with
    New Regency a ♠ card prints its own (here 4, like stack 4). The table says which."""
    g = game(modules=["new-regency"])
    begin_round(g, ROUND_CARDS + ["regency_advisor"], dummy_card=13)
    s = g.state
    ask = g.asked()
    assert s.stage == "dummy_card" and ask.kind == "dummy_action_card" and ask.players == ("table",)
    assert ask.options["stacks"] == {4: "grande", 5: "regency_advisor"}
    assert "does not say" in ask.options["why"]
    refused(g, ev.DummyActionCardTaken(stack=2), "dummy-action-card", "stack 4 or 5")
    g.apply(ev.DummyActionCardTaken(stack=5))
    assert s.discard_pile == ["regency_advisor"] and s.revealed[4] == "grande"
    assert g.asked().kind == "replenish"


def test_an_unknown_number_of_caballeros_is_left_to_the_table():
    """A card whose printed number the card set does not know (placement None): which card
    shows the most cannot be worked out, so the table says which the dummy took."""
    from tests.engine.rules.tables import card

    unknown = card("regency_unknown", 5, "court", {"count": 2}, None, "new-regency", copies=1)
    g = game(modules=["new-regency"], extra=[unknown])
    begin_round(g, ROUND_CARDS + ["regency_unknown"], dummy_card=13)
    assert g.asked().kind == "dummy_action_card" and "not known" in g.asked().options["why"]
    assert set(g.asked().options["stacks"]) == {1, 2, 4, 5}


def test_the_dummy_never_gets_the_first_player_marker():
    """ "the dummy never gets the First Player marker": with the lowest card it still goes to
    the player who played the lower card ("Whoever played the lowest Power card")."""
    g = game(start="red")
    begin_round(g, ROUND_CARDS, dummy_card=1, power={"red": 6, "yellow": 9})
    finish_round(g)
    s = g.state
    assert s.start_player == seat(g, "red")
    begin_round(g, ["intrigue_any_4", "decay_all", "eviction"], dummy_card=2, power={"red": 11, "yellow": 5})
    finish_round(g)
    assert s.start_player == seat(g, "yellow")


def test_players_move_and_send_back_the_dummys_caballeros_by_the_normal_rules():
    """ "You may move the dummy's Caballeros or send them back from the regions according to
    the normal rules." Intrigue moves two of them; One of Each sends one back."""
    g = game()
    g.apply(ev.DummyRegionCardsDrawn(regions=["aragon", "valencia"]))
    begin_round(g, ["intrigue_any_3", "one_of_each_back", "grande"], dummy_card=1, power={"red": 13, "yellow": 12})
    s = g.state
    g.apply(ev.CourtReplenished(player="red", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="red", stack=1))
    g.apply(ev.CaballerosPlaced(player="red", placements={}))
    g.apply(ev.SpecialActionStarted(player="red"))
    g.apply(ev.CaballerosMoved(player="red", owner=DUMMY, source="aragon", target="castillo", count=2))
    assert dummy_count(g, "aragon") == 0 and s.counts[s.board.castillo][s.dummy] == 2
    g.apply(ev.SpecialActionFinished(player="red"))
    g.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="yellow", stack=2))
    g.apply(ev.CaballerosPlaced(player="yellow", placements={}))
    g.apply(ev.SpecialActionStarted(player="yellow"))
    ask = g.asked()
    assert ask.players == ("yellow",) and set(ask.options["owners"]) == {"red", DUMMY}
    g.apply(ev.CaballerosSentBack(player="yellow", owner=DUMMY, from_regions={"valencia": 1}))
    assert dummy_count(g, "valencia") == 1


def test_an_effect_that_asks_each_opponent_skips_the_dummy():
    """ "But if an Action card would require the dummy's action (e.g. choose a region), skip
    the dummy." The King is Angry: only Yellow is asked; Eviction: the dummy's stay put."""
    g = game()
    g.apply(ev.DummyRegionCardsDrawn(regions=["aragon", "valencia"]))
    begin_round(g, ["intrigue_any_3", "king_is_angry", "eviction"], dummy_card=1, power={"red": 13, "yellow": 12})
    g.apply(ev.CourtReplenished(player="red", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="red", stack=2))
    g.apply(ev.CaballerosPlaced(player="red", placements={}))
    g.apply(ev.SpecialActionStarted(player="red"))
    assert g.asked().kind == "send_back" and g.asked().players == ("yellow",)
    g.apply(ev.CaballerosSentBack(player="yellow", owner="yellow", from_court=3))
    assert g.state.stage == "replenish" and dummy_count(g, "aragon") == 2
    g.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="yellow", stack=4))
    g.apply(ev.CaballerosPlaced(player="yellow", placements={}))
    g.apply(ev.SpecialActionStarted(player="yellow"))
    s = g.state
    s.counts[area(g, "aragon")][seat(g, "red")] += 1  # Red has one there too
    s.provinces[seat(g, "red")] -= 1
    g.apply(ev.RegionChosen(player="yellow", region="aragon"))
    assert g.asked().kind == "secret_disc" and g.asked().players == ("red",)
    g.apply(ev.SecretDiscSet(player="red", region="galicia"))
    g.apply(ev.SecretDiscsRevealed())
    assert dummy_count(g, "aragon") == 2 and s.counts[area(g, "aragon")][seat(g, "red")] == 0


def test_the_dummy_sets_no_disc_and_its_castillo_caballeros_go_back_to_its_supply():
    """At the general scoring only the players set a disc. The dummy's Caballeros in the
    Castillo (a player threw them in) count for the Castillo's majority, then — its disc never
    set clearly: "your Caballeros will return to your Court instead of moving to a region" —
    go back to its supply beside the board. It scores nothing."""
    g = game()
    s = g.state
    d = s.dummy
    castillo = s.board.castillo
    s.counts[castillo][d] += 3
    s.provinces[d] -= 3
    s.counts[castillo][seat(g, "red")] += 2
    s.provinces[seat(g, "red")] -= 2
    for cards, dummy_card in (
        (ROUND_CARDS, 1),
        (["intrigue_any_4", "decay_all", "eviction"], 2),
        (["intrigue_own_4", "veto", "grande"], 3),
    ):
        begin_round(g, cards, dummy_card=dummy_card)
        if s.round == 3:
            while s.stage != "scoring_discs":
                plain_turn(g)
            break
        finish_round(g)
    ask = g.asked()
    assert ask.kind == "secret_disc" and set(ask.players) == {"red", "yellow"}
    supply = s.provinces[d]
    red = s.scores[seat(g, "red")]
    g.apply(ev.SecretDiscSet(player="red", region="galicia"))
    g.apply(ev.SecretDiscSet(player="yellow", region="galicia"))
    g.apply(ev.SecretDiscsRevealed())
    assert s.counts[castillo][d] == 0 and s.provinces[d] == supply + 3
    castillo_lines = [ln for ln in s.scoring_log[-1].lines if ln.area == "castillo"]
    dummy_line = next(ln for ln in castillo_lines if ln.player == DUMMY)
    assert dummy_line.points == 0 and dummy_line.place == 1
    red_line = next(ln for ln in castillo_lines if ln.player == "red")
    assert red_line.place == 2 and red_line.points == 3  # "Only the first two numbers" count
    assert s.scores[d] == 0 and s.scores[seat(g, "red")] > red
    moves = s.outcomes[-1].moves
    assert {"player": DUMMY, "count": 3, "source": "castillo", "target": "provinces"} in moves


def test_the_dummy_never_wins():
    """It "does not get points": even when nobody scored, only players share the victory."""
    g = game(variant="short")
    s = g.state
    s.scores = [0, 0, 0]
    s.round_index = len(s.schedule) - 1
    begin_round(g, ROUND_CARDS, dummy_card=1)
    finish_round(g)
    assert s.stage == "over" and s.dummy not in s.winners


def test_views_hold_the_dummys_public_facts_and_no_secret():
    """The dummy's cards are the table's to turn up: no view can tell the next one. Its Region
    cards drawn since the shuffle are public, as the discard pile is."""
    g = game()
    g.apply(ev.DummyRegionCardsDrawn(regions=["aragon", "valencia"]))
    begin_round(g, ROUND_CARDS, dummy_card=8, power={"red": 13, "yellow": 2})
    pv = public_view(g.state)
    assert pv.dummy_region_cards == ["aragon", "valencia"] and pv.discard_pile == []
    dummy = next(p for p in pv.players if p.id == DUMMY)
    assert dummy.power_card_played == 8 and dummy.power_cards_in_hand == 12
    plain_turn(g, stack=5)
    assert public_view(g.state).discard_pile == ["grande"]
    red = player_view(g.state, "red")
    assert "hands" not in str(red.public.asked.options)


def test_a_two_player_game_can_start_from_the_board_in_front_of_the_table():
    """Tracking may start in a later round (a TableCorrected with the round): the dummy's
    Region cards come first in a round, so the start is taken there. Its Power cards laid
    down so far are entered like a player's; the Region cards drawn since the last shuffle
    are not known, so all nine count as the draw pile (the table draws what it draws)."""
    g = game()
    g.apply(
        ev.TableCorrected(
            round=5,
            regions={"galicia": {"red": 3, DUMMY: 4}},
            start_player="yellow",
            power_spent={DUMMY: [1, 2, 3, 4], "red": [13, 12, 11, 10]},
        )
    )
    s = g.state
    assert s.round == 5 and g.asked().kind == "dummy_region_cards" and len(g.asked().options["pile"]) == 9
    assert s.provinces[s.dummy] == 26
    g.apply(ev.DummyRegionCardsDrawn(regions=["aragon", "valencia"]))
    g.apply(ev.ActionCardsRevealed(cards=ROUND_CARDS))
    assert g.asked().options["cards"] == list(range(5, 14))
