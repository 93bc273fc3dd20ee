"""An effect's outcome title as the table reads it: in English exactly the engine's words; in
German, Spanish and French every title random games make is read back and said in the language
(names, regions and cards as shown); the game's history keeps the engine's English."""

from __future__ import annotations

import random

import pytest

from companion.table.outcome_titles import TitleWords
from companion.table.outcomes import OutcomeWords
from companion.words import use_language
from engine.board.build import classic_board
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import random_event, random_setup
from tests.companion.prompts.test_builder_2023 import setup_2023
from tests.engine.king_intrigue.table import CARDS_FILE, setup


@pytest.fixture(autouse=True)
def english_after():
    yield
    use_language("en")


def _played(state, seed: int):
    rng = random.Random(seed)
    while state.stage != "over":
        apply_event(state, random_event(rng, asked(state)))
    return state


def _games():
    board = classic_board()
    yield _played(start_state(random_setup(random.Random(4), 4, board), board), 4)
    for n in (2, 4):
        yield _played(start_state(setup_2023(n)), n)
    yield _played(start_state(setup(3, start="red", cards_file=CARDS_FILE)), 3)


@pytest.fixture(scope="module")
def games():
    return list(_games())


def test_every_title_reads_as_the_engine_wrote_it_in_english(games):
    for state in games:
        words = OutcomeWords(state.names, state.board, dummy=state.dummy)
        for outcome in state.outcomes:
            if outcome.title.endswith(" removed"):  # a token: named as the cards name it
                continue
            assert words.titles.title(outcome.title) == outcome.title


@pytest.mark.parametrize(
    ("code", "played_by", "general"),
    [
        ("de", "gespielt von", "Hauptwertung"),
        ("es", "jugada por", "Puntuación general"),
        ("fr", "jouée par", "Décompte"),
    ],
)
def test_every_title_random_games_make_is_said_in_the_tables_language(games, code, played_by, general):
    english = [[o.to_dict() for o in state.outcomes] for state in games]
    use_language(code)
    seen = set()
    for state, kept in zip(games, english, strict=True):
        words = OutcomeWords(state.names, state.board, dummy=state.dummy)
        for outcome in state.outcomes:
            shown = words.instructions(outcome.to_dict()).title
            assert shown != outcome.title, outcome.title  # every shape is read back
            assert ", played by" not in shown and "General scoring" not in shown, shown
            seen.add(played_by if played_by in shown else general if general in shown else "other")
        assert [o.to_dict() for o in state.outcomes] == kept  # the history keeps the engine's words
    assert {played_by, general} <= seen


def test_a_title_with_values_reads_with_the_players_and_regions_shown():
    title = "Field Day, played by Red: Ana's Grande to Aragon; Red's Grande stays (the King's region)"
    names = {"red": "Red", "blue": "Ana"}
    use_language("de")
    words = OutcomeWords(names).instructions({"round": 2, "title": title, "discs": {}, "moves": []})
    assert words.title == (
        "Runde 2: Ausflug, gespielt von Rot: der Grande von Ana nach Aragon; "
        "der Grande von Rot bleibt stehen (Region des Königs)"
    )


def test_a_title_of_another_shape_is_shown_as_written():
    use_language("fr")
    assert TitleWords().title("Something new happened") == "Something new happened"
    dummy = "Round 3: the dummy's Region cards: Galicia, Aragon (the King's region: none placed)"
    assert TitleWords().title(dummy) == (
        "Manche 3 : cartes région du joueur neutre : Galice, Aragon (région du Roi : aucun placé)"
    )


def test_an_outcome_named_as_the_step_undo_takes_back_reads_in_the_language():
    from companion.table.undo import _outcome_words

    titles = OutcomeWords({"red": "Ana"}).titles
    assert _outcome_words("Eviction, played by Ana", titles) == "Eviction, played by Ana"
    use_language("es")
    assert _outcome_words("Eviction, played by Ana", titles).endswith(", jugada por Ana")
    assert _outcome_words("Round 2: the dummy's Region cards: Galicia", titles) == (
        "las cartas de región del jugador neutral"
    )
