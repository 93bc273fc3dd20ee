"""The "veto" effect: the special action of "Veto".

Cards: classic (1995) "Veto" (veto); King and Intrigue "Veto" (ki_40).

classic 1995: "You may prevent one special action during this round or the next round. [...]
When you select the Veto card, place it on the table in front of you. Once, during the current
round or next round, you may prevent one entire or partial special action taken by another
player. [...] You may also interrupt a special action, and prevent only part of it, while a
player is performing the action."

King and Intrigue, 40: "The Veto action is explained in detail in the base game rules (stack 2,
page 10)." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.game import Game
from tests.engine.effects.classic import move, start
from tests.engine.helpers import ROUND_2, count, finish_round, new_game, refused, start_round, take_card, turn_with
from tests.engine.king_intrigue.table import KING, _play_round, finish_turn, idx, play_powers, through_setup
from tests.engine.king_intrigue.table import new_game as ki_game


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


def test_the_veto_lapses_at_the_end_of_the_following_round():
    """Base game: "If you have not used the Veto card by the end of the following round, you
    must discard it, unused." ("The Veto action is explained in detail in the base game rules")"""
    game = ki_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    assert s.vetoes and s.vetoes[0][0] == 0  # still held in the next round
    while s.round_index == 1:
        if s.stage == "power":
            ask = game.asked()
            game.apply(ev.PowerCardPlayed(player=ask.players[0], card=ask.options["cards"][0]))
        else:
            finish_turn(game)
    assert not [v for v in s.vetoes if v[0] == 0]


@pytest.mark.parametrize(
    "values",
    [
        {"red": 40, "blue": 120, "green": 90, "yellow": 60},  # red lowest
        {"red": 40, "blue": 10, "green": 30, "yellow": 20},
    ],
)  # red highest
def test_four_players_a_40_under_the_kings_or_intrigue_card_holds_no_veto(values):
    """ "In a 4- or 5-player game, the players with the King's Card and Intrigue card will only
    perform the action specified on that Action card. The special actions depicted on their
    Power cards are ignored." (the 40's Veto included)"""
    game = ki_game(4)
    through_setup(game)
    play_powers(game, values)
    while game.asked().players[0] != "red":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="red", from_provinces=0))
    s = game.state
    assert s.vetoes == []
    assert game.asked().options["special"]["card"] in ("kings_card", "intrigue")


def test_the_veto_may_prevent_the_kings_cards_action_in_the_next_round():
    """Base game: "Once, during the current round or next round, you may prevent one entire or
    partial special action taken by another player." (the King's Card's action is a special
    action: the King stays)"""
    game = ki_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})  # red: a Caballero card, the Veto
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    assert s.vetoes and s.vetoes[0][0] == 0
    _play_round(game, 50)  # blue: its highest, the King's Card
    from engine.rules.king_intrigue.round import action_cards_by_rank

    assert action_cards_by_rank(s)[1][0] == "kings_card"
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="blue", from_provinces=0))
    game.apply(ev.SpecialActionStarted(player="blue"))
    ask = game.asked()
    assert ask.kind == "veto" and "red" in ask.players
    game.apply(ev.VetoUsed(player="red"))
    assert s.king == idx(game, KING) and s.turn.special_done and not [v for v in s.vetoes if v[0] == 0]


def test_the_40_holds_the_veto_from_its_holders_turn_and_stops_a_later_special_action():
    game = ki_game(3)
    through_setup(game, discs={"red": "aragon", "blue": "aragon", "green": "aragon"})
    play_powers(game, {"red": 40, "blue": 120, "green": 10})  # turns: blue (King's Card), red, green
    game.apply(ev.CourtReplenished(player="blue", from_provinces=2))
    game.apply(ev.SpecialActionStarted(player="blue", option="kings_card"))
    assert game.asked().kind == "move_king"  # red's turn has not come: no Veto held yet
    game.apply(ev.KingMoved(player="blue", region="galicia"))
    game.apply(ev.CaballerosPlaced(player="blue", placements={}))
    game.apply(ev.CourtReplenished(player="red", from_provinces=4))
    assert game.state.vetoes == [(0, 1)] and game.asked().options["special"] is None
    game.apply(ev.CaballerosPlaced(player="red", placements={}))
    game.apply(ev.CourtReplenished(player="green", from_provinces=6))
    game.apply(ev.SpecialActionStarted(player="green", option="move"))  # the 10 has no action: the Intrigue card alone
    assert game.asked().kind == "veto" and game.asked().players == ("red",)
    game.apply(ev.VetoUsed(player="red"))
    assert game.state.vetoes == [] and game.state.turn.special_done
    assert game.state.counts[idx(game, "aragon")] == [1, 1, 1]
