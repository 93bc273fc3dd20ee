"""Table corrections and starting to track from a position already on the table."""

import copy
import random

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.flow import apply_event
from engine.game import Game
from engine.playout import check_invariants, random_event, snapshot_for_checks
from engine.views import public_view
from tests.engine.helpers import count, court, new_game, provinces, start_round, take_card


def refused(g, event, rule):
    before = copy.deepcopy(g.state)
    with pytest.raises(RuleViolation) as info:
        g.apply(event)
    assert info.value.rule == rule
    assert public_view(g.state) == public_view(before) and g.state.provinces == before.provinces
    return str(info.value)


def test_a_correction_sets_the_board_and_the_provinces_make_up_the_rest():
    g = new_game()
    g.apply(
        ev.TableCorrected(
            regions={"galicia": {"red": 4}, "aragon": {"blue": 1}},
            court={"red": 5},
            reason="Ana's cubes were knocked over",
        )
    )
    assert count(g, "red", "galicia") == 4 and count(g, "blue", "aragon") == 1
    assert count(g, "green", "sevilla") == 0  # regions replace the whole board
    assert court(g, "red") == 5 and court(g, "blue") == 0
    assert provinces(g, "red") == 30 - 4 - 5 and provinces(g, "green") == 30
    assert g.asked().kind == "reveal_action_cards"  # the game goes on where it was


def test_a_correction_keeps_the_hidden_castillo_and_never_names_it():
    g = new_game()
    g.state.counts[g.board.castillo][0] = 6
    g.state.provinces[0] -= 6
    message = refused(g, ev.TableCorrected(regions={"galicia": {"red": 20}}), "correction")
    assert "6" not in message and "Castillo" in message  # too many in all, without the hidden count
    g.apply(ev.TableCorrected(regions={"galicia": {"red": 17}}))
    assert count(g, "red", "castillo") == 6 and provinces(g, "red") == 0


@pytest.mark.parametrize(
    "event, words",
    [
        (ev.TableCorrected(regions={"galizia": {"red": 1}}), "regions: 'galizia' is not a region"),
        (ev.TableCorrected(court={"pink": 1}), "court: 'pink' is not a player"),
        (ev.TableCorrected(mobile_scoreboards={"8-4-0": "galicia", "4-0-0": "galicia"}), "same area"),
        (ev.TableCorrected(king="castillo"), "king: 'castillo' is not a region"),
    ],
)
def test_a_wrong_correction_names_the_field_and_changes_nothing(event, words):
    assert words in refused(new_game(), event, "correction")


def test_no_correction_midway_through_a_special_action():
    g = new_game()
    start_round(g, ["intrigue_any_3", "veto", "score_castillo", "grande"])
    pid = take_card(g, "intrigue_any_3")
    g.apply(ev.SpecialActionStarted(player=pid))
    refused(g, ev.TableCorrected(court={"red": 1}), "correction")


def test_tracking_starts_from_a_position_and_plays_to_the_end():
    g = new_game()
    g.apply(
        ev.TableCorrected(
            round=5,
            start_player="blue",
            regions={"galicia": {"red": 5, "blue": 2}, "valencia": {"green": 4}},
            castillo={"red": 3, "green": 1},
            court={"red": 2, "blue": 6, "green": 3},
            scores={"red": 31, "blue": 24, "green": 40},
            king="aragon",
            grandes={"red": "galicia", "blue": "cataluna", "green": "valencia"},
            power_spent={"red": [13, 1, 7, 2], "blue": [12, 3, 6, 5], "green": [11, 4, 8]},
            vetoes=["green"],
            reason="opened in round 5",
        )
    )
    s = g.state
    assert s.round == 5 and s.stage == "reveal" and s.players[s.start_player] == "blue"
    assert s.scores == [31, 24, 40] and s.vetoes == [(2, s.round_index)]
    assert provinces(g, "red") == 30 - 5 - 3 - 2
    g.apply(ev.ActionCardsRevealed(cards=["intrigue_any_3", "decay_3", "score_castillo", "grande"]))
    ask = g.asked()
    assert ask.players == ("blue",) and set(ask.options["unavailable"]) == {12, 3, 6, 5}
    refused(g, ev.PowerCardPlayed(player="blue", card=12), "power-card-in-hand")
    rng = random.Random(5)
    while g.state.stage != "over":  # and it plays on to the end, every invariant holding
        event = random_event(rng, g.asked())
        before = snapshot_for_checks(g.state)
        apply_event(g.state, event)
        g.events.append(event)
        check_invariants(g.state, before, event)
    again = Game.from_jsonl(g.to_jsonl())
    assert public_view(again.state) == public_view(g.state)


def test_where_tracking_starts_is_set_only_at_the_start():
    g = new_game()
    g.apply(ev.TableCorrected(scores={"red": 3}))
    refused(g, ev.TableCorrected(round=4), "correction")
    refused(new_game(), ev.TableCorrected(round=4, power_spent={"red": [13, 13]}), "correction")
    refused(new_game(), ev.TableCorrected(round=2, power_spent={"red": [13, 12]}), "correction")
    refused(new_game(variant="short"), ev.TableCorrected(round=4), "correction")  # the short game skips 4
