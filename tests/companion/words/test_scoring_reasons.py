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


# The reasons of special scorings as the engine writes them (effects/alliance.py, relocate.py,
# revolt.py, bridge.py, rules/king_intrigue/general_scoring.py), each with a word it must carry.
SPECIAL_REASONS = [
    "home bonus: sole majority in the region of their Grande",
    "King's bonus: sole majority in the King's region",
    "King's bonus: sole majority where the King's Guard stands",
    "the bridge: 1 point to the player who controls it",
    "2x marker on Galicia: its points doubled",
    "home bonus: sole majority of the Alliance (Galicia + Aragón)",
    "King's bonus: sole majority of the Castillo (in Sevilla)",
    "reversed mobile scoreboard 8-4-0 (the fewest score first): 1st with 2 Caballeros, tied: 2nd-place points",
    "Alliance: Galicia + Aragón scored as one: 2nd place with 3 Caballeros (tied: 3rd-place points)"
    "; with 3 players only the first 2 place(s) score",
    "the Castillo, relocated to Sevilla, on Sevilla's scoreboard: reversed 8-4-0 (the fewest score first), "
    "1st place with 1 Caballero",
]


def _english_left(words: str) -> set[str]:
    from tests.companion.ui.words_match import ENGLISH_ONLY, WORD

    return {w.lower() for w in WORD.findall(words)} & ENGLISH_ONLY


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_special_scorings_say_why_in_each_language(speak, code):
    speak(code)
    for reason in SPECIAL_REASONS:
        said = reason_words(reason)
        assert said != reason and "{" not in said and len(_english_left(said)) < 2, (reason, said)
        assert all(digit in said for digit in "".join(c for c in reason if c.isdigit())), (reason, said)
    speak("de")
    assert reason_words("2x marker on Galicia: its points doubled") == "2×-Marker auf Galicien: ihre Punkte verdoppelt"


def test_a_replayed_tie_names_the_players_as_the_table_does(speak):
    """A replay's engine knew only colours ("Blue"): the table reads the names it typed."""
    reason = "tied for 2nd with Blue, Dark Red (1 Caballero each): takes the 3rd-place points"
    names = {"blue": "Bo", "dark_red": "Jean-Christophe"}
    assert reason_words(reason, names) == (
        "tied for 2nd with Bo, Jean-Christophe (1 Caballero each): takes the 3rd-place points"
    )
    speak("de")
    assert "mit Bo, Jean-Christophe (je 1 Caballero)" in reason_words(reason, names)


def test_english_special_reasons_read_as_written():
    for reason in SPECIAL_REASONS:
        assert reason_words(reason) == reason
