"""Power Shift, sentence by sentence (rule book, "Mini expansion 'Power Shift'"). The
printed Modifier cards are not published: these tests use a set of their own (TEST_SET)
that the table could have entered, and the stand-in set for self-play where it is chosen."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.game import Game
from engine.rules.edition_2023 import power_shift
from engine.views import player_view, public_view
from tests.engine.rules.tables import board, finish_round, game, plain_turn, refused, seat, setup

FOUR = ["red", "yellow", "green", "blue"]
CARDS = ["intrigue_any_3", "decay_all", "score_5_regions", "grande"]
SOURCE = "test set entered by a table: not the printed cards"


def _mod(mid, value, ability=None):
    return {"id": mid, "value": value, "name": mid.replace("_", " "), "ability": ability, "source": SOURCE}


COURT = {"effect": "court", "params": {"count": 1}, "text": "Take 1 more Caballero to your Court."}
TEST_SET = (
    [_mod(f"plus_{i}", 1) for i in range(1, 5)]
    + [_mod(f"minus_{i}", -1) for i in range(1, 5)]
    + [_mod(f"plus_two_{i}", 2) for i in range(1, 3)]
    + [_mod(f"minus_two_{i}", -2) for i in range(1, 3)]
    + [_mod("court_plus", 1, COURT), _mod("court_minus", -1, COURT), _mod("plus_three", 3), _mod("minus_three", -3)]
)
HANDS = {
    "red": ["plus_1", "minus_1", "court_plus"],
    "yellow": ["plus_2", "minus_2", "plus_two_1"],
    "green": ["plus_3", "minus_3", "minus_two_1"],
    "blue": ["plus_4", "minus_4", "court_minus"],
}


def ps_game(players=FOUR, modifiers=TEST_SET, **more) -> Game:
    return game(players, modules=["power-shift"], cards_file={"modifiers": modifiers}, **more)


def dealt_and_passed(g: Game, passes: dict) -> None:
    for pid in g.asked().players:
        g.apply(ev.ModifiersDealt(player=pid, modifiers=HANDS[pid]))
    for pid, mid in passes.items():
        g.apply(ev.ModifierPassed(player=pid, modifier=mid))


def ready(players=FOUR, **more) -> Game:
    """Dealt HANDS; each passes its first card left. Red then holds plus_4 (from Blue)."""
    g = ps_game(players, **more)
    dealt_and_passed(g, {pid: HANDS[pid][0] for pid in players})
    return g


def hand(g: Game, pid: str) -> set[str]:
    return g.state.modifier_hands[seat(g, pid)]


# --- the data -------------------------------------------------------------------------------


def test_a_power_shift_game_needs_the_modifier_cards_it_is_refused_without_them():
    """The 16 Modifier cards' values and abilities are not published: without the table's
    data the game is refused, naming the missing fact."""
    with pytest.raises(RuleViolation) as info:
        Game(setup(FOUR, ["power-shift"]), board())
    assert "16 Modifier cards' values and abilities" in info.value.detail and "modifiers[]" in info.value.detail


def test_the_stand_in_set_is_used_only_when_the_table_chooses_it():
    stand_in = power_shift.stand_in_modifiers()
    assert all(m["source"] == "stand-in for self-play: not the printed cards" for m in stand_in)
    with pytest.raises(RuleViolation, match="stand-in set for self-play"):
        Game(setup(FOUR, ["power-shift"], cards_file={"modifiers": stand_in}), board())
    g = Game(setup(FOUR, ["power-shift"], stand_in_modifiers=True), board())
    assert len(g.state.modifiers) == 16 and g.asked().kind == "deal_modifiers"
    with pytest.raises(RuleViolation, match="stand_in_modifiers is for the power-shift module"):
        Game(setup(FOUR, [], stand_in_modifiers=True), board())


@pytest.mark.parametrize(
    "change, text",
    [
        (lambda ms: ms[:15], "Power Shift has 16 Modifier cards, the file lists 15"),
        (lambda ms: ms[:15] + [ms[0]], "card id 'plus_1' is listed twice"),
        (lambda ms: ms[:15] + [_mod("zero", 0)], "modifiers[zero].value: a Modifier card adds or subtracts"),
        (lambda ms: ms[:15] + [_mod("fly", 1, {"effect": "fly_away"})], "modifiers[fly].ability.effect: 'fly_away'"),
        (lambda ms: ms[:15] + [_mod("veto", 1, {"effect": "veto"})], "modifiers[veto].ability.effect"),
        (
            lambda ms: ms[:15] + [_mod("court", 1, {"effect": "court"})],
            "modifiers[court].ability.params: effect court needs count",
        ),
        (lambda ms: ms[:15] + [{**_mod("big", 1), "value": 40}], "modifiers[big].value"),
        (lambda ms: ms[:15] + [{"id": "nameless", "value": 1}], "modifiers[nameless]."),
    ],
)
def test_a_tables_modifier_data_with_a_mistake_is_refused_naming_card_and_field(change, text):
    with pytest.raises(RuleViolation) as info:
        ps_game(modifiers=change(list(TEST_SET)))
    assert text in info.value.detail, info.value.detail


# --- deal and pass ------------------------------------------------------------------------------


def test_three_cards_are_dealt_to_each_player_who_enters_them_in_private():
    """ "deal 3 Modifier cards to each player. Return the remaining cards to the box.\""""
    g = ps_game()
    ask = g.asked()
    assert ask.kind == "deal_modifiers" and set(ask.players) == set(FOUR) and ask.options["count"] == 3
    g.apply(ev.ModifiersDealt(player="red", modifiers=HANDS["red"]))
    assert "red" not in g.asked().players
    msg = refused(
        g,
        ev.ModifiersDealt(player="yellow", modifiers=["plus_1", "plus_2", "plus_3"]),
        "power-shift",
        "already in another player's hand",
    )
    assert "Red" not in msg and "plus_1" not in msg  # nothing said about whose
    refused(g, ev.ModifiersDealt(player="red", modifiers=HANDS["blue"]), "power-shift", "already entered")
    refused(g, ev.ModifiersDealt(player="yellow", modifiers=["plus_2", "plus_2", "plus_3"]), "power-shift", "different")
    refused(
        g, ev.ModifiersDealt(player="yellow", modifiers=["plus_2", "nope", "plus_3"]), "power-shift", "not a Modifier"
    )


def test_each_passes_one_card_left_and_hands_change_only_when_everyone_has():
    """ "passes 1 of them face down to the player to their left. Once everyone has passed a
    card, add all 3 Modifier cards to your hand\""""
    g = ps_game()
    for pid in FOUR:
        g.apply(ev.ModifiersDealt(player=pid, modifiers=HANDS[pid]))
    assert g.asked().kind == "pass_modifier" and set(g.asked().players) == set(FOUR)
    refused(g, ev.ModifierPassed(player="red", modifier="plus_2"), "power-shift", "their own")
    g.apply(ev.ModifierPassed(player="red", modifier="minus_1"))
    g.apply(ev.ModifierPassed(player="red", modifier="court_plus"))  # a choice may change until all chose
    for pid in ("yellow", "green"):
        g.apply(ev.ModifierPassed(player=pid, modifier=HANDS[pid][0]))
    assert hand(g, "red") == set(HANDS["red"]) and hand(g, "yellow") == set(HANDS["yellow"])
    g.apply(ev.ModifierPassed(player="blue", modifier="minus_4"))
    assert hand(g, "yellow") == {"minus_2", "plus_two_1", "court_plus"}  # from Red, on its right
    assert hand(g, "red") == {"plus_1", "minus_1", "minus_4"}  # from Blue
    assert hand(g, "blue") == {"plus_4", "court_minus", "minus_two_1"} - {"minus_two_1"} | {"plus_3"}
    assert g.asked().kind == "reveal_action_cards"


def test_two_players_pass_to_each_other_and_the_dummy_has_none():
    """The dummy is not a player: it is dealt no Modifier card; Red and Yellow swap one."""
    g = ps_game(["red", "yellow"])
    assert set(g.asked().players) == {"red", "yellow"}
    refused(g, ev.ModifiersDealt(player="black", modifiers=HANDS["green"]), "power-shift", "dummy")
    dealt_and_passed(g, {"red": "plus_1", "yellow": "plus_2"})
    assert hand(g, "red") == {"minus_1", "court_plus", "plus_2"} and hand(g, "yellow") == {
        "minus_2",
        "plus_two_1",
        "plus_1",
    }
    assert g.asked().kind == "dummy_region_cards"


# --- playing --------------------------------------------------------------------------------------


def reveal(g: Game) -> None:
    g.apply(ev.ActionCardsRevealed(cards=CARDS))


def test_a_modifier_may_make_a_value_already_played_distinct():
    """ "Example: You may play a 9 +1 (=10) if someone already played a 9.\""""
    g = ready()
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=9))
    g.apply(ev.PowerCardPlayed(player="yellow", card=9, modifier="plus_two_1"))  # 9 + 2 = 11
    assert g.state.modifier_played[seat(g, "yellow")] == "plus_two_1"
    assert power_shift.total(g.state, seat(g, "yellow")) == 11


def test_the_total_must_differ_from_the_values_already_played():
    """ "Example: If a player before you played an 8, you cannot play a 7 +1 (=8).\""""
    g = ready()
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=8))
    msg = refused(g, ev.PowerCardPlayed(player="yellow", card=6, modifier="plus_two_1"), "power-card-distinct")
    assert "6 +2 (= 8)" in msg
    options = g.asked().options["modifiers"]
    assert 6 not in options["plus_two_1"]["cards"] and 7 in options["plus_two_1"]["cards"]
    refused(g, ev.PowerCardPlayed(player="yellow", card=9, modifier="minus_2"), "power-card-distinct", "9 −1 (= 8)")
    g.apply(ev.PowerCardPlayed(player="yellow", card=5, modifier="plus_two_1"))  # 7
    # A plain card may not equal a total played either.
    refused(g, ev.PowerCardPlayed(player="green", card=7), "power-card-distinct")


def test_only_one_of_your_own_modifiers_may_be_played():
    g = ready()
    reveal(g)
    refused(g, ev.PowerCardPlayed(player="red", card=9, modifier="minus_3"), "power-shift", "no Modifier card")
    classic = game(FOUR)
    classic.apply(ev.ActionCardsRevealed(cards=CARDS))
    refused(classic, ev.PowerCardPlayed(player="red", card=9, modifier="plus_1"), "power-shift", "not chosen")


def test_turn_order_and_the_first_player_marker_follow_the_totals():
    """Turn order by total; "At the end of the round, the person who played the lowest total
    value gets the First Player marker": Green's 3 -2 (= 1) beats Yellow's 2."""
    g = ready()
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=10, modifier="minus_1"))  # 9
    g.apply(ev.PowerCardPlayed(player="yellow", card=2))  # 2
    g.apply(ev.PowerCardPlayed(player="green", card=3, modifier="minus_two_1"))  # 1
    g.apply(ev.PowerCardPlayed(player="blue", card=9, modifier="plus_3"))  # 10 (plus_3 from Green)
    s = g.state
    assert s.turn_order == [seat(g, p) for p in ("blue", "red", "yellow", "green")]
    finish_round(g)
    assert s.start_player == seat(g, "green")


def test_caballeros_to_the_court_are_the_power_cards_own():
    """The total changes the value; the Caballeros are printed on the Power card: a 1 -1
    still brings up to 6 (a total of 0 has no number of Caballeros)."""
    g = ready()
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=1, modifier="minus_1"))
    for pid, c in (("yellow", 13), ("green", 12), ("blue", 11)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    for _ in range(3):
        plain_turn(g)
    assert g.asked().players == ("red",) and g.asked().options["max"] == 6


def test_the_modifiers_ability_comes_after_the_court_and_before_the_action_card():
    """ "you may use the special ability at the beginning of your turn: after taking
    Caballeros to your Court, but before choosing an Action card." Court +1 here."""
    g = ps_game()
    dealt_and_passed(g, {"red": "plus_1", "yellow": "plus_2", "green": "plus_3", "blue": "plus_4"})
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=13, modifier="court_plus"))  # 14
    for pid, c in (("yellow", 12), ("green", 11), ("blue", 10)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    s = g.state
    g.apply(ev.CourtReplenished(player="red", from_provinces=0))
    ask = g.asked()
    assert ask.kind == "modifier_ability" and ask.players == ("red",) and ask.options["effect"] == "court"
    refused(g, ev.ActionCardChosen(player="red", stack=1), "phase-order")
    court = s.court[seat(g, "red")]
    g.apply(ev.ModifierAbilityUsed(player="red"))
    assert g.asked().kind == "replenish" and g.asked().options["max"] == 1
    assert not g.asked().vetoes  # not an Action card's Special action: no Veto reaches it
    g.apply(ev.CourtReplenished(player="red", from_provinces=1))
    assert s.court[seat(g, "red")] == court + 1
    assert g.asked().kind == "choose_action_card"
    g.apply(ev.ActionCardChosen(player="red", stack=1))
    assert g.asked().kind == "turn_action"


def test_the_ability_may_be_passed_up_and_a_modifier_without_one_asks_nothing():
    g = ps_game()
    dealt_and_passed(g, {"red": "plus_1", "yellow": "plus_2", "green": "plus_3", "blue": "plus_4"})
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=13, modifier="court_plus"))
    g.apply(ev.PowerCardPlayed(player="yellow", card=11, modifier="plus_two_1"))  # 13
    for pid, c in (("green", 10), ("blue", 9)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    g.apply(ev.CourtReplenished(player="red", from_provinces=0))
    refused(g, ev.ModifierAbilityUsed(player="yellow"), "turn-order")
    g.apply(ev.ModifierAbilitySkipped(player="red"))
    assert g.asked().kind == "choose_action_card"
    g.apply(ev.ActionCardChosen(player="red", stack=1))
    g.apply(ev.CaballerosPlaced(player="red", placements={}))
    g.apply(ev.SpecialActionSkipped(player="red"))
    g.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    assert g.asked().kind == "choose_action_card"  # plus_two_1 has no ability


def test_a_veto_cannot_stop_a_modifiers_ability():
    """A Veto prevents "a Special action", an Action card's: the ability is not one."""
    g = ps_game()
    dealt_and_passed(g, {"red": "plus_1", "yellow": "plus_2", "green": "plus_3", "blue": "plus_4"})
    s = g.state
    s.vetoes.append((seat(g, "blue"), 1))
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=13, modifier="court_plus"))
    for pid, c in (("yellow", 12), ("green", 11), ("blue", 10)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    g.apply(ev.CourtReplenished(player="red", from_provinces=0))
    g.apply(ev.ModifierAbilityUsed(player="red"))
    refused(g, ev.VetoUsed(player="blue"), "veto", "not a Power Shift Modifier card's ability")


def test_played_modifiers_are_discarded_with_the_power_card():
    """ "After your turn, discard your played Modifier card with your Power card.\""""
    g = ready()
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=10, modifier="minus_1"))
    for pid, c in (("yellow", 12), ("green", 11), ("blue", 13)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    finish_round(g)
    s = g.state
    r = seat(g, "red")
    assert s.modifier_discards[r] == {"minus_1"} and "minus_1" not in s.modifier_hands[r]
    assert s.modifier_played == [None] * 4
    g.apply(ev.ActionCardsRevealed(cards=["intrigue_any_4", "decay_3", "score_castillo", "eviction"]))
    assert "minus_1" not in g.asked().options["modifiers"]


def test_empowerment_may_return_a_played_modifier_to_the_hand():
    """Empowerment: "For the "Power Shift" mini-expansion: You may also return one of your
    played Modifier cards to your hand instead." This round's goes back at the round's end
    (its total still decides the First Player marker); a discarded one at once."""
    g = ready()
    reveal(g)
    g.apply(ev.PowerCardPlayed(player="red", card=1, modifier="minus_1"))  # 0: the lowest
    for pid, c in (("yellow", 12), ("green", 11), ("blue", 13)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    s = g.state
    r = seat(g, "red")
    assert power_shift.returnable_modifiers(s, r) == ["minus_1"]
    power_shift.return_modifier(s, r, "minus_1")
    assert power_shift.returnable_modifiers(s, r) == []
    with pytest.raises(RuleViolation, match="only a played Modifier card"):
        power_shift.return_modifier(s, r, "minus_1")
    finish_round(g)
    assert "minus_1" in s.modifier_hands[r] and s.start_player == r
    s.modifier_discards[r].add("plus_4")  # as if played in an earlier round
    s.modifier_hands[r].discard("plus_4")
    power_shift.return_modifier(s, r, "plus_4")
    assert "plus_4" in s.modifier_hands[r] and not s.modifier_discards[r]


# --- what each observer sees -------------------------------------------------------------------


def test_nobody_sees_anothers_modifiers_and_each_sees_their_own():
    g = ps_game()
    for pid in FOUR:
        g.apply(ev.ModifiersDealt(player=pid, modifiers=HANDS[pid]))
    g.apply(ev.ModifierPassed(player="red", modifier="plus_1"))
    public = public_view(g.state).model_dump_json()
    for mid in (m for h in HANDS.values() for m in h):
        assert mid not in public
    red = player_view(g.state, "red")
    assert red.private.modifiers_in_hand == sorted(HANDS["red"]) and red.private.modifier_passing == "plus_1"
    assert player_view(g.state, "yellow").public.asked.options["hands"] == {"yellow": sorted(HANDS["yellow"])}
    assert red.public.asked.options == {"chosen": ["red"]}  # chose already: asked no more
    red_json = red.model_dump_json()
    for mid in HANDS["yellow"] + HANDS["green"] + HANDS["blue"]:
        assert mid not in red_json
    for pid in ("yellow", "green", "blue"):
        g.apply(ev.ModifierPassed(player=pid, modifier=HANDS[pid][0]))
    reveal(g)
    public = public_view(g.state)
    assert "modifiers" not in (public.asked.options or {})
    g.apply(ev.PowerCardPlayed(player="red", card=9, modifier="minus_1"))
    red_public = next(p for p in public_view(g.state).players if p.id == "red")
    assert red_public.modifier_played == "minus_1" and red_public.power_total == 8


def test_the_deal_ask_never_shows_which_cards_are_left():
    g = ps_game()
    g.apply(ev.ModifiersDealt(player="red", modifiers=HANDS["red"]))
    assert "free" in g.asked().options  # for random playouts only
    for view in [public_view(g.state).asked] + [player_view(g.state, p).public.asked for p in FOUR]:
        assert "free" not in view.options


def test_the_modifiers_travel_in_the_tables_card_file_and_a_mistake_is_named_on_loading():
    """The 2023 card set loads a table's card file with a `modifiers` list; a mistake in it
    is refused when the file is loaded, naming the card and field."""
    from engine.board.errors import CardFileError
    from engine.board.load import load_board

    load_board("2023", 4, None, {"modifiers": TEST_SET})
    with pytest.raises(CardFileError, match=r"card file: modifiers\[zero\]\.value"):
        load_board("2023", 4, None, {"modifiers": TEST_SET[:15] + [_mod("zero", 0)]})
    g = Game(
        ev.GameSetup(
            players=FOUR,
            homes=dict(zip(FOUR, ["galicia", "navarra", "aragon", "sevilla"])),
            king="toledo",
            start_player="red",
            rules="2023",
            modules=["power-shift"],
            cards_file={"modifiers": TEST_SET},
        )
    )  # the shipped 2023 board and cards
    assert g.asked().kind == "deal_modifiers" and len(g.state.modifiers) == 16


def test_empowerment_offers_the_played_modifiers_and_takes_one_back():
    """Empowerment's ask lists the played Modifier cards beside the Power cards; the table's
    ModifierTakenBack returns one and ends the special action."""
    from tests.engine.rules.tables import card

    empowerment = card("empowerment_test", 4, "empowerment", {}, 4, None)
    g = ps_game(extra=[empowerment])
    dealt_and_passed(g, {"red": "plus_1", "yellow": "plus_2", "green": "plus_3", "blue": "plus_4"})
    g.apply(ev.ActionCardsRevealed(cards=["intrigue_any_3", "decay_all", "score_5_regions", "empowerment_test"]))
    g.apply(ev.PowerCardPlayed(player="red", card=13, modifier="minus_1"))
    for pid, c in (("yellow", 11), ("green", 10), ("blue", 9)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    g.apply(ev.CourtReplenished(player="red", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="red", stack=4))
    g.apply(ev.CaballerosPlaced(player="red", placements={}))
    g.apply(ev.SpecialActionStarted(player="red"))
    ask = g.asked()
    assert ask.kind == "take_back_power_card" and ask.options["modifiers"] == ["minus_1"]
    assert "modifiers" not in (public_view(g.state).asked.options or {})
    refused(g, ev.ModifierTakenBack(player="red", modifier="plus_4"), "special-action", "only a played Modifier")
    g.apply(ev.ModifierTakenBack(player="red", modifier="minus_1"))
    assert g.state.modifier_take_back[seat(g, "red")] and g.asked().players == ("yellow",)
    finish_round(g)
    assert "minus_1" in g.state.modifier_hands[seat(g, "red")]
