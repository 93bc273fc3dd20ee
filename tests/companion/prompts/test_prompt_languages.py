"""The table's prompts in German, Spanish and French: a turn prompt, an undo question and the
plurals read in the table's language, with the players' colours and names translated; and the
game's log does not depend on the language it was played in (it keeps ids and events, and a
correction's reason in English)."""

from __future__ import annotations

import random
import re

import pytest

from companion.entry.position import PositionEntry
from companion.input_errors import NeedsConfirmation
from companion.prompts import card_words
from companion.prompts.builder import PromptBuilder
from companion.prompts.prompt import caballeros_words
from companion.scripted import scripted_setup, step
from companion.table.authority import Table
from companion.table.undo_words import again_words, step_words
from companion.words import use_language
from companion.words.colours import colour_word, player_name
from engine.board.build import classic_board
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import random_event, random_setup
from engine.primitives import Ask

NAMES = {"red": "Red", "yellow": "Yellow", "green": "Green"}  # seats called by their colour
BOARD = classic_board()


@pytest.fixture(autouse=True)
def english_after(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    yield
    use_language("en")


def turn_ask(max_place: int = 3) -> Ask:
    """Red's turn with a card that places up to `max_place` and a special action."""
    return Ask(
        kind="turn_action",
        round=2,
        stage="turn",
        players=["red"],
        card=next(iter(BOARD.cards)),
        options={"place": {"max": max_place, "areas": list(BOARD.region_ids)}, "special": {"text": ""}},
    )


def test_colours_name_a_seat_in_the_tables_language_and_a_typed_name_stays():
    words = {"de": "Rot", "es": "Rojo", "fr": "Rouge"}
    for code, red in words.items():
        use_language(code)
        assert colour_word("red") == red
        assert player_name(NAMES, "red") == red  # the seat kept its colour as its name
        assert player_name({"red": "Ana"}, "red") == "Ana"
    use_language("en")
    assert colour_word("red") == "Red" and player_name(NAMES, "red") == "Red"


@pytest.mark.parametrize(
    ("code", "title", "hint"),
    [
        ("de", "Runde 2 - Zug - Rot spielt", "Rot: tippe Regionen an, um bis zu 3 Caballeros zu setzen; oder tippe"),
        ("es", "Ronda 2 - turno - Rojo juega", "Rojo: toca regiones para colocar hasta 3 Caballeros; o toca"),
        (
            "fr",
            "Manche 2 - tour - Rouge joue",
            "Rouge : touche des régions pour placer jusqu'à 3 Caballeros ; ou touche",
        ),
    ],
)
def test_a_turn_prompt_reads_in_the_tables_language(code, title, hint):
    english = PromptBuilder(NAMES, BOARD).build(turn_ask())
    use_language(code)
    prompt = PromptBuilder(NAMES, BOARD).build(turn_ask())
    assert prompt.title.startswith(title), prompt.title
    assert prompt.hint.startswith(hint), prompt.hint
    assert "Red" not in prompt.title + prompt.hint  # the colour is the table's word, never the English
    # the same choices, the same inputs: only the words differ
    assert [c.event for c in prompt.choices] == [c.event for c in english.choices]
    assert [c.label for c in prompt.choices] != [c.label for c in english.choices]
    assert prompt.on_counts({"galicia": 2}) == english.on_counts({"galicia": 2})


def test_plurals_follow_each_languages_rule():
    # French counts 0 and 1 as one; German, like English, only 1.
    expected = {
        "fr": ["0 Caballero", "1 Caballero", "2 Caballeros"],
        "de": ["0 Caballeros", "1 Caballero", "2 Caballeros"],
    }
    for code, forms in expected.items():
        use_language(code)
        assert [caballeros_words(n) for n in (0, 1, 2)] == forms
    use_language("fr")
    hints = [PromptBuilder(NAMES, BOARD).build(turn_ask(n)).full for n in (1, 2)]
    assert hints[0].endswith("place jusqu'à 1 Caballero") and hints[1].endswith("place jusqu'à 2 Caballeros"), hints
    use_language("de")
    assert card_words.does("court", {"count": 1}) == "1 Caballero aus den Provinzen an deinen Hof"
    assert card_words.does("court", {"count": 2}) == "2 Caballeros aus den Provinzen an deinen Hof"
    assert card_words.does("court", {}) == "? Caballeros aus den Provinzen an deinen Hof"  # not entered: plural


def test_undo_words_are_whole_sentences_in_each_language():
    event = {"type": "power_card_played", "player": "blue", "card": 7}
    names = {"blue": "Blue"}
    said = {"de": "die Machtkarte von Blau", "es": "la carta de poder de Azul", "fr": "la carte de pouvoir de Bleu"}
    for code, words in said.items():
        use_language(code)
        assert step_words(event, names) == words
    use_language("de")
    again = again_words({"type": "power_cards_chosen", "player": "blue", "cards": list(range(13))}, names)
    assert again == "Blau muss die 13 behaltenen Machtkarten neu wählen"


def test_the_undo_question_of_a_table_in_german():
    table = Table.new(scripted_setup(players=3))
    state = start_state(table.setup.game, table.board)
    assert asked(state).kind == table.asked().kind
    table.submit({"type": "action_cards_revealed", "cards": _first_cards(table)})
    use_language("de")
    with pytest.raises(NeedsConfirmation) as question:
        table.undo()
    assert str(question.value) == (
        "das Aufdecken der Aktionskarten rückgängig machen? Alle haben schon gesehen, was es aufgedeckt hat."
    )
    use_language("es")
    with pytest.raises(NeedsConfirmation) as question:
        table.undo()
    assert str(question.value).startswith("¿Deshacer la revelación de las cartas de acción? Todos han visto ya")


def _first_cards(table: Table) -> list[str]:
    stacks = table.asked().options["stacks"]
    return [sorted(cards)[0] for _, cards in sorted(stacks.items(), key=lambda kv: int(kv[0]))]


def _played(folder, code: str) -> tuple[bytes, list[str], str]:
    """A scripted game (drops, undos, every prompt built) with a correction whose reason the
    entry words itself, played with `code` in use: its log's bytes."""
    use_language(code)
    table = Table.new(scripted_setup(players=3), folder, nonce="c0ffee01", started=1_700_000_000)
    for _ in range(60):
        table.prompt()
        assert step(table, 11)
    entry = PositionEntry(table.public().game, table.names, table.board, starting=False)
    entry.colour = "red"
    entry.tap(next(r for r in table.board.region_ids if r != table.public().game["king"]))
    shown, reason = entry.changes(), entry.reason()
    table.submit(entry.event(reason))
    while step(table, 11):
        table.prompt()
    table.close()
    return table.path.read_bytes(), shown, reason


def test_a_game_log_is_the_same_whatever_the_language_in_use(tmp_path):
    english, shown_en, reason_en = _played(tmp_path / "en", "en")
    german, shown_de, reason_de = _played(tmp_path / "de", "de")
    assert shown_de != shown_en and ": Rot von " in shown_de[0]  # the table reads German
    assert reason_de == reason_en and ": Red from " in reason_en  # the log keeps the English words
    assert german == english


def _shown(prompt) -> list[str]:
    return [prompt.title, prompt.hint, prompt.full, prompt.confirm_empty, *prompt.notes] + [
        c.label for c in prompt.choices
    ]


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_every_prompt_of_whole_games_reads_in_the_language_with_the_same_inputs(code):
    """Every ask of random classic games: the same inputs as in English, no placeholder left
    unfilled, and seats called by their colour never by its English word."""
    rng = random.Random(34)
    english_colours = {"Red", "Yellow", "Green", "Blue", "Black"}
    kinds = set()
    for _ in range(3):
        state = start_state(random_setup(rng, rng.randint(2, 5), BOARD, variant="short"), BOARD)
        colour_named = [n for n in state.names.values() if n in english_colours]
        while state.stage != "over":
            ask = asked(state)
            use_language("en")
            english = PromptBuilder(state.names, BOARD).build(ask)
            use_language(code)
            prompt = PromptBuilder(state.names, BOARD).build(ask)
            kinds.add(ask.kind)
            assert [(c.event, c.events, c.action) for c in prompt.choices] == [
                (c.event, c.events, c.action) for c in english.choices
            ], ask.kind
            assert (prompt.map_mode, prompt.areas, prompt.limit) == (english.map_mode, english.areas, english.limit)
            for text in _shown(prompt):
                assert "{" not in text and "}" not in text, text
                assert not any(re.search(rf"\b{n}\b", text) for n in colour_named), text
            use_language("en")
            apply_event(state, random_event(rng, ask))
    assert {"turn_action", "play_power_card", "secret_disc", "veto"} <= kinds, kinds


def test_a_special_action_that_cannot_start_says_why_in_the_tables_language():
    from engine.errors import RuleViolation, cited

    why = RuleViolation("grande", "the Grande already stands in {region}", region="Sevilla")
    ask = turn_ask()
    ask.options["special"] = {"text": "Move your Grande", "refused": cited(why)}
    english = PromptBuilder(NAMES, BOARD).build(ask)
    assert str(why) in english.hint
    use_language("de")
    german = PromptBuilder(NAMES, BOARD).build(ask)
    assert "der Grande steht schon in Sevilla (Regel: Grande:" in german.hint, german.hint
    assert "(rule:" not in german.hint
    assert ask.options["special"]["refused"] == str(why)  # the ask itself keeps the English


@pytest.mark.parametrize(
    ("code", "label", "why"),
    [
        ("de", "Ausgang von ", "Ausgang"),
        ("es", "Lee resultado de ", "resultado"),
        ("fr", "Lis résultat de ", "résultat"),
    ],
)
def test_a_cards_missing_fact_is_named_in_the_tables_language_never_by_its_key(code, label, why):
    from tests.companion.prompts.test_builder_2023 import builder_for
    from tests.engine.effects import game2023 as g23

    g = g23.new_game(params={"civil_war": {}})  # the table has not entered what the card does
    g23.turn_with(g, "civil_war", place=False)
    use_language(code)
    prompt = builder_for(g.state).build(g.asked())
    assert label in prompt.choices[0].label, prompt.choices[0].label
    assert why in prompt.hint and "outcome" not in prompt.hint, prompt.hint


def test_a_card_fact_not_listed_is_named_by_words_never_by_its_key():
    from companion.prompts.turn import fact_words

    use_language("fr")
    assert fact_words("params.move_all_own") == "valeur imprimée"
    assert fact_words("placement") == "nombre de Caballeros"
