"""A scoring line's reason in the table's language: every reason of random whole games reads back
unchanged in English, and in German, Spanish and French carries no English place words."""

import random

import pytest

from companion.words import use_language
from companion.words.scoring_reasons import reason_words
from engine.board.build import classic_board
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import random_event, random_setup


def _reasons(seed: int) -> set[str]:
    rng = random.Random(seed)
    board = classic_board()
    state = start_state(random_setup(rng, 4, board, variant="full"), board)
    while state.stage != "over":
        apply_event(state, random_event(rng, asked(state)))
    return {line.reason for record in state.scoring_log for line in record.lines}


@pytest.fixture(scope="module")
def reasons():
    found = _reasons(1) | _reasons(2)
    assert any(r.startswith("tied for") for r in found) and any(" place with " in r for r in found)
    return found


@pytest.fixture
def speak():
    yield use_language
    use_language("en")


def test_english_reads_as_the_engine_wrote_it(reasons):
    for reason in reasons:
        assert reason_words(reason) == reason


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_each_language_says_the_places_in_its_own_words(reasons, speak, code):
    speak(code)
    for reason in reasons:
        said = reason_words(reason)
        if reason.startswith("tied for") or " place with " in reason:
            assert "place with" not in said and "tied for" not in said and "{" not in said, said
            assert all(digit in said for digit in "".join(c for c in reason if c.isdigit())[:1])


def test_a_german_place_and_a_french_tie(speak):
    speak("de")
    assert reason_words("2nd place with 1 Caballero") == "2. Platz mit 1 Caballero"
    speak("fr")
    assert reason_words("tied for 1st with Bo (3 Caballeros each): takes the 1st-place points") == (
        "à égalité à la 1re place avec Bo (3 Caballeros chacun) : prend les points de la 1re place"
    )
