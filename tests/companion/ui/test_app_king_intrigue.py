"""King and Intrigue in the real app under Xvfb, the suite's one whole game in Chromium
(ki_phones_scenarios.py, driven by app_driver.py): the rules and both modules chosen on the
new-game screen, Start refused naming the missing card facts and leading to Your cards, the
box's numbers entered by taps (a wrong value refused with its one line), exported and imported
back; then a whole 3-player game with both modules tracked by taps on the tablet, every secret
on the players' phones in Chromium, no phone receiving another seat's secret, the tablet's taps
of each step held to the classic budgets. Issue 34: the launch plays in French.

Issue 23 merged two launches into this one (see the ledger in the report): the tablet-alone
game's budgets of the secrets (the setup disc, the 13 kept behind the private screen) are the
headless tests' (tests/companion/table/test_authority_king_intrigue.py), and every King and Intrigue
screen at each tablet shape is in the screen catalogue (catalogue_2023_ki.py)."""

import json
import os

import pytest

from companion.history.people_words import who_won
from companion.words import use_language
from tests.companion.table.test_authority_king_intrigue import _ordinary_turns
from tests.companion.ui.test_app import _looks_like_a_screen
from tests.companion.ui.test_app_2023 import launched, part
from tests.companion.ui.test_game_2023_phones import _leaks, _views
from tests.companion.ui.words_match import said, says


class _Step:
    def __init__(self, row: dict):
        self.__dict__.update(row)
        self.taps = row["taps"] - row["read_taps"]


PHONE_SEATS = ("red", "yellow", "green")
LAUNCH = ("ki", "ki_phones_scenarios:launch_ki")  # one launch, read by test_app_ki_scoring.py too
# issue 34: the launch plays in this language (ELGRANDE_TEST_LANG=de|es|fr|en tries another)
LANG = os.environ.get("ELGRANDE_TEST_LANG") or "fr"
LANG_ENV = {"ELGRANDE_LANG": LANG}


@pytest.fixture(scope="module")
def launch_ki(tmp_path_factory):
    return launched(tmp_path_factory, *LAUNCH, env=LANG_ENV)


@pytest.fixture(autouse=True)
def in_french():
    """The launch's words read as the app said them (companion.words in French)."""
    use_language(LANG)
    yield
    use_language("en")


CARDS_IN_THE_CHOICE = 37


def test_ki_cards_entered_by_taps_and_a_whole_game_with_every_secret_on_phones_in_chromium(launch_ki):
    from tests.engine.king_intrigue.table import ALL

    outcome, shots = part(launch_ki, "ki_game_on_phones")
    (shots / "outcome.json").write_text(json.dumps({k: v for k, v in outcome.items() if k != "frames"}, indent=1))
    print("seconds:", outcome["seconds"], "answered on the phones:", outcome["answered"])
    # the new-game screen says what is missing, and Start leads to Your cards
    assert says(outcome["notes_before"], "to enter from your box before the game can start")
    assert says(outcome["start_refused"], "King and Intrigue cannot start yet: ")
    assert any(says(outcome["start_refused"], f"Enter {it} in Your cards") for it in ("it", "them")), outcome
    assert outcome["screen_after_start"] == "ki_cards"
    # the wrong value refused naming the card and the field; nothing changed
    is_also = said("{value} is also the value of {card} (each value is on one card of a colour)", value=1, card="\0")
    assert is_also.split("\0")[0] in outcome["wrong_value"], outcome["wrong_value"]  # the card named, not its field
    assert outcome["alliance_after_wrong"] is None
    assert says(outcome["hint_complete"], "Complete for a {players}-player game"), outcome["hint_complete"]
    # issue 21: the base box (18 Power cards, a 3-player game) one chip a fact; with both modules'
    # cards (their values typed: digits, then Set; a refused value and its correction included)
    assert outcome["base_taps"] == 3 + 17 + 1 + 6 + 1, outcome["base_taps"]
    assert outcome["card_taps"] <= 115, outcome["card_taps"]
    assert says(outcome["export_notice"], "Exported to {path}"), outcome["export_notice"]
    assert outcome["same_after_import"] is True
    assert says(outcome["bad_import"], "must be a whole number from {low} to {high}"), outcome["bad_import"]
    assert "0" in outcome["bad_import"] and "30" in outcome["bad_import"] and "[" not in outcome["bad_import"]
    assert outcome["unchanged_after_bad_import"] is True
    assert not says(outcome["notes_after"], "to enter from your box before the game can start")
    assert outcome["setup"] == {
        "rules": "king-intrigue",
        "modules": ["players-edition", "special-cards"],
        "players": ["red", "yellow", "green"],
        "variant": "full",
    }
    # three phones joined, each confirmed with one tap on the tablet ("Is this Ana's phone?": Yes)
    assert outcome["join_taps"] == 3, outcome["join_taps"]
    # the setup disc on each phone; the tablet says who has chosen, never where
    assert says(outcome["disc_page"]["hint"], "not the King's"), outcome["disc_page"]
    title, hint = outcome["tablet_after_discs"]
    assert says(title, "everyone has chosen"), title
    for region in ("Aragón", "Valencia", "Galicia"):
        assert region not in title + hint
    assert outcome["counts_after_reveal"] == {"red": 1, "yellow": 1, "green": 1}
    assert outcome["tablet_taps_for_secrets"] == 1 + 1  # Reveal the discs; Done on what each places
    # 13 kept on each phone of all the Power cards with both modules (18 base, the module cards entered
    # on Your cards), the phone's hand is what was kept
    assert outcome["offered"] == {pid: outcome["cards_in_the_choice"] for pid in PHONE_SEATS}
    assert outcome["cards_in_the_choice"] == CARDS_IN_THE_CHOICE, outcome["cards_in_the_choice"]
    assert all(len(k) == 13 for k in outcome["kept"].values())
    assert outcome["hands"] == outcome["kept"]
    assert any(v not in ALL for k in outcome["kept"].values() for v in k)  # a module card kept
    # Undo at the start of the power phase asks first: who chooses again, never which cards; No keeps them
    kept = outcome["undo_kept"]
    again = said("{who} will have to choose their {kept} kept Power cards again", who=kept["player"], kept=13)
    assert again in outcome["undo_question"], outcome["undo_question"]
    assert not any(str(c) in outcome["undo_question"].replace(again, "") for c in kept["cards"])  # how many, not which
    assert kept["unchanged"] is True
    # the whole game to the end screen, scored as the engine scores the saved log
    assert outcome["replayed_over"] and outcome["end_scores"] == outcome["replayed"], (
        outcome["end_scores"],
        outcome["replayed"],
    )
    assert outcome["end_heading"] == who_won(outcome["replayed_winners"])
    # each phone says the game is over and who won (not the last scoring's discs, as if a choice were to come)
    won = said("Won by {winners}", winners=", ".join(outcome["replayed_winners"]))
    assert outcome["final_pages"] == {pid: [said("Game over"), won] for pid in PHONE_SEATS}, outcome["final_pages"]
    # every secret disc of the game on the phones, the tablet untouched
    answered = outcome["answered"]
    assert answered.get("disc:setup_caballero") == 3 and answered.get("keep 13") == 3, answered
    assert answered.get("disc:castillo_destination", 0) >= 3, answered
    assert answered.get("disc:field_day") == 3 and answered.get("disc:hurricane"), answered  # the K&I secrets
    assert outcome["on_phones"] and all(s["tablet_taps"] == 0 for s in outcome["on_phones"]), outcome["on_phones"]
    # the tablet's steps, by taps: the classic budgets
    steps = [_Step(s) for s in outcome["steps"]]
    kinds = {s.kind for s in steps}
    assert {"play_power_card", "turn_action", "reveal_secret_discs", "replenish"} <= kinds, kinds
    assert {s.taps for s in steps if s.kind == "play_power_card"} == {1}
    turns = _ordinary_turns(steps)
    assert turns
    for taps, placed, first in turns:  # nothing placed (an empty court): "place nothing?" asked, Yes
        assert taps <= 3 + placed + (not first) + (placed == 0), (taps, placed, first)
    # no phone received another seat's kept cards or disc, in any frame of the whole game
    assert not outcome["page_errors"], outcome["page_errors"]
    for pid in outcome["names"]:
        views = _views(outcome["frames"][pid])
        assert len(views) > 30, (pid, len(views))
        assert not _leaks(pid, views, outcome["own"][pid]), (pid, _leaks(pid, views, outcome["own"][pid])[:5])
    caught = _leaks("red", _views(outcome["frames"]["red"]), outcome["own"]["yellow"])  # the check tells seats apart
    assert any("Power cards" in c for c in caught) and any("disc" in c for c in caught), caught[:5]
    problems = {k: v for k, v in outcome["problems"].items() if v}
    assert not problems, problems
    for name in (
        "ki_setup",
        "ki_cards_first",
        "ki_cards_wrong_value",
        "ki_cards_complete",
        "ki_tablet_discs_chosen",
        "ki_end_phones",
    ):
        _looks_like_a_screen(shots / f"{name}.png")
    for name in (
        "ki_phone_setup_disc",
        "ki_phone_keep_13",
        "ki_phone_hand",
        "ki_phone_disc_castillo_destination",
        "ki_phone_game_over",
    ):
        assert (shots / f"{name}.png").stat().st_size > 10_000
