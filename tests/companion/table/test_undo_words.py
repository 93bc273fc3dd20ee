"""Undo's question (companion.table.authority.Table.undo, companion.table.undo_words), without Kivy: undoing a
private choice asks first and names what its player must choose again, never what they chose;
"No" (no confirm) changes nothing; a question names the step the table saw, not an event."""

from __future__ import annotations

import pytest

from companion.input_errors import NeedsConfirmation
from companion.scripted import fingerprint, scripted_setup
from companion.table.authority import Table
from companion.table.undo_words import scoring_words
from engine import events as ev
from engine.freeplay import RoundFinished
from engine.views import castillo_tallies
from tests.companion.table.test_authority_2023 import new_table as new_2023_table
from tests.companion.table.test_authority_king_intrigue import new_table as new_ki_table


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def asks_first(table: Table) -> str:
    """Undo without confirming: the question; the table, its log and its views unchanged."""
    before, records, size = fingerprint(table), list(table.records), table.path.stat().st_size
    with pytest.raises(NeedsConfirmation) as asked:
        table.undo()
    assert fingerprint(table) == before and table.records == records and table.path.stat().st_size == size
    return str(asked.value)


def test_undoing_kept_power_cards_asks_naming_the_choice_to_make_again_never_the_cards():
    table = new_ki_table(3)
    for pid, region in (("red", "aragon"), ("blue", "galicia"), ("green", "valencia")):
        table.submit_private(pid, [region])
    table.submit({"type": "secret_discs_revealed"})
    table.submit_private("red", ["10", "20", "30", "40", "50"])
    table.submit_private("green", ["10", "60", "100", "130", "180"])
    table.submit_private("blue", ["140", "150", "160", "170", "180"])
    assert table.asked().kind == "play_power_card"  # the power phase begins
    question = asks_first(table)
    assert question.startswith(
        "Undo Blue's kept Power cards? Blue will have to choose their 13 kept Power cards again, in private"
    ), question
    assert not any(str(v) in question for v in range(10, 190, 10)), question  # no card, kept or out
    assert table.undo(confirm=True) == "Blue's kept Power cards"
    assert table.private_waiting() == ["blue"] and table.chooses_again("blue")
    assert not table.chooses_again("red")
    table.submit_private("blue", ["140", "150", "160", "170", "180"])
    assert not table.chooses_again("blue") and table.asked().kind == "play_power_card"


def test_undoing_a_setup_disc_asks_naming_the_setup_disc_never_the_region():
    table = new_ki_table(3)
    table.submit_private("red", ["aragon"])
    table.submit_private("blue", ["galicia"])
    question = asks_first(table)
    assert question == (
        "Undo Blue's setup disc? Blue will have to set their setup disc again, in private "
        "(on their phone, or here behind the private screen)."
    ), question
    table.undo(confirm=True)
    assert table.asked().players == ("blue", "green") and table.chooses_again("blue")


def test_undoing_a_secret_disc_asks_and_after_the_castillo_was_seen_says_so_too():
    table = Table.new(scripted_setup("scoring", "short", 3))
    table.submit(RoundFinished())
    table.submit(RoundFinished())
    table.submit(ev.SecretDiscSet(player="red", region="granada"))
    question = asks_first(table)
    assert question.startswith("Undo Red's secret disc? Red will have to set their secret disc again"), question
    assert "granada" not in question.lower()
    table.submit(ev.SecretDiscSet(player="yellow", region="galicia"))
    table.submit(ev.SecretDiscSet(player="green", region="galicia"))
    table.open_castillo()
    question = asks_first(table)
    assert "Green will have to set their secret disc again" in question
    assert "already seen the Castillo's counts" in question and "galicia" not in question.lower()


def test_undoing_a_power_shift_pass_asks_naming_the_card_to_pass_never_which():
    table = new_2023_table(3, ("power-shift",))
    for i, pid in enumerate(table.private_waiting()):
        pick = table.private_question(pid)
        table.submit_private(pid, [v for v, _ in pick.options[3 * i : 3 * i + 3]])
    assert table.asked().kind == "pass_modifier"
    pick = table.private_question("blue")
    passed_value, passed_label = pick.options[0]
    table.submit_private("blue", [passed_value])
    question = asks_first(table)
    assert question.startswith(
        "Undo Blue's Modifier card to pass? Blue will have to choose the Modifier card they pass again, in private"
    ), question
    assert passed_label not in question and passed_value not in question
    table.undo(confirm=True)
    assert "blue" in table.private_waiting() and table.chooses_again("blue")


def test_undoing_the_castillo_scoring_names_the_castillo_scoring_not_its_count_event():
    table = Table.new(scripted_setup("tracking", "short", 3))
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    for card in (13, 12, 11):
        table.submit(ev.PowerCardPlayed(player=table.asked().players[0], card=card))
    for pid, stack, region in (("red", 2, "aragon"), ("yellow", 3, "castillo")):  # red holds the Veto
        table.submit_many(
            [
                {"type": "court_replenished", "player": pid, "from_provinces": 0, "from_regions": {}},
                {"type": "action_card_chosen", "player": pid, "stack": stack},
            ]
        )
        table.submit({"type": "caballeros_placed", "player": pid, "placements": {region: 1}})
    table.submit(ev.SpecialActionStarted(player="yellow"))
    assert table.asked().kind == "veto"
    table.submit(ev.VetoWaived(player="red"))  # no Veto: now the Castillo is lifted, counted and scored
    assert table.asked().kind == "lift_castillo"
    table.submit(ev.CastilloCounted(counts=castillo_tallies(table.state)))
    question = asks_first(table)
    assert question.startswith(
        "Undo the Castillo scoring (Yellow's Special Scoring)? Everyone has already seen what it scored"
    ), question
    assert "Undone with it: the Castillo's count" in question and "veto waived" not in question
    assert table.undo(confirm=True) == "the Castillo scoring (Yellow's Special Scoring)"  # "Undone: ..."
    assert table.state.scoring_log == [] and table.asked().kind == "lift_castillo"


def test_an_undo_nobody_must_redo_nor_has_seen_does_not_ask_and_says_the_step():
    table = Table.new(scripted_setup("tracking", "short", 3))
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    table.submit(ev.PowerCardPlayed(player="red", card=13))
    assert table.public().undo == "Red's Power card"
    assert table.undo() == "Red's Power card"


@pytest.mark.parametrize(
    "title, words",
    [
        ("Special Scoring (the Castillo), played by Ana", "the Castillo scoring (Ana's Special Scoring)"),
        ('Special Scoring (all "5" regions), played by Bo', 'the scoring of all "5" regions (Bo\'s Special Scoring)'),
        ("Revelation (the Castillo; all is thrown back in), played by Cy", "the Castillo scoring (Cy's Revelation)"),
        ("General scoring after round 3", "the general scoring after round 3"),
        ("Special scoring: the Castillo", "the Castillo scoring"),
    ],
)
def test_a_scoring_is_named_as_its_page_heads_it(title, words):
    assert scoring_words(title) == words


def test_a_scoring_undone_reads_whole_in_another_language():
    """Issue 34: what a scoring paid for is said in the table's words, not the engine's English."""
    from companion.words import use_language

    try:
        use_language("de")
        castillo = scoring_words("Special Scoring (the Castillo), played by Ana")
        most = scoring_words("Special scoring: the regions with the most Caballeros")
    finally:
        use_language("en")
    assert castillo == "Wertung – Castillo (Sonderwertung von Ana)", castillo
    assert most == "Wertung – die Regionen mit den meisten Caballeros", most
