"""The table's corrections in the history, in words (companion/entry/corrections.py), over a
real table: what each changed, where tracking started, never the Castillo's figures."""

import pytest

from companion.entry.corrections import correction_history
from companion.entry.position import PositionEntry
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine import events as ev
from engine.board.build import classic_board
from engine.events import GameSetup

BOARD = classic_board()
NAMES = {"red": "Ana", "yellow": "Ben", "green": "Cy"}


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))


def tracked() -> Table:
    game = GameSetup(
        players=["red", "yellow", "green"],
        names=NAMES,
        king="castilla_la_nueva",
        homes={"red": "galicia", "yellow": "aragon", "green": "sevilla"},
        start_player="red",
    )
    return Table.new(TableSetup(game=game, mode="tracking"))


def entry(table: Table, starting: bool) -> PositionEntry:
    return PositionEntry(table.public().game, table.names, BOARD, starting=starting)


def test_a_correction_in_words_is_in_the_history_and_undo_takes_it_back():
    table = tracked()
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    e = entry(table, starting=False)
    e.tool = "remove"
    e.tap("galicia")
    e.colour, e.tool = "yellow", "king"
    e.tap("aragon")
    e.tool = "mobile:4-0-0"
    e.tap("sevilla")
    e.set_score("green", 12)
    e.step_court("red", +1)
    e.set_castillo_source("counted")
    e.step_castillo("yellow", +1)
    expected = [
        "Galicia: Ana from 2 to 1",
        "Ana's court: from 7 to 8",
        "The King: from Castilla la Nueva to Aragón",
        "The 4-0-0 scoreboard: from off the board to Sevilla",
        "Cy's score: from 0 to 12",
    ]
    assert e.changes() == expected + ["The Castillo, as the table counted it: Ben 1"]
    table.submit(e.event("Ben's cube was knocked over"))
    [words] = correction_history(table)
    assert words.title == "Round 1: The table's correction (Ben's cube was knocked over)"
    assert words.lines == expected + ["The Castillo: set from a count (the figures are not shown here)"]
    assert table.asked().kind == "play_power_card"  # the game goes on where it was
    table.undo()
    assert correction_history(table) == [] and table.public().game["regions"]["galicia"] == {"red": 2}


def test_a_start_from_a_position_is_in_the_history_with_its_round_cards_and_vetoes():
    table = tracked()
    e = entry(table, starting=True)
    e.set_round(5)
    e.set_start_player("green")
    e.toggle_power("red", 13)
    e.toggle_power("red", 2)
    e.toggle_veto("yellow")
    e.step_castillo("green", +1)
    e.set_score("red", 30)
    table.submit(e.event("started from the board in round 5"))
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    [words] = correction_history(table)
    assert words.round == 5 and words.title == "Round 5: The table's correction (started from the board in round 5)"
    assert words.lines == [
        "Tracking starts in round 5; Cy starts it",
        "Power cards laid down: Ana 2, 13",
        "Veto held by Ben",
        "Ana's score: from 0 to 30",
        "The Castillo: set from a count (the figures are not shown here)",
    ]
    resumed = Table.resume(table.path)  # read back from the log, the same words
    assert correction_history(resumed) == [words]


def test_no_history_in_scoring_only_mode():
    game = GameSetup(
        players=["red", "yellow", "green"],
        king="castilla_la_nueva",
        homes={"red": "galicia", "yellow": "aragon", "green": "sevilla"},
        start_player="red",
    )
    assert correction_history(Table.new(TableSetup(game=game, mode="scoring"))) == []


@pytest.mark.parametrize(
    ("code", "galicia"),
    [("de", "Galicien: Ana von 2 auf 1"), ("es", "Galicia: Ana"), ("fr", "Galice : Ana")],
)
def test_a_correction_worded_by_the_entry_reads_in_the_language_the_log_keeps_english(code, galicia):
    from companion.table.undo import describe
    from companion.words import use_language

    table = tracked()
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    e = entry(table, starting=False)
    e.tool = "remove"
    e.tap("galicia")
    e.step_court("red", +1)
    reason = e.reason()  # no words typed: the changes, as the log keeps them
    assert reason == "Galicia: Ana from 2 to 1; Ana's court: from 7 to 8"
    table.submit(e.event(reason))
    logged = table.effective[-1]["e"]
    try:
        use_language(code)
        [words] = correction_history(table)
        button = describe(table.effective[-1], table.names, board=table.board)
    finally:
        use_language("en")
    assert logged["reason"] == reason  # the log: English, whatever the language
    assert galicia in words.title and galicia in button, (words.title, button)
    assert "from 2 to 1" not in words.title and "court: from" not in button
    english = describe(table.effective[-1], table.names, board=table.board)
    assert english == f"the table's correction ({reason})"


def test_a_typed_or_old_reason_shows_as_it_is_and_a_cut_one_keeps_its_cut():
    from companion.entry.correction_reasons import reason_words
    from companion.words import use_language

    try:
        use_language("de")
        assert reason_words("Ben's cube was knocked over", NAMES, BOARD) == "Ben's cube was knocked over"
        assert reason_words("Cy's score: from 0 to 12; Galicia: Ana from 2 t...", NAMES, BOARD) == (
            "Punkte von Cy: von 0 auf 12..."
        )
        assert reason_words("The King: from Castilla la Nueva to Aragón", NAMES, BOARD).startswith("Der König")
    finally:
        use_language("en")
    assert reason_words("The King: from Castilla la Nueva to Aragón", NAMES, BOARD) == (
        "The King: from Castilla la Nueva to Aragón"
    )
