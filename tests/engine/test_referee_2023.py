"""An independent referee's scenarios for the 2023 edition: one test per sentence of the
2023 rule book (new-edition-2023.md), the sentence quoted in the docstring, played through
the public engine API (Game, events, asked()).

Every refusal is checked the strict way (`_refused`): a RuleViolation naming a known rule,
and the whole state (every field, not a selection) exactly as before. Arranged positions use
the tests' own table files (tests/engine/effects/game2023.py) where the rule book publishes
nothing; the 2-3 player side's scoreboards here are this file's own test values."""

from __future__ import annotations

import random

import pytest

from engine import events as ev
from engine.errors import RULES, RuleViolation
from engine.game import Game
from engine.playout import check_invariants, random_event, snapshot_for_checks
from engine.views import player_view, public_view
from tests.engine.effects.game2023 import (
    BOARD_FILE,
    clear,
    count,
    court,
    finish_round,
    finish_turn,
    general_scoring,
    grande,
    king,
    new_game,
    provinces,
    put,
    seat,
    set_court,
    start_round,
    start_special,
    take,
)
from tests.engine.effects.referee2023 import (
    BOARD_2_3,
    DEALT,
    DUMMY,
    MODIFIERS,
    TWO,
    _area_points,
    _castillo_table,
    _dummy_seat,
    _fields,
    _last_scoring,
    _points,
    _power_shift,
    _put_dummy,
    _refused,
    _round_of_plain_turns,
    _to_turn,
    _two,
)

# More face-down cards for whole games (the test card set's stacks are short): the table's own.
EXTRA_CARDS = tuple(
    {
        "id": f"extra_{s}",
        "stack": s,
        "copies": 4 + (s == 4),
        "name": f"Extra {s}",
        "effect": "move",
        "params": {"total": 1, "own": 1, "foreign": 0},
    }
    for s in (1, 2, 3, 4)
)
THREE = ["purple", "blue", "green"]


def _three(**kw) -> Game:
    return new_game(players=THREE, board_file=BOARD_2_3, **kw)


# ================================================================== Setup


def test_setup_stack_5_only_contains_the_kings_card():
    """ "Stacks 1 through 4 each contain 10 cards. Stack 5 only contains the King's card "Your
    Majesty"." and "Return the 10 Actions cards with ♠ and the 4 with ♣ ... to the box." """
    g = new_game()
    ask = g.asked()
    assert ask.kind == "reveal_action_cards" and sorted(ask.options["stacks"]) == [1, 2, 3, 4]
    offered = {c for s in ask.options["stacks"].values() for c in s}
    assert not offered & {"exile", "entourage", "chalet", "rebellion"}  # the ♠ cards stay in the box
    _refused(g, ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup", "exile"]), "reveal")
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    assert g.state.revealed[5] == "your_majesty"


def test_setup_home_regions_differ_from_the_kings_region():
    """ "Reveal a card and place the King in the region shown on the card. ... Starting with you,
    each player draws 1 Region card." (cards drawn from one stack: never the King's region)"""
    with pytest.raises(RuleViolation) as info:
        new_game(homes={"purple": "castilla", "blue": "aragon", "green": "sevilla", "orange": "cataluna"})
    assert info.value.rule == "setup"


def test_setup_grande_two_caballeros_seven_in_court_twenty_one_in_the_province():
    """ "Place your Grande and 2 Caballeros in the region shown on your card." "Each player takes
    7 Caballeros ... Court. Place all the remaining Caballeros (21 per color) ... Province." """
    g = new_game()
    for pid, home in {"purple": "galicia", "blue": "aragon"}.items():
        assert grande(g, pid) == home and count(g, pid, home) == 2
        assert court(g, pid) == 7 and provinces(g, pid) == 21


def test_setup_the_first_player_marker_holder_plays_first():
    """ "Whoever visited Spain most recently takes the First Player marker." and "The player with
    the First Player marker begins and plays any Power card" """
    g = new_game(start="green")
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    assert g.asked().players == ("green",)
    _refused(g, ev.PowerCardPlayed(player="purple", card=5), "turn-order")


# ================================================================== 2. Play Power cards


def test_power_card_must_differ_from_those_played_this_round():
    """ "Your Power card must have a different value from all the Power cards that have already
    been played this round." """
    g = new_game()
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    g.apply(ev.PowerCardPlayed(player="purple", card=8))
    _refused(g, ev.PowerCardPlayed(player="blue", card=8), "power-card-distinct")
    g.apply(ev.PowerCardPlayed(player="blue", card=3))
    _refused(g, ev.PowerCardPlayed(player="green", card=3), "power-card-distinct")


def test_the_highest_power_card_begins_then_the_next_highest():
    """ "The player who played the highest Power card begins and takes their turn. After that, the
    player with the 2nd highest Power card takes their turn." (Green 8, Blue 3, Orange 5, you 9)"""
    g = new_game(
        players=["green", "blue", "orange", "purple"],
        homes={"green": "galicia", "blue": "aragon", "orange": "sevilla", "purple": "cataluna"},
    )
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    for pid, c in (("green", 8), ("blue", 3), ("orange", 5), ("purple", 9)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    order = []
    while g.state.stage in ("replenish", "choose_card", "turn"):
        order.append(g.asked().players[0])
        finish_round_one_turn(g)
    assert order == ["purple", "green", "orange", "blue"]


def finish_round_one_turn(g: Game) -> None:
    """The player asked takes the lowest stack left and does nothing with it."""
    take(g, next(c for s, c in sorted(g.state.revealed.items()) if c))
    finish_turn(g)


def test_power_cards_are_played_once_per_game():
    """ "Put your played Power card face down on your discard pile." (it is not in the hand again)"""
    g = new_game()
    start_round(g, "intrigue")
    played = list(g.state.played)
    finish_round(g)
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "fiesta", "adopted_home"]))
    first = g.asked().players[0]
    assert played[seat(g, first)] in g.state.discards[seat(g, first)]
    _refused(g, ev.PowerCardPlayed(player=first, card=played[seat(g, first)]), "power-card-in-hand")


# ================================================================== 3. Take a turn: the court


def test_take_the_caballeros_shown_on_the_power_card_or_fewer():
    """ "take as many Caballeros from the general supply (the Province) as are shown on your
    played Power card" "You may take fewer" (the 9 brings 2)."""
    g = new_game()
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    for pid, c in (("purple", 9), ("blue", 8), ("green", 7), ("orange", 6)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    assert g.asked().options["max"] == 2
    _refused(g, ev.CourtReplenished(player="purple", from_provinces=3), "replenish-limit")
    g.apply(ev.CourtReplenished(player="purple", from_provinces=1))
    assert court(g, "purple") == 8 and provinces(g, "purple") == 20


def test_the_12_and_13_bring_no_caballeros_to_the_court():
    """ "Note: If you play the 12 or 13, you cannot take new Caballeros from the Province to your
    Court." """
    g = new_game()
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    for pid, c in (("purple", 13), ("blue", 12), ("green", 7), ("orange", 6)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    _refused(g, ev.CourtReplenished(player="purple", from_provinces=1), "replenish-limit")


def test_short_of_the_province_caballeros_come_from_the_regions_never_the_castillo():
    """ "Special case: If there are not enough of your Caballeros left in the Province, you may
    take your Caballeros from the regions on the map (not from the Castillo) to your Court." """
    g = new_game()
    p = seat(g, "purple")
    put(g, "purple", "castillo", 5)
    put(g, "purple", "toledo", g.state.provinces[p])  # the Province is empty
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    for pid, c in (("purple", 1), ("blue", 8), ("green", 7), ("orange", 6)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    finish_round_until(g, "purple")
    _refused(
        g, ev.CourtReplenished(player="purple", from_provinces=0, from_regions={"castillo": 1}), "castillo-no-removal"
    )
    _refused(
        g, ev.CourtReplenished(player="purple", from_provinces=0, from_regions={"castilla": 1}), "kings-region-taboo"
    )  # nothing is taken from the King's region either
    g.apply(ev.CourtReplenished(player="purple", from_provinces=0, from_regions={"toledo": 6}))
    assert court(g, "purple") == 13


def finish_round_until(g: Game, pid: str) -> None:
    while g.asked().players[0] != pid:
        finish_round_one_turn(g)


# ================================================================== Use an Action card


def test_choose_one_of_the_revealed_cards_no_longer_available_to_others():
    """ "choose one of the revealed Action cards ... These cards are no longer available for the
    other players this round." """
    g = new_game()
    start_round(g, "intrigue")
    take(g, "intrigue")
    finish_turn(g)
    g.apply(ev.CourtReplenished(player=g.asked().players[0], from_provinces=0))
    _refused(g, ev.ActionCardChosen(player=g.asked().players[0], stack=1), "action-card-available")


def test_place_only_next_to_the_kings_region_or_into_the_castillo():
    """ "You may only place Caballeros in neighbor regions of the King's region." "You may never
    place Caballeros directly in the King's region." "Instead ... you may throw some or all of
    them into the Castillo." (Castilla: Galicia, Navarra, Aragón, Toledo or the Castillo)"""
    g = new_game()
    pid = _to_turn(g, "fiesta")
    assert sorted(g.asked().options["place"]["areas"]) == sorted(["galicia", "navarra", "aragon", "toledo", "castillo"])
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"castilla": 1}), "kings-region-taboo")
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"granada": 1}), "placement-area")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"galicia": 1, "toledo": 1, "castillo": 1}))


def test_france_and_portugal_never_take_caballeros():
    """ "France and Portugal do not count as regions, so you may never place Caballeros there
    (nor your Grande or the King)." """
    g = new_game(king="navarra")
    pid = _to_turn(g, "fiesta")
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"france": 1}), "not-a-region")


def test_fewer_caballeros_in_the_court_than_the_card_forfeit_the_rest():
    """ "You may only use Caballeros from your Court. If you have fewer Caballeros than shown on
    your Action card, you forfeit the rest." """
    g = new_game()
    set_court(g, "purple", 1)
    pid = _to_turn(g, "fiesta")
    assert g.asked().options["place"]["max"] == 1
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"toledo": 2}), "placement-limit")


def test_actions_are_not_split():
    """ "You decide whether to perform the Special action first and then place the Caballeros, or
    vice versa. However, you cannot split the actions. You must fully complete one action before
    performing the other." """
    g = new_game()
    put(g, "purple", "granada", 2)
    pid = _to_turn(g, "intrigue")
    start_special(g, pid)
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="valencia"))
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"toledo": 1}), "phase-order")


def test_the_special_action_may_be_left_out_entirely():
    """ "You may also choose to not perform the Special action at all and only place your
    Caballeros." """
    g = new_game()
    pid = _to_turn(g, "fiesta")
    g.apply(ev.SpecialActionSkipped(player=pid))
    g.apply(ev.CaballerosPlaced(player=pid, placements={"toledo": 1}))
    assert g.state.scores == [0, 0, 0, 0]


def test_a_special_action_begun_is_performed_as_far_as_possible():
    """ "If you perform the Special action, you must perform as much of the action as possible,
    even if it benefits another player more than you" (Withdrawal cannot be stopped halfway)."""
    g = new_game()
    pid = _to_turn(g, "withdrawal")
    start_special(g, pid)
    _refused(g, ev.SpecialActionFinished(player=pid), "special-action")


def test_the_used_card_goes_face_up_on_the_discard_pile():
    """ "Place your used Action card face up on the discard pile." (not under its stack)"""
    g = new_game()
    pid = _to_turn(g, "fiesta")
    g.apply(ev.SpecialActionSkipped(player=pid))
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    assert g.state.discard_pile == ["fiesta"] and g.state.stacks_bottom == [[], [], [], []]
    assert public_view(g.state).discard_pile == ["fiesta"]  # face up: public


# ================================================================== The Castillo


def test_castillo_never_moved_out_of_but_thrown_into():
    """ "If you move Caballeros, you may never move them from the Castillo. You may, however,
    throw some or all of them into the Castillo." """
    g = new_game()
    put(g, "purple", "castillo", 3)
    put(g, "purple", "granada", 2)
    pid = _to_turn(g, "intrigue")
    start_special(g, pid)
    _refused(g, ev.CaballerosMoved(player=pid, owner=pid, source="castillo", target="granada"), "castillo-no-removal")
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="granada", target="castillo", count=2))
    assert count(g, pid, "castillo") == 5


def test_no_one_may_check_how_many_caballeros_are_inside():
    """ "No one may ever check how many Caballeros are inside" (nor work it out: 30 minus the
    Province, Court and board)."""
    g = new_game()
    put(g, "blue", "castillo", 4)
    view = public_view(g.state).model_dump_json()
    assert "provinces" not in view and '"castillo": {' not in view
    assert player_view(g.state, "purple").private.castillo == 0
    assert player_view(g.state, "blue").private.castillo == 4
    assert "17" not in [str(v) for v in public_view(g.state).model_dump()["players"][1].values()]


def test_the_castillo_is_opened_only_at_a_general_scoring_or_a_castillo_scoring():
    """ "The only time you may open the Castillo's gate is during a general scoring (after the 3rd,
    6th, and 9th round) or a special Castillo scoring" (Revelation)."""
    g = new_game()
    put(g, "blue", "castillo", 2)
    pid = _to_turn(g, "fiesta")
    _refused(g, ev.CastilloCounted(counts={"blue": 3}), "phase-order")
    g.apply(ev.SpecialActionSkipped(player=pid))
    g = new_game()
    put(g, "blue", "castillo", 2)
    pid = _to_turn(g, "revelation")
    start_special(g, pid)
    g.apply(ev.CastilloCounted(counts={"blue": 3}))  # the table's count wins
    assert _points(_last_scoring(g)) == {"blue": 5} and count(g, "blue", "castillo") == 3


# ================================================================== The King's region is taboo


def test_taboo_moves_into_and_out_of_the_kings_region():
    """ "Nothing in the King's region may ever be changed. No Caballeros, Grandes, or Scoring tiles
    may be placed in or removed from the King's region." (moving, "Remember: As usual, the
    King's region is taboo. You can never move Caballeros to or from the King's region.")"""
    g = new_game()
    put(g, "blue", "castilla", 2)
    put(g, "blue", "granada", 2)
    pid = _to_turn(g, "intrigue")
    start_special(g, pid)
    _refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="castilla", target="granada"), "kings-region-taboo")
    _refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="granada", target="castilla"), "kings-region-taboo")
    assert "castilla" not in g.asked().options["targets"] and "castilla" not in g.asked().options["sources"]


def test_taboo_sending_back():
    """ "You can never take them from the Castillo or the King's region." (Send Caballeros back)"""
    g = new_game()
    clear(g)
    put(g, "blue", "castilla", 3)
    put(g, "blue", "castillo", 3)
    set_court(g, "blue", 1)
    pid = _to_turn(g, "withdrawal")
    start_special(g, pid)
    assert g.asked().players == ("blue",) and g.asked().options["owners"]["blue"]["count"] == 1
    _refused(g, ev.CaballerosSentBack(player="blue", owner="blue", from_regions={"castilla": 1}), "kings-region-taboo")
    _refused(g, ev.CaballerosSentBack(player="blue", owner="blue", from_regions={"castillo": 1}), "castillo-no-removal")


def test_taboo_placement_card_intrigue_style_extra_never_into_the_kings_region():
    """ "Important: You may never place Caballeros directly in the King's region." — under
    Rebellion the King's region is the Castillo: nothing is thrown in."""
    g = new_game()
    g.state.king = g.board.castillo
    pid = _to_turn(g, "fiesta")
    assert "castillo" not in g.asked().options["place"]["areas"]
    assert len(g.asked().options["place"]["areas"]) == 9  # "All regions are considered neighboring"
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"castillo": 1}), "kings-region-taboo")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"castilla": 1, "granada": 1}))


# ================================================================== 4. End of the round


def test_remaining_action_cards_go_face_up_on_the_discard_pile_but_not_the_kings_card():
    """ "Place any remaining Action cards face up on the discard pile." "Do not discard the King's
    card, it is available in every round." (4 players, 5 cards: with Your Majesty left over,
    nothing else remains)"""
    g = new_game(players=THREE, board_file=BOARD_2_3)
    start_round(g, "intrigue")
    up = dict(g.state.revealed)
    _round_of_plain_turns(g)
    assert sorted(g.state.discard_pile) == sorted(c for s, c in up.items() if s != 5)
    assert "your_majesty" not in g.state.discard_pile and g.state.stacks_bottom == [[], [], [], []]
    g.apply(ev.ActionCardsRevealed(cards=["militia", "empowerment", "outposts", "enactment"]))
    assert g.state.revealed[5] == "your_majesty"


def test_the_lowest_power_card_takes_the_first_player_marker():
    """ "Whoever played the lowest Power card in this round takes the First Player marker." """
    g = new_game()
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    for pid, c in (("purple", 9), ("blue", 3), ("green", 5), ("orange", 8)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    _round_of_plain_turns(g)
    assert g.state.players[g.state.start_player] == "blue"
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "fiesta", "adopted_home"]))
    assert g.asked().players == ("blue",)
    assert g.state.discards[seat(g, "purple")] == {9}  # "Put your played Power card ... discard pile"


# ================================================================== 5. General scoring


def test_every_player_sets_a_disc_and_all_are_revealed_at_once():
    """ "Secretly, move the arrow on the Secret disc to a region ... All of you do this step
    simultaneously." and "Finally, everyone simultaneously reveals their Secret disc" """
    g = _castillo_table()
    put(g, "purple", "castillo", 3)
    start_round(g, "intrigue")
    finish_round(g)
    ask = g.asked()
    assert ask.kind == "secret_disc" and set(ask.players) == {"purple", "orange", "blue", "green"}
    g.apply(ev.SecretDiscSet(player="purple", region="granada"))
    _refused(g, ev.SecretDiscsRevealed(), "secret-disc")
    view = public_view(g.state)
    assert view.secret_discs_chosen == ["purple"] and "granada" not in str(view.asked.options)
    assert player_view(g.state, "orange").private.secret_disc is None
    _refused(g, ev.SecretDiscSet(player="orange", region="castillo"))
    _refused(g, ev.SecretDiscSet(player="orange", region="france"), "not-a-region")


def test_castillo_scoring_example_5_3_1_and_the_move_to_granada():
    """ "You have 3 Caballeros in the Castillo, Blue 2 and Orange 1. You have the majority and get
    5 points. Blue has the 2nd most and gets 3 points. Orange has the 3rd most and gets 1 point.
    Green has no Caballeros in the Castillo and therefore gets no points." "You move your 3
    Caballeros from the Castillo to Granada." """
    g = _castillo_table(king="castilla")
    for pid, k in (("purple", 3), ("blue", 2), ("orange", 1)):
        put(g, pid, "castillo", k)
    start_round(g, "intrigue")
    general_scoring(g, {"purple": "granada", "blue": "toledo", "orange": "galicia", "green": "aragon"})
    castillo = [ln for ln in g.state.scoring_log[-1].lines if ln.area == "castillo"]
    assert _points(castillo) == {"purple": 5, "blue": 3, "orange": 1}
    assert count(g, "purple", "granada") == 3 and count(g, "purple", "castillo") == 0


def test_a_disc_on_the_kings_region_returns_the_caballeros_to_the_court():
    """ "If you choose the King's region with the disc or your disc is not set clearly, your
    Caballeros will return to your Court instead of moving to a region." """
    g = _castillo_table(king="castilla")
    put(g, "blue", "castillo", 2)
    start_round(g, "intrigue")
    general_scoring(g, {"blue": "castilla"})
    assert count(g, "blue", "castilla") == 0 and court(g, "blue") == 2 and count(g, "blue", "castillo") == 0


def test_the_grande_does_not_count_towards_the_majority():
    """ "Important: Your Grande can give you bonus points (see below), but does not count toward
    majority." (Green's Grande in Navarra; Green 1, Orange 2: Orange is first)"""
    g = _castillo_table(king="granada")
    put(g, "green", "navarra", 1)
    put(g, "orange", "navarra", 2)
    start_round(g, "intrigue")
    general_scoring(g, {})
    navarra = [ln for ln in _last_scoring(g) if ln.area == "navarra"]
    assert _points(navarra) == {"orange": 5, "green": 3}


def test_ties_navarra_example_all_tied_take_the_next_lower_place():
    """ "If some of you have the same number of Caballeros ... all tied players score the next
    lower position. It doesn't matter how many players tie." "You, Blue, and Green each have 2
    Caballeros ... each of you gets 3 points. Orange has 1 Caballero and gets 1 point for 3rd
    place." """
    g = _castillo_table(king="granada")
    for pid, k in (("purple", 2), ("blue", 2), ("green", 2), ("orange", 1)):
        put(g, pid, "navarra", k)
    start_round(g, "intrigue")
    general_scoring(g, {})
    navarra = [ln for ln in _last_scoring(g) if ln.area == "navarra"]
    assert _points(navarra) == {"purple": 3, "blue": 3, "green": 3, "orange": 1}
    assert not [ln for ln in navarra if ln.kind != "place"]  # Green's Grande: no bonus in a tie


def test_a_tie_for_second_takes_the_third_place_points():
    """ "all tied players score the next lower position" (Valencia 5/3/2: 1st alone 5, two tied
    for 2nd take 2 each)."""
    g = _castillo_table(king="granada")
    for pid, k in (("purple", 4), ("blue", 2), ("green", 2), ("orange", 1)):
        put(g, pid, "valencia", k)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert _points([ln for ln in _last_scoring(g) if ln.area == "valencia"]) == {
        "purple": 5,
        "blue": 2,
        "green": 2,
        "orange": 0,
    }


def test_kings_bonus_grandes_bonus_both_in_one_region_and_never_on_a_tie():
    """ "If you score first place in the King's region, you get 2 points extra." "If you score
    first place in the region with your Grande, you also get 2 points extra." "Note: In case of
    a tie, you never get bonus points." "Note: It is possible to receive both the King's bonus
    and the Grande's bonus in one region." """
    g = _castillo_table(king="granada")
    put(g, "purple", "granada", 3)  # your Grande is in Granada too: 6 + 2 + 2
    put(g, "orange", "granada", 1)
    put(g, "blue", "sevilla", 2)  # Blue's Grande, tied with Green: no bonus
    put(g, "green", "sevilla", 2)
    start_round(g, "intrigue")
    general_scoring(g, {})
    lines = _last_scoring(g)
    assert _points([ln for ln in lines if ln.area == "granada"]) == {"purple": 10, "orange": 3}
    assert {ln.kind for ln in lines if ln.area == "granada" and ln.player == "purple"} == {
        "place",
        "king_bonus",
        "home_bonus",
    }
    assert _points([ln for ln in lines if ln.area == "sevilla"]) == {"blue": 3, "green": 3}


def test_bonuses_apply_in_special_scorings_too():
    """ "These bonuses apply during both general and special scorings." (Fiesta: the King in
    Navarra, Green's Grande there, Green alone first: 5 + 2 + 2)"""
    g = new_game(
        king="navarra", homes={"purple": "galicia", "blue": "aragon", "green": "sevilla", "orange": "cataluna"}
    )
    clear(g)
    g.state.grandes[seat(g, "green")] = g.board.area_index["navarra"]
    put(g, "green", "navarra", 2)
    pid = _to_turn(g, "fiesta")
    start_special(g, pid)
    assert _points(_last_scoring(g)) == {"green": 9}


def test_a_scoring_tile_replaces_the_board_and_keeps_the_bonuses():
    """ "They replace a printed Scoring board in a region." "In regions with such a Scoring tile,
    you still receive the King's and Grande's bonuses." (tile 8/4/0 in Granada, the King
    there, your Grande there: 8 + 2 + 2)"""
    g = _castillo_table(king="granada")
    g.state.mobile["tile_b"] = g.board.area_index["granada"]
    put(g, "purple", "granada", 2)
    put(g, "orange", "granada", 1)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert _points([ln for ln in _last_scoring(g) if ln.area == "granada"]) == {"purple": 12, "orange": 4}


def test_the_game_ends_after_the_third_general_scoring_and_a_tie_shares_the_victory():
    """ "The game ends after the 3rd general scoring." "In case of a tie, you share the victory" """
    g = new_game(round=9)
    clear(g)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert g.state.stage == "over" and g.asked().kind == "game_over"
    assert sorted(g.asked().options["winners"]) == sorted(["purple", "blue", "green", "orange"])
    _refused(g, ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]), "game-over")


def test_the_short_game_starts_on_space_2_and_skips_4_and_7():
    """ "You can also play a shorter game that lasts only 6 rounds. During setup, start the Round
    marker on space 2. When advancing the Round marker, skip spaces 4 and 7." """
    g = new_game(variant="short", extra_cards=EXTRA_CARDS)
    rounds, scored_after = [], []
    firsts = iter(["intrigue", "militia", "intrigue", "infiltration", "intrigue", "stand_in"])
    while g.state.stage != "over":
        rounds.append(g.state.round)
        scorings = len(g.state.scoring_log)
        start_round(g, next(firsts))
        if g.state.round in (3, 6, 9):
            general_scoring(g, {})
            scored_after.append(rounds[-1])
        else:
            finish_round(g)
        assert len(g.state.scoring_log) == scorings + (rounds[-1] in (3, 6, 9))
    assert rounds == [2, 3, 5, 6, 8, 9] and scored_after == [3, 6, 9]


# ================================================================== 2-player game: the dummy


def test_dummy_a_third_colour_beside_the_board_shuffled_power_cards():
    """ "Choose a third color for a dummy and place the Caballeros of that color next to the game
    board. Shuffle the corresponding Power cards, and place them next to it." (no Grande, no
    court, no home; never a player: no home region card for it)"""
    g = _two()
    d = _dummy_seat(g)
    assert g.state.players[d] == DUMMY and g.state.grandes[d] is None
    assert g.state.court[d] == 0 and g.state.provinces[d] == 30 and g.state.hands[d] == set(range(1, 14))
    with pytest.raises(RuleViolation):
        new_game(players=TWO, board_file=BOARD_2_3)  # 2 players: the dummy must be named
    with pytest.raises(RuleViolation):
        _two(start=DUMMY)  # never the first player


def test_dummy_two_region_cards_two_caballeros_each_and_none_in_the_kings_region():
    """ "At the beginning of each round, draw 2 Region cards. Place 2 Caballeros of the dummy in
    each of the drawn regions." "If a card shows the King's region, do not place any Caballeros
    there." """
    g = _two()
    ask = g.asked()
    assert ask.kind == "dummy_region_cards" and ask.players == ("table",) and ask.options["draw"] == 2
    g.apply(ev.DummyRegionCardsDrawn(regions=["castilla", "toledo"]))
    d = _dummy_seat(g)
    assert g.state.counts[g.board.area_index["castilla"]][d] == 0
    assert g.state.counts[g.board.area_index["toledo"]][d] == 2 and g.state.provinces[d] == 28
    assert g.asked().kind == "reveal_action_cards"


def test_dummy_with_the_king_by_the_castillo_every_region_card_places():
    """ "If a card shows the King's region, do not place any Caballeros there." — after Rebellion
    the King's region is the Castillo, which no Region card shows."""
    g = _two()
    g.state.king = g.board.castillo
    assert g.asked().options["kings_region"] is None
    g.apply(ev.DummyRegionCardsDrawn(regions=["castilla", "toledo"]))
    d = _dummy_seat(g)
    assert g.state.counts[g.board.area_index["castilla"]][d] == 2


def test_dummy_no_region_cards_once_all_thirty_are_on_the_board():
    """ "If all 30 are on the game board, do not draw any more Region cards." """
    g = _two(round=2)
    _put_dummy(g, "granada", 28)
    _refused(g, ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]), "dummy-region-cards")
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia"]))  # the first card takes the last 2
    assert g.state.provinces[_dummy_seat(g)] == 0
    start_round(g, "intrigue")
    finish_round(g)
    assert g.asked().kind == "reveal_action_cards"  # round 3 begins without a draw
    _refused(g, ev.DummyRegionCardsDrawn(regions=["aragon"]), "phase-order")
    # A correction that takes the dummy's last Caballeros out after the round began: no draw.
    g2 = _two()
    g2.apply(ev.TableCorrected(regions={"galicia": {DUMMY: 30}}))
    assert g2.asked().kind == "reveal_action_cards"
    _refused(g2, ev.DummyRegionCardsDrawn(regions=["toledo"]), "dummy-region-cards")
    g2.apply(ev.ActionCardsRevealed(cards=["intrigue", "fiesta", "coup"]))
    assert g2.asked().kind == "dummy_power_card"


def test_dummy_region_cards_are_reshuffled_after_each_general_scoring():
    """ "Then place the cards on a discard pile. After each general scoring, shuffle all Region
    cards." """
    g = _two(round=3)
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    assert public_view(g.state).dummy_region_cards == ["galicia", "toledo"]
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert len(g.asked().options["pile"]) == 9 and public_view(g.state).dummy_region_cards == []


def test_dummy_power_card_is_turned_up_first_and_its_value_is_taken():
    """ "Before you play a Power card, turn over the top Power card from the dummy's stack. Then,
    the player with the First Player marker begins" "As with other players, you can not play a
    card with the same value." """
    g = _two(start="blue")
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "adopted_home"]))
    assert g.asked().kind == "dummy_power_card" and g.asked().players == ("table",)
    _refused(g, ev.PowerCardPlayed(player="blue", card=5), "phase-order")
    g.apply(ev.DummyPowerCardRevealed(card=11))
    assert g.asked().players == ("blue",)
    _refused(g, ev.PowerCardPlayed(player="blue", card=11), "power-card-distinct")


def test_dummy_moves_by_its_value_and_takes_the_card_with_the_most_caballeros_unused():
    """ "As usual, the value of the revealed Power card defines when the dummy makes its move."
    "The dummy always takes the remaining Action card with the most Caballeros shown on the
    bottom. Immediately put this card on the discard pile (or flip it over if it is the King's
    card). The dummy does not use the card." (the dummy's 13 first: Your Majesty, 5)"""
    g = _two()
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "adopted_home"]))
    g.apply(ev.DummyPowerCardRevealed(card=13))
    king_before = g.state.king
    g.apply(ev.PowerCardPlayed(player="purple", card=2))
    g.apply(ev.PowerCardPlayed(player="blue", card=3))
    assert g.state.revealed[5] is None and g.state.king == king_before
    assert "your_majesty" not in g.state.discard_pile and g.asked().players == ("blue",)
    g.apply(ev.CourtReplenished(player="blue", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="blue", stack=1))
    finish_turn(g)
    g.apply(ev.CourtReplenished(player="purple", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="purple", stack=4))
    finish_turn(g)
    # end of round: the one left (the Veto, stack 2) is discarded; the dummy's 13 is discarded
    assert g.state.discard_pile == ["intrigue", "adopted_home", "veto"]
    assert 13 in g.state.discards[_dummy_seat(g)]
    g.apply(ev.DummyRegionCardsDrawn(regions=["aragon", "sevilla"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "empowerment", "enactment"]))
    assert g.state.revealed[5] == "your_majesty"
    _refused(g, ev.DummyPowerCardRevealed(card=13), "dummy-power-card")


def test_dummy_discards_the_card_it_takes_even_the_veto():
    """ "Immediately put this card on the discard pile ... The dummy does not use the card." (the
    dummy's 13 after Your Majesty is taken: the Veto is not held by anyone)"""
    g = _two()
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "adopted_home"]))
    g.apply(ev.DummyPowerCardRevealed(card=10))
    g.apply(ev.PowerCardPlayed(player="purple", card=13))
    g.apply(ev.PowerCardPlayed(player="blue", card=1))
    g.apply(ev.CourtReplenished(player="purple", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="purple", stack=5))
    g.apply(ev.CaballerosPlaced(player="purple", placements={}))
    g.apply(ev.SpecialActionSkipped(player="purple"))
    assert g.state.discard_pile == ["adopted_home"]  # stack 4: the most after the King's card
    g.apply(ev.CourtReplenished(player="blue", from_provinces=0))
    g.apply(ev.ActionCardChosen(player="blue", stack=1))
    finish_turn(g)
    assert "veto" in g.state.discard_pile and g.state.vetoes == []


def test_dummy_never_gets_the_first_player_marker():
    """ "Then, the player with the First Player marker begins (the dummy never gets the First
    Player marker)." (the dummy's 1 is the lowest: Blue's 4 takes the marker)"""
    g = _two()
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "adopted_home"]))
    g.apply(ev.DummyPowerCardRevealed(card=1))
    g.apply(ev.PowerCardPlayed(player="purple", card=9))
    g.apply(ev.PowerCardPlayed(player="blue", card=4))
    _round_of_plain_turns(g)
    assert g.state.players[g.state.start_player] == "blue"


def test_dummy_caballeros_change_majorities_but_score_nothing_and_take_no_bonus():
    """ "The dummy also places Caballeros in Spain. It can change majorities, but does not get
    points." and "Only the first two numbers on the Scoring board count." (Toledo 7/4/2, the
    King there: the dummy 3 first, Purple 2 second: 4 and no King's bonus; Blue 1 third: 0)"""
    g = _two(round=3)
    clear(g)
    g.state.king = g.board.area_index["toledo"]
    _put_dummy(g, "toledo", 3)
    put(g, "purple", "toledo", 2)
    put(g, "blue", "toledo", 1)
    start_round(g, "intrigue")
    general_scoring(g, {})
    toledo = [ln for ln in _last_scoring(g) if ln.area == "toledo"]
    assert _points(toledo) == {DUMMY: 0, "purple": 4, "blue": 0}
    assert not [ln for ln in toledo if ln.kind != "place"]
    assert g.state.scores[_dummy_seat(g)] == 0


def test_dummy_and_players_are_moved_and_sent_back_by_the_normal_rules():
    """ "You may move the dummy's Caballeros or send them back from the regions according to the
    normal rules." (Intrigue: the dummy's are opposing Caballeros)"""
    g = _two()
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "adopted_home"]))
    g.apply(ev.DummyPowerCardRevealed(card=1))
    g.apply(ev.PowerCardPlayed(player="purple", card=13))
    g.apply(ev.PowerCardPlayed(player="blue", card=12))
    take(g, "intrigue")
    start_special(g, "purple")
    assert DUMMY in g.asked().options["sources"]["toledo"]
    g.apply(ev.CaballerosMoved(player="purple", owner=DUMMY, source="toledo", target="castillo", count=2))
    assert g.state.counts[g.board.castillo][_dummy_seat(g)] == 2


def test_dummy_is_skipped_when_a_card_would_require_its_action():
    """ "But if an Action card would require the dummy's action (e.g. choose a region), skip the
    dummy." (Civil War asks only Blue; Withdrawal asks only Blue)"""
    g = _two()
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "civil_war", "adopted_home"]))
    g.apply(ev.DummyPowerCardRevealed(card=1))
    g.apply(ev.PowerCardPlayed(player="purple", card=13))
    g.apply(ev.PowerCardPlayed(player="blue", card=12))
    take(g, "civil_war")
    start_special(g, "purple")
    assert g.asked().kind == "secret_disc" and g.asked().players == ("blue",)
    _refused(g, ev.SecretDiscSet(player=DUMMY, region="toledo"), "secret-disc")


def test_dummy_sets_no_disc_at_the_general_scoring():
    """The dummy is never asked anything: at a general scoring only the two players set discs."""
    g = _two(round=3)
    start_round(g, "intrigue")
    finish_round(g)
    assert set(g.asked().players) == set(TWO)
    _refused(g, ev.SecretDiscSet(player=DUMMY, region="galicia"), "secret-disc")


def test_dummy_and_every_player_count_in_random_two_player_games_no_ask_is_the_dummys():
    """The dummy is never asked anything, in whole random 2-player games with every module
    (invariants checked after every event)."""
    from engine.flow import apply_event, asked
    from engine.game import board_for, start_state
    from engine.playout import random_setup, standin_files

    for seed, mods in ((1, ()), (2, ("new-regency", "old-hands", "power-shift"))):
        rng = random.Random(seed)
        bf, cf = standin_files("2023", 2)
        probe = ev.GameSetup(
            players=["a", "b"], king="x", homes={}, start_player="a", rules="2023", board_file=bf, cards_file=cf
        )
        board = board_for(probe)
        state = start_state(random_setup(rng, 2, board, "full", "2023", mods, bf, cf, True), board)
        dummy = state.players[state.dummy]
        while state.stage != "over":
            ask = asked(state)
            assert dummy not in ask.players and dummy not in ask.vetoes, ask
            event = random_event(rng, ask)
            before = snapshot_for_checks(state)
            apply_event(state, event)
            check_invariants(state, before, event)
        assert state.dummy not in state.winners


# ================================================================== 2 and 3 players: scoring, four stacks


@pytest.mark.parametrize("players", [TWO, THREE])
def test_two_and_three_players_score_only_the_first_two_numbers(players):
    """ "Scoring changes: Only the first two numbers on the Scoring board count." (Valencia
    5/3/2: a third place earns nothing; two tied for first take the second number)"""
    g = (_two if len(players) == 2 else _three)(round=3)
    clear(g)
    g.state.king = g.board.area_index["granada"]
    put(g, "purple", "valencia", 3)
    put(g, "blue", "valencia", 2)
    if len(players) == 3:
        put(g, "green", "valencia", 1)
    put(g, "purple", "toledo", 1)
    put(g, "blue", "toledo", 1)
    start_round(g, "intrigue")
    general_scoring(g, {})
    lines = _last_scoring(g)
    expected = {"purple": 5, "blue": 3} | ({"green": 0} if len(players) == 3 else {})
    assert _points([ln for ln in lines if ln.area == "valencia"]) == expected
    assert _points([ln for ln in lines if ln.area == "toledo"]) == {"purple": 4, "blue": 4}


def test_two_players_always_four_stacks_three_may_choose():
    """2 players: "Shuffle the Action cards in stacks 2 and 3 and place them face down next to
    stack 1. You will only have 4 stacks to choose from instead of 5." 3 players: "Optional: ..."
    """
    g2 = _two()
    g2.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    stacks = g2.asked().options["stacks"]
    assert sorted(stacks) == [1, 2, 4] and "fiesta" in stacks[2] and "veto" in stacks[2]
    g2.apply(ev.ActionCardsRevealed(cards=["intrigue", "fiesta", "coup"]))
    assert sorted(g2.state.revealed) == [1, 2, 4, 5]
    assert sorted(_three().asked().options["stacks"]) == [1, 2, 3, 4]
    assert sorted(_three(modules=["four-stacks"]).asked().options["stacks"]) == [1, 2, 4]
    with pytest.raises(RuleViolation) as info:
        new_game(modules=["four-stacks"])
    assert info.value.rule == "setup"


# ================================================================== New Regency


def test_new_regency_the_spade_cards_replace_the_kings_card_as_the_fifth_stack():
    """ "Set up the game as usual, but return the King's card to the box. Instead, shuffle the 10
    Action cards with the ♠ symbol and place them face down as the 5th stack next to the
    others." """
    g = new_game(modules=["new-regency"])
    stacks = g.asked().options["stacks"]
    assert sorted(stacks) == [1, 2, 3, 4, 5] and set(stacks[5]) == {"exile", "entourage", "chalet", "rebellion"}
    _refused(g, ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup", "your_majesty"]), "reveal")
    _refused(g, ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]), "reveal")
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup", "chalet"]))
    assert g.state.revealed[5] == "chalet"


def test_new_regency_the_fifth_card_is_discarded_at_the_round_end_used_or_not():
    """ "At the beginning of each round, you reveal the top card. At the end of the round, discard
    the card (whether it was used or not) and reveal the next one from the stack." """
    g = new_game(modules=["new-regency"])
    start_round(g, "chalet")
    _round_of_plain_turns(g)  # nobody takes stack 5
    assert "chalet" in g.state.discard_pile
    assert g.asked().options["stacks"][5]["chalet"] == 1
    start_round(g, "exile")
    pid = take(g, "exile")
    finish_turn(g)
    assert "exile" in g.state.discard_pile and pid


def test_new_regency_a_spade_card_the_table_adds_mid_game_goes_face_down_in_stack_5():
    """ "The 5th stack follows the same rules as the other Action card stacks." — a ♠ card the
    card set does not list, added by the table from the effect vocabulary, is dealt face down
    there like a card added to stacks 1-4, and the game goes on."""
    g = new_game(modules=["new-regency"])
    g.apply(
        ev.CardSetCompleted(
            cards=[
                {
                    "id": "new_spade",
                    "stack": 5,
                    "copies": 1,
                    "name": "New Spade",
                    "effect": "your_majesty",
                    "module": "new-regency",
                    "placement": 3,
                }
            ]
        )
    )
    assert g.asked().options["stacks"][5]["new_spade"] == 1
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup", "new_spade"]))
    assert g.state.revealed[5] == "new_spade"
    before = g.state.regency_undrawn.get("exile", 0)
    g.apply(ev.CardSetCompleted(cards=[{"id": "exile", "copies": 3}]))  # between steps, mid-round too
    assert (
        g.state.regency_undrawn["exile"] == 3 - sum(1 for c in g.state.discard_pile if c == "exile")
        and g.state.regency_undrawn["exile"] >= before
    )


def test_new_regency_copies_entered_for_a_shipped_spade_card_are_dealt():
    """The shipped ♠ cards have no published copies: they may turn up while the ♠ stack has room
    (nobody can count a face-down stack); entered during the game their copies are dealt."""
    g = new_game(modules=["new-regency"], files=False, board_file=None)
    assert g.asked().options["stacks"][5] == {"exile": 1, "entourage": 1, "chalet": 1, "rebellion": 1}
    g.apply(ev.CardSetCompleted(cards=[{"id": "rebellion", "copies": 1, "placement": 3}]))
    assert g.asked().options["stacks"][5] == {"exile": 1, "entourage": 1, "chalet": 1, "rebellion": 1}
    assert g.state.regency_undrawn == {"rebellion": 1}


# ================================================================== Old Hands

CLUB = {
    "id": "club_one",
    "stack": 1,
    "copies": 1,
    "name": "Club One",
    "effect": "militia",
    "params": {"count": 2},
    "module": "old-hands",
}


def test_old_hands_each_club_card_replaces_one_random_card_of_its_stack():
    """ "Then, for each ♣ card you are adding, return 1 random card from the corresponding stack
    back to the box." "Then, add the new Action cards to their corresponding stacks." """
    g = new_game(modules=["old-hands"], extra_cards=(CLUB,), removed_cards=["militia"])
    stack1 = g.state.stacks_undrawn[0]
    assert stack1.get("club_one") == 1 and "militia" not in stack1
    with pytest.raises(RuleViolation) as info:
        new_game(modules=["old-hands"], extra_cards=(CLUB,), removed_cards=["veto"])  # stack 2, not 1
    assert info.value.rule == "setup" and "stack 1" in info.value.detail
    with pytest.raises(RuleViolation):
        new_game(modules=["old-hands"], extra_cards=(CLUB,))  # nothing returned to the box
    assert "club_one" not in new_game(extra_cards=(CLUB,)).state.stacks_undrawn[0]  # not chosen


# ================================================================== Power Shift


def test_power_shift_three_dealt_one_passed_left_in_secret():
    """ "Then deal 3 Modifier cards to each player." "Everyone looks at their 3 Modifier cards and
    passes 1 of them face down to the player to their left. Once everyone has passed a card, add
    all 3 Modifier cards to your hand of Power cards." """
    from tests.engine.effects.game2023 import HOMES, cards_file

    cf = cards_file()
    cf["modifiers"] = MODIFIERS
    g = Game(
        ev.GameSetup(
            players=["purple", "blue", "green", "orange"],
            rules="2023",
            modules=["power-shift"],
            king="castilla",
            homes={p: HOMES[p] for p in DEALT},
            start_player="purple",
            board_file=dict(BOARD_FILE),
            cards_file=cf,
        )
    )
    assert g.asked().kind == "deal_modifiers"
    _refused(g, ev.ModifiersDealt(player="purple", modifiers=["p0", "p0", "m0"]), "power-shift")
    for pid in DEALT:
        g.apply(ev.ModifiersDealt(player=pid, modifiers=DEALT[pid]))
    _refused(g, ev.ModifierPassed(player="purple", modifier="p1"), "power-shift")  # not purple's
    g.apply(ev.ModifierPassed(player="purple", modifier="court_up"))
    assert "court_up" in g.state.modifier_hands[seat(g, "purple")]  # nothing moves before all passed
    assert "court_up" not in public_view(g.state).model_dump_json()
    assert "court_up" not in player_view(g.state, "blue").model_dump_json()
    for pid in ("blue", "green", "orange"):
        g.apply(ev.ModifierPassed(player=pid, modifier=DEALT[pid][0]))
    assert g.state.modifier_hands[seat(g, "blue")] == {"m1", "pp0", "court_up"}  # Blue is Purple's left
    assert g.state.modifier_hands[seat(g, "purple")] == {"p0", "m0", "p3"}  # from Orange, on the right


def test_power_shift_examples_9_plus_1_after_a_9_but_not_7_plus_1_after_an_8():
    """ "Example: You may play a 9 +1 (=10) if someone already played a 9." "Example: If a player
    before you played an 8, you cannot play a 7 +1 (=8)." "Important: the total value must be
    different from the values that have already been played." """
    g = _power_shift()
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    g.apply(ev.PowerCardPlayed(player="purple", card=9))
    g.apply(ev.PowerCardPlayed(player="blue", card=9, modifier="p0"))  # Blue holds Purple's p0
    g.apply(ev.PowerCardPlayed(player="green", card=8))
    _refused(g, ev.PowerCardPlayed(player="orange", card=7, modifier="p2"), "power-card-distinct")
    _refused(g, ev.PowerCardPlayed(player="orange", card=10), "power-card-distinct")  # 10 = 9 + 1
    _refused(g, ev.PowerCardPlayed(player="orange", card=5, modifier="pp0"), "power-shift")  # not in hand


def test_power_shift_the_ability_after_the_court_before_the_action_card_then_discarded():
    """ "If you play a Modifier card, you may use the special ability at the beginning of your turn:
    after taking Caballeros to your Court, but before choosing an Action card. After your turn,
    discard your played Modifier card with your Power card." """
    g = _power_shift(passes={"purple": "p0", "blue": "p1", "green": "p2", "orange": "p3"})
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    g.apply(ev.PowerCardPlayed(player="purple", card=12, modifier="court_up"))  # 13: first
    for pid, c in (("blue", 11), ("green", 10), ("orange", 9)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    _refused(g, ev.ModifierAbilityUsed(player="purple"), "phase-order")  # the court comes first
    g.apply(ev.CourtReplenished(player="purple", from_provinces=0))
    assert g.asked().kind == "modifier_ability"
    _refused(g, ev.ActionCardChosen(player="purple", stack=1), "phase-order")
    g.apply(ev.ModifierAbilityUsed(player="purple"))
    g.apply(ev.CourtReplenished(player="purple", from_provinces=1))
    assert court(g, "purple") == 8 and g.asked().kind == "choose_action_card"
    _round_of_plain_turns(g)
    assert "court_up" in g.state.modifier_discards[seat(g, "purple")]
    assert "court_up" not in g.state.modifier_hands[seat(g, "purple")]


def test_power_shift_the_lowest_total_takes_the_first_player_marker():
    """ "At the end of the round, the person who played the lowest total value gets the First
    Player marker." (Orange 3 - 2 = 1 under Green's 2)"""
    g = _power_shift(passes={"purple": "p0", "blue": "p1", "green": "mm0", "orange": "p3"})
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    g.apply(ev.PowerCardPlayed(player="purple", card=9))
    g.apply(ev.PowerCardPlayed(player="blue", card=8))
    g.apply(ev.PowerCardPlayed(player="green", card=2))
    g.apply(ev.PowerCardPlayed(player="orange", card=3, modifier="mm0"))
    assert [g.state.players[q] for q in g.state.turn_order] == ["purple", "blue", "green", "orange"]
    _round_of_plain_turns(g)
    assert g.state.players[g.state.start_player] == "orange"


def test_power_shift_two_players_pass_to_each_other_and_the_dummy_has_no_modifiers():
    """ "passes 1 of them face down to the player to their left" — with the dummy beside the
    board, the two players pass to each other; the dummy is never dealt or asked."""
    g = _power_shift(players=("purple", "blue"), dummy=DUMMY)
    assert g.state.modifier_hands[seat(g, "purple")] == {"m0", "court_up", "p1"}
    assert g.state.modifier_hands[_dummy_seat(g)] == set()
    assert g.asked().kind == "dummy_region_cards"


# ================================================================== Action card explanations


# ================================================================== Explanations of Special cards


# ================================================================== Veto (2023)


# ================================================================== Whole random games


def _random_game(seed: str, n: int, modules: tuple[str, ...]):
    from engine.flow import apply_event, asked
    from engine.game import board_for, start_state
    from engine.playout import random_setup, standin_files

    rng = random.Random(seed)
    bf, cf = standin_files("2023", n)
    board = board_for(
        ev.GameSetup(
            players=["a", "b", "c", "d", "e"][:n],
            king="x",
            homes={},
            start_player="a",
            rules="2023",
            board_file=bf,
            cards_file=cf,
        )
    )
    state = start_state(random_setup(rng, n, board, "full", "2023", modules, bf, cf, True), board)
    while state.stage != "over":
        ask = asked(state)
        yield rng, state, ask
        event = random_event(rng, ask)
        before = snapshot_for_checks(state)
        apply_event(state, event)
        check_invariants(state, before, event)


def _mutated(rng: random.Random, state, ask):
    """A random event near the legal one asked for: one field changed to another id or count."""
    event = random_event(rng, ask)
    data = event.model_dump()
    keys = [k for k in data if k != "type"]
    if not keys:
        return event
    key = rng.choice(keys)
    ids = list(state.players) + list(state.board.region_ids) + ["castillo", "france", "portugal", "nobody"]
    value = data[key]
    if isinstance(value, bool):
        data[key] = not value
    elif isinstance(value, int):
        data[key] = max(0, value + rng.choice([-2, -1, 1, 3]))
    elif isinstance(value, str):
        data[key] = rng.choice(ids)
    elif isinstance(value, dict):
        value[rng.choice(ids)] = rng.randint(0, 3)
    elif isinstance(value, list) and value and isinstance(value[0], str):
        value[rng.randrange(len(value))] = rng.choice(ids + list(state.board.cards))
    try:
        return type(event).model_validate(data)
    except Exception:
        return event


@pytest.mark.parametrize(
    "n, modules", [(2, ("new-regency", "power-shift")), (4, ("new-regency", "old-hands", "power-shift"))]
)
def test_every_refusal_names_a_rule_and_changes_nothing(n, modules):
    """ "The engine refuses an illegal move and says which rule": in whole random games, events a
    little off the legal ones are refused with a RuleViolation naming a rule, and the whole state
    is as before; those accepted keep every invariant."""
    from engine.flow import apply_event

    refusals = 0
    for rng, state, ask in _random_game(f"refuse{n}", n, modules):
        if rng.random() < 0.5:
            continue
        event = _mutated(rng, state, ask)
        trial, before = state.clone(), _fields(state.clone())
        snapshot = snapshot_for_checks(trial)
        try:
            apply_event(trial, event)
        except RuleViolation as e:
            refusals += 1
            assert e.rule in RULES and e.detail
            after = _fields(trial)
            assert [k for k in before if before[k] != after[k]] == [], (event, e)
        else:
            check_invariants(trial, snapshot, event)
    assert refusals > 25


@pytest.mark.parametrize("n", [2, 4])
def test_no_view_tells_a_castillo_tally_a_disc_or_a_modifier_hand(n):
    """ "No one may ever check how many Caballeros are inside" the Castillo, discs are revealed
    together, Modifier cards are passed face down: moving a player's Caballero between the
    Province and the Castillo, changing a disc set but not revealed, or swapping two players'
    Modifier cards changes no public view, nor any other player's view."""
    checked = 0
    for rng, state, _ in _random_game(f"leak{n}", n, ("new-regency", "power-shift")):
        if rng.random() < 0.8:
            continue
        seats = [q for q in range(state.n) if q != state.dummy]
        p = rng.choice(seats)
        other = state.clone()
        c = other.board.castillo
        if other.provinces[p]:
            other.provinces[p] -= 1
            other.counts[c][p] += 1
        pending = (
            other.scoring_discs
            if other.stage == "scoring_discs"
            else (other.special.discs if other.special is not None else {})
        )
        if p in pending:
            pending[p] = rng.choice(list(other.board.regions))
        touched = {p}
        q = rng.choice(seats)
        if q != p and other.modifier_hands[p] and other.modifier_hands[q]:
            a, b = min(other.modifier_hands[p]), min(other.modifier_hands[q])
            other.modifier_hands[p] ^= {a, b}
            other.modifier_hands[q] ^= {a, b}
            touched.add(q)
        assert public_view(state) == public_view(other)
        for r, pid in enumerate(state.players):
            if r not in touched and r != state.dummy:
                assert player_view(state, pid) == player_view(other, pid)
        checked += 1
    assert checked > 15


# ================================================================== The table's files


def test_a_spade_card_whose_number_is_not_entered_places_nothing_and_names_the_fact():
    """A ♠ card "prints its own" number of Caballeros, which the rule book does not give: taken
    before the table has entered it, the turn asks nothing impossible (no crash), refuses any
    placement naming the fact, and the game goes on."""
    import copy

    from tests.engine.effects.game2023 import HOMES, cards_file

    cf = cards_file()
    cf["cards"] = [c for c in cf["cards"] if c["id"] not in ("exile", "entourage", "chalet", "rebellion")]
    cf["cards"].append({"id": "exile", "copies": 1})  # copies entered, the number not
    g = Game(
        ev.GameSetup(
            players=list(HOMES),
            rules="2023",
            modules=["new-regency"],
            king="castilla",
            homes=HOMES,
            start_player="purple",
            board_file=copy.deepcopy(BOARD_FILE),
            cards_file=cf,
        )
    )
    pid = _to_turn(g, "exile")
    place = g.asked().options["place"]
    assert place["max"] == 0 and "cards[exile].placement" in place["refused"]
    _refused(g, ev.CaballerosPlaced(player=pid, placements={"toledo": 1}), "card-fact-missing")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    g.apply(ev.SpecialActionSkipped(player=pid))
    assert g.asked().players[0] != pid


def test_a_board_file_giving_france_no_neighbours_is_refused_naming_the_field():
    """Exile: "The neighboring regions to France and Portugal work the same way as usual." — a
    board file that lists none for France is a mistake, named by its field."""
    from engine.board.errors import BoardFileError
    from engine.board.load import load_board

    bad = {**BOARD_FILE, "spaces": [{"id": "france", "neighbours": []}]}
    with pytest.raises(BoardFileError) as info:
        load_board("2023", 4, bad)
    assert "spaces[france].neighbours: empty" in str(info.value)


def test_a_correction_never_puts_the_king_where_nobody_could_place_next_to_him():
    """ "The neighboring regions to France and Portugal work the same way as usual": while the
    table has not entered France's neighbours, a correction may not put the King there (as Exile
    may not), or every later turn would ask what cannot be worked out."""
    g = new_game(board_file={"scoring_tiles": BOARD_FILE["scoring_tiles"]})
    detail = _refused(g, ev.TableCorrected(king="france"), "correction")
    assert "spaces[france].neighbours" in detail
    g.apply(ev.TableCorrected(king="castillo"))  # by the Castillo (Rebellion): every region neighbours
    pid = _to_turn(g, "fiesta")
    assert len(g.asked().options["place"]["areas"]) == 9 and pid
    g2 = new_game()
    g2.apply(ev.TableCorrected(king="france", round=2, vetoes=["blue"]))
    assert king(g2) == "france" and g2.state.vetoes == [(seat(g2, "blue"), 1)]


@pytest.mark.parametrize("effect", ["infiltration", "grande", "mobile_scoreboard"])
def test_a_modifier_ability_is_an_effect_it_can_have_under_the_2023_rules(effect):
    """The ability is used "after taking Caballeros to your Court, but before choosing an Action
    card": never Infiltration (the Action card's own placement, not chosen yet), nor an effect of
    the classic rules only; a table's Modifier data saying so is refused naming card and field."""
    import copy

    mods = copy.deepcopy(MODIFIERS)
    mods[0]["ability"] = {"effect": effect, "params": {}}
    from engine.board.errors import CardFileError

    with pytest.raises(CardFileError) as info:
        _power_shift_with(mods)
    assert "modifiers[p0].ability.effect" in str(info.value)


def _power_shift_with(modifiers) -> Game:
    from tests.engine.effects.game2023 import HOMES, cards_file

    cf = cards_file()
    cf["modifiers"] = modifiers
    return Game(
        ev.GameSetup(
            players=list(HOMES),
            rules="2023",
            modules=["power-shift"],
            king="castilla",
            homes=HOMES,
            start_player="purple",
            board_file=dict(BOARD_FILE),
            cards_file=cf,
        )
    )


# ================================================================== Second pass: scoring details


def test_galicia_example_a_third_place_the_board_does_not_pay_earns_nothing():
    """ "Orange has the majority with 4 Caballeros here and gets 4 points for first place. Blue has
    3 Caballeros and gets 2 points. You are in 3rd place with 2 Caballeros. Unfortunately, no
    points are awarded for 3rd place in Galicia. Green doesn't get any points either, since there
    is no 4th place." """
    g = _castillo_table(king="granada")
    for pid, k in (("orange", 4), ("blue", 3), ("purple", 2), ("green", 1)):
        put(g, pid, "galicia", k)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert _area_points(g, "galicia") == {"orange": 4, "blue": 2, "purple": 0, "green": 0}


def test_sevilla_and_granada_example_shared_first_no_grande_bonus_tied_seconds_take_third():
    """ "Blue and Green each have 2 Caballeros and therefore share 2nd place. Therefore, Blue does
    not get the Grande's bonus. Blue and Green each get 3 points, you get 1." "In Granada you have
    the majority with 3 Caballeros. Because your Grande is located there, you get 2 bonus points
    as well. ... Orange and Green get 1 point each for 3rd place." (the King in Castilla)"""
    g = _castillo_table(king="castilla")
    for pid, k in (("blue", 2), ("green", 2), ("purple", 1)):
        put(g, pid, "sevilla", k)
    for pid, k in (("purple", 3), ("orange", 1), ("green", 1)):
        put(g, pid, "granada", k)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert _area_points(g, "sevilla") == {"blue": 3, "green": 3, "purple": 1}
    assert not [ln for ln in _last_scoring(g) if ln.area == "sevilla" and ln.kind != "place"]
    assert _area_points(g, "granada") == {"purple": 6 + 2, "orange": 1, "green": 1}


def test_a_tie_in_the_castillo_takes_the_next_lower_place_too():
    """ "If some of you have the same number of Caballeros in a region or the Castillo when it is
    scored, all tied players score the next lower position." (5/3/1: two tied first take 3, the
    next alone takes the 3rd place's 1)"""
    g = _castillo_table(king="castilla")
    for pid, k in (("purple", 2), ("blue", 2), ("orange", 1)):
        put(g, pid, "castillo", k)
    start_round(g, "intrigue")
    general_scoring(g, {"purple": "toledo", "blue": "toledo", "orange": "toledo"})
    assert _area_points(g, "castillo") == {"purple": 3, "blue": 3, "orange": 1}


def test_two_ties_in_a_row_the_second_tie_falls_below_the_third_place():
    """ "all tied players score the next lower position" — two tied for 1st take the 2nd place,
    two tied for 3rd would take a 4th place, which no Scoring board has."""
    g = _castillo_table(king="castilla")
    for pid, k in (("purple", 3), ("blue", 3), ("orange", 1), ("green", 1)):
        put(g, pid, "toledo", k)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert _area_points(g, "toledo") == {"purple": 4, "blue": 4, "orange": 0, "green": 0}


def test_it_does_not_matter_how_many_players_tie_five_players_all_first():
    """ "It doesn't matter how many players tie." (five players, one Caballero each in Toledo
    7/4/2: all take the 2nd place's 4)"""
    homes = {"purple": "granada", "orange": "cataluna", "blue": "sevilla", "green": "navarra", "red": "galicia"}
    g = new_game(players=list(homes), homes=homes, round=3)
    g.state.king = g.board.area_index["granada"]
    clear(g)
    for pid in homes:
        put(g, pid, "toledo", 1)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert _area_points(g, "toledo") == {pid: 4 for pid in homes}


def test_a_scoring_tile_on_the_castillo_replaces_both_boards_at_a_general_scoring():
    """Enactment: "You can also place one tile on the Castillo to replace both Scoring boards
    there." (tile 8/4/0 on the Castillo: 8, 4 and nothing for the 3rd)"""
    g = _castillo_table(king="castilla")
    g.state.mobile["tile_b"] = g.board.castillo
    for pid, k in (("purple", 3), ("blue", 2), ("orange", 1)):
        put(g, pid, "castillo", k)
    start_round(g, "intrigue")
    general_scoring(g, {"purple": "toledo", "blue": "toledo", "orange": "toledo"})
    assert _area_points(g, "castillo") == {"purple": 8, "blue": 4, "orange": 0}


def test_castillo_caballeros_move_before_the_regions_are_scored():
    """ "For each scoring, you perform the following steps in order: Set your Secret disc / Score
    the Castillo and move Caballeros to a region / Score each region" (your 3 from the Castillo
    to Toledo beat Blue's 2 there)"""
    g = _castillo_table(king="granada")
    put(g, "purple", "castillo", 3)
    put(g, "blue", "toledo", 2)
    start_round(g, "intrigue")
    general_scoring(g, {"purple": "toledo", "blue": "galicia"})
    assert _area_points(g, "toledo") == {"purple": 7, "blue": 4}


def test_no_kings_bonus_anywhere_while_the_king_is_in_france():
    """Exile: "You can only move the King to France or Portugal with this card." and "France and
    Portugal do not count as regions": no region is the King's region, so no King's bonus; a
    disc may then name any region."""
    g = _castillo_table(king="castilla")
    g.state.king = g.board.area_index["france"]
    put(g, "purple", "castillo", 2)
    put(g, "orange", "castilla", 2)
    start_round(g, "intrigue")
    general_scoring(g, {"purple": "castilla"})
    assert count(g, "purple", "castilla") == 2 and court(g, "purple") == 0
    assert {ln.kind for ln in _last_scoring(g)} == {"place"}


def test_two_grandes_in_one_region_only_the_sole_first_takes_the_grande_bonus():
    """Adopted Home: "Multiple Grandes may be present in one region." and "If you score first
    place in the region with your Grande, you also get 2 points extra." (Aragón 5/4/1: your
    Grande moved to Blue's home; you 3, Blue 1)"""
    g = _castillo_table(king="granada")
    g.state.grandes[seat(g, "purple")] = g.board.area_index["aragon"]
    g.state.grandes[seat(g, "blue")] = g.board.area_index["aragon"]
    put(g, "purple", "aragon", 3)
    put(g, "blue", "aragon", 1)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert _area_points(g, "aragon") == {"purple": 5 + 2, "blue": 4}
    assert [ln.player for ln in _last_scoring(g) if ln.kind == "home_bonus"] == ["purple"]


def test_three_players_a_tie_for_second_falls_to_a_third_place_that_does_not_count():
    """3 players: "Only the first two numbers on the Scoring board count." with "all tied players
    score the next lower position" (Valencia: you alone first, Blue and Green tied second)."""
    g = _three(round=3)
    clear(g)
    g.state.king = g.board.area_index["granada"]
    put(g, "purple", "valencia", 3)
    put(g, "blue", "valencia", 1)
    put(g, "green", "valencia", 1)
    start_round(g, "intrigue")
    general_scoring(g, {})
    assert _area_points(g, "valencia") == {"purple": 5, "blue": 0, "green": 0}


def test_two_players_a_tie_with_the_dummy_for_first_takes_the_second_number_no_bonus():
    """ "It can change majorities, but does not get points." with the tie rule and "In case of a
    tie, you never get bonus points." (you and the dummy 2 each in Galicia, your Grande's
    region: you take the 2nd number and no Grande's bonus; Blue's 1 is a 3rd, which does not count)"""
    g = _two(round=3)
    clear(g)
    g.state.king = g.board.area_index["granada"]
    _put_dummy(g, "galicia", 2)
    put(g, "purple", "galicia", 2)
    put(g, "blue", "galicia", 1)
    start_round(g, "intrigue")
    general_scoring(g, {})
    lines = [ln for ln in _last_scoring(g) if ln.area == "galicia"]
    assert _points(lines) == {DUMMY: 0, "purple": BOARD_2_3["regions"][0]["scoreboard"][1], "blue": 0}
    assert {ln.kind for ln in lines} == {"place"}


# ================================================================== Second pass: special actions


def test_power_shift_the_highest_total_takes_the_first_turn():
    """ "Add or subtract the number from the value of your Power card." with "The player who
    played the highest Power card begins": Blue's 8 + 2 = 10 goes before your 9."""
    g = _power_shift()
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    g.apply(ev.PowerCardPlayed(player="purple", card=9))
    g.apply(ev.PowerCardPlayed(player="blue", card=8, modifier="pp0"))
    g.apply(ev.PowerCardPlayed(player="green", card=3))
    g.apply(ev.PowerCardPlayed(player="orange", card=4))
    assert [g.state.players[q] for q in g.state.turn_order] == ["blue", "purple", "orange", "green"]
    assert g.asked().players == ("blue",)


def test_power_shift_a_total_equal_to_the_dummys_card_is_refused():
    """Dummy: "As with other players, you can not play a card with the same value." with Power
    Shift: "the total value must be different from the values that have already been played." """
    g = _power_shift(players=("purple", "blue"), dummy=DUMMY)
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "adopted_home"]))
    g.apply(ev.DummyPowerCardRevealed(card=10))
    plus_one = sorted(m for m in g.state.modifier_hands[seat(g, "purple")] if m.startswith("p"))[0]
    _refused(g, ev.PowerCardPlayed(player="purple", card=9, modifier=plus_one), "power-card-distinct")
    g.apply(ev.PowerCardPlayed(player="purple", card=9))


# ================================================================== Second pass: setup, the Court, Rebellion's taboo


def test_setup_every_player_draws_a_different_home_region():
    """ "Starting with you, each player draws 1 Region card. Place your Grande and 2 Caballeros in
    the region shown on your card." — one card each from the one stack of 9: no two homes alike."""
    with pytest.raises(RuleViolation) as info:
        new_game(homes={"purple": "aragon", "blue": "aragon", "green": "sevilla", "orange": "cataluna"})
    assert info.value.rule == "setup"


def test_caballeros_come_from_the_regions_only_when_the_province_is_short():
    """ "Special case: If there are not enough of your Caballeros left in the Province, you may
    take your Caballeros from the regions on the map" — with enough in the Province, none come
    from the regions."""
    g = new_game()
    put(g, "purple", "toledo", 3)
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    for pid, c in (("purple", 1), ("blue", 8), ("green", 7), ("orange", 6)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    finish_round_until(g, "purple")
    assert provinces(g, "purple") >= 6
    _refused(g, ev.CourtReplenished(player="purple", from_provinces=0, from_regions={"toledo": 1}))
    _refused(g, ev.CourtReplenished(player="purple", from_provinces=5, from_regions={"toledo": 1}))
    g.apply(ev.CourtReplenished(player="purple", from_provinces=6))
    assert count(g, "purple", "toledo") == 3


# ================================================================== Second pass: the King in France, Militia, Veto


# ================================================================== Second pass: more of the cards


def test_power_shift_a_nine_plus_one_acts_before_the_plain_nine():
    """ "Example: You may play a 9 +1 (=10) if someone already played a 9." with "The player who
    played the highest Power card begins" — the total orders the turns; the lowest total (here a
    plain 2) takes the First Player marker."""
    g = _power_shift()
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "fiesta", "coup"]))
    g.apply(ev.PowerCardPlayed(player="purple", card=9))
    g.apply(ev.PowerCardPlayed(player="blue", card=9, modifier="p0"))
    g.apply(ev.PowerCardPlayed(player="green", card=2))
    g.apply(ev.PowerCardPlayed(player="orange", card=5))
    assert [g.state.players[q] for q in g.state.turn_order] == ["blue", "purple", "orange", "green"]
    _round_of_plain_turns(g)
    assert g.state.players[g.state.start_player] == "green"
