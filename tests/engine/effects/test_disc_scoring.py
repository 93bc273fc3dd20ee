"""The "disc_scoring" effect: the special action of "Special Scoring".

Cards: classic (1995) "Special Scoring" (disc_scoring).

classic 1995: "Each player chooses a region with his Secret Disk. Each region that was chosen
exactly once is scored. Any region chosen by multiple players is not scored. [...] First, all
players (including you) simultaneously select a region on their Secret Disks and place them face
down on the table." """

from __future__ import annotations

from engine import events as ev
from tests.engine.effects.classic import moves, start
from tests.engine.effects.game2023 import TWO, put, start_special
from tests.engine.effects.game2023 import new_game as new_game_2023
from tests.engine.effects.game2023 import turn_with as turn_with_2023
from tests.engine.helpers import new_game, score, turn_with


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


def test_a_disc_scoring_card_entered_by_the_table_skips_the_dummy():
    ballot = {
        "id": "ballot",
        "stack": 4,
        "copies": 1,
        "name": "Ballot",
        "effect": "disc_scoring",
        "text": "Each player chooses a region with his Secret Disk. Each region chosen exactly once is scored.",
    }
    two_three_side = {
        "regions": [{"id": r, "scoreboard": [4, 2, 0]} for r in new_game_2023().board.region_ids],
        "castillo": {"scoreboard": [5, 3, 1]},
    }
    g = new_game_2023(**{**TWO, "board_file": two_three_side}, extra_cards=[ballot])
    pid = turn_with_2023(g, "ballot")
    put(g, "green", "toledo", 2)
    start_special(g, pid)
    assert set(g.asked().players) == {"purple", "blue"}
    g.apply(ev.SecretDiscSet(player="purple", region="toledo"))
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscsRevealed())
    assert {line.area for line in g.state.scoring_log[-1].lines} == {"toledo"}  # the dummy scores nothing there
    assert all(line.points == 0 for line in g.state.scoring_log[-1].lines)
