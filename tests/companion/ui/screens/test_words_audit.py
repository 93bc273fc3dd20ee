"""Words for people on every screen (issue 33) in the table's language (issue 34).

The screens are visited in German (portrait), Spanish and French (words_scenarios.py: each opened
as its own buttons open it, no tap on English words) and every word they show is audited: no
snake_case id, no file name (.json, .jsonl), no count of records, no "#1" copy number; the screen
catalogue's layout checks hold (no cut word, no overlap, targets of at least 48 dp) with the long
German words; and the screens read the language chosen, not English. The catalogue's own messages
for the screens are audited the same way (a message nobody reached in the visit still counts)."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from companion.words.catalogue import LOCALE_DIR
from tests.companion.history.games_fixture import table_game
from tests.companion.ui.test_app import Launch

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # move_all_own, scoring_groups
FILE = re.compile(r"\.jsonl?\b|\bgame-\d{8}-\d{6}")  # a log's or a card file's name
RECORDS = re.compile(r"\b\d+ (?:records|Einträge|registros|enregistrements)\b", re.IGNORECASE)
COPY = re.compile(r"#\d+")  # "Stand-in +1 · no ability #1"
# The Details sheet of a saved game is where its file and records are told (never on its card)
DETAILS = {"File: {file}", "Records: {n}"}


def audit(words: str) -> list[str]:
    return [
        f"{kind}: {found!r}"
        for kind, rule in (("id", SNAKE), ("file", FILE), ("records", RECORDS), ("copy", COPY))
        for found in rule.findall(words)
    ]


def test_the_audit_finds_what_it_looks_for():
    assert audit("a key of the board's scoring_groups") == ["id: 'scoring_groups'"]
    assert audit("05 Apr 20:45 Classic [game-20250405-193000-e378.jsonl]") == [
        "file: 'game-20250405-193000'",
        "file: '.jsonl'",
    ]
    assert audit("Finished - 297 records") == ["records: '297 records'"]
    assert audit("Stand-in +1 · no ability #1") == ["copy: '#1'"]
    assert audit("Bartholomew-Maximilian: 4·2·0, Castilla la Nueva") == []


def test_no_message_of_the_screens_names_an_id_a_file_or_a_copy():
    with (LOCALE_DIR / "screens.pot").open("rb") as file:
        template = read_po(file)
    found = {}
    for message in template:
        for words in message.id if isinstance(message.id, tuple) else (message.id,):
            if words and words not in DETAILS and audit(words):
                found[words] = audit(words)
    assert not found, found


# (languages, window): German at every shape (its words are the longest), Spanish and French at one
# each; one launch a shape, switching language as a table would in Settings
VISITS = (("de", "800x1280"), ("de,es", "1280x800"), ("de,fr", "1920x1200"))
# A few words each screen shows in each language (and its English, which must not show)
EXPECTED = {
    "setup_classic": {
        "de": "Spiel starten",
        "es": "Empezar la partida",
        "fr": "Lancer la partie",
        "en": "Start the game",
    },
    "records": {
        "de": "Spielerbilanzen",
        "es": "Historial de jugadores",
        "fr": "Bilans des joueurs",
        "en": "Player records",
    },
    "end": {
        "de": "Zwischenstand",
        "es": "Clasificación provisional",
        "fr": "Classement provisoire",
        "en": "Standings so far",
    },
    "demo_step": {"de": "Schritt zurück", "es": "Paso atrás", "fr": "Étape précédente", "en": "Step back"},
    "board_borders": {
        "de": "Alle Grenzen:",
        "es": "Todas las fronteras:",
        "fr": "Toutes les frontières :",
        "en": "Every border:",
    },
    "scoring": {"de": "Nächste Region", "es": "Siguiente región", "fr": "Région suivante", "en": "Next region"},
    "replay_end": {"de": "Für BG Stats", "es": "Para BG Stats", "fr": "Pour BG Stats", "en": "For BG Stats"},
    "position_start": {
        "de": "Runde, die jetzt beginnt",
        "es": "Ronda que empieza ahora",
        "fr": "Manche qui commence",
        "en": "Round now starting",
    },
}


@pytest.fixture(scope="module", params=VISITS, ids=[f"{codes}-{window}" for codes, window in VISITS])
def visits(request, tmp_path_factory):
    codes, window = request.param
    folder = tmp_path_factory.mktemp(f"words-{codes}")
    games = folder / "data" / "games"
    games.mkdir(parents=True)
    for seed, names in ((1, ["Bartholomew-Maximilian", "Ana", "Bo"]), (2, ["Ana", "Bo", "Cai", "Dee"])):
        table_game(games, seed, names)  # finished games: the records' table and a replay to show
    env = {"ELGRANDE_LANG": codes.split(",")[0], "ELGRANDE_WORDS_VISIT": codes}
    launch = Launch(f"words_{codes}_{window}", ["screens.words_scenarios:visit"], folder, window, env)
    outcome, _shots = launch.of("screens.words_scenarios:visit")
    return outcome["visits"]


def each(visits):
    assert visits
    yield from visits.items()


def test_every_screen_holds_its_layout_in_the_language(visits):
    for code, outcome in each(visits):
        _holds_its_layout(code, outcome)


def _holds_its_layout(code, outcome):
    assert outcome["language"] == code
    assert len(outcome["screens"]) >= 20, outcome["screens"]
    problems = {name: found for name, found in outcome["problems"].items() if found}
    assert not problems, problems


def test_no_screen_shows_an_id_a_file_a_records_count_or_a_copy_number(visits):
    for _code, outcome in each(visits):
        _shows_no_internals(outcome)


def _shows_no_internals(outcome):
    found = {name: audit("\n".join(words)) for name, words in outcome["words"].items()}
    assert not {name: f for name, f in found.items() if f}, found


def test_the_screens_read_the_language_chosen(visits):
    for code, outcome in each(visits):
        _reads_the_language(code, outcome)


def _reads_the_language(code, outcome):
    for screen, words in EXPECTED.items():
        shown = outcome["words"][screen]
        assert words[code] in shown, (screen, words[code], shown)
        assert words["en"] not in shown, (screen, words["en"])
    # the rule set by its printed name in the language (the names catalogue's), its regions too
    from companion.words import names, use_language

    use_language(code)
    try:
        printed = names.rule_set("King and Intrigue"), names.place("Castilla la Nueva")
    finally:
        use_language("en")
    assert printed[0] in outcome["words"]["setup_king_intrigue"], printed
    assert printed[1] in outcome["words"]["setup_classic"], printed  # the King's region card drawn
