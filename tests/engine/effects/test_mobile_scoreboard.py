"""The "mobile_scoreboard" effect: the special action of "Mobile Scoreboard", "Mobile scoreboard".

Cards: classic (1995) "Mobile Scoreboard" (mobile_scoreboard); King and Intrigue "Mobile
scoreboard" (ki_90).

classic 1995: "You may place one Mobile Scoreboard on the board or move one that is already
there. [...] A Mobile Scoreboard may also be placed at the Castillo (it replaces the values for
both scoreboards at the Castillo even though only one is placed). [...] A Mobile Scoreboard may
not be moved into or out of the King's Region. The two Mobile Scoreboards may not be placed on
top of one another."

King and Intrigue, 90: "The mobile scoreboard action is explained in detail in the base game
rules (stack 4, page 12)." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.classic import start
from tests.engine.helpers import new_game, refused, turn_with
from tests.engine.king_intrigue.table import KING, idx, red_turn
from tests.engine.king_intrigue.table import new_game as ki_game


def test_mobile_scoreboard_rules():
    g = new_game()
    g.state.mobile["8-4-0"] = g.board.area_index["granada"]
    pid = turn_with(g, "mobile_scoreboard")
    start(g, pid)
    refused(g, ev.MobileScoreboardPlaced(player=pid, scoreboard="4-0-0", area="granada"), "mobile-scoreboard")
    refused(
        g, ev.MobileScoreboardPlaced(player=pid, scoreboard="4-0-0", area="castilla_la_nueva"), "kings-region-taboo"
    )
    g.apply(ev.MobileScoreboardPlaced(player=pid, scoreboard="4-0-0", area="castillo"))
    assert g.state.scoreboard(g.board.castillo) == (4, 0, 0)


def test_mobile_scoreboard_cannot_leave_the_kings_region():
    g = new_game()
    g.state.mobile["8-4-0"] = g.board.area_index["castilla_la_nueva"]
    pid = turn_with(g, "mobile_scoreboard")
    start(g, pid)
    assert list(g.asked().options["moves"]) == ["4-0-0"]
    refused(g, ev.MobileScoreboardPlaced(player=pid, scoreboard="8-4-0", area="galicia"), "mobile-scoreboard")


def test_90_the_mobile_scoreboard_as_in_the_base_game():
    game = ki_game(4)
    red_turn(game, 90)  # green plays 80
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().kind == "place_mobile_scoreboard" and KING not in game.asked().options["moves"]["8-4-0"]
    game.apply(ev.MobileScoreboardPlaced(player="red", scoreboard="8-4-0", area="galicia"))
    assert game.state.mobile["8-4-0"] == idx(game, "galicia")
