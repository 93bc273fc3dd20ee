"""Issue 13 item 2 in the real app under Xvfb, by taps (board_facts_scenarios.py): a 2-player 2023
game started without the 2-3 side's scoreboards ("Start now" on Your board) asks for them at the
step that first needs them; a wrong entry is refused with the board's rule; the entry goes into
the game and the same step goes on to the general scoring; Your board keeps them, and the next
game does not ask again (test_app.py's rules launches: the next game after the app started again)."""

import pytest

from tests.companion.ui.test_app import _looks_like_a_screen, rules_launches

SCENARIOS = "board_facts_scenarios"


@pytest.fixture(scope="module")
def launches(tmp_path_factory):
    return rules_launches(tmp_path_factory)


def test_a_missing_scoreboard_is_asked_when_first_needed_and_never_again(launches):
    first, shots = launches[0].of(f"{SCENARIOS}:scoreboards_asked_when_first_needed@facts")
    assert first["missing_at_start"] == 10
    assert first["choice"] == "Enter the 10 scoreboards of the 2-3 player side from your board", first["choice"]
    assert first["heading"] == "Galicia's scoreboard (1 of 10)"
    assert first["refused"] == ("Galicia's scoreboard: 3·4·0: a scoreboard must not increase (1st ≥ 2nd ≥ 3rd place)")
    assert first["page_after_refusal"] == 0
    assert first["same_step"] and first["still_needed"] == []
    assert first["said"].startswith("Entered: the 10 scoreboards of the 2-3 player side; the game goes on.")
    entered = {
        "galicia": [3, 1, 0],
        "navarra": [4, 2, 0],
        "aragon": [4, 3, 0],
        "cataluna": [3, 1, 0],
        "castilla": [5, 3, 1],
        "toledo": [6, 3, 1],
        "valencia": [4, 2, 1],
        "sevilla": [3, 2, 0],
        "granada": [5, 2, 0],
        "castillo": [4, 2, 0],
    }
    assert first["scoreboards"] == entered
    # 1 to open, 3 numbers a scoreboard, 9 "Next", the wrong entry's 4 taps, "Enter and go on"
    assert first["entry_taps"] == 1 + 4 + 3 * 10 + 9 + 1
    assert first["general_scoring"] == "General scoring after round 3"
    assert {a: v for a, (v, status) in first["kept"].items()} == entered
    assert {status for _, status in first["kept"].values()} == {"yours"}
    assert not any(first["problems"].values()), first["problems"]
    for name in first["screens"]:
        _looks_like_a_screen(shots / f"{name}.png")

    second, _ = launches[1].of(f"{SCENARIOS}:next_game_is_not_asked@facts")  # the same data folder, app started again
    assert not [p for p in second["missing_at_start"] if p.endswith(".scoreboard")], second["missing_at_start"]
    assert second["asked"] == [] and second["general_scoring"]


def test_exile_asks_france_and_portugals_neighbours_by_taps(launches):
    out, shots = launches[0].of(f"{SCENARIOS}:exile_asks_the_neighbours@exile")
    assert out["choice"] == "Enter France's neighbours and Portugal's neighbours from your board"
    assert out["heading"] == "France's neighbours (1 of 2)"
    assert out["refused"] == "France's neighbours: none chosen: tap the regions it borders on your board"
    assert out["said"].startswith("Entered: France's neighbours and Portugal's neighbours; the game goes on.")
    assert out["king_to"] == ["france", "portugal"] and out["king"] == "france"
    assert out["place_next_to"] in ([], ["aragon", "cataluna", "navarra"])  # none left to place, or next to France
    assert out["kept"] == ["navarra", "aragon", "cataluna"]
    assert not any(out["problems"].values()), out["problems"]
    _looks_like_a_screen(shots / "fact_dialog_neighbours.png")
