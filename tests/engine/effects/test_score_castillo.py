"""The "score_castillo" effect: the special action of "Special Scoring", "Special scoring".

Cards: classic (1995) "Special Scoring" (score_castillo); King and Intrigue "Special scoring"
(ki_120).

classic 1995: "Score the Castillo. The Castillo is scored immediately. To do this, lift the
Castillo, and score the Caballeros there. After the scoring, the Castillo is placed back over
the Caballeros."

King and Intrigue: "The 60, 100, 110, 120, 150, and 170 cards trigger a special scoring and are
identical to those Action cards found in the base game (stacks 3 and 4, pages 11-12)." Which
scoring each is, is not published: the table enters it from its cards; the tests' table (and the
engine's self-play stand-in) enter 60, 100, 110: score_group ("4", "5", "6-7"); 120:
score_castillo; 150: score_chosen_region; 170: score_first_only."""

from __future__ import annotations

from engine import events as ev
from engine.game import Game
from tests.engine.effects.classic import start
from tests.engine.helpers import count, new_game, put, refused, score, take_card, turn_with
from tests.engine.king_intrigue.table import _start, red_turn
from tests.engine.king_intrigue.table import new_game as ki_game
from tests.engine.king_intrigue.table import put as ki_put


def _castillo_card_against_a_veto(revision=ev.RULES_REVISION):
    """Red holds the Veto; Blue takes the Castillo scoring card with 3 Blue, 1 Green inside."""
    g = new_game(revision=revision)
    turn_with(g, "veto")
    put(g, "blue", "castillo", 3)
    put(g, "green", "castillo", 1)
    take_card(g, "score_castillo", "blue")
    g.apply(ev.CaballerosPlaced(player="blue", placements={}))
    return g


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


def test_king_and_intrigue_120_entered_as_the_castillo_scoring_lifts_and_scores_it():
    """King and Intrigue's 120 (Special scoring), entered by the table as "Score the Castillo.
    [...] lift the Castillo, and score the Caballeros there. After the scoring, the Castillo is
    placed back over the Caballeros." """
    game = ki_game(4)
    red_turn(game, 120)
    ki_put(game, "blue", "castillo", 3)
    ki_put(game, "green", "castillo", 1)
    assert _start(game).kind == "lift_castillo"
    game.apply(ev.CastilloCounted(counts={}))
    log = game.state.scoring_log[-1]
    assert {(ln.player, ln.points) for ln in log.lines} == {("blue", 5), ("green", 3)}
    assert game.state.counts[game.board.castillo] == [0, 3, 1, 0]  # they stay inside
