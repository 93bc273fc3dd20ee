"""King and Intrigue's card set (engine/rules/king_intrigue/cards.py, engine/data/
cards_king_intrigue.json): what is published ships with its source, the rest is entered by the
table, and a game whose cards are incomplete is refused, naming what is missing."""

from __future__ import annotations

import copy

import pytest

from engine.board.errors import CardFileError
from engine.board.load import load_board
from engine.errors import RuleViolation
from engine.playout import KI_STANDINS_NOTE, standin_files
from engine.rules.king_intrigue.cards import load_ki_cards, missing_for
from tests.engine.king_intrigue.table import ALL, CARDS_FILE, WITH_MODULES, new_game


def test_the_shipped_cards_name_their_sources():
    cards = load_ki_cards()
    assert cards.power_cards["ki_40"].effect == "veto" and "rule text" in cards.power_cards["ki_40"].source
    assert cards.power_cards["ki_40"].court == 4 and "Benita" in cards.power_cards["ki_40"].source
    assert cards.power_cards["ki_60"].value == 60 and cards.power_cards["ki_60"].effect is None
    assert "inferred" in cards.power_cards["ki_130"].source
    assert cards.power_cards["pe_field_day"].value == 13 and cards.power_cards["pe_relocate"].value == 23
    assert cards.hand_size == 13 and sorted(cards.by_value(())) == list(range(10, 190, 10))


def test_a_game_with_the_shipped_cards_is_refused_naming_every_missing_fact():
    with pytest.raises(RuleViolation) as refused:
        new_game(4, cards_file=None)
    text = str(refused.value)
    assert refused.value.rule == "card-set-incomplete"
    assert "26 facts missing" in text
    assert "card file: placements.4" in text and "power_cards[ki_10].court" in text
    assert "power_cards[ki_30].effect" in text and "power_cards[ki_170].effect" in text
    assert "power_cards[ki_140].params.foreign" in text
    assert "ki_40].court" not in text  # Benita's example gives it


def test_the_tables_card_file_completes_the_set_and_is_named_as_the_source():
    game = new_game(4)
    assert game.state.stage == "ki_setup_discs"
    card = game.board.ki_cards.power_cards["ki_30"]
    assert (card.effect, card.params, card.court) == ("decay", {"count": 3}, 5)
    assert card.source.startswith("table (court, effect, params)")
    assert game.board.replenish[30] == 5


def test_every_module_card_is_played_and_an_incomplete_set_names_only_its_missing_facts():
    with pytest.raises(RuleViolation) as refused:
        new_game(4, modules=["players-edition", "special-cards"])
    text = str(refused.value)
    assert "this engine does not play that card yet" not in text
    assert "the value of the Fiesta card is not published" in text and "the value of the Joker card" in text
    assert "what the Hurricane does to the region its disc shows is not published" in text
    assert "how long the quarantine marker stays is not published" in text
    assert "what happens to the other players' Caballeros in the Civil War region is not published" in text
    assert "the value of the Espionage card is not published" in text
    assert "Discard" not in text  # a card shipped later is in play once the table's file names it (opt_in)


def test_the_table_leaves_module_cards_in_the_box():
    game = new_game(4, modules=["players-edition", "special-cards"], cards_file=WITH_MODULES)
    assert sorted(game.state.hands[0]) == sorted(
        [5, 13, 23, 45, 65, 85, 95, 105, 115, 125, 33, 55, 135, 145, 155, 165, 175, 75, 15, 25] + ALL
    )
    with pytest.raises(CardFileError, match="leave_out: ki_40 is a King and Intrigue card: only a module's cards"):
        load_board("king-intrigue", 4, None, {**WITH_MODULES, "leave_out": ["ki_40"]})


def _file_with(**changes) -> dict:
    data = copy.deepcopy(CARDS_FILE)
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "file, message",
    [
        (
            _file_with(power_cards=[{"id": "ki_20", "value": 30}]),
            "card file: power_cards[ki_30].value: 30 is also ki_20's value (each value is on one card of a colour)",
        ),
        (
            _file_with(power_cards=[{"id": "ki_30", "effect": "earthquake"}]),
            "power_cards[ki_30].effect: unknown effect 'earthquake'",
        ),
        (
            _file_with(power_cards=[{"id": "ki_60", "effect": "score_group", "params": {"group": "8"}}]),
            "power_cards[ki_60].params.group: must be one of",
        ),
        (_file_with(placements={"4": [1, 2, 3]}), "placements.4: must list 4 numbers"),
        (_file_with(power_cards=[{"id": "ki_10", "court": 31}]), "power_cards[ki_10].court: must be an integer 0..30"),
        (
            _file_with(power_cards=[{"id": "ki_10", "court": None}]),
            "power_cards[ki_10].court: a card file gives values",
        ),
        (
            _file_with(power_cards=[{"id": "pe_new", "value": 33}]),
            "power_cards[pe_new]: a new card needs court, effect, name",
        ),
        (_file_with(colour="red"), "colour: unknown field"),
        (_file_with(rules="2023"), "rules: the file is for the '2023' rules"),
    ],
)
def test_a_mistake_in_the_card_file_is_refused_in_one_line_naming_the_field(file, message):
    with pytest.raises(CardFileError) as refused:
        load_board("king-intrigue", 4, None, file)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_the_table_adds_a_card_the_set_does_not_list():
    file = _file_with(
        power_cards=CARDS_FILE["power_cards"]
        + [
            {
                "id": "pe_court",
                "value": 35,
                "court": 3,
                "effect": "court",
                "params": {"count": 2},
                "name": "The Court",
                "module": "players-edition",
                "source": "our Player's Edition box",
            }
        ]
    )
    board = load_board("king-intrigue", 4, None, file)
    card = board.ki_cards.power_cards["pe_court"]
    assert card.value == 35 and card.source.startswith("table") and board.replenish[35] == 3
    assert 35 in board.ki_cards.by_value({"players-edition"}) and 35 not in board.ki_cards.by_value(())


def test_self_plays_stand_ins_are_labelled_and_complete_for_every_player_count():
    _, cards_file = standin_files("king-intrigue", 4)
    assert "stand-in for self-play" in cards_file["name"] and "not the printed cards" in KI_STANDINS_NOTE
    board = load_board("king-intrigue", 4, None, cards_file)
    for n in (2, 3, 4, 5):
        assert missing_for(board, n, ()) == []


def test_the_card_set_is_not_changed_during_a_game():
    from engine import events as ev

    game = new_game(3)
    with pytest.raises(RuleViolation, match="complete before the game starts"):
        game.apply(ev.CardSetCompleted(cards=[{"id": "ki_30", "court": 3}]))


# "Player's Edition - 55 Power cards (11 cards per color)" -- "Special cards - 50 Power cards (10 cards
# per color)" (the components list). The text says a card's module by its Player's Edition section and
# by the markers the components list gives each module; its Special cards section also holds two of
# the Player's Edition's (Quarantine, Risk of Collapse) and 12 cards for 10: those it only lists there
# are of unknown module, named, and the table's box decides.
COMPONENTS = {"players-edition": 11, "special-cards": 10}
MODULE_UNKNOWN = {
    "sc_fiesta",
    "sc_espionage",
    "sc_coup",
    "sc_revolt",
    "sc_hurricane",
    "sc_mistress",
    "sc_scoring_own",
    "sc_scoring_any",
    "sc_scoring_offered",
    "sc_cancel",
}
ASKED = {
    **WITH_MODULES,
    "modules_asked": True,
    "power_cards": [{k: v for k, v in c.items() if k != "module"} for c in WITH_MODULES["power_cards"]],
}


def test_the_shipped_cards_per_module_are_the_components_lists_or_the_unknown_ones_are_named():
    from engine.rules.king_intrigue.cards import EITHER_MODULE, _shipped_raw

    cards = load_ki_cards().power_cards.values()
    known = {m: sorted(c.id for c in cards if c.module == m) for m in COMPONENTS}
    unknown = {c.id for c in cards if c.module == EITHER_MODULE}
    assert unknown == MODULE_UNKNOWN
    assert known == {
        "players-edition": [
            "pe_alliance",
            "pe_bridge",
            "pe_civil_war",
            "pe_field_day",
            "pe_joker",
            "pe_quarantine",
            "pe_relocate",
            "pe_risk_of_collapse",
        ],
        "special-cards": ["sc_kings_guard", "sc_table_for_six"],
    }
    assert all(len(known[m]) <= COMPONENTS[m] for m in COMPONENTS)
    facts = _shipped_raw()["module_cards"]
    assert {m: facts[m] for m in COMPONENTS} == COMPONENTS and "11 cards per color" in facts["source"]
    # 21 module cards a colour: the known, the unknown named, and the one the text does not describe
    assert sum(len(v) for v in known.values()) + len(unknown) + 1 == sum(COMPONENTS.values())
    assert "one card per colour is not described" in facts["not_described"]
    notes = load_ki_cards().missing
    assert all(f"power_cards[{cid}].module" in notes[f"power_cards.{cid}.module"] for cid in MODULE_UNKNOWN)


def test_with_one_module_the_table_names_the_module_of_each_card_the_text_leaves_open():
    board = load_board("king-intrigue", 4, cards_file=ASKED)
    missing = " ".join(missing_for(board, 4, ["special-cards"]))
    assert all(f"power_cards[{cid}].module" in missing for cid in MODULE_UNKNOWN)
    assert not missing_for(board, 4, ["players-edition", "special-cards"])  # both: in play either way
    assert not missing_for(board, 4, [])  # neither: in the box
    entries = [
        {**c, "module": "players-edition" if c["id"] == "sc_revolt" else "special-cards"}
        if c["id"] in MODULE_UNKNOWN
        else c
        for c in ASKED["power_cards"]
    ]
    board = load_board("king-intrigue", 4, cards_file={**ASKED, "power_cards": entries})
    assert not missing_for(board, 4, ["special-cards"])
    assert 125 not in board.ki_cards.by_value(["special-cards"])  # the Revolt: ours is Player's Edition
    assert board.ki_cards.by_value(["players-edition"])[125].id == "sc_revolt"


def test_a_card_file_saved_before_the_set_asked_keeps_the_modules_it_was_played_with():
    board = load_board("king-intrigue", 4, cards_file={k: v for k, v in ASKED.items() if k != "modules_asked"})
    assert not missing_for(board, 4, ["special-cards"])
    revolt = board.ki_cards.power_cards["sc_revolt"]
    assert revolt.module == "special-cards" and "as shipped when this card file was saved" in revolt.source
