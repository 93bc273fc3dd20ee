"""Issue 13 items 1-3 in the real app under Xvfb, by taps (rules_scenarios.py): the 2023 edition
and its modules chosen and remembered for the next game, the table's board confirmed once (a wrong
entry refused with its rule, the missing facts entered), the card set completed, exported and
imported (test_app.py's rules launches: the second starts the app again on the first's data
folders). Every new screen is checked for 48 dp targets and cut or overlapping words at the three
tablet shapes by the screen catalogue (rules_scenarios.look_at_rule_screens is one of its visits:
test_app.py at 1280x800, test_screen_catalogue.py at the others), its pictures kept with
ELGRANDE_SHOTS=DIR."""

import json

import pytest

from tests.companion.ui.test_app import _looks_like_a_screen, rules_launches

FIRST, AGAIN = (
    "rules_scenarios:first_2023_game_confirms_the_board@rules",
    "rules_scenarios:next_game_remembers_the_choice@rules",
)
CARDS, OLD_HANDS = "rules_scenarios:card_set_by_taps@cards", "rules_scenarios:old_hands_names_the_returned_cards@cards"


@pytest.fixture(scope="module")
def launches(tmp_path_factory):
    return rules_launches(tmp_path_factory)


def test_a_2023_game_is_chosen_its_board_confirmed_once_and_the_choice_remembered(launches):
    first, shots = launches[0].of(FIRST)
    assert first["early_confirm"] == "Still to enter from your board: France's neighbours, Portugal's neighbours"
    assert first["wrong_entry"] == (
        "Galicia's scoreboard: 4·5·0: a scoreboard must not increase (1st ≥ 2nd ≥ 3rd place)"
    )
    assert first["france_scoreboard"] == "France is not a region: it has no scoreboard (only the King stands there)"
    setup = first["setup"]
    assert (setup["rules"], setup["modules"], setup["dummy"], setup["stand_in_modifiers"]) == (
        "2023",
        ["new-regency", "power-shift"],
        None,
        True,
    )
    assert first["mode"] == "tracking"
    assert first["france"] == ["navarra", "cataluna"] and first["portugal"] == [
        "galicia",
        "castilla",
        "toledo",
        "sevilla",
    ]
    spaces = {s["id"]: s["neighbours"] for s in setup["board_file"]["spaces"]}
    assert spaces == {"france": first["france"], "portugal": first["portugal"]}
    assert first["board_spaces"] == [sorted(first["france"]), sorted(first["portugal"])]  # the game's own board
    galicia = next(r for r in setup["board_file"]["regions"] if r["id"] == "galicia")
    assert "aragon" in galicia["neighbours"] and "scoreboard" not in galicia  # the wrong entry never got in
    assert not any(first["problems"].values()), first["problems"]
    for name in first["screens"]:
        _looks_like_a_screen(shots / f"{name}.png")

    second, _ = launches[1].of(AGAIN)  # the app started again, same data folder
    assert second["rules_shown"] == "2023 edition"
    assert second["modules_shown"] == ["new-regency", "power-shift"]
    assert second["colours"][:4] == ["purple", "blue", "green", "orange"]
    assert second["mode"] == "scoring"  # scoring only takes the same rules and board
    assert second["setup"]["rules"] == "2023" and second["setup"]["modules"] == ["new-regency", "power-shift"]
    assert second["setup"]["board_file"] == setup["board_file"]  # not asked again: the confirmed board


def test_two_players_pick_the_dummy_and_enter_the_unpublished_side(launches):
    outcome, shots = launches[0].of("rules_scenarios:two_players_enter_the_missing_side@two_players")
    assert outcome["side"] == "2-3"
    assert outcome["scoreboards"] == outcome["entered"]
    assert outcome["setup"] == {"rules": "2023", "modules": [], "dummy": "orange", "players": ["purple", "blue"]}
    assert not any(outcome["problems"].values()), outcome["problems"]
    _looks_like_a_screen(shots / "two_players_side_entered.png")


def test_the_card_set_is_completed_by_taps_exported_and_imported(launches):
    outcome, shots = launches[0].of(CARDS)
    data = launches[0].data_of(CARDS)
    assert outcome["veto"] == [2, 2, []]
    assert outcome["wrong_stack"] == ("Veterans, stack: the Old Hands module has no stack 3 (its stacks: 1, 2, 4)")
    assert outcome["veterans"] == ["Veterans", "decay", 2, 1, {"count": 2}, "old-hands"]
    assert outcome["export_notice"].startswith("Exported to ")
    assert outcome["same_after_import"] is True
    assert outcome["bad_import"] == "Militia, Caballeros: must be a whole number from 1 to 5"  # the card, not its field
    assert outcome["unchanged_after_bad_import"] is True
    assert outcome["modifiers"] == [[2, "The Court (count: 2)"]]  # the effect by its title
    assert outcome["modifier_notice"] == "Added the Modifier card (1 of 16)"
    draft = json.loads((data / "rules" / "modifiers-draft-2023.json").read_text())
    assert [(m["value"], m["ability"]) for m in draft] == [(2, {"effect": "court", "params": {"count": 2}})]
    exported = json.loads((data / "exports" / "el-grande-cards-2023.json").read_text())
    assert {c["id"] for c in exported["cards"]} == {"veto", "veterans"} and exported["rules"] == "2023"
    assert not any(outcome["problems"].values()), outcome["problems"]
    for name in outcome["screens"]:
        _looks_like_a_screen(shots / f"{name}.png")

    game, shots = launches[1].of(OLD_HANDS)  # the same set, the app started again
    assert game["before"] == "Old Hands: cards returned to the box (1 from stack 2): none named yet"
    assert game["after"] == "Old Hands: cards returned to the box (1 from stack 2): Veto"
    assert game["setup"] == {"modules": ["old-hands"], "removed_cards": ["veto"]} and game["veterans_in_play"]
    assert not any(game["problems"].values()), game["problems"]
    _looks_like_a_screen(shots / "old_hands_returned.png")
