"""Issue 11, item 11: a whole game by taps, in the real app under Xvfb
(whole_game_scenarios.py, driven by app_driver.py), at 1280x800 (issue 23: one shape; the
other shapes' screens are visited by the screen catalogue, test_screen_catalogue.py).

A full 9-round, 4-player tracked game with every classic card kind, an undo in each
phase and a table correction; then, in the same app, a game started from the board in front
of the table in round 9. Both end on the end screen, checked against the engine replaying
the game's log; the tap counts of the whole game are held to the issue's budgets. Issue 34: the
launch plays in German (ELGRANDE_LANG=de), its checks read the words in the language in use.
"""

import os

import pytest

from companion.words import use_language
from tests.companion.ui.test_app import Launch, _looks_like_a_screen
from tests.companion.ui.words_match import says

# issue 34: the launch plays in this language (ELGRANDE_TEST_LANG=de|es|fr|en tries another)
LANG = os.environ.get("ELGRANDE_TEST_LANG") or "de"
SCENARIOS = "whole_game_scenarios"
WHOLE_GAME, ROUND_9 = f"{SCENARIOS}:whole_game_by_taps", f"{SCENARIOS}:last_round_from_the_board@round_9"


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    """One app: the whole game, then (its own data folder) round 9 from the board."""
    return Launch.once(tmp_path_factory, "whole_game_1280x800", [WHOLE_GAME, ROUND_9], env={"ELGRANDE_LANG": LANG})


@pytest.fixture(autouse=True)
def in_german():
    """The launch's words read as the app said them (companion.words in German)."""
    use_language(LANG)
    yield
    use_language("en")


def _undone(outcome, message: str, confirmed: bool, asked_then: str | None = None) -> bool:
    """Whether an undo took back the step `message` names (its English words, read in the language in use)."""
    return any(
        says(u["undone"], message)
        and u["confirmed"] == confirmed
        and (asked_then is None or u["asked_then"] == asked_then)
        for u in outcome["undos"]
    )


def test_a_whole_tracked_game_by_taps_plays_every_card_kind_within_the_tap_budgets(launch):
    outcome, shots = launch.of(WHOLE_GAME)
    # Nine rounds to the end screen, whose winners and scores the scenario checked against
    # the engine replaying the log; the 9 scorings of fixed sets and 3 general scorings
    assert outcome["rounds"] == 9 and outcome["winners"] and len(outcome["scores"]) == 4
    assert max(outcome["scores"].values()) == outcome["scores"][outcome["winners"][0]]
    # Every classic card kind taken and played, from the log (not from the plan)
    assert outcome["missing_kinds"] == [], outcome["missing_kinds"]
    assert outcome["vetoes_used"] == 1 and outcome["mobile_on_castillo"]
    assert outcome["power_cards_taken_back"] == [13]
    assert outcome["power_cards_played_twice"] == ["red 13"]  # taken back, then laid down again
    scorings = " | ".join(outcome["scorings"])
    for what in (
        'all "4" regions',
        'all "5" regions',
        'all "6-7" regions',
        "(the Castillo)",
        "1st place only",
        "with the most",
        "with the fewest",
        "(Galicia)",
        "(Castilla la Vieja)",
        "chosen exactly once",
    ):
        assert what in scorings, (what, outcome["scorings"])
    assert sum(t.startswith("General scoring") for t in outcome["scorings"]) == 3
    assert outcome["castillo_counted"] == 4  # the Castillo card's count and three general scorings
    assert outcome["castillo_mismatches"] == []  # the tower's count always agreed with the turns entered
    # An undo in each phase, and the table's correction
    assert _undone(outcome, "the Action cards' reveal", confirmed=True)
    assert _undone(outcome, "{who}'s Power card", confirmed=False)
    assert _undone(outcome, "{who}'s Caballeros to the court", confirmed=False)
    assert _undone(outcome, "{who}'s Caballeros placed", confirmed=False)
    assert _undone(outcome, "{who}'s move of a Caballero", confirmed=False)
    assert _undone(outcome, "secret disc", confirmed=True, asked_then="secret_disc")  # a special's disc: redone
    assert _undone(outcome, "secret disc", confirmed=True, asked_then="reveal_secret_discs")  # Castillo seen
    assert outcome["corrections"] == 1
    # The tap budgets, over the whole game
    figures = outcome["figures"]
    assert figures["ordinary turn"]["count"] >= 10 and figures["ordinary turn"]["max"] <= 6, figures["ordinary turn"]
    assert figures["power"]["count"] == 36 and figures["power"]["max"] == 1
    assert figures["reveal"]["count"] == 9 and figures["reveal"]["max"] <= 6
    for row in outcome["turns"]:
        if row["kind"] == "general scoring":
            assert row["taps"] <= 4 + 2 * row["tablet_pickers"], row
    for name in (
        "reveal_sheet",
        "placement_entered",
        "veto_asked",
        "mobile_scoreboard_on_the_castillo",
        "castillo_special_count_round_3",
        "general_scoring_castillo_round_3",
        "general_scoring_summary",
        "outcome_king_is_angry",
        "outcome_eviction",
        "disc_scoring_page",
        "history_with_the_correction",
        "whole_game_end",
    ):
        _looks_like_a_screen(shots / f"{name}.png")


def test_a_table_starts_tracking_from_the_board_in_round_9_and_plays_to_the_end(launch):
    outcome, shots = launch.of(ROUND_9)
    assert outcome["first_event"] == "table_corrected" and outcome["started_in_round"] == 9
    assert outcome["entry_taps"] <= 80  # board, courts, scores, Castillo, round, start player, 32 Power cards
    assert outcome["taken"] == ["score_castillo", "grande", "intrigue_any_3", "kings_card"]
    assert outcome["winners"] and all(
        outcome["scores"][w] == max(outcome["scores"].values()) for w in outcome["winners"]
    )
    figures = outcome["figures"]
    assert figures["power"]["max"] == 1 and figures["reveal"]["max"] <= 6 and figures["ordinary turn"]["max"] <= 6
    for name in ("position_round_9", "castillo_special_count_round_9", "from_the_board_end"):
        _looks_like_a_screen(shots / f"{name}.png")
