"""The "grande" effect: the special action of "Grande".

Cards: classic (1995) "Grande" (grande); King and Intrigue "Grande" (ki_80).

classic 1995: "You may relocate your Grande. You may choose any region (including a region
already containing other Grandes) except the Castillo and the King's Region. The new region
becomes your Home region."

King and Intrigue, 80: "You may not take your Grande or Caballeros from the King's region. You
may not place your Grande in the King's region or the Castillo." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.effects.classic import start
from tests.engine.helpers import new_game, put, refused, turn_with
from tests.engine.king_intrigue.table import KING, _start, idx, red_turn
from tests.engine.king_intrigue.table import new_game as ki_game
from tests.engine.king_intrigue.table import put as ki_put


def test_grande_moves_home_but_not_to_the_kings_region():
    g = new_game()
    put(g, "red", "valencia", 3)
    pid = turn_with(g, "grande")
    start(g, pid)
    refused(g, ev.GrandeMoved(player=pid, region="castilla_la_nueva"), "kings-region-taboo")
    refused(g, ev.GrandeMoved(player=pid, region="castillo"), "unknown-id")
    g.apply(ev.GrandeMoved(player=pid, region="valencia"))
    assert g.state.grandes[0] == g.board.area_index["valencia"]


def test_80_caballeros_may_not_be_taken_from_the_kings_region():
    """ "You may not take your Grande or Caballeros from the King's region." (the 80 moves the
    Grande with Caballeros: none of them out of the King's region)"""
    game = ki_game(4)
    red_turn(game, 80)
    ki_put(game, "red", KING, 3)
    _start(game)
    game.apply(ev.GrandeMoved(player="red", region="cataluna"))
    s = game.state
    assert s.grandes[0] == idx(game, "cataluna") and s.turn.special_done
    assert s.counts[idx(game, KING)][0] == 3  # nothing left the King's region with the Grande


def test_80_the_grande_neither_leaves_nor_enters_the_kings_region_nor_goes_to_the_castillo():
    game = ki_game(4)
    red_turn(game, 80)
    game.apply(ev.SpecialActionStarted(player="red"))
    regions = game.asked().options["regions"]
    assert KING not in regions and "castillo" not in regions and "galicia" not in regions
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.GrandeMoved(player="red", region=KING))
    game.apply(ev.GrandeMoved(player="red", region="cataluna"))
    assert game.state.grandes[0] == idx(game, "cataluna")
    stuck = ki_game(4)
    red_turn(stuck, 80)
    stuck.state.grandes[0] = idx(stuck, KING)
    stuck.apply(ev.SpecialActionStarted(player="red"))
    assert stuck.state.turn.special_done  # a Grande in the King's region may not be taken out
