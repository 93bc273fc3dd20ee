"""The table's bottom bar in the table's language (companion/ui/widgets/table_bar.py): the drops
waiting counted by the language's plural rule, the tower's state in words."""

import pytest

from companion.words import use_language


@pytest.fixture
def speak():
    yield use_language
    use_language("en")


def _bar():
    from companion.ui.widgets.table_bar import TableBar

    return TableBar()


@pytest.mark.parametrize(
    ("code", "waiting", "words"),
    [
        ("en", 1, "1 drop to check"),
        ("en", 2, "2 drops to check"),
        ("fr", 1, "1 lancer à vérifier"),
        ("fr", 2, "2 lancers à vérifier"),
        ("de", 1, "1 Wurf zu prüfen"),
        ("de", 3, "3 Würfe zu prüfen"),
        ("es", 2, "2 lanzamientos por revisar"),
    ],
)
def test_the_drops_waiting_are_counted_in_the_tables_language(speak, code, waiting, words):
    speak(code)
    bar = _bar()
    bar.show_public({"undo": None, "drops_waiting": [{"id": f"b:{n}"} for n in range(waiting)]})
    assert bar.drops_text == words
    bar.show_public({"drops_waiting": []})
    assert bar.drops_text == ""


def test_a_bar_made_in_german_says_its_words_in_german(speak):
    speak("de")
    bar = _bar()
    assert (bar.ids.undo.text, bar.ids.history_button.text, bar.tower_text) == ("Rückgängig", "Verlauf", "Turm: -")
