"""companion/table_rules/new_game.py: what a new 2023 game takes from the table's files and what is
still to do first; what a game entered kept for the next games. No Kivy."""

import pytest

from companion.table_rules.board_file import BoardDraft, remember_board_facts
from companion.table_rules.card_file import CardSetDraft, remember_card_entries
from companion.table_rules.new_game import check_game_setup, game_files, old_hands_returns, tower_note
from companion.table_rules.rules_choice import RulesChoice
from companion.table_rules.storage import RuleFileError
from engine.game import Game


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


def test_every_new_2023_game_gets_the_tables_files(setup_2023):
    choice = RulesChoice("2023", ("new-regency",))
    first = game_files(choice, 4)
    assert first.confirm_board and first.board_file is None and first.cards_file is None
    board = BoardDraft("4-5")
    board.toggle_neighbour("france", "navarra")
    board.toggle_neighbour("portugal", "galicia")
    board.confirm(("new-regency",))
    board.save()
    cards = CardSetDraft()
    cards.set_card("veto", stack=2, copies=2)
    cards.save()
    files = game_files(choice, 4)
    assert not files.confirm_board and files.board_file == board.file and files.cards_file == cards.file
    game = Game(setup_2023(files, modules=["new-regency"]))
    assert game.board.space_neighbours[0] == frozenset({game.board.area_index["navarra"]})
    assert game.board.cards["veto"].stack == 2
    # the 2-3 side is its own: not confirmed yet
    assert game_files(choice, 3).confirm_board


def test_power_shift_needs_modifiers_or_the_labelled_stand_in_choice(setup_2023):
    choice = RulesChoice("2023", ("power-shift",))
    files = game_files(choice, 4)
    assert files.needs_modifiers and any("16 Modifier cards" in n for n in files.notes)
    chosen = game_files(RulesChoice("2023", ("power-shift",), stand_in_modifiers=True), 4)
    assert not chosen.needs_modifiers and any("NOT" not in n and "stand-in" in n for n in chosen.notes)
    check_game_setup(setup_2023(chosen, modules=["power-shift"], stand_in_modifiers=True))
    with pytest.raises(RuleFileError, match="Power Shift needs its 16 Modifier cards"):
        check_game_setup(setup_2023(files, modules=["power-shift"]))


def test_the_tower_note_names_the_colours_it_does_not_count():
    assert tower_note(["red", "blue"], "simulated") == []
    assert tower_note(["purple", "orange"], "none") == []
    note = tower_note(["purple", "blue", "orange"], "serial")[0]
    assert note.startswith("The tower does not know Purple and Orange: their throws")


def test_old_hands_asks_for_one_returned_card_per_added_card_by_stack():
    choice = RulesChoice("2023", ("old-hands", "four-stacks"))
    with pytest.raises(RuleFileError, match="no Old Hands card is in your card set yet"):
        old_hands_returns(choice, 3, None)
    cards = CardSetDraft()
    cards.add_card("Veterans", "decay", 2, 1, {"count": 2}, module="old-hands")
    cards.add_card("Old guard", "court", 1, 1, {"count": 2}, module="old-hands")
    cards.set_card("veto", stack=2, copies=2)
    cards.set_card("militia", stack=3, copies=1)
    four = old_hands_returns(RulesChoice("2023", ("old-hands",)), 4, cards.file)
    assert [(r.stack, r.count, [c for c, _ in r.cards]) for r in four] == [(1, 1, []), (2, 1, ["veto"])]
    merged = old_hands_returns(choice, 3, cards.file)  # four stacks: stack 3 lies in stack 2
    assert [c for c, _ in merged[1].cards] == ["fiesta", "militia", "veto"]
    assert old_hands_returns(RulesChoice("2023"), 4, cards.file) == []


def test_what_a_game_enters_is_kept_for_the_next_games():
    assert remember_card_entries([{"id": "outposts", "stack": 3, "copies": 2}]) == ""
    assert CardSetDraft.load().row("outposts").stack == 3
    refused = remember_card_entries(
        [{"id": "levy", "name": "Levy", "effect": "militia", "stack": 3, "copies": 1, "params": {"count": 99}}]
    )
    assert refused.startswith("Not kept in Your cards: card file: cards[levy].params.count")
    assert "levy" not in CardSetDraft.load().cards.cards
    assert remember_board_facts("2-3", {"regions": [{"id": "galicia", "scoreboard": [3, 1, 0]}]}) == ""
    kept = BoardDraft.load("2-3")
    assert kept.fact("regions.galicia.scoreboard").value == (3, 1, 0)
    assert not kept.confirmed and game_files(RulesChoice("2023"), 3).confirm_board  # the rest: still shown once
    assert "scoreboard must not increase" in remember_board_facts("2-3", {"castillo": {"scoreboard": [1, 4, 0]}})
