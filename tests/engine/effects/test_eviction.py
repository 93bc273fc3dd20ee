"""The "eviction" effect: the special action of "Eviction", "Coup".

Cards: classic (1995) "Eviction" (eviction); 2023 edition "Coup" (coup).

classic 1995: "Choose a region. All other players must move all of their own Caballeros out of
this region and into another region (which they each choose with their Secret Disk). [...] If
any players have chosen the King's Region or their Caballeros' original region, they must be
returned to their courts."

2023: "All specified players must secretly set the arrow on their Secret disc to the region of
their choice. Then, simultaneously reveal all discs and perform the rest of the card effect."

2023: "Example "Coup": Each opponent must move all of their [Caballeros] from one region of your
choice to another region. They use their Secret disc to decide where to move their
[Caballeros]." """

from __future__ import annotations

from engine import events as ev
from engine.views import public_view
from tests.engine.effects.book2023 import _table
from tests.engine.effects.classic import moves, start
from tests.engine.effects.game2023 import TWO, _dummy, clear, idx, start_special
from tests.engine.effects.game2023 import count as count_2023
from tests.engine.effects.game2023 import new_game as new_game_2023
from tests.engine.effects.game2023 import put as put_2023
from tests.engine.effects.game2023 import turn_with as turn_with_2023
from tests.engine.effects.referee2023 import _dummy_seat, _put_dummy, _refused, _to_turn, _two
from tests.engine.helpers import count, court, new_game, put, refused, turn_with


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


def test_coup_skips_the_dummy_whose_caballeros_stay():
    g = new_game_2023(**TWO)
    pid = turn_with_2023(g, "coup")
    put_2023(g, "blue", "toledo", 2)
    put_2023(g, "green", "toledo", 2)
    start_special(g, pid)
    g.apply(ev.RegionChosen(player=pid, region="toledo"))
    assert g.asked().players == ("blue",)
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscsRevealed())
    assert count_2023(g, "blue", "granada") == 2 and count_2023(g, _dummy(g), "toledo") == 2


def test_coup_example_each_opponent_moves_all_from_the_region_you_choose():
    """ "You choose Toledo. ... Orange moves 1 Caballero to Cataluña, Blue moves 2 to Granada,
    and Green moves 2 to Valencia. Your Caballeros stay in Toledo." """
    g = _table()
    pid = turn_with_2023(g, "coup")
    clear(g)
    for who, n in ((pid, 3), ("orange", 1), ("blue", 2), ("green", 2)):
        put_2023(g, who, "toledo", n)
    start_special(g, pid)
    g.apply(ev.RegionChosen(player=pid, region="toledo"))
    assert set(g.asked().players) == {"orange", "blue", "green"}
    for who, dest in (("orange", "cataluna"), ("blue", "granada"), ("green", "valencia")):
        g.apply(ev.SecretDiscSet(player=who, region=dest))
    g.apply(ev.SecretDiscsRevealed())
    assert (
        count_2023(g, "orange", "cataluna"),
        count_2023(g, "blue", "granada"),
        count_2023(g, "green", "valencia"),
    ) == (1, 2, 2)
    assert count_2023(g, pid, "toledo") == 3 and sum(g.state.counts[idx(g, "toledo")]) == 3
    assert g.state.outcomes[-1].discs == {"orange": "cataluna", "blue": "granada", "green": "valencia"}


def test_taboo_coup_never_names_the_kings_region():
    """Coup moves all of each opponent's Caballeros out of "one region of your choice" — never
    the King's region, which "may never be changed"."""
    g = new_game_2023()
    put_2023(g, "blue", "castilla", 2)
    pid = _to_turn(g, "coup")
    start_special(g, pid)
    assert "castilla" not in g.asked().options["regions"]
    _refused(g, ev.RegionChosen(player=pid, region="castilla"), "kings-region-taboo")


def test_coup_example_each_moves_all_by_disc_yours_stay():
    """ "You choose Toledo. Using their Secret discs, all other players secretly choose the region
    to which they will move all their Caballeros from Toledo. After revealing the regions, Orange
    moves 1 Caballero to Cataluña, Blue moves 2 to Granada, and Green moves 2 to Valencia. Your
    Caballeros stay in Toledo." """
    g = new_game_2023(
        players=["purple", "orange", "blue", "green"],
        homes={"purple": "granada", "orange": "cataluna", "blue": "sevilla", "green": "navarra"},
    )
    clear(g)
    for pid, k in (("purple", 2), ("orange", 1), ("blue", 2), ("green", 2)):
        put_2023(g, pid, "toledo", k)
    pid = _to_turn(g, "coup")
    start_special(g, pid)
    g.apply(ev.RegionChosen(player=pid, region="toledo"))
    assert set(g.asked().players) == {"orange", "blue", "green"}
    for q, r in (("orange", "cataluna"), ("blue", "granada"), ("green", "valencia")):
        g.apply(ev.SecretDiscSet(player=q, region=r))
        if q != "green":
            _refused(g, ev.SecretDiscsRevealed(), "secret-disc")  # "simultaneously reveal all discs"
    assert "granada" not in public_view(g.state).model_dump_json().split('"outcomes"')[1]
    g.apply(ev.SecretDiscsRevealed())
    assert (
        count_2023(g, "orange", "cataluna"),
        count_2023(g, "blue", "granada"),
        count_2023(g, "green", "valencia"),
        count_2023(g, "purple", "toledo"),
    ) == (1, 2, 2, 2)


def test_coup_with_two_players_the_dummy_is_skipped_its_caballeros_stay():
    """ "But if an Action card would require the dummy's action (e.g. choose a region), skip the
    dummy." — Coup: only Blue sets a disc; the dummy's Caballeros stay in the region chosen."""
    g = _two()
    clear(g)
    _put_dummy(g, "toledo", 2)
    put_2023(g, "blue", "toledo", 1)
    pid = _to_turn(g, "coup")
    start_special(g, pid)
    g.apply(ev.RegionChosen(player=pid, region="toledo"))
    assert g.asked().players == ("blue",)
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscsRevealed())
    assert g.state.counts[g.board.area_index["toledo"]][_dummy_seat(g)] == 2
    assert count_2023(g, "blue", "granada") == 1 and count_2023(g, "blue", "toledo") == 0
