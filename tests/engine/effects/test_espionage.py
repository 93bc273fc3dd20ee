"""Espionage (King and Intrigue, Special cards): a spy waits on the card.

Cards: King and Intrigue "Espionage" (sc_espionage).

Rule text: "This card has no effect on your use of the secret disc during a special action.
After the next general scoring, discard this card." The text's next clarification, printed
without a card name among the Special cards, reads as this card's: "You may move the Caballero
on this card to a region directly before a region is scored during a special or general scoring.
You may not move this Caballero to the Castillo or the King's region." """

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import RuleViolation
from tests.engine.king_intrigue.modules_table import apply_checked, red_turn
from tests.engine.king_intrigue.table import (
    KING,
    WITH_MODULES,
    _module_turn,
    _start,
    _to_general_scoring,
    finish_turn,
    idx,
    put,
)


def test_espionage_the_spy_may_not_go_to_the_castillo_or_the_kings_region():
    """ "You may not move this Caballero to the Castillo or the King's region.\""""
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


def test_espionage_the_spy_may_join_a_region_directly_before_a_special_scoring():
    from tests.engine.king_intrigue.table import ALL, BOTH, new_game, play_powers, through_setup

    game = new_game(4, modules=BOTH, cards_file=WITH_MODULES)
    through_setup(game, hands={"red": [25] + ALL[:12], "blue": ALL[5:], "green": ALL[:13], "yellow": ALL[:13]})
    play_powers(game, {"red": 120, "blue": 180, "green": 60, "yellow": 10})  # green: score the "4" regions
    s = game.state
    s.aside["espionage_red"] = 0  # red's spy, laid in an earlier round
    s.court[0] -= 1
    s.markers["espionage_red"] = "red"
    put(game, "red", "sevilla", 4)  # blue: 2 at home (its Grande) + 1 = 3 ... red 4 + the spy = 5
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
