"""companion/table_rules/files.py: the rule choice remembered, the table's board and card set checked and
kept in the user data folder, what a new 2023 game takes from them. No Kivy."""

import json

import pytest

from companion.table_rules import files as rf
from engine import events as ev
from engine.board.load import load_board, load_cards
from engine.game import Game


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path / "data"))


# ---------------------------------------------------------------- the rule choice


def test_modules_are_offered_only_where_the_rules_allow_them():
    classic = rf.RulesChoice()
    assert classic.offers(4) == [] and classic.modules_for(4) == []
    choice = rf.RulesChoice("2023", ("new-regency", "four-stacks"))
    assert [o.id for o in choice.offers(4)] == ["new-regency", "old-hands", "power-shift"]  # four stacks: 2-3 only
    assert choice.modules_for(4) == ["new-regency"]
    assert choice.modules_for(3) == ["new-regency", "four-stacks"]
    two = {o.id: o for o in choice.offers(2)}
    assert two["four-stacks"].always and two["four-stacks"].chosen
    assert choice.modules_for(2) == ["new-regency"]  # implied with 2 players, not named
    for players in (2, 3, 4, 5):
        choice.check(players)  # what is offered is what the engine plays


def test_the_board_side_follows_the_player_count():
    choice = rf.RulesChoice("2023")
    assert [choice.side(n) for n in (2, 3, 4, 5)] == ["2-3", "2-3", "4-5", "4-5"]
    assert "dummy" in choice.words(2) and "first two numbers" in choice.words(3)
    assert rf.RulesChoice().side(4) == "classic"


def test_the_choice_is_remembered_and_a_bad_file_falls_back_to_classic():
    assert rf.load_choice() == rf.RulesChoice()
    choice = rf.RulesChoice("2023", ("new-regency", "power-shift"), "orange", True)
    rf.save_choice(choice)
    assert rf.load_choice() == choice
    (rf.rules_folder() / rf.CHOICE_FILE).write_text("{not json")
    assert rf.load_choice() == rf.RulesChoice()
    (rf.rules_folder() / rf.CHOICE_FILE).write_text(json.dumps({"rules": "2023", "modules": ["nope", "old-hands"]}))
    assert rf.load_choice() == rf.RulesChoice("2023", ("old-hands",))


def test_toggling_keeps_the_rule_books_order():
    choice = rf.RulesChoice("2023").toggled("power-shift").toggled("new-regency")
    assert choice.modules == ("new-regency", "power-shift")
    assert choice.toggled("power-shift").modules == ("new-regency",)


# ---------------------------------------------------------------- the board


def test_each_fact_is_marked_known_inferred_or_missing_from_the_boards_provenance():
    draft = rf.BoardDraft("4-5")
    facts = {f.path: f for f in draft.facts()}
    galicia = facts["regions.galicia.scoreboard"]
    assert galicia.status == "known" and galicia.value == (4, 2, 0)
    assert facts["regions.castilla.scoreboard"].status == "inferred"
    assert facts["spaces.france.neighbours"].status == "missing" and facts["spaces.france.neighbours"].value is None
    assert facts["scoring_tiles.tile_a"].status == "missing"
    assert "France's neighbouring regions are not known" in facts["spaces.france.neighbours"].source
    two = rf.BoardDraft("2-3")
    assert len([f for f in two.facts() if f.kind == "scoreboard" and f.status == "missing"]) == 10


def test_what_a_game_needs_before_it_starts():
    assert rf.BoardDraft("4-5").needed(()) == []
    assert [f.area for f in rf.BoardDraft("4-5").needed(("new-regency",))] == ["france", "portugal"]
    assert len(rf.BoardDraft("2-3").needed(())) == 10  # the side's scoreboards; tiles may come later


def test_a_wrong_scoreboard_is_refused_with_the_boards_rule_and_changes_nothing():
    draft = rf.BoardDraft("4-5")
    before = json.dumps(draft.file)
    with pytest.raises(
        rf.RuleFileError,
        match=r"regions\[galicia\]\.scoreboard: \[4, 5, 0\]: scoreboard must not "
        r"increase",
    ):
        draft.set_scoreboard("galicia", (4, 5, 0))
    assert json.dumps(draft.file) == before and draft.fact("regions.galicia.scoreboard").value == (4, 2, 0)
    draft.set_scoreboard("galicia", (5, 2, 0))
    fact = draft.fact("regions.galicia.scoreboard")
    assert fact.value == (5, 2, 0) and fact.status == "yours"


def test_a_border_is_toggled_on_both_sides_and_a_region_is_not_its_own_neighbour():
    draft = rf.BoardDraft("4-5")
    assert draft.toggle_neighbour("galicia", "aragon") is True
    assert "aragon" in draft.fact("regions.galicia.neighbours").value
    assert "galicia" in draft.fact("regions.aragon.neighbours").value
    assert draft.toggle_neighbour("aragon", "galicia") is False
    assert "aragon" not in draft.fact("regions.galicia.neighbours").value
    with pytest.raises(rf.RuleFileError, match="does not neighbour itself"):
        draft.toggle_neighbour("galicia", "galicia")
    with pytest.raises(rf.RuleFileError, match="not a region"):
        draft.toggle_neighbour("galicia", "france")
    draft.toggle_neighbour("france", "navarra")
    draft.toggle_neighbour("france", "cataluna")
    assert draft.fact("spaces.france.neighbours").value == ("navarra", "cataluna")


def test_confirming_needs_the_missing_facts_then_makes_the_inferred_ones_the_tables():
    draft = rf.BoardDraft("4-5")
    with pytest.raises(
        rf.RuleFileError, match="Still to enter from your board: France's neighbours, Portugal's neighbours"
    ):
        draft.confirm(("new-regency",))
    draft.toggle_neighbour("france", "navarra")
    draft.toggle_neighbour("portugal", "galicia")
    draft.confirm(("new-regency",))
    counts = draft.counts()
    assert counts["inferred"] == 0 and counts["known"] == 5 and counts["missing"] == 2  # the tiles, offered
    draft.save()
    assert rf.board_confirmed("4-5") and not rf.board_confirmed("2-3")
    again = rf.BoardDraft.load("4-5")
    assert again.file == draft.file
    # the saved file is a board file the engine takes as it is
    board = load_board("2023", 4, json.loads(rf.board_path("4-5").read_text()))
    assert board.provenance["regions.castilla.scoreboard"] == "table: checked against our board"
    assert board.space_neighbours[0] == frozenset({board.area_index["navarra"]})


def test_the_scoring_tiles_are_the_same_on_both_sides():
    draft = rf.BoardDraft("4-5")
    draft.set_tile("tile_a", (4, 2, 0))
    draft.save()
    other = rf.BoardDraft.load("2-3")
    assert other.fact("scoring_tiles.tile_a").value == (4, 2, 0)
    assert other.fact("scoring_tiles.tile_b").status == "missing"


def test_reset_goes_back_to_the_shipped_board():
    draft = rf.BoardDraft("2-3")
    for area in ("galicia", "castillo"):
        draft.set_scoreboard(area, (3, 1, 0))
    draft.save()
    draft.reset()
    assert not rf.board_confirmed("2-3") and draft.fact("regions.galicia.scoreboard").status == "missing"


def test_a_damaged_board_file_is_named():
    rf.board_path("4-5").parent.mkdir(parents=True)
    rf.board_path("4-5").write_text(json.dumps({"rules": "2023", "side": "4-5", "regions": [{"id": "atlantis"}]}))
    with pytest.raises(rf.RuleFileError, match=r"regions\[atlantis\]: not one of the board's regions"):
        rf.BoardDraft.load("4-5")
    files = rf.game_files(rf.RulesChoice("2023"), 4)
    assert "Your board (4-5 side) cannot be used" in files.problem and files.board_file is None


# ---------------------------------------------------------------- the card set


def test_cards_are_browsed_with_their_unknown_facts():
    rows = {r.id: r for r in rf.CardSetDraft().rows()}
    assert rows["fiesta"].stack == 3 and rows["fiesta"].unknown == ("copies",)
    assert set(rows["civil_war"].unknown) == {"stack", "copies", "params.outcome"}
    assert rows["your_majesty"].copies_words == "×1" and rows["exile"].stack_words == "stack 5 (New Regency)"


def test_a_card_found_in_the_box_is_added_by_its_effect():
    cards = rf.CardSetDraft()
    cid = cards.add_card("Veterans", "decay", 2, 1, {"count": 2}, module="old-hands")
    assert cid == "veterans"
    row = cards.row(cid)
    assert (row.stack, row.copies, row.params, row.module, row.unknown) == (2, 1, {"count": 2}, "old-hands", ())
    assert cards.add_card("Veterans", "decay", 4, 1, {}, module="old-hands") == "veterans_2"
    with pytest.raises(rf.RuleFileError, match=r"cards\[militia_2\]\.params\.count: must be an integer 1\.\.5"):
        cards.add_card("Militia", "militia", 1, 1, {"count": 9})
    with pytest.raises(rf.RuleFileError, match=r"old-hands would hold at least 2 cards"):
        cards.add_card("Old guard", "court", 1, 2, {"count": 2}, module="old-hands")
    assert "militia_2" not in cards.cards.cards and "old_guard" not in cards.cards.cards


def test_a_known_cards_stack_copies_and_numbers_are_set():
    cards = rf.CardSetDraft()
    cards.set_card("civil_war", stack=2, copies=1, params={"outcome": "to_court"})
    row = cards.row("civil_war")
    assert (row.stack, row.copies, row.params["outcome"], row.unknown) == (2, 1, "to_court", ())
    with pytest.raises(rf.RuleFileError, match=r"cards\[civil_war\]\.params\.outcome: must be one of"):
        cards.set_card("civil_war", params={"outcome": "burn"})
    assert cards.row("civil_war").params["outcome"] == "to_court"
    cards.forget("civil_war")
    assert "stack" in cards.row("civil_war").unknown


def test_export_then_import_gives_the_same_set(tmp_path):
    cards = rf.CardSetDraft()
    cards.add_card("Veterans", "decay", 2, 1, {"count": 2}, module="old-hands")
    cards.set_card("veto", stack=2, copies=2)
    path = cards.export()
    assert path.parent == rf.exports_folder() and path in rf.import_candidates()
    other = rf.CardSetDraft()
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
        ({"rules": "classic", "cards": []}, r"rules: the file is for the 'classic' rules"),
        (
            {"rules": "2023", "modifiers": [{"id": "m1", "value": 1, "ability": None, "source": "ours"}]},
            r"modifiers: Power Shift has 16 Modifier cards, the file lists 1",
        ),
        ([1, 2], r"must be a JSON object, not list"),
    ],
)
def test_a_bad_import_is_refused_naming_the_field_and_changes_nothing(tmp_path, content, words):
    cards = rf.CardSetDraft()
    cards.set_card("veto", stack=2, copies=2)
    cards.save()
    before = (json.dumps(cards.file), rf.cards_path().read_text())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(content))
    with pytest.raises(rf.RuleFileError, match=words):
        cards.import_file(bad)
    assert (json.dumps(cards.file), rf.cards_path().read_text()) == before


def test_an_import_that_is_not_json_is_named(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": "2023",\n "cards": [}')
    with pytest.raises(rf.RuleFileError, match=r"bad\.json: not JSON \(line 2, column 12"):
        rf.CardSetDraft().import_file(bad)
    with pytest.raises(rf.RuleFileError, match="no such file"):
        rf.CardSetDraft().import_file(tmp_path / "none.json")


def test_the_stand_in_modifiers_are_never_taken_from_a_file(tmp_path):
    from engine.rules.edition_2023.power_shift import stand_in_modifiers

    bad = tmp_path / "stand_in.json"
    bad.write_text(json.dumps({"rules": "2023", "modifiers": stand_in_modifiers()}))
    with pytest.raises(rf.RuleFileError, match="the stand-in set for self-play, not the printed cards"):
        rf.CardSetDraft().import_file(bad)


def test_param_fields_step_between_left_out_and_their_range():
    count = next(f for f in rf.param_fields("decay") if f.name == "count")
    assert not count.required and count.start() is None and count.left_out() == "all of them"
    assert count.step(None, +1) == 1 and count.step(1, -1) is None and count.step(30, +1) == 30
    militia = rf.param_fields("militia")[0]
    assert militia.start() == 1 and militia.step(1, -1) == 1
    assert rf.param_fields("choice")[0].start() == ["move_all_own", "place_extra"]
    offers = {o.name: o for o in rf.effect_offers("2023")}
    assert "veto" not in offers and "veto_2023" in offers  # the classic Veto is not a 2023 effect
    assert offers["militia"].rule_text.startswith("(2023)")


# ---------------------------------------------------------------- a new game


def _setup(files: rf.GameFiles, players=("purple", "blue", "green", "orange"), **kw) -> ev.GameSetup:
    homes = dict(zip(players, ("galicia", "aragon", "sevilla", "valencia")))
    return ev.GameSetup(
        players=list(players),
        king="toledo",
        homes=homes,
        start_player=players[0],
        rules="2023",
        board_file=files.board_file,
        cards_file=files.cards_file,
        **kw,
    )


def test_every_new_2023_game_gets_the_tables_files():
    choice = rf.RulesChoice("2023", ("new-regency",))
    first = rf.game_files(choice, 4)
    assert first.confirm_board and first.board_file is None and first.cards_file is None
    board = rf.BoardDraft("4-5")
    board.toggle_neighbour("france", "navarra")
    board.toggle_neighbour("portugal", "galicia")
    board.confirm(("new-regency",))
    board.save()
    cards = rf.CardSetDraft()
    cards.set_card("veto", stack=2, copies=2)
    cards.save()
    files = rf.game_files(choice, 4)
    assert not files.confirm_board and files.board_file == board.file and files.cards_file == cards.file
    game = Game(_setup(files, modules=["new-regency"]))
    assert game.board.space_neighbours[0] == frozenset({game.board.area_index["navarra"]})
    assert game.board.cards["veto"].stack == 2
    # the 2-3 side is its own: not confirmed yet
    assert rf.game_files(choice, 3).confirm_board


def test_power_shift_needs_modifiers_or_the_labelled_stand_in_choice():
    choice = rf.RulesChoice("2023", ("power-shift",))
    files = rf.game_files(choice, 4)
    assert files.needs_modifiers and any("16 Modifier cards" in n for n in files.notes)
    chosen = rf.game_files(rf.RulesChoice("2023", ("power-shift",), stand_in_modifiers=True), 4)
    assert not chosen.needs_modifiers and any("NOT" not in n and "stand-in" in n for n in chosen.notes)
    rf.check_game_setup(_setup(chosen, modules=["power-shift"], stand_in_modifiers=True))
    with pytest.raises(rf.RuleFileError, match="Power Shift needs its 16 Modifier cards"):
        rf.check_game_setup(_setup(files, modules=["power-shift"]))


def test_the_tower_note_names_the_colours_it_does_not_count():
    assert rf.tower_note(["red", "blue"], "simulated") == []
    assert rf.tower_note(["purple", "orange"], "none") == []
    note = rf.tower_note(["purple", "blue", "orange"], "serial")[0]
    assert note.startswith("The tower does not know Purple and Orange: their throws")


def test_old_hands_asks_for_one_returned_card_per_added_card_by_stack():
    choice = rf.RulesChoice("2023", ("old-hands", "four-stacks"))
    with pytest.raises(rf.RuleFileError, match="no Old Hands card is in your card set yet"):
        rf.old_hands_returns(choice, 3, None)
    cards = rf.CardSetDraft()
    cards.add_card("Veterans", "decay", 2, 1, {"count": 2}, module="old-hands")
    cards.add_card("Old guard", "court", 1, 1, {"count": 2}, module="old-hands")
    cards.set_card("veto", stack=2, copies=2)
    cards.set_card("militia", stack=3, copies=1)
    four = rf.old_hands_returns(rf.RulesChoice("2023", ("old-hands",)), 4, cards.file)
    assert [(r.stack, r.count, [c for c, _ in r.cards]) for r in four] == [(1, 1, []), (2, 1, ["veto"])]
    merged = rf.old_hands_returns(choice, 3, cards.file)  # four stacks: stack 3 lies in stack 2
    assert [c for c, _ in merged[1].cards] == ["fiesta", "militia", "veto"]
    assert rf.old_hands_returns(rf.RulesChoice("2023"), 4, cards.file) == []


def test_what_a_game_enters_is_kept_for_the_next_games():
    assert rf.remember_card_entries([{"id": "outposts", "stack": 3, "copies": 2}]) == ""
    assert rf.CardSetDraft.load().row("outposts").stack == 3
    refused = rf.remember_card_entries(
        [{"id": "levy", "name": "Levy", "effect": "militia", "stack": 3, "copies": 1, "params": {"count": 99}}]
    )
    assert refused.startswith("Not kept in Your cards: card file: cards[levy].params.count")
    assert "levy" not in rf.CardSetDraft.load().cards.cards
    assert rf.remember_board_facts("2-3", {"regions": [{"id": "galicia", "scoreboard": [3, 1, 0]}]}) == ""
    kept = rf.BoardDraft.load("2-3")
    assert kept.fact("regions.galicia.scoreboard").value == (3, 1, 0)
    assert not kept.confirmed and rf.game_files(rf.RulesChoice("2023"), 3).confirm_board  # the rest: still shown once
    assert "scoreboard must not increase" in rf.remember_board_facts("2-3", {"castillo": {"scoreboard": [1, 4, 0]}})


def test_modifier_cards_are_entered_one_by_one_and_kept_in_the_card_file_once_all_16_are():
    cards = rf.CardSetDraft()
    first = cards.add_modifier(2, effect="court", params={"count": 2})
    cards.add_modifier(-1)
    cards.save()
    again = rf.CardSetDraft.load()
    assert [(m.id, m.value, m.name) for m in again.modifiers()] == [(first, 2, "+2"), ("modifier_minus_1_1", -1, "−1")]
    assert "modifiers" not in again.file and not again.has_modifiers  # a card file lists all 16 or none
    with pytest.raises(rf.RuleFileError, match=r"ability\.effect: 'veto_2023' is not an effect a Modifier"):
        again.add_modifier(1, effect="veto_2023")
    with pytest.raises(rf.RuleFileError, match=r"value: a Modifier card adds or subtracts a number, not 0"):
        again.add_modifier(0)
    for value in (1, 1, -1, 2, -2, 3, -3, 1, -1, 2, -2, 3, 1, 2):
        again.add_modifier(value)
    assert again.has_modifiers and len(again.file["modifiers"]) == 16 and not again.modifier_draft
    again.save()
    assert not rf.modifiers_draft_path().exists()
    files = rf.game_files(rf.RulesChoice("2023", ("power-shift",)), 4)
    assert not files.needs_modifiers and len(files.cards_file["modifiers"]) == 16
    rf.check_game_setup(_setup(files, modules=["power-shift"]))  # a Power Shift game takes the table's cards
    with pytest.raises(rf.RuleFileError, match="all entered"):
        again.add_modifier(1)
    again.remove_modifier(first)
    assert len(again.modifiers()) == 15 and not again.has_modifiers
    assert {o.name for o in rf.modifier_abilities()}.isdisjoint({"veto_2023", "choice", "infiltration"})
