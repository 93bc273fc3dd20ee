"""Table for Six, Civil War, Hurricane, Bridge Construction and the Discard card, by their text
and clarifications; the readings where the action is unpublished are the effect docstrings'
(their unpublished numbers are the tests' card file's, entered as a table would)."""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from engine.game import Game
from engine.playout import _snapshot_for_checks, check_invariants

from .table import WITH_MODULES, finish_turn, idx, put, seat
from .test_taboo_tokens import _start, red_turn


def apply_checked(game: Game, event) -> None:
    before = _snapshot_for_checks(game.state)
    game.apply(event)
    check_invariants(game.state, before, event)


def test_table_for_six_the_newer_excess_caballeros_go_back_to_the_court():
    game = red_turn(155)
    put(game, "green", "aragon", 4)
    ask = _start(game)
    assert "castilla_la_nueva" not in ask.options["regions"]  # "not ... in the King's region"
    apply_checked(game, ev.RegionChosen(player="red", region="aragon"))
    court = game.state.court[0]
    # 4 there, 6 seats: red places 3, one is newer than the table's room and goes back
    apply_checked(game, ev.CaballerosPlaced(player="red", placements={"aragon": 3}))
    s = game.state
    assert s.counts[idx(game, "aragon")][0] == 2 and s.court[0] == court - 2
    assert s.outcomes[-1].moves == [{"player": "red", "count": 1, "source": "aragon", "target": "court"}]


def test_civil_war_the_others_leave_the_region_yours_stay_and_you_place_from_your_court():
    game = red_turn(33)
    put(game, "red", "aragon", 1)
    put(game, "green", "aragon", 3)
    ask = _start(game)
    assert ask.options["purpose"] == "civil_war" and "castilla_la_nueva" not in ask.options["regions"]
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.RegionChosen(player="red", region="castilla_la_nueva"))
    green_court = game.state.court[seat(game, "green")]
    apply_checked(game, ev.RegionChosen(player="red", region="aragon"))
    s = game.state
    assert s.counts[idx(game, "aragon")][seat(game, "green")] == 0
    assert s.court[seat(game, "green")] == green_court + 3  # outcome: to_court (the tests' card)
    assert s.counts[idx(game, "aragon")][0] == 1 + 2       # "they remain there", + place 2


def test_civil_war_with_an_empty_court_is_not_executed():
    game = red_turn(33)
    s = game.state
    s.provinces[0] += s.court[0]
    s.court[0] = 0
    before = [row[:] for row in s.counts]
    _start(game)
    assert s.special is None and s.counts == before


def test_hurricane_your_disc_names_the_region_it_strikes():
    game = red_turn(175)
    put(game, "green", "aragon", 2)
    put(game, "red", "aragon", 1)
    ask = _start(game)
    assert ask.kind == "secret_disc" and ask.players == ("red",)
    assert "castilla_la_nueva" not in ask.options["regions"]["red"]
    apply_checked(game, ev.SecretDiscSet(player="red", region="aragon"))
    assert game.asked().kind == "reveal_secret_discs"
    provinces = game.state.provinces[seat(game, "green")]
    apply_checked(game, ev.SecretDiscsRevealed())
    s = game.state
    assert sum(s.counts[idx(game, "aragon")]) == 0 and s.provinces[seat(game, "green")] == provinces + 2
    assert s.outcomes[-1].discs == {"red": "aragon"}


def test_bridge_a_caballero_on_the_bridge_counts_among_the_30_and_scores_1_at_a_general_scoring():
    game = red_turn(55)
    ask = _start(game)
    assert ask.options["purpose"] == "bridge" and "castilla_la_nueva" not in ask.options["regions"]
    apply_checked(game, ev.RegionChosen(player="red", region="aragon"))
    ask = game.asked()
    assert ask.options["purpose"] == "bridge_second"
    # Aragón's neighbours but the King's region (Castilla la Nueva)
    assert set(ask.options["regions"]) == {"pais_vasco", "castilla_la_vieja", "cataluna", "valencia"}
    with pytest.raises(RuleViolation, match="two adjacent regions"):
        game.apply(ev.RegionChosen(player="red", region="galicia"))
    court = game.state.court[0]
    apply_checked(game, ev.RegionChosen(player="red", region="valencia"))
    s = game.state
    assert s.aside == {"bridge": 0} and s.court[0] == court - 1 and s.total_accounted(0) == 30
    from engine.rules import king_intrigue as KI
    record = type("R", (), {})()
    record.lines = []
    KI._tokens_at_scoring(s, record)
    assert [(ln.player, ln.points, ln.kind) for ln in record.lines] == [("red", 1, "bridge")]
    from engine.views import public_view
    assert public_view(s).markers["bridge_caballero"] == "red"


def test_bridge_free_moves_directly_before_your_turn_in_following_rounds():
    game = red_turn(55)
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    game.apply(ev.RegionChosen(player="red", region="valencia"))
    put(game, "red", "aragon", 3)
    s = game.state
    while s.round_index == 0:
        finish_turn(game)
    hands = {p: sorted(s.hands[seat(game, p)]) for p in s.players}
    from .table import play_powers
    play_powers(game, {"red": hands["red"][1], "blue": hands["blue"][-1], "green": hands["green"][0],
                       "yellow": hands["yellow"][2] if hands["yellow"][2] != hands["red"][1] else hands["yellow"][3]})
    while game.asked().players[0] != "red":
        finish_turn(game)
    ask = game.asked()
    assert ask.kind == "bridge_crossing" and ask.options["regions"] == ["aragon", "valencia"]
    with pytest.raises(RuleViolation, match="between its two regions"):
        game.apply(ev.CaballerosMoved(player="red", owner="red", source="aragon", target="galicia", count=1))
    apply_checked(game, ev.CaballerosMoved(player="red", owner="red", source="aragon", target="valencia", count=2))
    assert s.counts[idx(game, "valencia")][0] == 2
    apply_checked(game, ev.SpecialActionFinished(player="red"))
    assert game.asked().kind == "replenish"


def test_another_bridge_card_takes_the_bridge_and_the_caballero_on_it_goes_back_to_its_court():
    game = red_turn(55)
    s = game.state
    s.aside["bridge"] = seat(game, "green")
    s.court[seat(game, "green")] -= 1
    s.markers.update(bridge_1=idx(game, "galicia"), bridge_2=idx(game, "pais_vasco"))
    green_court = s.court[seat(game, "green")]
    _start(game)
    game.apply(ev.RegionChosen(player="red", region="aragon"))
    apply_checked(game, ev.RegionChosen(player="red", region="valencia"))
    assert s.aside == {"bridge": 0} and s.court[seat(game, "green")] == green_court + 1
    assert (s.markers["bridge_1"], s.markers["bridge_2"]) == (idx(game, "aragon"), idx(game, "valencia"))


def test_the_discard_card_removes_a_limit_table_or_a_25_75_card_in_front_of_another_player():
    game = red_turn(15)
    s = game.state
    s.markers["limit_1"] = idx(game, "aragon")
    s.markers["mistress"] = "green"   # the Mistress (75 in the tests' set) in front of green
    ask = _start(game)
    assert ask.kind == "remove_token" and {"limit_1", "mistress"} <= set(ask.options["tokens"])
    with pytest.raises(RuleViolation, match="removes one of"):
        game.apply(ev.TokenRemoved(player="red", token="kings_guard"))
    apply_checked(game, ev.TokenRemoved(player="red", token="limit_1"))
    assert s.markers["limit_1"] is None and s.markers["mistress"] == "green"


def test_the_discard_card_needs_the_optional_rule_for_other_tokens():
    off = {**WITH_MODULES, "power_cards": [c for c in WITH_MODULES["power_cards"] if c["id"] != "sc_cancel"]
           + [{"id": "sc_cancel", "value": 15, "court": 4}]}
    game = red_turn(15, cards_file=off)
    game.state.markers["alliance_1"], game.state.markers["alliance_2"] = idx(game, "aragon"), idx(game, "galicia")
    _start(game)  # nothing it may remove without the optional rule: done
    assert game.state.special is None and game.state.markers["alliance_1"] == idx(game, "aragon")


def test_espionage_a_spy_joins_a_region_directly_before_the_general_scoring_then_the_card_goes():
    game = red_turn(25)
    s = game.state
    court = s.court[0]
    _start(game)
    assert s.aside == {"espionage_red": 0} and s.court[0] == court - 1 and s.total_accounted(0) == 30
    assert s.markers["espionage_red"] == "red"
    s.schedule = (3,) + s.schedule[1:]  # this round is followed by a general scoring
    while s.stage not in ("ki_spy", "scoring_discs"):
        finish_turn(game)
    ask = game.asked()
    assert ask.kind == "spy_move" and ask.players == ("red",)
    assert "castillo" not in ask.options["regions"] and "castilla_la_nueva" not in ask.options["regions"]
    with pytest.raises(RuleViolation, match="King's region"):
        game.apply(ev.RegionChosen(player="red", region="castilla_la_nueva"))
    aragon = s.counts[idx(game, "aragon")][0]
    apply_checked(game, ev.RegionChosen(player="red", region="aragon"))
    assert s.counts[idx(game, "aragon")][0] == aragon + 1 and s.aside == {}
    assert game.asked().kind == "secret_disc"  # then the general scoring as usual
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="galicia"))
    apply_checked(game, ev.SecretDiscsRevealed())
    assert s.markers["espionage_red"] is None  # "After the next general scoring, discard this card"


def test_espionage_a_spy_kept_goes_back_to_the_court_when_the_card_is_discarded():
    game = red_turn(25)
    s = game.state
    _start(game)
    s.schedule = (3,) + s.schedule[1:]
    while s.stage not in ("ki_spy", "scoring_discs"):
        finish_turn(game)
    apply_checked(game, ev.SpecialActionSkipped(player="red"))
    court = s.court[0]
    for pid in game.asked().players:
        game.apply(ev.SecretDiscSet(player=pid, region="galicia"))
    apply_checked(game, ev.SecretDiscsRevealed())
    assert s.aside == {} and s.court[0] >= court + 1 and s.total_accounted(0) == 30


def test_the_hurricane_disc_is_secret_until_revealed():
    from engine.views import player_view, public_view
    games = [red_turn(175), red_turn(175)]
    for game, region in zip(games, ("aragon", "galicia")):
        _start(game)
        game.apply(ev.SecretDiscSet(player="red", region=region))
    views = [[public_view(g.state)] + [player_view(g.state, pid) for pid in ("blue", "green", "yellow")]
             for g in games]
    assert views[0] == views[1]
    assert player_view(games[0].state, "red") != player_view(games[1].state, "red")


def test_espionage_the_spy_may_join_a_region_directly_before_a_special_scoring():
    from .table import ALL, play_powers, through_setup
    from .test_taboo_tokens import BOTH
    from .table import new_game
    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES)
    through_setup(game, hands={"red": [25] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": 120, "blue": 180, "green": 60, "yellow": 10})  # green: score the "4" regions
    s = game.state
    s.aside["espionage_red"] = 0  # red's spy, laid in an earlier round
    s.court[0] -= 1
    s.markers["espionage_red"] = "red"
    put(game, "red", "sevilla", 4)   # blue: 2 at home (its Grande) + 1 = 3 ... red 4 + the spy = 5
    put(game, "blue", "sevilla", 3)
    while game.asked().players[0] != "green":
        finish_turn(game)
    ask = game.asked()
    game.apply(ev.CourtReplenished(player="green", from_provinces=ask.options["max"]))
    scorings = len(s.scoring_log)
    game.apply(ev.SpecialActionStarted(player="green"))
    ask = game.asked()
    assert ask.kind == "spy_move" and ask.players == ("red",) and len(s.scoring_log) == scorings  # held back
    # the "4" regions: Galicia, Cataluña (nobody there: no line, still scored) and Sevilla
    assert ask.options["regions"] == ["galicia", "cataluna", "sevilla"]
    with pytest.raises(RuleViolation, match="directly before it is scored"):
        game.apply(ev.RegionChosen(player="red", region="aragon"))
    apply_checked(game, ev.RegionChosen(player="red", region="sevilla"))  # red 5, blue 2 + 3 = 5: tied
    assert len(s.scoring_log) == scorings + 1 and s.stage == "turn"
    sevilla = [ln for ln in s.scoring_log[-1].lines if ln.area == "sevilla" and ln.kind == "place"]
    assert {ln.player: ln.place for ln in sevilla}["red"] == {ln.player: ln.place for ln in sevilla}["blue"]
    assert s.aside == {} and s.total_accounted(0) == 30
    assert game.state.event_count == len(game.events)
