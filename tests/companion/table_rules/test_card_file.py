"""companion/table_rules/card_file.py: Your cards checked like a card file, exported and imported whole,
Power Shift's Modifier cards entered one by one. No Kivy."""

import json

import pytest

from companion.table_rules.card_file import CardSetDraft, cards_path, import_candidates, modifiers_draft_path
from companion.table_rules.effect_offers import modifier_abilities
from companion.table_rules.new_game import check_game_setup, game_files
from companion.table_rules.rules_choice import RulesChoice
from companion.table_rules.storage import RuleFileError, exports_folder
from engine.board.load import load_cards


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


def test_cards_are_browsed_with_their_unknown_facts():
    rows = {r.id: r for r in CardSetDraft().rows()}
    assert rows["fiesta"].stack == 3 and rows["fiesta"].unknown == ("copies",)
    assert set(rows["civil_war"].unknown) == {"stack", "copies", "params.outcome"}
    assert rows["your_majesty"].copies_words == "×1" and rows["exile"].stack_words == "stack 5 (New Regency)"


def test_a_card_found_in_the_box_is_added_by_its_effect():
    cards = CardSetDraft()
    cid = cards.add_card("Veterans", "decay", 2, 1, {"count": 2}, module="old-hands")
    assert cid == "veterans"
    row = cards.row(cid)
    assert (row.stack, row.copies, row.params, row.module, row.unknown) == (2, 1, {"count": 2}, "old-hands", ())
    assert cards.add_card("Veterans", "decay", 4, 1, {}, module="old-hands") == "veterans_2"
    with pytest.raises(RuleFileError, match=r"cards\[militia_2\]\.params\.count: must be an integer 1\.\.5"):
        cards.add_card("Militia", "militia", 1, 1, {"count": 9})
    with pytest.raises(RuleFileError, match=r"old-hands would hold at least 2 cards"):
        cards.add_card("Old guard", "court", 1, 2, {"count": 2}, module="old-hands")
    assert "militia_2" not in cards.cards.cards and "old_guard" not in cards.cards.cards


def test_a_known_cards_stack_copies_and_numbers_are_set():
    cards = CardSetDraft()
    cards.set_card("civil_war", stack=2, copies=1, params={"outcome": "to_court"})
    row = cards.row("civil_war")
    assert (row.stack, row.copies, row.params["outcome"], row.unknown) == (2, 1, "to_court", ())
    with pytest.raises(RuleFileError, match=r"cards\[civil_war\]\.params\.outcome: must be one of"):
        cards.set_card("civil_war", params={"outcome": "burn"})
    assert cards.row("civil_war").params["outcome"] == "to_court"
    cards.forget("civil_war")
    assert "stack" in cards.row("civil_war").unknown


def test_export_then_import_gives_the_same_set(tmp_path):
    cards = CardSetDraft()
    cards.add_card("Veterans", "decay", 2, 1, {"count": 2}, module="old-hands")
    cards.set_card("veto", stack=2, copies=2)
    path = cards.export()
    assert path.parent == exports_folder() and path in import_candidates()
    other = CardSetDraft()
    other.import_file(path)
    assert other.rows() == cards.rows()
    assert load_cards("2023", json.loads(path.read_text())).cards == cards.cards.cards


@pytest.mark.parametrize(
    "content, words",
    [
        (
            {"rules": "2023", "cards": [{"id": "militia", "params": {"count": 9}}]},
            r"card file: cards\[militia\]\.params\.count: must be an integer 1\.\.5",
        ),
        (
            {"rules": "2023", "cards": [{"id": "spy", "name": "Spy", "effect": "spying", "stack": 1, "copies": 1}]},
            r"cards\[spy\]\.effect: unknown effect 'spying'",
        ),
        ({"rules": "classic", "cards": []}, r"bad\.json: the file is for the 'classic' rules"),
        (
            {"rules": "2023", "modifiers": [{"id": "m1", "value": 1, "ability": None, "source": "ours"}]},
            r"modifiers: Power Shift has 16 Modifier cards, the file lists 1",
        ),
        ([1, 2], r"bad\.json: not a card file \(a card file holds one JSON object\)"),
    ],
)
def test_a_bad_import_is_refused_naming_the_field_and_changes_nothing(tmp_path, content, words):
    cards = CardSetDraft()
    cards.set_card("veto", stack=2, copies=2)
    cards.save()
    before = (json.dumps(cards.file), cards_path().read_text())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(content))
    with pytest.raises(RuleFileError, match=words):
        cards.import_file(bad)
    assert (json.dumps(cards.file), cards_path().read_text()) == before


def test_an_import_that_is_not_json_is_named(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": "2023",\n "cards": [}')
    with pytest.raises(RuleFileError, match=r"bad\.json: not JSON \(line 2, column 12"):
        CardSetDraft().import_file(bad)
    with pytest.raises(RuleFileError, match="no such file"):
        CardSetDraft().import_file(tmp_path / "none.json")


def test_the_stand_in_modifiers_are_never_taken_from_a_file(tmp_path):
    from engine.rules.edition_2023.power_shift import stand_in_modifiers

    bad = tmp_path / "stand_in.json"
    bad.write_text(json.dumps({"rules": "2023", "modifiers": stand_in_modifiers()}))
    with pytest.raises(RuleFileError, match="the stand-in set for self-play, not the printed cards"):
        CardSetDraft().import_file(bad)


def test_modifier_cards_are_entered_one_by_one_and_kept_in_the_card_file_once_all_16_are(setup_2023):
    cards = CardSetDraft()
    first = cards.add_modifier(2, effect="court", params={"count": 2})
    cards.add_modifier(-1)
    cards.save()
    again = CardSetDraft.load()
    assert [(m.id, m.value, m.name) for m in again.modifiers()] == [(first, 2, "+2"), ("modifier_minus_1_1", -1, "−1")]
    assert "modifiers" not in again.file and not again.has_modifiers  # a card file lists all 16 or none
    with pytest.raises(RuleFileError, match=r"ability\.effect: 'veto_2023' is not an effect a Modifier"):
        again.add_modifier(1, effect="veto_2023")
    with pytest.raises(RuleFileError, match=r"value: a Modifier card adds or subtracts a number, not 0"):
        again.add_modifier(0)
    for value in (1, 1, -1, 2, -2, 3, -3, 1, -1, 2, -2, 3, 1, 2):
        again.add_modifier(value)
    assert again.has_modifiers and len(again.file["modifiers"]) == 16 and not again.modifier_draft
    again.save()
    assert not modifiers_draft_path().exists()
    files = game_files(RulesChoice("2023", ("power-shift",)), 4)
    assert not files.needs_modifiers and len(files.cards_file["modifiers"]) == 16
    check_game_setup(setup_2023(files, modules=["power-shift"]))  # a Power Shift game takes the table's cards
    with pytest.raises(RuleFileError, match="all entered"):
        again.add_modifier(1)
    again.remove_modifier(first)
    assert len(again.modifiers()) == 15 and not again.has_modifiers
    assert {o.name for o in modifier_abilities()}.isdisjoint({"veto_2023", "choice", "infiltration"})
