"""companion/table_rules/rules_choice.py: the modules each rule set offers, the board side, the choice
remembered for the next game. No Kivy."""

import json

import pytest

from companion.table_rules.rules_choice import CHOICE_FILE, RulesChoice, load_choice, save_choice
from companion.table_rules.storage import rules_folder


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


def test_modules_are_offered_only_where_the_rules_allow_them():
    classic = RulesChoice()
    assert classic.offers(4) == [] and classic.modules_for(4) == []
    choice = RulesChoice("2023", ("new-regency", "four-stacks"))
    assert [o.id for o in choice.offers(4)] == ["new-regency", "old-hands", "power-shift"]  # four stacks: 2-3 only
    assert choice.modules_for(4) == ["new-regency"]
    assert choice.modules_for(3) == ["new-regency", "four-stacks"]
    two = {o.id: o for o in choice.offers(2)}
    assert two["four-stacks"].always and two["four-stacks"].chosen
    assert choice.modules_for(2) == ["new-regency"]  # implied with 2 players, not named
    for players in (2, 3, 4, 5):
        choice.check(players)  # what is offered is what the engine plays


def test_the_board_side_follows_the_player_count():
    choice = RulesChoice("2023")
    assert [choice.side(n) for n in (2, 3, 4, 5)] == ["2-3", "2-3", "4-5", "4-5"]
    assert "dummy" in choice.words(2) and "first two numbers" in choice.words(3)
    assert RulesChoice().side(4) == "classic"


def test_the_choice_is_remembered_and_a_bad_file_falls_back_to_classic():
    assert load_choice() == RulesChoice()
    choice = RulesChoice("2023", ("new-regency", "power-shift"), "orange", True)
    save_choice(choice)
    assert load_choice() == choice
    (rules_folder() / CHOICE_FILE).write_text("{not json")
    assert load_choice() == RulesChoice()
    (rules_folder() / CHOICE_FILE).write_text(json.dumps({"rules": "2023", "modules": ["nope", "old-hands"]}))
    assert load_choice() == RulesChoice("2023", ("old-hands",))


def test_toggling_keeps_the_rule_books_order():
    choice = RulesChoice("2023").toggled("power-shift").toggled("new-regency")
    assert choice.modules == ("new-regency", "power-shift")
    assert choice.toggled("power-shift").modules == ("new-regency",)
