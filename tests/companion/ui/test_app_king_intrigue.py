"""King and Intrigue in the real app under Xvfb (ki_scenarios.py, driven by app_driver.py): the rules
and both modules chosen on the new-game screen, Start refused naming the missing card facts and
leading to Your cards, the box's numbers entered by taps (a wrong value refused with its one line),
exported and imported back, and a whole 3-player game tracked by taps on the tablet alone, with
the tap counts of each step held to the classic budgets."""
import json

import pytest

from tests.companion.test_table_king_intrigue import _ordinary_turns

from .test_app import _drive, _looks_like_a_screen
from .test_shapes import SHAPES


class _Step:
    def __init__(self, row: dict):
        self.__dict__.update(row)
        self.taps = row["taps"] - row["read_taps"]


def test_ki_chosen_its_cards_entered_by_taps_and_a_whole_game_tracked(tmp_path):
    outcome, shots = _drive("ki_scenarios:ki_cards_and_game", tmp_path)
    (shots / "outcome.json").write_text(json.dumps(outcome, indent=1))   # the steps and taps, to read
    # the new-game screen says what is missing, and Start leads to Your cards
    assert "card facts to enter from your box before the game can start" in outcome["notes_before"]
    assert outcome["start_refused"].startswith("King and Intrigue cannot start yet: ") and \
        "Enter them in Your cards" in outcome["start_refused"]
    assert outcome["screen_after_start"] == "ki_cards"
    # the wrong value refused naming the card and the field; nothing changed
    assert "value: 1 is also" in outcome["wrong_value"] and "power_cards[pe_" in outcome["wrong_value"]
    assert outcome["alliance_after_wrong"] is None
    assert outcome["hint_complete"].startswith("Complete for a 3-player game")
    assert outcome["card_taps"] <= 130, outcome["card_taps"]   # every number of the box, "a minute"
    assert outcome["export_notice"].startswith("Exported to ")
    assert outcome["same_after_import"] is True
    assert outcome["bad_import"] == "power_cards[ki_10].court: must be an integer 0..30 (Caballeros the card " \
                                    "brings to the court)"
    assert outcome["unchanged_after_bad_import"] is True
    assert "card facts to enter" not in outcome["notes_after"]
    assert outcome["setup"] == {"rules": "king-intrigue", "modules": ["players-edition", "special-cards"],
                                "players": ["red", "yellow", "green"]}
    # the whole game, by taps
    assert outcome["over"] and outcome["winners"]
    steps = [_Step(s) for s in outcome["steps"]]
    kinds = {s.kind for s in steps}
    assert {"secret_disc", "choose_power_cards", "play_power_card", "replenish", "turn_action",
            "reveal_secret_discs"} <= kinds, kinds
    assert {s.taps for s in steps if s.kind == "play_power_card"} == {1}
    assert {s.taps for s in steps if s.kind == "choose_power_cards"} == {1 + 13 + 1}   # 28 cards: the 13 kept
    assert {s.taps for s in steps if s.kind == "secret_disc"} <= {2}
    turns = _ordinary_turns(steps)
    assert turns
    for taps, placed, first in turns:
        assert taps <= 3 + placed + (not first), (taps, placed, first)
    problems = {k: v for k, v in outcome["problems"].items() if v}
    assert not problems, problems
    for name in ("ki_setup", "ki_cards_first", "ki_cards_wrong_value", "ki_cards_complete", "ki_end"):
        _looks_like_a_screen(shots / f"{name}.png")


def test_the_setup_disc_and_the_thirteen_kept_on_phones_in_chromium(tmp_path):
    from tests.engine.king_intrigue.table import ALL
    outcome, shots = _drive("ki_phones_scenarios:ki_setup_on_phones", tmp_path)
    page = outcome["disc_page"]
    assert "not the King's" in page["hint"]
    title, hint = outcome["tablet_after_discs"]
    assert "everyone has chosen" in title
    for region in ("Aragón", "Valencia", "Galicia"):    # the tablet says who, never where
        assert region not in title + hint
    assert outcome["counts_after_reveal"] == {"red": 1, "yellow": 1, "green": 1}
    assert outcome["tablet_taps_for_secrets"] == 1 + 1   # Reveal the discs; Done on what each places
    left_out = {"red": [10, 20, 30, 40, 50], "yellow": [140, 150, 160, 170, 180], "green": [10, 60, 100, 130, 180]}
    assert outcome["hands"] == {pid: [v for v in ALL if v not in out] for pid, out in left_out.items()}
    assert outcome["power_taps"] == [1, 1, 1]
    assert len(outcome["held_notes"]) == 3 and "the highest: King's Card" in outcome["held_notes"][0]
    for name in ("ki_tablet_discs_chosen", "ki_tablet_power_after_phones", "ki_tablet_round_1"):
        _looks_like_a_screen(shots / f"{name}.png")
    for name in ("ki_phone_setup_disc", "ki_phone_keep_13", "ki_phone_hand"):
        assert (shots / f"{name}.png").stat().st_size > 10_000


@pytest.mark.parametrize("width,height", SHAPES, ids=[f"{w}x{h}" for w, h in SHAPES])
def test_every_ki_screen_fits_the_tablet(width, height, tmp_path):
    outcome, shots = _drive("ki_scenarios:look_at_ki_screens", tmp_path, window=f"{width}x{height}")
    problems = {screen: found for screen, found in outcome["problems"].items() if found}
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
    assert outcome["marker_tags"] == [["aragon", "Alliance"], ["castilla_la_nueva", "King's Guard"],
                                      ["castilla_la_vieja", "Bridge"], ["castillo", "Risk of Collapse"],
                                      ["cataluna", "Alliance"], ["galicia", "2x"], ["granada", "Castillo here"],
                                      ["granada", "Table for Six"], ["pais_vasco", "Bridge"], ["sevilla", "Quarantine"],
                                      ["valencia", "2x"]]
    assert outcome["reversed_mobile"] == ["0·4·8 rev."]
    for name in ("ki_shape_setup", "ki_shape_cards", "ki_shape_cards_modules", "ki_shape_secret_disc",
                 "ki_shape_choose_power_cards", "private_choose_power_cards", "ki_shape_play_power_card",
                 "ki_shape_replenish", "ki_shape_turn_action", "ki_shape_markers"):
        assert name in outcome["screens"], (name, outcome["screens"])
        _looks_like_a_screen(shots / f"{name}.png", (width, height))
