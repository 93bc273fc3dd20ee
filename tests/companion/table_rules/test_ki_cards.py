"""The table's King and Intrigue card set (companion/table_rules/ki_cards.py) and the rule choice, without Kivy:
what is missing in short words per card and field, each entry checked by the engine's loader (a
wrong one refused naming the card and field, nothing changed), saved at once, export and import
the same set, a damaged saved file named, and the King and Intrigue choice remembered."""

from __future__ import annotations

import json

import pytest

from companion.table_rules.ki_cards import KICardsDraft, ki_cards_path, ki_game_files
from companion.table_rules.new_game import game_files
from companion.table_rules.rules_choice import RulesChoice, load_choice, save_choice
from companion.table_rules.storage import RuleFileError
from tests.engine.king_intrigue.table import CARDS_FILE, COURT


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_what_is_missing_is_said_per_card_and_field():
    draft = KICardsDraft()
    missing = draft.missing_words(3, ())
    assert missing[0] == "what each Action card places with 3 players"
    assert "10 Intrigue: Caballeros to the court" in missing
    assert "60 Special scoring: its action" in missing and "140 Into the Castillo: foreign Caballeros moved" in missing
    assert not any(m.startswith("40 Veto") for m in missing)  # its court is known (Benita's example)
    with_modules = draft.missing_words(3, ("players-edition",))
    assert "? Joker: its value" in with_modules and "13 Field Day: Caballeros to the court" in with_modules
    assert not draft.complete_for(3, ())


def test_entries_are_checked_and_kept_and_a_wrong_one_changes_nothing(data_dir):
    draft = KICardsDraft()
    draft.set_court("ki_10", 6)
    draft.set_placements(3, [2, 3, 5])
    draft.set_effect("ki_60", "score_group", {"group": "4"})
    draft.set_value("pe_joker", 5)
    saved = json.loads(ki_cards_path().read_text())
    assert {"id": "ki_10", "court": 6} in saved["power_cards"] and saved["placements"]["3"] == [2, 3, 5]
    with pytest.raises(RuleFileError, match=r"power_cards\[pe_alliance\]\.value: 5 is also pe_joker's value"):
        draft.set_value("pe_alliance", 5)
    with pytest.raises(RuleFileError, match=r"power_cards\[ki_20\]\.court: must be an integer 0\.\.30"):
        draft.set_court("ki_20", 99)
    assert KICardsDraft.load().file == draft.file == saved  # nothing of the refused entries
    assert draft.row("pe_alliance").value is None and draft.row("ki_20").court is None


def test_a_complete_set_exported_then_imported_is_the_same_and_games_get_it(data_dir):
    draft = KICardsDraft(CARDS_FILE)
    draft.save()
    assert draft.complete_for(3, ()) and ki_game_files(3, ()).missing == []
    path = draft.export()
    draft.set_court("ki_10", 1)
    draft.import_file(path)
    assert draft.row("ki_10").court == COURT[10]
    assert KICardsDraft.load().file["power_cards"] == draft.file["power_cards"]
    files = game_files(RulesChoice("king-intrigue"), 3)
    assert files.cards_file == draft.file and not files.notes and files.side == "classic"
    bad = data_dir / "bad.json"
    bad.write_text(json.dumps({"rules": "2023", "cards": []}))
    with pytest.raises(RuleFileError, match="is for the '2023' rules"):
        draft.import_file(bad)


def test_a_damaged_saved_set_is_named_not_raised(data_dir):
    ki_cards_path().parent.mkdir(parents=True, exist_ok=True)
    ki_cards_path().write_text("{not json")
    files = ki_game_files(3, ())
    assert files.problem.startswith("Your King and Intrigue cards cannot be used: cards-king-intrigue.json: not JSON")


def test_the_king_and_intrigue_choice_is_remembered_with_its_modules():
    choice = RulesChoice("king-intrigue").toggled("special-cards")
    assert [o.label for o in choice.offers(4)] == ["Player's Edition", "Special cards"]
    choice.check(4)
    save_choice(choice)
    again = load_choice()
    assert again.rules == "king-intrigue" and again.modules_for(4) == ["special-cards"]
    assert "King's Card and Intrigue card offer a choice" in again.words(3)
    notes = game_files(again, 4).notes
    assert notes and notes[0].startswith("King and Intrigue: ") and "Your cards" in notes[0]


def test_a_box_is_entered_in_one_table_within_40_taps_and_is_complete(data_dir):
    """Issue 21's goal: the base box (the 18 Power cards' unknowns and what each Action card places
    for 2-5 players) in <= 40 taps on Your cards' table, a chip a fact; the set entered is the
    box's, card by card (the engine tests' numbers, entered as from a box)."""
    from tests.companion.tablet_driver import box_table_taps

    taps, draft = box_table_taps(CARDS_FILE)
    assert taps <= 40, taps
    assert all(draft.complete_for(n, ()) for n in (2, 3, 4, 5))
    box = KICardsDraft(CARDS_FILE)
    for row in box.rows():
        if row.module is None:
            got = draft.row(row.id)
            assert (got.court, got.effect, got.params) == (row.court, row.effect, row.params), row.id
    assert all(draft.placements(n) == box.placements(n) for n in (2, 3, 4, 5))
    # every fact of the base box is one chip: the taps are the facts the box had to give
    facts = sum(1 for c in KICardsDraft().cells() if c.now is None and (not c.card or c.card.startswith("ki_")))
    assert taps <= facts, (taps, facts)


def test_with_one_module_the_cards_whose_module_is_not_published_are_asked_once_and_kept(data_dir):
    """The components list counts 11 Player's Edition and 10 Special cards a colour; the text does
    not say which module some of its cards are (engine data: module null with a note). A table
    playing one module says it from each card's symbol, once; with both, nothing is asked."""
    draft = KICardsDraft(CARDS_FILE)  # a card file saved before the set asked: upgraded, asked
    assert draft.file["modules_asked"] is True
    assert "? Revolt: which module (its symbol)" in draft.missing_words(4, ("special-cards",))
    assert not any("which module" in m for m in draft.missing_words(4, ("players-edition", "special-cards")))
    assert not any("which module" in m for m in draft.missing_words(4, ()))
    assert draft.row("sc_revolt").ask_module and not draft.row("sc_kings_guard").ask_module
    draft.set_module("sc_revolt", "players-edition")
    assert not any("Revolt: which module" in m for m in draft.missing_words(4, ("special-cards",)))
    assert KICardsDraft.load().row("sc_revolt").module == "players-edition"
    assert KICardsDraft.load().row("sc_revolt").group == "players-edition or special-cards"  # listed where it was
    with pytest.raises(RuleFileError, match="not a module"):
        draft.set_module("sc_revolt", "new-regency")
