"""The classic effects the 2023 book keeps, under the 2023 rules: Scoring tiles instead of mobile
scoreboards, the King in France, Portugal or by the Castillo, and the 2-player dummy, of whom
"if an Action card would require the dummy's action (e.g. choose a region), skip the dummy",
while "You may move the dummy's Caballeros or send them back from the regions according to
the normal rules"."""
from __future__ import annotations

from engine import events as ev

from .game2023 import (clear, count, idx, new_game, provinces, put, refused, set_court, start_special,
                       turn_with)

TWO = dict(players=["purple", "blue"], dummy="green", board_file=None)


def _dummy(g) -> str:
    return g.state.players[g.state.dummy]


def test_withdrawal_skips_the_dummy():
    g = new_game(**TWO)
    pid = turn_with(g, "withdrawal")
    put(g, "green", "toledo", 4)
    start_special(g, pid)
    ask = g.asked()
    assert ask.players == ("blue",) and list(ask.options["owners"]) == ["blue"]
    g.apply(ev.CaballerosSentBack(player="blue", owner="blue", from_court=3))
    assert count(g, _dummy(g), "toledo") == 4 and g.state.stage != "special"


def test_withdrawal_never_from_the_castillo_or_the_kings_region_and_as_many_as_possible():
    """"You can never take them from the Castillo or the King's region. In case you don't have
    enough Caballeros at the specified location, send back as many as possible." """
    g = new_game()
    pid = turn_with(g, "withdrawal")
    clear(g)
    set_court(g, "blue", 1)
    put(g, "blue", "castilla", 3)  # the King's region
    put(g, "blue", "castillo", 3)
    put(g, "blue", "toledo", 1)
    start_special(g, pid)
    assert g.asked().options["owners"]["blue"]["count"] == 2
    refused(g, ev.CaballerosSentBack(player="blue", owner="blue", from_court=1, from_regions={"castilla": 1}),
            "kings-region-taboo")
    refused(g, ev.CaballerosSentBack(player="blue", owner="blue", from_court=1, from_regions={"castillo": 1}),
            "castillo-no-removal")
    g.apply(ev.CaballerosSentBack(player="blue", owner="blue", from_court=1, from_regions={"toledo": 1}))
    assert provinces(g, "blue") == 30 - 3 - 3


def test_coup_skips_the_dummy_whose_caballeros_stay():
    g = new_game(**TWO)
    pid = turn_with(g, "coup")
    put(g, "blue", "toledo", 2)
    put(g, "green", "toledo", 2)
    start_special(g, pid)
    g.apply(ev.RegionChosen(player=pid, region="toledo"))
    assert g.asked().players == ("blue",)
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscsRevealed())
    assert count(g, "blue", "granada") == 2 and count(g, _dummy(g), "toledo") == 2


def test_intrigue_may_move_the_dummys_caballeros():
    g = new_game(**TWO)
    pid = turn_with(g, "intrigue")
    put(g, "green", "toledo", 2)
    start_special(g, pid)
    assert g.asked().options["sources"]["toledo"] == {"green": 2}
    g.apply(ev.CaballerosMoved(player=pid, owner="green", source="toledo", target="castillo", count=2))
    assert count(g, _dummy(g), "castillo") == 2


def test_a_disc_scoring_card_entered_by_the_table_skips_the_dummy():
    ballot = {"id": "ballot", "stack": 4, "copies": 1, "name": "Ballot", "effect": "disc_scoring",
              "text": "Each player chooses a region with his Secret Disk. Each region chosen exactly once is scored."}
    two_three_side = {"regions": [{"id": r, "scoreboard": [4, 2, 0]} for r in new_game().board.region_ids],
                      "castillo": {"scoreboard": [5, 3, 1]}}
    g = new_game(**{**TWO, "board_file": two_three_side}, extra_cards=[ballot])
    pid = turn_with(g, "ballot")
    put(g, "green", "toledo", 2)
    start_special(g, pid)
    assert set(g.asked().players) == {"purple", "blue"}
    g.apply(ev.SecretDiscSet(player="purple", region="toledo"))
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscsRevealed())
    assert {line.area for line in g.state.scoring_log[-1].lines} == {"toledo"}  # the dummy scores nothing there
    assert all(line.points == 0 for line in g.state.scoring_log[-1].lines)


def test_intrigue_with_the_king_in_france_moves_between_regions_only():
    g = new_game()
    g.state.king = idx(g, "france")  # arranged: after Exile
    pid = turn_with(g, "intrigue")
    put(g, pid, "toledo", 2)
    start_special(g, pid)
    targets = g.asked().options["targets"]
    assert "france" not in targets and "castilla" in targets and "castillo" in targets
    g.apply(ev.CaballerosMoved(player=pid, owner=pid, source="toledo", target="castilla"))
    assert count(g, pid, "castilla") == 1


def test_outposts_on_a_side_whose_scoreboards_nobody_entered_is_refused_naming_the_fact():
    g = new_game(players=["purple", "blue", "green"], board_file=None)
    pid = turn_with(g, "outposts")
    assert "scoreboard" in g.asked().options["special"]["refused"]
    msg = refused(g, ev.SpecialActionStarted(player=pid), "board-fact-missing")
    assert "board file: regions[galicia].scoreboard" in msg
    g.apply(ev.SpecialActionSkipped(player=pid))


def test_fiesta_with_the_king_by_the_castillo_scores_the_regions_only():
    g = new_game()
    g.state.king = g.state.board.castillo  # arranged: after Rebellion
    pid = turn_with(g, "fiesta")
    clear(g)
    put(g, "blue", "aragon", 2)
    put(g, "blue", "castillo", 2)
    start_special(g, pid)
    lines = g.state.scoring_log[-1].lines
    assert {line.area for line in lines} == {"aragon"} and sum(line.points for line in lines) == 5 + 2  # Blue's home
    assert count(g, "blue", "castillo") == 2  # nothing leaves the Castillo
