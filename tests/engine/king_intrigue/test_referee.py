"""An independent referee's scenarios for King and Intrigue: each test quotes the sentence of
the rule text (king-and-intrigue-expansion.md, or the classic rules it builds on) it checks,
in situations the other test files do not cover. Numbers the text does not publish (what an
Action card places, each card's Caballeros to the court, which scoring a card is) are the
tests' card file's (table.py), entered as a table would from its box; no expectation here
depends on one the text leaves open unless it is taken from that file."""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation

from .table import (ALL, COURT, KING, WITH_MODULES, finish_turn, idx, new_game, play_powers, put, red_turn, seat,
                    through_setup)

BOTH = ["players-edition", "special-cards"]
FOUR = ("red", "blue", "green", "yellow")


# --- helpers ------------------------------------------------------------------------------------

def _hand(value: int) -> list[int]:
    return [value] + [v for v in ALL if v != value][:12]


def _module_turn(value: int, *, others=None, discs=None, king=KING, hands=None, round_index=0):
    """4 players with both modules: red plays `value` and holds a Caballero card (blue 180 the
    King's Card, green 40, yellow 10 the Intrigue card; in a later round `round_index`: blue its
    highest card, green and yellow their lowest); the turns before red's pass; red has
    replenished fully."""
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES, king=king)
    through_setup(game, discs=discs, hands=hands or {"red": _hand(value), "blue": ALL[5:], "green": ALL[:13],
                                                     "yellow": ALL[:13]})
    if round_index:
        _pass_until_round(game, round_index)
        _play_round(game, value)
    else:
        play_powers(game, others or {"red": value, "blue": 180, "green": 40, "yellow": 10})
    while game.asked().players[0] != "red":
        finish_turn(game)
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="red", from_provinces=min(ask.options["max"], ask.options["provinces"])))
    return game


def _start(game, player="red", option=None):
    """Start the special action; every Veto holder lets it pass."""
    game.apply(ev.SpecialActionStarted(player=player, option=option))
    while game.state.stage == "veto_window":
        game.apply(ev.VetoWaived(player=game.asked().players[0]))
    return game.asked()


def _pass_until_round(game, round_index):
    """Every turn passes (each plays their lowest card left) until round `round_index` (0-based)."""
    s = game.state
    while s.round_index < round_index:
        if s.stage == "power":
            ask = game.asked()
            game.apply(ev.PowerCardPlayed(player=ask.players[0], card=ask.options["cards"][0]))
        else:
            finish_turn(game)


def _play_round(game, red_value):
    """The Power cards of a round: red `red_value`, blue its highest, green and yellow their lowest."""
    s = game.state
    while s.stage == "power":
        ask = game.asked()
        pid, cards = ask.players[0], ask.options["cards"]
        game.apply(ev.PowerCardPlayed(player=pid, card=red_value if pid == "red" else
                                      cards[-1] if pid == "blue" else cards[0]))


def _to_general_scoring(game):
    """Every later turn passes (the lowest card left played) until the general scoring's discs
    (or Espionage's question just before them)."""
    s = game.state
    while s.stage not in ("scoring_discs", "ki_spy"):
        if s.stage == "power":
            ask = game.asked()
            game.apply(ev.PowerCardPlayed(player=ask.players[0], card=ask.options["cards"][0]))
        else:
            finish_turn(game)


def _reveal_discs(game, region="cataluna", **own):
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region=own.get(pid, region)))
    game.apply(ev.SecretDiscsRevealed())
    return game.state.scoring_log[-1]


def _points(lines, area, kind=None):
    got: dict[str, int] = {}
    for ln in lines:
        if ln.area == area and (kind is None or ln.kind == kind):
            got[ln.player] = got.get(ln.player, 0) + ln.points
    return got


# --- setup ----------------------------------------------------------------------------------

def test_setup_the_disc_caballero_comes_from_the_province_not_the_court():
    """"Each player places 1 Caballero from the Province in their chosen region." -- and no
    more than 1: every player's court is untouched."""
    game = new_game(4)
    s = game.state
    courts, provinces = list(s.court), list(s.provinces)
    through_setup(game, discs={"red": "aragon", "blue": "aragon", "green": "cataluna", "yellow": "galicia"})
    assert s.court == courts and [a - b for a, b in zip(provinces, s.provinces)] == [1, 1, 1, 1]
    assert s.counts[idx(game, "aragon")] == [1, 1, 0, 0]
    assert s.counts[idx(game, "galicia")][3] == 1 and s.counts[idx(game, "cataluna")][2] == 1
    assert all(s.total_accounted(p) == 30 for p in range(4))


def test_setup_every_player_keeps_exactly_13_and_plays_only_from_those():
    """"each player will secretly choose 13 of them with which he will play the game. Each
    player then puts the 5 cards he chose not to use back in the box" -- a card left out is
    never playable."""
    game = new_game(3)
    through_setup(game, hands={"red": ALL[5:], "blue": ALL[:13], "green": ALL[:13]})
    assert [len(h) for h in game.state.hands] == [13, 13, 13]
    assert 10 not in game.asked().options["cards"]
    with pytest.raises(RuleViolation, match="no Power card 10"):
        game.apply(ev.PowerCardPlayed(player="red", card=10))


# --- the round: ranks, turn order, the court step ----------------------------------------------

def test_five_players_turns_start_with_the_kings_card_and_go_down_by_power_card():
    """"Then each player takes their turn, starting with the player who has the King's Card,
    and proceeding in descending Power card order." (played in seat order from the start
    player, not in value order)"""
    game = new_game(5, start="green")
    through_setup(game)
    play_powers(game, {"green": 30, "yellow": 120, "black": 60, "red": 90, "blue": 10})
    s = game.state
    assert [s.players[q] for q in s.turn_order] == ["yellow", "red", "black", "green", "blue"]
    from engine.rules.king_intrigue import action_cards_by_rank
    ranks = action_cards_by_rank(s)
    assert ranks[seat(game, "yellow")] == ("kings_card", 5) and ranks[seat(game, "blue")] == ("intrigue", 1)
    # "the Action card offering the most Caballeros from those remaining", in descending order
    assert [ranks[seat(game, p)] for p in ("red", "black", "green")] == [
        ("caballero", 4), ("caballero", 3), ("caballero", 2)]
    assert game.asked().players == ("yellow",)


def test_the_kings_card_holder_takes_the_caballeros_of_their_power_card():
    """"They will still take the Caballeros depicted on their Power card." (4 players: the
    King's Card and the Intrigue card holders)"""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 90, "blue": 20, "green": 60, "yellow": 50})
    assert game.asked().players == ("red",) and game.asked().options["max"] == COURT[90]
    finish_turn(game)
    finish_turn(game)
    finish_turn(game)
    ask = game.asked()
    assert ask.players == ("blue",) and ask.options["max"] == COURT[20]  # the Intrigue card: the 20's 6


def test_fewer_caballeros_to_the_court_none_at_all():
    """"a player may choose to take fewer Caballeros" -- none is fewer."""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    court = game.state.court[1]
    game.apply(ev.CourtReplenished(player="blue", from_provinces=0))
    assert game.state.court[1] == court and game.state.stage == "turn"


def test_special_action_first_then_placement_next_to_the_new_king():
    """"Then, in the order of his choice, the player executes his special action and places
    ..." -- "You may move the King before or after you place Caballeros." (the King's Card
    first: the placement then goes next to the King's new region)"""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    game.apply(ev.CourtReplenished(player="blue", from_provinces=2))
    _start(game, "blue")
    game.apply(ev.KingMoved(player="blue", region="galicia"))
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosPlaced(player="blue", placements={"granada": 1}))  # no longer next to the King
    game.apply(ev.CaballerosPlaced(player="blue", placements={"pais_vasco": 1}))
    assert game.state.counts[idx(game, "pais_vasco")][1] == 1


def test_placement_first_then_the_king_moves():
    """"You may move the King before or after you place Caballeros.\""""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    game.apply(ev.CourtReplenished(player="blue", from_provinces=2))
    game.apply(ev.CaballerosPlaced(player="blue", placements={"granada": 2}))
    ask = game.asked()
    assert ask.kind == "turn_action" and ask.options["special"]["card"] == "kings_card"
    game.apply(ev.SpecialActionStarted(player="blue"))
    game.apply(ev.KingMoved(player="blue", region="granada"))
    assert game.state.king == idx(game, "granada") and game.state.counts[idx(game, "granada")][1] == 2


def test_the_kings_card_may_not_put_the_king_in_the_castillo():
    """"You may not place the King in the Castillo.\""""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})
    game.apply(ev.CourtReplenished(player="blue", from_provinces=2))
    game.apply(ev.SpecialActionStarted(player="blue"))
    assert "castillo" not in game.asked().options["regions"]
    with pytest.raises(RuleViolation):
        game.apply(ev.KingMoved(player="blue", region="castillo"))
    assert game.state.king == idx(game, KING)


def test_three_players_the_intrigue_card_offers_its_actions_or_the_power_cards():
    """"In a 2- or 3-player game, the King's Card and Intrigue card offer a choice between two
    actions." -- "The same is true of the Intrigue card." (3 players)"""
    game = new_game(3)
    through_setup(game, discs={"red": "aragon", "blue": "aragon", "green": "aragon"})
    play_powers(game, {"red": 120, "blue": 90, "green": 70})  # green: the lowest, the 70 and the Intrigue card
    finish_turn(game)
    finish_turn(game)
    ask = game.asked()
    assert ask.players == ("green",) and ask.options["max"] == COURT[70]
    game.apply(ev.CourtReplenished(player="green", from_provinces=COURT[70]))
    options = game.asked().options["special"]["options"]
    assert "power_card" in options and any(o.startswith("intrigue") for o in options)
    game.apply(ev.SpecialActionStarted(player="green", option="power_card"))
    ask = game.asked()
    assert ask.players == ("green",) and set(ask.options["owners"]) == {"red", "blue"}  # the 70: one of each


def test_four_players_a_caballero_card_holder_executes_the_power_cards_action():
    """"Normally a player will execute the special action on his Power card." (a Caballero card
    holder in a 4-player game: the 90's mobile scoreboard)"""
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 90, "blue": 120, "green": 60, "yellow": 10})
    finish_turn(game)  # blue
    game.apply(ev.CourtReplenished(player="red", from_provinces=0))
    special = game.asked().options["special"]
    assert special["card"] != "kings_card" and special["options"] is None
    game.apply(ev.SpecialActionStarted(player="red"))
    assert game.asked().kind == "place_mobile_scoreboard"


# --- the Intrigue card ------------------------------------------------------------------------

def _intrigue_turn():
    """4 players, everyone's setup Caballero in Aragón; yellow (10) holds the Intrigue card and
    has replenished."""
    game = new_game(4)
    through_setup(game, discs={p: "aragon" for p in FOUR})
    play_powers(game, {"red": 120, "blue": 90, "green": 60, "yellow": 10})
    while game.asked().players[0] != "yellow":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    return game, "yellow"


def test_intrigue_moves_one_caballero_in_all_own_or_foreign():
    """"You may move 1 of your own or 1 foreign Caballero." -- one, not one of each."""
    game, pid = _intrigue_turn()
    _start(game, pid, option="move")
    game.apply(ev.CaballerosMoved(player=pid, owner="red", source="aragon", target="cataluna"))
    s = game.state
    assert s.counts[idx(game, "cataluna")][0] == 1
    assert s.turn.special_done  # no own Caballero may follow the foreign one
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna"))


@pytest.mark.parametrize("source, target", [(KING, "aragon"), ("aragon", KING)])
def test_intrigue_the_kings_region_is_always_taboo(source, target):
    """"The King's region is always taboo!" (the Intrigue card's move: neither out of it nor
    into it)"""
    game, pid = _intrigue_turn()
    put(game, "red", KING, 1)
    _start(game, pid, option="move")
    before = [row[:] for row in game.state.counts]
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.CaballerosMoved(player=pid, owner="red", source=source, target=target))
    assert game.state.counts == before


def _move_all_own_started():
    game, pid = _intrigue_turn()
    put(game, pid, "aragon", 2)  # 3 there
    _start(game, pid, option="move_all_own")
    return game, pid


def test_intrigue_move_all_own_moves_only_your_own_and_all_of_them():
    """"You move all of your Caballeros from one region to another region." -- no foreign one,
    and the action may not stop before all of them have moved."""
    game, pid = _move_all_own_started()
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosMoved(player=pid, owner="red", source="aragon", target="cataluna", count=1))
    game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna", count=2))
    for stop in (ev.SpecialActionSkipped(player=pid), ev.SpecialActionFinished(player=pid)):
        with pytest.raises(RuleViolation):
            game.apply(stop)
    game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna", count=1))
    s = game.state
    assert s.counts[idx(game, "aragon")][seat(game, pid)] == 0 and s.counts[idx(game, "cataluna")][seat(game, pid)] == 3
    assert s.turn.special_done


def test_intrigue_move_all_own_goes_to_one_other_region():
    """"You move all of your Caballeros from one region to another region." (one target: the
    Caballeros are not split between two regions)"""
    game, pid = _move_all_own_started()
    game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna", count=2))
    assert game.asked().options["targets"] == ["cataluna"]
    with pytest.raises(RuleViolation, match="to one region: Cataluña"):
        game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="pais_vasco", count=1))
    game.apply(ev.CaballerosMoved(player=pid, owner=pid, source="aragon", target="cataluna", count=1))
    assert game.state.turn.special_done


# --- base Power cards -----------------------------------------------------------------------

def test_50_you_are_not_affected():
    """"In clockwise order, your opponents (not you) choose which 3 of their Caballeros to
    return to the province." -- the player's own pieces stay."""
    game = new_game(4)
    red_turn(game, 50)
    s = game.state
    mine = (s.court[0], [row[0] for row in s.counts], s.provinces[0])
    provinces = list(s.provinces)
    game.apply(ev.SpecialActionStarted(player="red"))
    while game.asked().kind == "send_back":
        pid = game.asked().players[0]
        assert pid != "red"
        game.apply(ev.CaballerosSentBack(player=pid, owner=pid, from_court=3))
    assert (s.court[0], [row[0] for row in s.counts], s.provinces[0]) == mine
    assert [b - a for a, b in zip(provinces, s.provinces)] == [0, 3, 3, 3]


def test_70_the_caballero_of_each_opponent_goes_to_the_province():
    """"You choose 1 Caballero belonging to each opponent (not your own) and place them in the
    Province." (the province, not the court)"""
    game = new_game(4)
    red_turn(game, 70)
    s = game.state
    provinces, courts = list(s.provinces), list(s.court)
    game.apply(ev.SpecialActionStarted(player="red"))
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosSentBack(player="red", owner="red", from_regions={"galicia": 1}))
    for pid, home in (("blue", "sevilla"), ("green", "granada"), ("yellow", "valencia")):
        game.apply(ev.CaballerosSentBack(player="red", owner=pid, from_regions={home: 1}))
    assert [b - a for a, b in zip(provinces, s.provinces)] == [0, 1, 1, 1] and s.court == courts


def test_80_caballeros_may_not_be_taken_from_the_kings_region():
    """"You may not take your Grande or Caballeros from the King's region." (the 80 moves the
    Grande with Caballeros: none of them out of the King's region)"""
    game = new_game(4)
    red_turn(game, 80)
    put(game, "red", KING, 3)
    _start(game)
    game.apply(ev.GrandeMoved(player="red", region="cataluna"))
    s = game.state
    assert s.grandes[0] == idx(game, "cataluna") and s.turn.special_done
    assert s.counts[idx(game, KING)][0] == 3  # nothing left the King's region with the Grande


def test_140_no_caballero_is_taken_from_the_kings_region():
    """"You may not take any Caballeros from the King's region." (the 140: foreign Caballeros,
    then 2 of your own, into the Castillo)"""
    game = new_game(4)
    red_turn(game, 140)
    put(game, "blue", KING, 2)
    put(game, "red", KING, 2)
    put(game, "red", "aragon", 2)
    _start(game)
    ask = game.asked()
    assert KING not in (ask.options.get("sources") or {})
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.CaballerosMoved(player="red", owner="blue", source=KING, target="castillo"))
    assert game.state.counts[idx(game, KING)][:2] == [2, 2]


def test_160_the_royal_advisor_may_not_move_the_king_into_the_castillo_nor_two_steps():
    """"Before or after you place Caballeros, you may move the King to an adjacent region.\""""
    game = new_game(4)
    red_turn(game, 160)
    _start(game)
    for far in ("castillo", "cataluna"):
        with pytest.raises(RuleViolation):
            game.apply(ev.KingMoved(player="red", region=far))
    game.apply(ev.KingMoved(player="red", region="sevilla"))
    # after the move: the placement goes next to the King's new region
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1}))
    game.apply(ev.CaballerosPlaced(player="red", placements={"granada": 1}))


def test_the_veto_lapses_at_the_end_of_the_following_round():
    """Base game: "If you have not used the Veto card by the end of the following round, you
    must discard it, unused." ("The Veto action is explained in detail in the base game rules")"""
    game = new_game(4)
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


def test_130_the_double_scoring_marker_waits_through_a_general_scoring_only_once():
    """"After the next general scoring, return the Region card and the 2x marker to the supply."
    -- the scoring after that is single."""
    game = new_game(4)
    red_turn(game, 130)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="galicia"))
    s = game.state
    assert idx(game, "galicia") in {s.markers["double_1"], s.markers["double_2"]}
    _to_general_scoring(game)
    record = _reveal_discs(game)
    galicia = _points(record.lines, "galicia")
    assert galicia.get("red") == 2 * (4 + 2)  # red alone in its home: 1st (4) + home bonus (2), doubled
    assert s.markers["double_1"] is None and s.markers["double_2"] is None


# --- Player's Edition -------------------------------------------------------------------------

def test_joker_the_second_card_may_not_repeat_a_number_played_this_round():
    """"You may not play a number that has already been played." (the Joker's second card)"""
    game = new_game(4, modules=["players-edition"], cards_file=WITH_MODULES)
    through_setup(game, hands={"red": [5] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    game.apply(ev.PowerCardPlayed(player="red", card=5))
    game.apply(ev.PowerCardPlayed(player="blue", card=120))
    game.apply(ev.PowerCardPlayed(player="green", card=60))
    game.apply(ev.PowerCardPlayed(player="yellow", card=20))
    for taken in (120, 60, 20):
        with pytest.raises(RuleViolation):
            game.apply(ev.PowerCardPlayed(player="red", card=taken))
    game.apply(ev.PowerCardPlayed(player="red", card=10))  # the lowest now: the Intrigue card
    from engine.rules.king_intrigue import action_cards_by_rank
    assert action_cards_by_rank(game.state)[0][0] == "intrigue"


def test_relocate_the_king_in_the_castillos_region_leaves_the_castillo_open():
    """"If the King is moved to the region where the Castillo is located, it has no effect on
    the Castillo." -- "players may choose to place/move Caballeros in/to the region (next to
    the Castillo) or in the Castillo itself.\""""
    game = _module_turn(23)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="granada"))
    s = game.state
    assert s.markers["castillo_at"] == idx(game, "granada")
    s.king = idx(game, "granada")  # the King comes to the Castillo's region
    ask = game.asked()
    assert "castillo" in ask.options["place"]["areas"]
    game.apply(ev.CaballerosPlaced(player="red", placements={"castillo": 1}))
    assert s.counts[s.board.castillo][0] >= 1


def test_alliance_a_second_alliance_card_moves_the_markers():
    """"If another player plays the Alliance card before the next general scoring, they may
    move the Alliance markers to different regions.\""""
    game = _module_turn(45, hands={"red": _hand(45), "blue": [45] + ALL[6:], "green": ALL[:13],
                                   "yellow": ALL[:13]})
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="pais_vasco"))
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    play_powers(game, {"red": 10, "blue": 45, "green": 60, "yellow": 70})  # blue: a Caballero card
    while game.asked().players[0] != "blue":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="blue", from_provinces=0))
    _start(game, "blue")
    game.apply(ev.RegionChosen(player="blue", region="galicia"))
    game.apply(ev.RegionChosen(player="blue", region="sevilla"))
    assert {s.markers["alliance_1"], s.markers["alliance_2"]} == {idx(game, "galicia"), idx(game, "sevilla")}


def test_bridge_regions_must_be_adjacent_and_neither_the_kings():
    """"Place the bridge between two adjacent regions. Neither of these regions may be the
    King's region.\""""
    game = _module_turn(55)
    _start(game)
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.RegionChosen(player="red", region=KING))
    game.apply(ev.RegionChosen(player="red", region="valencia"))
    assert KING not in game.asked().options["regions"]
    with pytest.raises(RuleViolation):
        game.apply(ev.RegionChosen(player="red", region=KING))
    with pytest.raises(RuleViolation):
        game.apply(ev.RegionChosen(player="red", region="sevilla"))  # not adjacent to Valencia


# --- Special cards ----------------------------------------------------------------------------

def test_coup_the_home_bonus_can_score_twice_castillo_and_relocated_region():
    """"In this way, it is possible for a player to score their home region bonus twice during
    a general scoring (once for the Castillo and once for the region to which the Grande is
    relocated).\""""
    game = _module_turn(85)
    _start(game)
    game.apply(ev.GrandeMoved(player="red", region="castillo"))
    put(game, "red", "castillo", 3)
    s = game.state
    _to_general_scoring(game)
    record = _reveal_discs(game, region="galicia", red="cataluna")
    castillo = _points(record.lines, "castillo", "home_bonus")
    assert castillo.get("red") == 2
    # red brought its Castillo Caballeros (3 + whatever was placed) to Cataluña, where nobody
    # else stands: 1st there and the Grande's home bonus again
    assert s.grandes[0] == idx(game, "cataluna")
    assert _points(record.lines, "cataluna", "home_bonus").get("red") == 2


def test_coup_a_grande_in_the_kings_region_may_not_be_taken():
    """"You may not take a Grande from the King's region.\""""
    game = _module_turn(85)
    s = game.state
    s.grandes[0] = idx(game, KING)
    _start(game)
    assert s.grandes[0] == idx(game, KING) and s.turn.special_done


def _revolt_scoring(scoreboard, area, counts, reversed_=True):
    """A general scoring with `scoreboard` on `area`, reversed, and these counts there."""
    game = _module_turn(125, discs={p: "galicia" for p in FOUR}, others={"red": 125, "blue": 180, "green": 40,
                                                                          "yellow": 10})
    s = game.state
    s.mobile[scoreboard] = idx(game, area)
    s.markers[f"reversed_{scoreboard}"] = reversed_
    for pid, n in counts.items():
        put(game, pid, area, n)
    game.apply(ev.CaballerosPlaced(player="red", placements={}))
    game.apply(ev.SpecialActionSkipped(player="red"))
    _to_general_scoring(game)
    return game, _reveal_discs(game, region="galicia")


def test_revolt_at_least_one_caballero_to_be_fewest():
    """"the player with the fewest Caballeros (at least one) scores 8 points. The player with
    the second fewest Caballeros scores 4 points." (players without a Caballero there rank
    nowhere)"""
    game, record = _revolt_scoring("8-4-0", "cataluna", {"red": 3, "blue": 1})
    got = _points(record.lines, "cataluna", "place")
    assert game.state.counts[idx(game, "cataluna")] == [3, 1, 0, 0]
    assert got.get("blue") == 8 and got.get("red") == 4
    assert not got.get("green") and not got.get("yellow")


def test_revolt_the_reversed_4_0_0_pays_the_fewest():
    """"The same applies to the 4/0/0 mobile scoreboard." (reversed: the fewest, at least one,
    score its 4)"""
    game, record = _revolt_scoring("4-0-0", "cataluna", {"red": 3, "blue": 2, "green": 1})
    got = _points(record.lines, "cataluna", "place")
    assert got.get("green") == 4 and not got.get("red") and not got.get("blue")


def test_revolt_a_reversed_scoreboard_moved_remains_reversed():
    """"When a player moves a reversed scoreboard, it remains reversed." (moved by the 90)"""
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES)
    red_turn(game, 90)
    s = game.state
    s.mobile["8-4-0"] = idx(game, "aragon")
    s.markers["reversed_8-4-0"] = True
    game.apply(ev.SpecialActionStarted(player="red"))
    while s.stage == "veto_window":
        game.apply(ev.VetoWaived(player=game.asked().players[0]))
    game.apply(ev.MobileScoreboardPlaced(player="red", scoreboard="8-4-0", area="galicia"))
    assert s.mobile["8-4-0"] == idx(game, "galicia") and s.markers["reversed_8-4-0"] is True


def test_table_for_six_an_intrigue_move_may_take_a_caballero_off_the_limit_table():
    """"A player using the Intrigue card may move Caballeros to or from the limit table.\""""
    game = _module_turn(155, discs={p: "aragon" for p in FOUR})
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    assert s.markers["limit_1"] == idx(game, "aragon") or idx(game, "aragon") in s.markers.values()
    while game.asked().players[0] != "yellow":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    _start(game, "yellow", option="move")
    game.apply(ev.CaballerosMoved(player="yellow", owner="blue", source="aragon", target="cataluna"))
    assert s.counts[idx(game, "aragon")][1] == 0 and s.counts[idx(game, "cataluna")][1] == 1


def test_espionage_the_spy_may_not_go_to_the_castillo_or_the_kings_region():
    """"You may not move this Caballero to the Castillo or the King's region.\""""
    game = _module_turn(25)
    _start(game)
    s = game.state
    assert "espionage_red" in s.aside
    _to_general_scoring(game)
    ask = game.asked()
    assert ask.players[0] == "red"
    regions = ask.options.get("regions") or []
    assert KING not in regions and "castillo" not in regions
    for bad in (KING, "castillo"):
        with pytest.raises(RuleViolation):
            game.apply(ev.RegionChosen(player="red", region=bad))


def test_risk_of_collapse_caballeros_inside_are_scored_normally():
    """"Caballeros already inside the Castillo remain in the Castillo, and will be scored
    normally during general and special scorings.\""""
    game = _module_turn(145)
    put(game, "green", "castillo", 2)
    put(game, "red", "castillo", 1)
    _start(game)
    _to_general_scoring(game)
    record = _reveal_discs(game)
    got = _points(record.lines, "castillo", "place")
    assert got.get("green") == 5 and got.get("red") == 3  # Castillo 5/3/1


def test_kings_guard_may_not_go_on_the_kings_region_and_closes_its_region_to_the_intrigue():
    """"Any region hosting the King's marker may not be changed in any way. It is taboo just
    like the King's region.\""""
    game = _module_turn(165, discs={p: "aragon" for p in FOUR})
    ask = _start(game)
    assert KING not in ask.options["regions"]
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    while game.asked().players[0] != "yellow":
        finish_turn(game)
    game.apply(ev.CourtReplenished(player="yellow", from_provinces=0))
    _start(game, "yellow", option="move")
    with pytest.raises(RuleViolation):
        game.apply(ev.CaballerosMoved(player="yellow", owner="blue", source="aragon", target="cataluna"))
    assert game.state.counts[idx(game, "aragon")][1] == 1


def test_quarantine_may_not_go_on_the_kings_region_and_a_send_back_spares_it():
    """"Any region hosting the quarantine marker may not be changed in any way." (the 70 in a
    later turn may not take a Caballero from it)"""
    game = _module_turn(135, discs={"red": "aragon", "blue": "aragon", "green": "aragon", "yellow": "aragon"},
                        others={"red": 135, "blue": 180, "green": 40, "yellow": 10})
    ask = _start(game)
    assert KING not in ask.options["regions"]
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    assert "aragon" not in s.removable_regions(1) and "aragon" not in s.removable_regions(0)


def test_mistress_a_later_general_scoring_pays_the_kings_bonus_again():
    """"Also, if there is a general scoring directly following this round, the King's bonus will
    not be awarded." -- played in round 1, the general scoring after round 3 pays it."""
    game = _module_turn(75)
    _start(game)
    put(game, "blue", KING, 5)
    s = game.state
    _to_general_scoring(game)
    record = _reveal_discs(game)
    assert s.round == 3 or s.round_index >= 2
    assert any(ln.kind == "king_bonus" and ln.area == KING for ln in record.lines)


def test_mistress_the_general_scoring_directly_following_pays_no_kings_bonus():
    """"if there is a general scoring directly following this round, the King's bonus will not
    be awarded. Home region bonuses score as usual." (played in round 3: the general scoring
    after round 3 follows directly)"""
    game = _module_turn(75, round_index=2)
    s = game.state
    assert s.round == 3
    _start(game)
    put(game, "blue", KING, 5)
    _to_general_scoring(game)
    record = _reveal_discs(game)
    assert not any(ln.kind == "king_bonus" for ln in record.lines)
    assert any(ln.kind == "home_bonus" for ln in record.lines)
    assert _points(record.lines, KING, "place").get("blue") == 7  # the region itself scores as usual


# --- more: the Veto under the Action cards, tokens through the real flow -----------------------

@pytest.mark.parametrize("values", [{"red": 40, "blue": 120, "green": 90, "yellow": 60},   # red lowest
                                    {"red": 40, "blue": 10, "green": 30, "yellow": 20}])   # red highest
def test_four_players_a_40_under_the_kings_or_intrigue_card_holds_no_veto(values):
    """"In a 4- or 5-player game, the players with the King's Card and Intrigue card will only
    perform the action specified on that Action card. The special actions depicted on their
    Power cards are ignored." (the 40's Veto included)"""
    game = new_game(4)
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
    game = new_game(4)
    through_setup(game)
    play_powers(game, {"red": 40, "blue": 120, "green": 90, "yellow": 10})  # red: a Caballero card, the Veto
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    assert s.vetoes and s.vetoes[0][0] == 0
    _play_round(game, 50)  # blue: its highest, the King's Card
    from engine.rules.king_intrigue import action_cards_by_rank
    assert action_cards_by_rank(s)[1][0] == "kings_card"
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="blue", from_provinces=0))
    game.apply(ev.SpecialActionStarted(player="blue"))
    ask = game.asked()
    assert ask.kind == "veto" and "red" in ask.players
    game.apply(ev.VetoUsed(player="red"))
    assert s.king == idx(game, KING) and s.turn.special_done and not [v for v in s.vetoes if v[0] == 0]


def test_kings_guard_in_the_round_before_a_general_scoring_adds_the_kings_bonus_there():
    """"If the King's marker is placed in a round immediately preceding a general scoring, it
    remains on the board during general scoring, adding the King's bonus to the region it
    occupies." (played in round 3, through the real general scoring)"""
    game = _module_turn(165, round_index=2)
    s = game.state
    put(game, "red", "aragon", 4)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    _to_general_scoring(game)
    assert s.markers["kings_guard"] == idx(game, "aragon")
    record = _reveal_discs(game)
    assert _points(record.lines, "aragon", "king_bonus") == {"red": 2}
    assert s.markers["kings_guard"] is None  # gone after that scoring


def test_relocated_castillo_with_the_king_in_its_region_scores_the_kings_bonus_and_the_region_apart():
    """"Then, score the Castillo according to the scoreboard in the region it occupies
    (including any relevant King or home region bonuses)." -- "take special care not to mix
    the Caballeros in the Castillo with the Caballeros in the same region\""""
    game = _module_turn(23, round_index=2)
    s = game.state
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="granada"))
    put(game, "red", "castillo", 4)
    put(game, "blue", "granada", 2)  # next to the Castillo, in the region itself
    s.king = idx(game, "granada")
    _to_general_scoring(game)
    green_in = s.counts[s.board.castillo][2]
    record = _reveal_discs(game, region="galicia")
    castillo = [(ln.player, ln.points, ln.kind) for ln in record.lines if ln.area == "castillo"]
    assert ("red", 6, "place") in castillo and ("red", 2, "king_bonus") in castillo  # Granada 6/3/1 + King
    assert green_in == 2 and ("green", 3, "place") in castillo
    granada = [(ln.player, ln.points, ln.kind) for ln in record.lines if ln.area == "granada"]
    assert ("blue", 6, "place") in granada and ("red", 6, "place") not in granada


def test_the_bridge_pays_its_owner_1_point_at_the_real_general_scoring_and_remains():
    """"In each general scoring, the player who controls the bridge scores 1 point." -- "As long
    as the bridge remains\""""
    game = _module_turn(55, round_index=2)
    s = game.state
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="valencia"))
    _to_general_scoring(game)
    record = _reveal_discs(game)
    assert [(ln.player, ln.points) for ln in record.lines if ln.kind == "bridge"] == [("red", 1)]
    assert s.aside.get("bridge") == 0 and s.markers["bridge_1"] is not None


def test_revolt_a_reversed_scoreboard_also_reverses_a_special_scoring():
    """"When reversed, the 8/4/0 mobile scoreboard becomes a 0/4/8 scoreboard, meaning that the
    player with the fewest Caballeros (at least one) scores 8 points." (the 150's special
    scoring of the region it lies on)"""
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES)
    red_turn(game, 150)
    s = game.state
    s.mobile["8-4-0"] = idx(game, "cataluna")
    s.markers["reversed_8-4-0"] = True
    put(game, "blue", "cataluna", 3)
    put(game, "green", "cataluna", 1)
    put(game, "yellow", "cataluna", 2)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="cataluna"))
    got = _points(s.scoring_log[-1].lines, "cataluna", "place")
    assert got == {"green": 8, "yellow": 4, "blue": 0}


def test_hurricane_the_disc_is_revealed_at_the_beginning_of_the_turn():
    """"You reveal your secret disc at the beginning of your turn." (before the turn's
    placement: placing first is neither offered nor accepted)"""
    game = _module_turn(175)
    assert game.asked().kind == "turn_action" and game.asked().options["place"] is None
    with pytest.raises(RuleViolation, match="beginning of your turn"):
        game.apply(ev.CaballerosPlaced(player="red", placements={"aragon": 1}))
    _start(game)
    game.apply(ev.SecretDiscSet(player="red", region="galicia"))
    while game.asked().kind != "turn_action":   # the reveal, as the table does it
        game.apply(ev.SecretDiscsRevealed())
    assert game.asked().options["place"] is not None   # then the placement, as in every turn


def _full_limit_table_at_the_general_scoring():
    """Round 3: red's limit table on Aragón, filled to its 6 seats by blue; red has 3 in the
    Castillo and sets its disc on Aragón at the general scoring after round 3."""
    game = _module_turn(155, round_index=2)
    s = game.state
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    aragon = idx(game, "aragon")
    put(game, "blue", "aragon", 6 - sum(s.counts[aragon]))
    put(game, "red", "castillo", 3)
    _to_general_scoring(game)
    assert s.counts[aragon] == [0, 6, 0, 0] and s.counts[s.board.castillo][0] == 3
    court = s.court[0]
    record = _reveal_discs(game, region="galicia", red="aragon")
    return game, record, court


def test_table_for_six_caballeros_a_disc_brings_to_a_full_table_go_to_the_court():
    """"If (e.g., by secret disc) more Caballeros are placed in the region than there is space
    on the limit table, these newer, excess Caballeros are returned to the players' Courts.\""""
    game, _, court = _full_limit_table_at_the_general_scoring()
    s = game.state
    assert s.counts[idx(game, "aragon")] == [0, 6, 0, 0] and s.court[0] == court + 3


def test_table_for_six_excess_caballeros_from_a_disc_are_not_scored_in_the_region():
    """The excess go back to the court when the disc brings them, i.e. before the region is
    scored: red (nothing left in Aragón) scores nothing there."""
    game, record, _ = _full_limit_table_at_the_general_scoring()
    assert _points(record.lines, "aragon", "place") == {"blue": 5}
