"""The board and card data files: loaded, validated, and matching the printed game."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest
from pydantic import ValidationError

from engine.board.build import build_board, classic_board
from engine.board.errors import BoardDataError


def raw(name):
    return json.loads(resources.files("engine.data").joinpath(name).read_text("utf-8"))


def test_classic_board_numbers():
    b = classic_board()
    assert len(b.region_ids) == 9 and b.castillo == 9
    assert sum(c.copies for c in b.cards.values()) == 45
    assert [sum(c.copies for c in b.stack_cards(s)) for s in (1, 2, 3, 4, 5)] == [11, 11, 11, 11, 1]
    assert [b.cards[c].placement for c in ("intrigue_any_3", "veto", "score_castillo", "grande", "kings_card")] == [
        1,
        2,
        3,
        4,
        5,
    ]
    assert b.replenish == {1: 6, 2: 5, 3: 5, 4: 4, 5: 4, 6: 3, 7: 3, 8: 2, 9: 2, 10: 1, 11: 1, 12: 0, 13: 0}
    nueva = b.area_index["castilla_la_nueva"]
    assert {b.region_ids[r] for r in b.neighbours[nueva]} == {
        "castilla_la_vieja",
        "aragon",
        "valencia",
        "granada",
        "sevilla",
    }
    assert b.scoreboards[b.castillo] == (5, 3, 1)
    assert b.mobile_scoreboards == {"8-4-0": (8, 4, 0), "4-0-0": (4, 0, 0)}
    for r in b.regions:
        for n in b.neighbours[r]:
            assert r in b.neighbours[n]


def test_asymmetric_adjacency_is_refused():
    board = raw("board_classic.json")
    board["regions"][0]["neighbours"].append("granada")
    with pytest.raises(BoardDataError, match="not symmetric"):
        build_board(board, raw("action_cards_classic.json"))


def test_card_with_unknown_effect_or_missing_parameter_is_refused():
    cards = raw("action_cards_classic.json")
    broken = copy.deepcopy(cards)
    broken["cards"][0]["effect"] = "teleport"
    with pytest.raises(BoardDataError, match="unknown effect"):
        build_board(raw("board_classic.json"), broken)
    broken = copy.deepcopy(cards)
    broken["cards"][0]["params"] = {}
    with pytest.raises(BoardDataError, match="needs"):
        build_board(raw("board_classic.json"), broken)


def test_malformed_data_is_refused_by_the_schema():
    board = raw("board_classic.json")
    board["regions"][0]["scoreboard"] = [4, 2]
    with pytest.raises(ValidationError):
        build_board(board, raw("action_cards_classic.json"))


# ---- classic stays as it was; the effect vocabulary it is now built from

CLASSIC_EFFECT_PARAMS = {  # the dict board.py held before effects.json existed
    "move": {"total", "own", "foreign"},
    "move_all_own": set(),
    "place_extra": {"count"},
    "choice": {"options", "count"},
    "veto": set(),
    "decay": set(),
    "one_of_each_back": set(),
    "king_is_angry": {"count"},
    "disc_send_back": set(),
    "score_chosen_region": set(),
    "score_group": {"group"},
    "score_castillo": set(),
    "score_first_only": set(),
    "score_most": set(),
    "score_least": set(),
    "mobile_scoreboard": set(),
    "power_card_back": set(),
    "court": {"count"},
    "grande": set(),
    "disc_scoring": set(),
    "eviction": set(),
    "move_king": {"adjacent_only"},
}
EFFECTS_2023 = {
    "move",
    "king_is_angry",
    "score_group",
    "eviction",
    "militia",
    "civil_war",
    "revelation",
    "empowerment",
    "enactment",
    "adopted_home",
    "your_majesty",
    "exile",
    "entourage",
    "competition",
    "chalet",
    "rebellion",
    "infiltration",
    "stand_in",
    "veto_2023",
}


def test_effect_params_is_derived_from_the_vocabulary_and_keeps_the_classic_entries():
    from engine.board.effect_specs import EFFECT_PARAMS, EFFECT_SPECS

    assert {k: EFFECT_PARAMS[k] for k in CLASSIC_EFFECT_PARAMS} == CLASSIC_EFFECT_PARAMS
    assert set(EFFECT_PARAMS) == set(EFFECT_SPECS) == set(CLASSIC_EFFECT_PARAMS) | EFFECTS_2023
    assert all(isinstance(v, set) for v in EFFECT_PARAMS.values())
    assert "one_source" in EFFECT_SPECS["move"].params and "one_source" not in EFFECT_PARAMS["move"]


def test_every_effect_quotes_its_rule_book_and_names_its_rule_sets():
    from engine.board.effect_specs import EFFECT_SPECS

    for name, spec in EFFECT_SPECS.items():
        books = {t.book for t in spec.rule_text}
        assert spec.rules and books, name
        if name in EFFECTS_2023 - set(CLASSIC_EFFECT_PARAMS):
            assert spec.rules == ["2023"] and books == {"2023"}, name
        if name in CLASSIC_EFFECT_PARAMS:
            assert "classic" in spec.rules and "classic 1995" in books, name
        for pname, p in spec.params.items():
            assert p.meaning and p.type in ("int", "bool", "str", "list"), (name, pname)
    # the classic cards the 2023 book keeps, and the ones it replaces by its own
    assert {"move", "king_is_angry", "score_group", "eviction"} <= {
        n for n, s in EFFECT_SPECS.items() if "2023" in s.rules and "classic" in s.rules
    }
    for replaced in ("veto", "mobile_scoreboard", "grande", "power_card_back", "score_castillo"):
        assert EFFECT_SPECS[replaced].rules == ["classic"]


def test_classic_board_is_built_from_its_files_and_has_the_new_fields_empty():
    b = classic_board()
    assert build_board(raw("board_classic.json"), raw("action_cards_classic.json")) == b
    assert (b.rules, b.side, b.space_ids, b.space_neighbours, b.scoring_places) == ("classic", "classic", (), (), 3)
    assert b.scoring_tiles == {} and b.missing == {} and b.provenance == {}
    assert b.stack_sizes == {1: 11, 2: 11, 3: 11, 4: 11, 5: 1}
    assert all(c.module is None and c.placement == c.stack for c in b.cards.values())
    assert [b.area_id(a) for a in (0, b.castillo)] == ["galicia", "castillo"]
    assert b.area_name(b.castillo) == "Castillo" and list(b.spaces) == []


def test_load_board_classic_without_files_is_the_classic_board():
    from engine.board.load import load_board

    assert all(load_board("classic", n) is classic_board() for n in (2, 3, 4, 5))


def test_every_classic_card_parameter_has_the_type_and_range_its_effect_declares():
    from engine.board.effect_specs import EFFECT_SPECS, param_problem

    for card in classic_board().cards.values():
        spec = EFFECT_SPECS[card.effect]
        for name, value in card.params.items():
            assert param_problem(spec.params[name], value) is None, (card.id, name)
