"""Where a fact comes from, or why it is not known, in the table's language: every note of the
shipped board and card files, the ones the engine composes from them (the 2023 board's 2-3
player side, the stacks the card set does not account for) and the ones the app writes."""

import pytest

from companion.words import use_language
from companion.words.sources import WRITTEN_BY_THE_APP, source_words
from engine.board.load import load_board, load_cards
from tests.companion.ui.words_match import english_left


def _notes() -> dict[str, str]:
    board = load_board("2023", 3)  # the 2-3 player side: its notes are composed by the engine
    notes = {**board.provenance, **board.missing, **load_board("2023", 4).provenance}
    return {**notes, **{f"app.{k}": k for k in WRITTEN_BY_THE_APP}}


def _card_names() -> dict[str, str]:
    cards = load_cards("2023").cards
    return {c.id: c.name for c in (cards.values() if isinstance(cards, dict) else cards)}


@pytest.fixture
def speak():
    yield use_language
    use_language("en")


def test_english_notes_read_as_written_but_a_stack_names_its_cards():
    for note in _notes().values():
        said = source_words(note, _card_names())
        if "the card set accounts for" in note:  # how to enter them is the screen's to say
            assert said.startswith("Stack ") and ": enter" not in said and "exile ×?" not in said, said
        elif "Scoring board on the 2-3 player side" in note:  # no file names on a screen
            assert said == note.split(" (board file:")[0], said
        else:
            assert said == note


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_every_note_is_said_in_each_language(speak, code):
    speak(code)
    for path, note in _notes().items():
        said = source_words(note, _card_names())
        assert said != note and not english_left(said) and "{" not in said, (path, note, said)


def test_the_german_stack_and_the_other_side(speak):
    speak("de")
    board = load_board("2023", 3)
    assert source_words(board.missing["stacks.3"], _card_names()).startswith(
        "Stapel 3 hat 10 Karten; davon sind 0 bekannt (aufgeführt: Fiesta ×?"
    )
    assert source_words(board.missing["regions.galicia.scoreboard"], rules="2023").startswith(
        "Die Wertungstafel von Galicia auf der Seite für 2-3 Spieler ist nicht bekannt"
    )
    assert source_words(board.provenance["regions.aragon.neighbours"]).startswith(
        "erschlossen: die Seite für 2-3 Spieler zeigt dieselbe Karte"
    )
