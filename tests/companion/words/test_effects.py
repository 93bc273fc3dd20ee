"""A card's effect in the table's language (companion/words/effects.py): every effect the engine
knows has a title and a sentence of its own, the stand-in cards' tags read in the language, and a
source the app wrote is said in it (a citation from the data files stays a quote)."""

import pytest

from companion.words import use_language
from companion.words.effects import EFFECTS, effect_summary, effect_title, parameters_tag, rule_words
from companion.words.sources import source_words
from engine.board.effect_specs import EFFECT_SPECS


@pytest.fixture(autouse=True)
def back_to_english():
    yield
    use_language("en")


def test_every_effect_of_the_engine_is_worded():
    assert set(EFFECT_SPECS) <= set(EFFECTS), set(EFFECT_SPECS) - set(EFFECTS)
    assert all(title and summary.endswith(".") for title, summary in EFFECTS.values())


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_each_language_titles_every_effect_in_its_own_words(code):
    use_language(code)
    for effect, (title, summary) in EFFECTS.items():
        assert effect_summary(effect) != summary, (code, effect)
        if title not in ("Veto", "Chalet", "Rebellion", "Infiltration"):  # the same word in some
            assert effect_title(effect) != title, (code, effect)


def test_a_stand_in_tag_reads_in_the_language():
    params = {"total": 1, "own": 0, "foreign": 1}
    assert f"{effect_title('move')} {parameters_tag(params, ['foreign'])}" == "Move Caballeros 1 others'"
    use_language("de")
    assert f"{effect_title('move')} {parameters_tag(params, ['foreign'])}" == "Caballeros versetzen 1 fremde"
    assert parameters_tag({"one_source": True}, ["one_source"]) == "aus einer Region"


def test_the_card_editor_quotes_the_book_in_english_and_says_it_in_the_team_s_words_elsewhere():
    texts = EFFECT_SPECS["militia"].rule_text
    assert rule_words("militia", texts).startswith(f"({texts[0].book}) Militia:")
    use_language("fr")
    assert rule_words("militia", texts) == effect_summary("militia")
    assert "Castillo" in rule_words("militia", texts) and "cour" in rule_words("militia", texts)


def test_a_source_the_app_wrote_reads_in_the_language_and_a_citation_stays_a_quote():
    use_language("es")
    assert source_words("added at the table") == "añadida en la mesa"
    quote = "rule book, 'Setup' 2: 'Stacks 1 through 4 each contain 10 cards.'"
    assert source_words(quote) == quote
