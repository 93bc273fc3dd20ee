"""companion/table_rules/board_file.py: Your board's facts, known, inferred or missing, checked like a
board file and kept per side in the user data folder. No Kivy."""

import json

import pytest

from companion.table_rules.board_file import BoardDraft, board_confirmed, board_path
from companion.table_rules.new_game import game_files
from companion.table_rules.rules_choice import RulesChoice
from companion.table_rules.storage import RuleFileError
from engine.board.load import load_board


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


def test_each_fact_is_marked_known_inferred_or_missing_from_the_boards_provenance():
    draft = BoardDraft("4-5")
    facts = {f.path: f for f in draft.facts()}
    galicia = facts["regions.galicia.scoreboard"]
    assert galicia.status == "known" and galicia.value == (4, 2, 0)
    assert facts["regions.castilla.scoreboard"].status == "inferred"
    assert facts["spaces.france.neighbours"].status == "missing" and facts["spaces.france.neighbours"].value is None
    assert facts["scoring_tiles.tile_a"].status == "missing"
    assert "France's neighbouring regions are not known" in facts["spaces.france.neighbours"].source
    two = BoardDraft("2-3")
    assert len([f for f in two.facts() if f.kind == "scoreboard" and f.status == "missing"]) == 10


def test_what_a_game_needs_before_it_starts():
    assert BoardDraft("4-5").needed(()) == []
    assert [f.area for f in BoardDraft("4-5").needed(("new-regency",))] == ["france", "portugal"]
    assert len(BoardDraft("2-3").needed(())) == 10  # the side's scoreboards; tiles may come later


def test_a_wrong_scoreboard_is_refused_with_the_boards_rule_and_changes_nothing():
    draft = BoardDraft("4-5")
    before = json.dumps(draft.file)
    with pytest.raises(
        RuleFileError,
        match=r"regions\[galicia\]\.scoreboard: \[4, 5, 0\]: scoreboard must not "
        r"increase",
    ):
        draft.set_scoreboard("galicia", (4, 5, 0))
    assert json.dumps(draft.file) == before and draft.fact("regions.galicia.scoreboard").value == (4, 2, 0)
    draft.set_scoreboard("galicia", (5, 2, 0))
    fact = draft.fact("regions.galicia.scoreboard")
    assert fact.value == (5, 2, 0) and fact.status == "yours"


def test_a_border_is_toggled_on_both_sides_and_a_region_is_not_its_own_neighbour():
    draft = BoardDraft("4-5")
    assert draft.toggle_neighbour("galicia", "aragon") is True
    assert "aragon" in draft.fact("regions.galicia.neighbours").value
    assert "galicia" in draft.fact("regions.aragon.neighbours").value
    assert draft.toggle_neighbour("aragon", "galicia") is False
    assert "aragon" not in draft.fact("regions.galicia.neighbours").value
    with pytest.raises(RuleFileError, match="does not neighbour itself"):
        draft.toggle_neighbour("galicia", "galicia")
    with pytest.raises(RuleFileError, match="not a region"):
        draft.toggle_neighbour("galicia", "france")
    draft.toggle_neighbour("france", "navarra")
    draft.toggle_neighbour("france", "cataluna")
    assert draft.fact("spaces.france.neighbours").value == ("navarra", "cataluna")


def test_confirming_needs_the_missing_facts_then_makes_the_inferred_ones_the_tables():
    draft = BoardDraft("4-5")
    with pytest.raises(
        RuleFileError, match="Still to enter from your board: France's neighbours, Portugal's neighbours"
    ):
        draft.confirm(("new-regency",))
    draft.toggle_neighbour("france", "navarra")
    draft.toggle_neighbour("portugal", "galicia")
    draft.confirm(("new-regency",))
    counts = draft.counts()
    assert counts["inferred"] == 0 and counts["known"] == 5 and counts["missing"] == 2  # the tiles, offered
    draft.save()
    assert board_confirmed("4-5") and not board_confirmed("2-3")
    again = BoardDraft.load("4-5")
    assert again.file == draft.file
    # the saved file is a board file the engine takes as it is
    board = load_board("2023", 4, json.loads(board_path("4-5").read_text()))
    assert board.provenance["regions.castilla.scoreboard"] == "table: checked against our board"
    assert board.space_neighbours[0] == frozenset({board.area_index["navarra"]})


def test_the_scoring_tiles_are_the_same_on_both_sides():
    draft = BoardDraft("4-5")
    draft.set_tile("tile_a", (4, 2, 0))
    draft.save()
    other = BoardDraft.load("2-3")
    assert other.fact("scoring_tiles.tile_a").value == (4, 2, 0)
    assert other.fact("scoring_tiles.tile_b").status == "missing"


def test_reset_goes_back_to_the_shipped_board():
    draft = BoardDraft("2-3")
    for area in ("galicia", "castillo"):
        draft.set_scoreboard(area, (3, 1, 0))
    draft.save()
    draft.reset()
    assert not board_confirmed("2-3") and draft.fact("regions.galicia.scoreboard").status == "missing"


def test_a_damaged_board_file_is_named():
    board_path("4-5").parent.mkdir(parents=True)
    board_path("4-5").write_text(json.dumps({"rules": "2023", "side": "4-5", "regions": [{"id": "atlantis"}]}))
    with pytest.raises(RuleFileError, match=r"regions\[atlantis\]: not one of the board's regions"):
        BoardDraft.load("4-5")
    files = game_files(RulesChoice("2023"), 4)
    assert "Your board (4-5 side) cannot be used" in files.problem and files.board_file is None
