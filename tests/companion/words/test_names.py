"""The printed names and the cards' texts: every name the data files hold is in the catalogue of
every language, the regions read as each edition prints them, English stays as the data says, and
a card's text keeps every number its English text has (a card text is a rule)."""

import re

import pytest
from babel.messages.pofile import read_po

from companion.words import names, tool, use_language


@pytest.fixture(autouse=True)
def back_to_english():
    yield
    use_language("en")


def test_english_reads_the_names_as_the_data_files_hold_them():
    assert names.place("Castilla la Vieja") == "Castilla la Vieja"
    assert names.place("Castilla", "2023") == "Castilla"
    assert names.card("The King is Angry!") == "The King is Angry!"
    assert names.card_text("Score the Castillo.") == "Score the Castillo."
    assert names.rule_set("King and Intrigue") == "King and Intrigue"
    assert names.module("Power Shift") == "Power Shift"


def test_german_reads_the_classic_board_in_german_forms():
    use_language("de")
    assert names.place("Castilla la Vieja") == "Altkastilien"
    assert names.place("Castilla la Nueva") == "Neukastilien"
    assert names.place("País Vasco") == "Baskenland"
    assert names.place("Cataluña") == "Katalonien"
    assert names.place("Galicia") == "Galicien"
    assert names.place("Castillo") == "Castillo"
    assert names.card("Intrigue") == "Intrige"
    assert names.card("Special Scoring") == "Sonderwertung"
    assert names.card_text("Score the Castillo.") == "Werte das Castillo."
    assert names.rule_set("King and Intrigue") == "König & Intrigant"


def test_the_2023_board_keeps_its_spanish_names_and_france_is_translated():
    use_language("de")
    assert names.place("Galicia", "2023") == "Galicia"
    assert names.place("Galicia") == "Galicien"  # the classic German board
    assert names.place("France", "2023") == "Frankreich"
    assert names.place("Castilla") == "Kastilien"  # without the edition: the language's form
    assert names.place("Galicia", "king-intrigue") == "Galicien"  # the classic board
    assert names.card("Your Majesty") == "Ihre Majestät"
    use_language("fr")
    assert names.place("Sevilla") == "Séville"
    assert names.place("Sevilla", "2023") == "Sevilla"
    assert names.place("France", "2023") == "France"


def test_spanish_and_french_names_and_texts():
    use_language("es")
    assert names.place("Castilla la Vieja") == "Castilla la Vieja"
    assert names.place("France") == "Francia"
    assert names.card("King's Card") == "Carta del Rey"
    assert names.card_text("Move the King to any adjacent region.") == "Mueve al Rey a cualquier región vecina."
    assert names.module("Four stacks") == "Cuatro mazos"
    use_language("fr")
    assert names.place("Castilla la Nueva") == "Nouvelle-Castille"
    assert names.place("País Vasco") == "Pays basque"
    assert names.card("Secret Disc") == "Disque secret"
    assert names.card_text("Score all 5-point regions.") == "Décompte toutes les régions à 5 points."
    assert names.rule_set("2023 edition") == "Édition 2023"


def test_an_area_of_a_board_reads_as_its_edition_prints_it():
    from engine.board.load import load_board

    classic, edition_2023, ki = (load_board(rules, 4) for rules in ("classic", "2023", "king-intrigue"))
    use_language("de")
    galicia = classic.region_ids.index("galicia")
    assert names.area(classic, galicia) == "Galicien"
    assert names.area(ki, ki.region_ids.index("galicia")) == "Galicien"  # the classic board
    assert names.area(edition_2023, edition_2023.region_ids.index("galicia")) == "Galicia"
    assert names.area(edition_2023, edition_2023.castillo + 1) == "Frankreich"
    assert names.area(classic, classic.castillo) == "Castillo"
    use_language("en")
    assert names.area(classic, galicia) == "Galicia"


def test_a_name_the_catalogue_does_not_hold_is_shown_as_it_is():
    use_language("de")
    assert names.card("Our own house card") == "Our own house card"
    assert names.place("Atlantis", "2023") == "Atlantis"


def test_all_names_holds_every_card_file_and_the_rule_sets():
    found = set(names.all_names())
    messages = {(context, message) for context, message, _ in found}
    files = {file for _, _, file in found}
    assert set(names.CARD_FILES) - {"standins_king_intrigue.json"} <= files  # that one renames nothing
    assert ("card", "Stand-in +1") in messages  # Power Shift's stand-in Modifier cards
    assert ("card text", "Move 1 opposing Caballero.") in messages  # a Modifier card's ability
    assert ("card", "Send back by disc") in messages  # a 2023 stand-in
    assert ("card", "Table for Six") in messages  # a King and Intrigue Special card
    assert ("place", "Toledo") in messages and ("place, 2023 edition", "Toledo") in messages
    assert ("rule set", "Classic (1995)") in messages and ("module", "New Regency") in messages
    assert all(message.strip() for _, message in messages)


@pytest.mark.parametrize("code", tool.translated_languages())
def test_every_name_and_card_text_is_translated(code):
    with tool.po_path(code, "names").open("rb") as file:
        catalogue = read_po(file, locale=code)
    untranslated = [
        (context, message)
        for context, message, _ in names.all_names()
        if catalogue.get(message, context=context) is None or not catalogue.get(message, context=context).string
    ]
    assert untranslated == []
    assert not [m.id for m in catalogue if m.fuzzy and m.id]
    use_language(code)
    assert names.card("Special Scoring") != "Special Scoring"
    assert names.card_text("Score the Castillo.") != "Score the Castillo."


@pytest.mark.parametrize("code", tool.translated_languages())
def test_card_texts_keep_every_number(code):
    use_language(code)
    texts = {message for context, message, _ in names.all_names() if context == names.CARD_TEXT}
    lost = {
        text: names.card_text(text)
        for text in texts
        if not set(re.findall(r"\d+", text)) <= set(re.findall(r"\d+", names.card_text(text)))
    }
    assert lost == {}
