"""The screens' words in the table's language: a choice shown in German read back as its id, a
sentence with its values in German, Spanish and French, plurals by the language's rule (French
says 0 and 1 alike), and English unchanged. Pure functions of the screens, no window."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

import companion.ui.app  # noqa: F401  (Kivy's config before the screens import Kivy)
from companion.ui.screens import board_confirm, home, stats
from companion.ui.screens.screen_words import MODES_SHOWN, RULES_SHOWN, TOWERS_SHOWN, colour_of, id_of, shown
from companion.words import use_language


@pytest.fixture
def speak():
    """use_language for the test; English again after it."""
    yield use_language
    use_language("en")


def test_a_choice_shown_in_german_is_read_back_as_its_id(speak):
    speak("de")
    assert shown(MODES_SHOWN) == ["Nur Wertung", "Volle Verfolgung"]
    assert id_of("Volle Verfolgung", MODES_SHOWN) == "tracking"
    assert id_of("Full tracking", MODES_SHOWN) == "tracking"  # a kept English word still finds it
    assert id_of("Klassisch (1995)", RULES_SHOWN) == "classic"
    assert id_of("Kein Turm", TOWERS_SHOWN) == "none"
    assert colour_of("Rot", ["red", "yellow"]) == "red" and colour_of("Yellow", ["red", "yellow"]) == "yellow"


def test_english_words_are_the_sources(speak):
    speak("en")
    assert shown(RULES_SHOWN) == ["Classic (1995)", "2023 edition", "King and Intrigue"]
    assert colour_of("Red", ["red"]) == "red"


@pytest.mark.parametrize(
    "code,words",
    [
        (
            "de",
            "Ana: Punkte – Regionen 20, Castillo 5, Sonderwertungen 0, Karten und anderes 1; 2 Siege geteilt.",
        ),
        (
            "es",
            "Ana: puntos – regiones 20, Castillo 5, puntuaciones especiales 0, cartas y otros 1; "
            "2 victorias compartidas.",
        ),
        (
            "fr",
            "Ana : points – régions 20, Castillo 5, décomptes spéciaux 0, cartes et autres 1 ; 2 victoires partagées.",
        ),
        (
            "en",
            "Ana: points from the regions 20, the Castillo 5, special scorings 0, cards and other 1, "
            "2 of the wins shared.",
        ),
    ],
)
def test_a_records_row_says_where_the_points_came_from_in_each_language(speak, code, words):
    speak(code)
    row = SimpleNamespace(name="Ana", shared_wins=2, points={"regions": 20, "castillo": 5, "special": 0, "other": 1})
    assert stats.points_words(row) == words


def test_plurals_follow_the_language(speak):
    speak("fr")  # French: 0 and 1 take the singular
    assert board_confirm._counted("missing", 0) == "0 manquante"
    assert board_confirm._counted("missing", 1) == "1 manquante"
    assert board_confirm._counted("missing", 2) == "2 manquantes"
    speak("de")
    assert board_confirm._counted("missing", 1) == "1 fehlt"
    assert board_confirm._counted("missing", 0) == "0 fehlen"
    speak("es")
    assert board_confirm._counted("known", 1) == "1 conocido" and board_confirm._counted("known", 3) == "3 conocidos"


def test_a_records_table_heading_and_tab_in_german(speak):
    speak("de")
    assert stats.table_title(SimpleNamespace(rules="all", title="All rule sets")) == "Alle Regelwerke"
    assert stats.table_title(SimpleNamespace(rules="2023", title="2023 edition")) == "Ausgabe 2023"
    assert stats.stats_text([]) == "Noch kein beendetes Spiel: die Bilanz jedes Spielers erscheint nach dem ersten."


def _game(**changes):
    from companion.table.game_check import GameCheck

    game = GameCheck(
        path=Path("/tmp/game-20250405-193000-e378.jsonl"),
        modified=0.0,
        names=["Ana", "Bo"],
        records=297,
        finished=True,
        where="",
    )
    for key, value in changes.items():
        setattr(game, key, value)
    return game


def test_a_game_cards_words_in_spanish_and_its_details_in_german(speak):
    speak("es")
    assert home.outcome_words(None, _game()) == "Terminada"
    speak("de")
    details = home._details(_game(where="Runde 3"))
    assert details.splitlines() == [
        "Datei: game-20250405-193000-e378.jsonl",
        "Einträge: 297",
        "Wo es aufhörte: Runde 3",
    ]
    chip = home.player_chip("red", "Ana", 61, winner=True)
    assert chip.words.endswith("61  gewonnen") and chip.initial == "R"
