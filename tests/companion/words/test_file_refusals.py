"""A board or card fact refused, in the table's words (companion/words/file_refusals.py): the
engine's one-line refusals of the table's files, read back into the fact's name and the problem
in the table's language; a line it cannot read is shown as the engine wrote it."""

import pytest

from companion.words import use_language
from companion.words.file_refusals import refusal_words
from engine.board.errors import DataFileError
from engine.board.load import load_board, load_cards
from tests.companion.ui.words_match import english_left

LABELS = {"regions.galicia.scoreboard": "Galicia's scoreboard", "spaces.france.neighbours": "France's neighbours"}
CARDS = {"militia": "Militia", "veterans": "Veterans"}


def _refused(load) -> str:
    with pytest.raises(DataFileError) as refused:
        load()
    return str(refused.value)


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return [
        _refused(lambda: load_board("2023", 4, board_file={"regions": [{"id": "galicia", "scoreboard": [3, 4, 0]}]})),
        _refused(lambda: load_board("2023", 4, board_file={"spaces": [{"id": "france", "neighbours": []}]})),
        _refused(lambda: load_cards("2023", {"cards": [{"id": "militia", "params": {"count": 9}}]})),
        "card file: cards[veterans].stack: module old-hands has no stack 3 (stacks: 1, 2, 4)",
    ]


@pytest.fixture
def speak():
    yield use_language
    use_language("en")


def test_english_names_the_fact_not_the_file(lines):
    said = [refusal_words(line, LABELS.get, CARDS) for line in lines]
    assert said == [
        "Galicia's scoreboard: 3·4·0: a scoreboard must not increase (1st ≥ 2nd ≥ 3rd place)",
        "France's neighbours: none chosen: tap the regions it borders on your board",
        "Militia, Caballeros: must be a whole number from 1 to 5",
        "Veterans, stack: the Old Hands module has no stack 3 (its stacks: 1, 2, 4)",
    ]
    assert not any("file" in words or "[" in words for words in said)


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_each_language_says_the_problem(lines, speak, code):
    speak(code)
    for line in lines:
        said = refusal_words(line, LABELS.get, CARDS)
        assert said != line and not english_left(said) and "{" not in said, (line, said)
    speak("de")
    assert refusal_words(lines[0], LABELS.get).endswith("eine Wertungstafel darf nicht ansteigen (1. ≥ 2. ≥ 3. Platz)")


def test_a_line_it_cannot_read_or_a_fact_it_cannot_name_is_shown_as_written():
    odd = "board file: side: '6-7' is not a side of the 2023 board (sides: 2-3, 4-5)"
    assert refusal_words(odd, LABELS.get) == odd
    unnamed = "card file: cards[zzz].stack: module old-hands has no stack 3 (stacks: 1, 2, 4)"
    assert refusal_words(unnamed, LABELS.get, CARDS) == unnamed
