"""The board and card data files: loaded, validated, and matching the printed game."""
from __future__ import annotations

import copy
import json
from importlib import resources

import pytest
from pydantic import ValidationError

from engine.board import BoardDataError, build_board, classic_board


def raw(name):
    return json.loads(resources.files("engine.data").joinpath(name).read_text("utf-8"))


def test_classic_board_numbers():
    b = classic_board()
    assert len(b.region_ids) == 9 and b.castillo == 9
    assert sum(c.copies for c in b.cards.values()) == 45
    assert [sum(c.copies for c in b.stack_cards(s)) for s in (1, 2, 3, 4, 5)] == [11, 11, 11, 11, 1]
    assert [b.cards[c].placement for c in ("intrigue_any_3", "veto", "score_castillo", "grande", "kings_card")] \
        == [1, 2, 3, 4, 5]
    assert b.replenish == {1: 6, 2: 5, 3: 5, 4: 4, 5: 4, 6: 3, 7: 3, 8: 2, 9: 2, 10: 1, 11: 1, 12: 0, 13: 0}
    nueva = b.area_index["castilla_la_nueva"]
    assert {b.region_ids[r] for r in b.neighbours[nueva]} == {
        "castilla_la_vieja", "aragon", "valencia", "granada", "sevilla"}
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
