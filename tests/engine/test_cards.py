"""One test (at least) for every classic action card, through real events."""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.game import Game

from .helpers import (
    count, court, finish_round, new_game, provinces, put, score, start_round, take_card, turn_with,
)


def moves(g) -> list[tuple]:
    """The last outcome's instructions to the table: (player, count, from, to)."""
    return [(m["player"], m["count"], m["source"], m["target"]) for m in g.state.outcomes[-1].moves]


ROUND_2 = ["intrigue_any_4", "decay_3", "score_5_regions", "the_court"]


def refused(game, event, rule):
    before = game.to_jsonl(), repr(game.state)
    with pytest.raises(RuleViolation) as info:
        game.apply(event)
    assert info.value.rule == rule, str(info.value)
    assert (game.to_jsonl(), repr(game.state)) == before  # nothing half-applied
    return str(info.value)


def start(game, pid, option=None):
    game.apply(ev.SpecialActionStarted(player=pid, option=option))


def move(game, owner, source, target, n=1, pid="red"):
    game.apply(ev.CaballerosMoved(player=pid, owner=owner, source=source, target=target, count=n))


# --- stack 1: Intrigue ---------------------------------------------------------

def test_intrigue_any_3_moves_anyones_caballeros_then_ends():
    g = new_game()
    pid = turn_with(g, "intrigue_any_3")
    start(g, pid)
    move(g, "blue", "aragon", "galicia", 2)
    refused(g, ev.CaballerosMoved(player="red", owner="green", source="sevilla", target="valencia", count=2),
            "special-action")
    move(g, "green", "sevilla", "castillo", 1)
    assert count(g, "blue", "galicia") == 2 and count(g, "green", "castillo") == 1
    assert g.state.turn.player == 1  # Blue's turn now: the card allowed 3


def test_intrigue_never_touches_castillo_or_kings_region():
    g = new_game()
    put(g, "blue", "castilla_la_nueva", 2)
    put(g, "blue", "castillo", 2)
    pid = turn_with(g, "intrigue_any_4")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="castillo", target="galicia"),
            "castillo-no-removal")
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="castilla_la_nueva", target="galicia"),
            "kings-region-taboo")
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="castilla_la_nueva"),
            "kings-region-taboo")
    move(g, "blue", "aragon", "valencia", 2)
    move(g, "red", "galicia", "valencia", 2)
    assert g.state.turn.player == 1


def test_intrigue_own_4_refuses_foreign_caballeros():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "intrigue_own_4")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="galicia"), "special-action")
    move(g, "red", "valencia", "granada", 3)
    g.apply(ev.SpecialActionFinished(player=pid))
    assert count(g, "red", "granada") == 3


def test_intrigue_foreign_3_refuses_own_caballeros():
    g = new_game()
    pid = turn_with(g, "intrigue_foreign_3")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="galicia", target="aragon"), "special-action")
    move(g, "green", "sevilla", "aragon", 2)
    move(g, "blue", "aragon", "galicia", 1)
    assert g.state.turn.player == 1 and count(g, "blue", "galicia") == 1


def test_intrigue_2_own_2_foreign_limits_each_kind():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "intrigue_2_own_2_foreign")
    start(g, pid)
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="valencia", target="granada", count=3),
            "special-action")
    move(g, "red", "valencia", "granada", 2)
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="valencia", target="granada"), "special-action")
    move(g, "blue", "aragon", "granada", 2)
    assert count(g, "red", "granada") == 2 and count(g, "blue", "granada") == 2
    assert g.state.turn.player == 1


def test_intrigue_5_from_one_region_keeps_one_source():
    g = new_game()
    put(g, "blue", "valencia", 3)
    put(g, "green", "valencia", 3)
    pid = turn_with(g, "intrigue_5_from_one_region")
    start(g, pid)
    move(g, "blue", "valencia", "galicia", 3)
    refused(g, ev.CaballerosMoved(player=pid, owner="blue", source="aragon", target="galicia"), "special-action")
    move(g, "green", "valencia", "castillo", 2)
    assert g.state.turn.player == 1  # 5 moved


def test_intrigue_all_own_from_region_must_move_them_all():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "intrigue_all_own_from_region")
    start(g, pid)
    move(g, "red", "valencia", "granada", 1)
    assert "valencia" not in g.asked().options["targets"]   # from one region, never back into it
    refused(g, ev.SpecialActionFinished(player=pid), "special-action")
    refused(g, ev.CaballerosMoved(player=pid, owner="red", source="galicia", target="granada"), "special-action")
    move(g, "red", "valencia", "castillo", 2)
    assert count(g, "red", "valencia") == 0 and count(g, "red", "castillo") == 2
    assert g.state.turn.player == 1


def test_intrigue_2_extra_from_court_go_anywhere_but_the_kings_region():
    g = new_game()
    pid = turn_with(g, "intrigue_2_extra_from_court", place=False)
    refused(g, ev.CaballerosPlaced(player=pid, placements={"valencia": 2}), "placement-limit")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"valencia": 1}))
    start(g, pid)
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"castilla_la_nueva": 1}), "kings-region-taboo")
    refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"cataluna": 3}), "placement-limit")
    g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"cataluna": 1, "pais_vasco": 1}))
    assert count(g, "red", "cataluna") == 1 and court(g, "red") == 4


@pytest.mark.parametrize("option", ["move_all_own", "place_extra"])
def test_intrigue_choice_card_does_one_of_its_two_actions(option):
    g = new_game()
    pid = turn_with(g, "intrigue_all_own_or_2_extra")
    refused(g, ev.SpecialActionStarted(player=pid), "special-action")
    start(g, pid, option)
    if option == "move_all_own":
        refused(g, ev.ExtraCaballerosPlaced(player=pid, placements={"cataluna": 1}), "special-action")
        move(g, "red", "galicia", "cataluna", 2)
        assert count(g, "red", "galicia") == 0
    else:
        refused(g, ev.CaballerosMoved(player=pid, owner="red", source="galicia", target="aragon"),
                "special-action")
        g.apply(ev.ExtraCaballerosPlaced(player=pid, placements={"cataluna": 2}))
        assert count(g, "red", "cataluna") == 2
    assert g.state.turn.player == 1


# --- stack 2 -------------------------------------------------------------------

def test_taking_the_veto_card_is_holding_the_veto():
    # "When you select the Veto card, place it on the table in front of you."
    g = new_game()
    turn_with(g, "veto", place=False)
    assert g.state.vetoes == [(0, 1)]
    ask = g.asked()
    assert ask.kind == "turn_action" and ask.options["special"] is None  # nothing to start or skip
    refused(g, ev.SpecialActionSkipped(player="red"), "either-order")
    g.apply(ev.CaballerosPlaced(player="red", placements={}))
    assert g.state.turn.player == 1 and g.state.vetoes == [(0, 1)]


def test_a_game_saved_at_rules_revision_1_keeps_its_veto_reading():
    # Saved before revision 2: the Veto was held only once its special action was started.
    g = new_game(revision=1)
    pid = turn_with(g, "veto")
    assert g.state.vetoes == []
    start(g, pid)
    assert g.state.vetoes == [(0, 1)]
    again = Game.from_jsonl(g.to_jsonl())
    assert again.state.vetoes == [(0, 1)] and again.setup.revision == 1
    old_header = g.to_jsonl().replace(', "revision": 1', "")  # as the old version wrote it
    assert Game.from_jsonl(old_header).state.vetoes == [(0, 1)]


def test_veto_stops_a_whole_special_action_in_its_window():
    g = new_game()
    turn_with(g, "veto", cards=["intrigue_any_3", "veto", "score_castillo", "grande"])
    assert g.state.vetoes == [(0, 1)]
    take_card(g, "grande", "blue")
    g.apply(ev.CaballerosPlaced(player="blue", placements={}))
    start(g, "blue")
    ask = g.asked()
    assert ask.kind == "veto" and ask.players == ("red",)
    refused(g, ev.VetoUsed(player="blue"), "veto")
    g.apply(ev.VetoUsed(player="red"))
    assert g.state.grandes[1] == g.board.area_index["aragon"]  # the Grande did not move
    assert g.state.vetoes == [] and g.state.stacks_bottom[1][-1] == "veto"
    assert g.asked().players == ("green",)


def test_veto_can_stop_the_rest_of_an_action_midway():
    g = new_game()
    turn_with(g, "veto", cards=["intrigue_any_4", "veto", "score_castillo", "grande"])
    take_card(g, "intrigue_any_4", "blue")
    g.apply(ev.CaballerosPlaced(player="blue", placements={}))
    start(g, "blue")
    g.apply(ev.VetoWaived(player="red"))
    move(g, "red", "galicia", "cataluna", 1, pid="blue")
    assert g.asked().vetoes == ("red",)
    g.apply(ev.VetoUsed(player="red"))
    assert count(g, "red", "cataluna") == 1 and count(g, "red", "galicia") == 1
    assert g.asked().players == ("green",)


def test_unused_veto_is_discarded_after_the_next_round():
    g = new_game()
    turn_with(g, "veto")
    finish_round(g)
    assert g.state.stage == "reveal" and g.state.vetoes == [(0, 1)]  # still held in round 2
    start_round(g, ROUND_2, power={"red": 1, "blue": 2, "green": 3})
    finish_round(g)
    assert g.state.vetoes == [] and "veto" in g.state.stacks_bottom[1]


def test_decay_of_authority_all_empties_opponents_courts():
    g = new_game()
    pid = turn_with(g, "decay_all")
    start(g, pid)
    assert court(g, "red") == 7 and court(g, "blue") == 0 and provinces(g, "blue") == 28
    assert moves(g) == [("blue", 7, "court", "provinces"), ("green", 7, "court", "provinces")]


def test_decay_of_authority_3_takes_at_most_3():
    g = new_game()
    g.state.court[2] = 2
    g.state.provinces[2] += 5
    pid = turn_with(g, "decay_3")
    start(g, pid)
    assert court(g, "blue") == 4 and court(g, "green") == 0 and court(g, "red") == 7


def test_one_of_each_other_player_back_to_provinces():
    g = new_game()
    put(g, "green", "castilla_la_nueva", 1)  # only the taboo region besides Sevilla
    pid = turn_with(g, "one_of_each_back")
    start(g, pid)
    refused(g, ev.CaballerosSentBack(player=pid, owner="green", from_regions={"castilla_la_nueva": 1}),
            "kings-region-taboo")
    refused(g, ev.CaballerosSentBack(player=pid, owner="blue", from_regions={"aragon": 2}), "special-action")
    refused(g, ev.CaballerosSentBack(player=pid, owner="red", from_regions={"galicia": 1}), "special-action")
    g.apply(ev.CaballerosSentBack(player=pid, owner="blue", from_regions={"aragon": 1}))
    g.apply(ev.CaballerosSentBack(player=pid, owner="green", from_regions={"sevilla": 1}))
    assert count(g, "blue", "aragon") == 1 and provinces(g, "green") == 21
    assert moves(g) == [("blue", 1, "aragon", "provinces"), ("green", 1, "sevilla", "provinces")]


def test_the_king_is_angry_each_opponent_sends_three_clockwise():
    g = new_game()
    pid = turn_with(g, "king_is_angry")
    start(g, pid)
    assert g.asked().players == ("blue",)  # the player to the left first
    refused(g, ev.CaballerosSentBack(player="blue", owner="blue", from_court=2), "special-action")
    g.apply(ev.CaballerosSentBack(player="blue", owner="blue", from_court=1, from_regions={"aragon": 2}))
    assert g.asked().players == ("green",)
    g.apply(ev.CaballerosSentBack(player="green", owner="green", from_court=3))
    assert count(g, "blue", "aragon") == 0 and court(g, "blue") == 6 and court(g, "green") == 4
    assert moves(g) == [("blue", 1, "court", "provinces"), ("blue", 2, "aragon", "provinces"),
                        ("green", 3, "court", "provinces")]


def test_secret_disc_all_from_region_reveals_together():
    g = new_game()
    put(g, "blue", "granada", 3)
    pid = turn_with(g, "disc_all_from_region")
    start(g, pid)
    assert set(g.asked().players) == {"blue", "green"}
    refused(g, ev.SecretDiscSet(player="blue", region="galicia"), "secret-disc")
    g.apply(ev.SecretDiscSet(player="blue", region="aragon"))
    refused(g, ev.SecretDiscsRevealed(), "secret-disc")
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))  # changed before the reveal
    g.apply(ev.SecretDiscSet(player="green", region="sevilla"))
    assert count(g, "blue", "granada") == 3  # nothing happens until the reveal
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "granada") == 0 and count(g, "blue", "aragon") == 2
    assert count(g, "green", "sevilla") == 0
    assert g.state.outcomes[-1].discs == {"blue": "granada", "green": "sevilla"}
    assert moves(g) == [("blue", 3, "granada", "provinces"), ("green", 2, "sevilla", "provinces")]


def test_secret_disc_2_from_region_needs_two_there_if_possible():
    g = new_game()
    put(g, "blue", "granada", 1)
    put(g, "green", "sevilla", -1)
    put(g, "green", "valencia", 1)
    pid = turn_with(g, "disc_2_from_region")
    start(g, pid)
    refused(g, ev.SecretDiscSet(player="blue", region="granada"), "secret-disc")  # only 1 there; Aragón has 2
    g.apply(ev.SecretDiscSet(player="blue", region="aragon"))
    g.apply(ev.SecretDiscSet(player="green", region="valencia"))  # 1 is all Green has anywhere
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "aragon") == 0 and count(g, "green", "valencia") == 0
    assert count(g, "green", "sevilla") == 1


@pytest.mark.parametrize("card", ["score_chosen_region_2", "score_chosen_region_3"])
def test_special_scoring_of_a_chosen_region_even_the_kings(card):
    g = new_game()
    put(g, "blue", "castilla_la_nueva", 2)
    put(g, "red", "castilla_la_nueva", 1)
    pid = turn_with(g, card)
    start(g, pid)
    refused(g, ev.RegionChosen(player=pid, region="castillo"), "unknown-id")
    g.apply(ev.RegionChosen(player=pid, region="castilla_la_nueva"))
    assert score(g, "blue") == 7 + 2 and score(g, "red") == 4  # with the King's bonus
    assert g.state.scoring_log[-1].lines[0].area == "castilla_la_nueva"


# --- stack 3: special scorings -------------------------------------------------

@pytest.mark.parametrize("card,scored", [
    ("score_4_regions", {"galicia", "sevilla"}),
    ("score_5_regions", {"aragon", "valencia"}),
    ("score_6_7_regions", {"granada"}),
])
def test_special_scoring_of_a_value_group(card, scored):
    g = new_game()
    for region in ("valencia", "granada"):
        put(g, "green", region, 1)
    pid = turn_with(g, card)
    start(g, pid)
    record = g.state.scoring_log[-1]
    assert {ln.area for ln in record.lines} == scored


def test_special_scoring_group_follows_mobile_scoreboards():
    g = new_game()
    g.state.mobile["4-0-0"] = g.board.area_index["aragon"]
    g.state.mobile["8-4-0"] = g.board.area_index["galicia"]
    pid = turn_with(g, "score_4_regions")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"aragon", "sevilla"}
    assert score(g, "blue") == 4 + 2  # the 4-0-0 in Aragón, and Blue's home bonus


def test_special_scoring_of_the_castillo_leaves_it_filled():
    g = new_game()
    put(g, "blue", "castillo", 3)
    put(g, "green", "castillo", 1)
    pid = turn_with(g, "score_castillo")
    start(g, pid)
    g.apply(ev.CastilloCounted(counts={}))  # lifted and counted: as the turns say
    assert score(g, "blue") == 5 and score(g, "green") == 3
    assert count(g, "blue", "castillo") == 3


def test_the_castillo_card_is_scored_by_the_tables_count_after_the_veto_window():
    # Announced, let pass, then lifted and counted: the count wins
    g = new_game()
    put(g, "blue", "castillo", 3)
    put(g, "green", "castillo", 1)
    pid = turn_with(g, "score_castillo")
    refused(g, ev.CastilloCounted(counts={"blue": 3}), "veto")  # closed until the action is let pass
    start(g, pid)
    assert g.asked().kind == "lift_castillo" and g.asked().players == (pid,) and not g.state.scoring_log
    refused(g, ev.CastilloCounted(counts={"green": 30}), "castillo-count")  # 2 are in Sevilla
    g.apply(ev.CastilloCounted(counts={"blue": 3, "green": 1, "red": 2}))  # a red cube the turns missed
    assert score(g, "blue") == 5 and score(g, "red") == 3 and score(g, "green") == 0  # 3 players: two places
    assert count(g, "blue", "castillo") == 3 and count(g, "red", "castillo") == 2
    refused(g, ev.CastilloCounted(counts={"red": 1}), "phase-order")  # only in that special action


def _castillo_card_against_a_veto(revision=ev.RULES_REVISION):
    """Red holds the Veto; Blue takes the Castillo scoring card with 3 Blue, 1 Green inside."""
    g = new_game(revision=revision)
    turn_with(g, "veto")
    put(g, "blue", "castillo", 3)
    put(g, "green", "castillo", 1)
    take_card(g, "score_castillo", "blue")
    g.apply(ev.CaballerosPlaced(player="blue", placements={}))
    return g


def test_the_castillo_stays_closed_until_no_one_vetoes_its_scoring():
    g = _castillo_card_against_a_veto()
    refused(g, ev.CastilloCounted(counts={"blue": 3, "green": 1}), "veto")  # not before the window
    start(g, "blue")
    assert g.asked().kind == "veto" and g.asked().players == ("red",)
    refused(g, ev.CastilloCounted(counts={"blue": 3, "green": 1}), "phase-order")  # nor in it
    g.apply(ev.VetoWaived(player="red"))
    ask = g.asked()
    assert ask.kind == "lift_castillo" and ask.vetoes == () and not g.state.scoring_log
    refused(g, ev.VetoUsed(player="red"), "veto")  # let pass: the Castillo is being lifted
    g.apply(ev.CastilloCounted(counts={"blue": 3, "green": 1}))
    assert score(g, "blue") == 5 and score(g, "green") == 3 and g.state.vetoes == [(0, 1)]


def test_a_veto_on_the_castillo_card_leaves_the_castillo_unopened_and_unscored():
    g = _castillo_card_against_a_veto()
    start(g, "blue")
    g.apply(ev.VetoUsed(player="red"))
    assert not g.state.scoring_log and g.state.scores == [0, 0, 0] and g.state.vetoes == []
    assert g.asked().kind != "lift_castillo" and g.state.special is None
    refused(g, ev.CastilloCounted(counts={"blue": 3}), "phase-order")  # nothing left to lift it for


def test_a_game_saved_at_rules_revision_2_keeps_counting_the_castillo_before_the_castillo_card():
    # Up to revision 2 the table counted the Castillo in the card's turn, before the veto window,
    # and the card scored as soon as it was let pass: such games replay as they were played.
    g = _castillo_card_against_a_veto(revision=2)
    g.apply(ev.CastilloCounted(counts={"blue": 3, "green": 1, "red": 2}))
    start(g, "blue")
    g.apply(ev.VetoWaived(player="red"))
    assert score(g, "blue") == 5 and score(g, "red") == 3 and g.state.special is None
    again = Game.from_jsonl(g.to_jsonl())
    assert again.setup.revision == 2 and again.state.scores == g.state.scores


def test_special_scoring_first_place_only_ties_get_nothing():
    g = new_game()
    put(g, "blue", "galicia", 2)  # Galicia: red 2, blue 2: tied
    put(g, "green", "aragon", 1)  # Aragón: blue 2, green 1
    pid = turn_with(g, "score_first_place_only")
    start(g, pid)
    assert score(g, "red") == 0
    assert score(g, "blue") == 5 + 2  # Aragón's 1st place and home bonus
    assert score(g, "green") == 4 + 2  # Sevilla


def test_special_scoring_most_caballeros():
    g = new_game()
    put(g, "green", "aragon", 2)
    pid = turn_with(g, "score_most_caballeros")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"aragon"}
    assert score(g, "blue") == 4 and score(g, "green") == 4


def test_special_scoring_least_caballeros_skips_empty_regions():
    g = new_game()
    put(g, "green", "aragon", 2)
    put(g, "red", "granada", 1)
    pid = turn_with(g, "score_least_caballeros")
    start(g, pid)
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"granada"}


# --- stack 4 -------------------------------------------------------------------

def test_mobile_scoreboard_rules():
    g = new_game()
    g.state.mobile["8-4-0"] = g.board.area_index["granada"]
    pid = turn_with(g, "mobile_scoreboard")
    start(g, pid)
    refused(g, ev.MobileScoreboardPlaced(player=pid, scoreboard="4-0-0", area="granada"), "mobile-scoreboard")
    refused(g, ev.MobileScoreboardPlaced(player=pid, scoreboard="4-0-0", area="castilla_la_nueva"),
            "kings-region-taboo")
    g.apply(ev.MobileScoreboardPlaced(player=pid, scoreboard="4-0-0", area="castillo"))
    assert g.state.scoreboard(g.board.castillo) == (4, 0, 0)


def test_mobile_scoreboard_cannot_leave_the_kings_region():
    g = new_game()
    g.state.mobile["8-4-0"] = g.board.area_index["castilla_la_nueva"]
    pid = turn_with(g, "mobile_scoreboard")
    start(g, pid)
    assert list(g.asked().options["moves"]) == ["4-0-0"]
    refused(g, ev.MobileScoreboardPlaced(player=pid, scoreboard="8-4-0", area="galicia"), "mobile-scoreboard")


def test_power_card_taken_back_now_or_from_the_discards():
    g = new_game()
    start_round(g)
    finish_round(g)
    assert 13 in g.state.discards[0]
    cards = ["intrigue_any_4", "decay_3", "score_5_regions", "power_card_back"]
    start_round(g, cards, power={"red": 12, "blue": 11, "green": 10})
    pid = take_card(g, "power_card_back")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    start(g, pid)
    assert g.asked().kind == "veto" and g.state.vetoes == [(1, 1)]  # Blue took the Veto in round 1
    g.apply(ev.VetoWaived(player="blue"))
    assert g.asked().options["cards"] == [12, 13]
    refused(g, ev.PowerCardTakenBack(player=pid, card=5), "special-action")
    g.apply(ev.PowerCardTakenBack(player=pid, card=13))
    assert 13 in g.state.hands[0] and 13 not in g.state.discards[0]


def test_power_card_taken_back_the_one_just_played():
    g = new_game()
    pid = turn_with(g, "power_card_back")
    start(g, pid)
    g.apply(ev.PowerCardTakenBack(player=pid, card=13))
    finish_round(g)
    assert 13 in g.state.hands[0] and 13 not in g.state.discards[0]
    assert 12 in g.state.discards[1]


def test_the_court_moves_two_from_the_provinces():
    g = new_game()
    pid = turn_with(g, "the_court")
    start(g, pid)
    refused(g, ev.CourtReplenished(player=pid, from_provinces=3), "replenish-limit")
    g.apply(ev.CourtReplenished(player=pid, from_provinces=2))
    assert court(g, "red") == 9 and provinces(g, "red") == 19


def test_grande_moves_home_but_not_to_the_kings_region():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "grande")
    start(g, pid)
    refused(g, ev.GrandeMoved(player=pid, region="castilla_la_nueva"), "kings-region-taboo")
    refused(g, ev.GrandeMoved(player=pid, region="castillo"), "unknown-id")
    g.apply(ev.GrandeMoved(player=pid, region="valencia"))
    assert g.state.grandes[0] == g.board.area_index["valencia"]


def test_disc_scoring_scores_regions_chosen_exactly_once():
    g = new_game()
    pid = turn_with(g, "disc_scoring")
    start(g, pid)
    assert set(g.asked().players) == {"red", "blue", "green"}
    g.apply(ev.SecretDiscSet(player="red", region="galicia"))
    g.apply(ev.SecretDiscSet(player="blue", region="sevilla"))
    g.apply(ev.SecretDiscSet(player="green", region="sevilla"))
    g.apply(ev.SecretDiscsRevealed())
    assert {ln.area for ln in g.state.scoring_log[-1].lines} == {"galicia"}
    assert g.state.outcomes[-1].discs == {"red": "galicia", "blue": "sevilla", "green": "sevilla"}
    assert moves(g) == []
    assert score(g, "red") == 4 + 2 and score(g, "green") == 0


def test_eviction_moves_opponents_out_and_back_to_court_on_taboo():
    g = new_game()
    put(g, "blue", "valencia", 2)
    put(g, "green", "valencia", 3)
    put(g, "red", "valencia", 1)
    pid = turn_with(g, "eviction")
    start(g, pid)
    refused(g, ev.RegionChosen(player=pid, region="castilla_la_nueva"), "kings-region-taboo")
    g.apply(ev.RegionChosen(player=pid, region="valencia"))
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscSet(player="green", region="castilla_la_nueva"))
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "red", "valencia") == 1  # the evicting player stays
    assert count(g, "blue", "granada") == 2 and count(g, "green", "castilla_la_nueva") == 0
    assert court(g, "green") == 7 + 3
    assert g.state.outcomes[-1].title == "Eviction, played by Red"
    assert moves(g) == [("blue", 2, "valencia", "granada"), ("green", 3, "valencia", "court")]


def test_royal_advisor_moves_the_king_one_step():
    g = new_game()
    pid = turn_with(g, "royal_advisor")
    start(g, pid)
    refused(g, ev.KingMoved(player=pid, region="galicia"), "king-move")
    g.apply(ev.KingMoved(player=pid, region="granada"))
    assert g.state.king == g.board.area_index["granada"]


def test_kings_card_moves_the_king_anywhere_and_placement_follows():
    g = new_game()
    pid = turn_with(g, "kings_card", place=False)
    start(g, pid)
    g.apply(ev.KingMoved(player=pid, region="galicia"))
    refused(g, ev.CaballerosPlaced(player=pid, placements={"aragon": 1}), "placement-area")
    refused(g, ev.CaballerosPlaced(player=pid, placements={"galicia": 1}), "kings-region-taboo")
    g.apply(ev.CaballerosPlaced(player=pid, placements={"pais_vasco": 3, "castillo": 2}))
    assert count(g, "red", "pais_vasco") == 3 and count(g, "red", "castillo") == 2


def test_every_classic_card_has_a_test_here():
    from engine.board import classic_board
    source = open(__file__, encoding="utf-8").read()
    untested = [cid for cid in classic_board().cards if f'"{cid}"' not in source]
    assert not untested
