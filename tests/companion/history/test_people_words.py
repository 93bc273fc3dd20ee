"""A game as people say it: the day in words with its year, the boxes' printed names, who won."""

from datetime import datetime

from companion.history.people_words import and_list, printed_rules, spoken_date, spoken_when, standing, who_won
from companion.history.records import rules_label


def test_the_day_a_game_began_is_said_with_its_weekday_and_year():
    assert spoken_date(datetime(2025, 4, 5, 19, 30)) == "Saturday 5 April 2025, 19:30"
    assert spoken_date(datetime(2026, 12, 31, 9, 5)) == "Thursday 31 December 2026, 09:05"
    assert spoken_date(None) == "an unknown day"


def test_rule_sets_and_modules_go_by_their_printed_names():
    assert printed_rules("classic") == "Classic (1995)"
    assert printed_rules("2023", ["new-regency", "power-shift"]) == "2023 edition with New Regency and Power Shift"
    assert rules_label("king-intrigue", ["players-edition"]) == "King and Intrigue with Player's Edition"
    assert "-" not in rules_label("2023", ["new-regency", "old-hands", "power-shift"]).replace("2023", "")


def test_the_winner_is_said_as_a_person_says_it():
    assert who_won(["Priya"]) == "Priya won"
    assert who_won(["Ana", "Ben"]) == "Ana and Ben share the win"
    assert who_won([]) == ""
    assert and_list(["Ana", "Ben", "Cy"]) == "Ana, Ben and Cy"


NOW = datetime(2026, 12, 3, 14, 0)


def test_home_says_a_recent_day_as_today_or_yesterday_and_the_year_when_not_this_year():
    assert spoken_when(datetime(2026, 12, 3, 9, 30), NOW) == "Today, 09:30"
    assert spoken_when(datetime(2026, 12, 2, 19, 30), NOW) == "Yesterday, 19:30"
    assert spoken_when(datetime(2026, 4, 4, 19, 30), NOW) == "Saturday 4 April, 19:30"
    assert spoken_when(datetime(2025, 4, 5, 19, 30), NOW) == "Saturday 5 April 2025, 19:30"
    assert spoken_when(datetime(2025, 12, 2, 19, 30), datetime(2026, 1, 1)) == "Tuesday 2 December 2025, 19:30"
    assert spoken_when(None, NOW) == "an unknown day"


def test_where_a_game_stopped_is_said_in_words_never_as_a_step_id():
    names = ["Ana", "Bo", "Priya"]
    where = "Round 6 - general scoring - secret discs (castillo destination)"
    assert standing(where, names) == "Round 6, the scoring"
    assert standing("Round 3 - turn - Ana plays Intrigue", names) == "Round 3, Ana's turn"
    assert standing("Round 2 - power cards - Bo plays next", names) == "Round 2, the Power cards"
    assert standing("Round 4 - special action - Priya: Move the King", names) == "Round 4, Priya's turn"
    assert "castillo destination" not in standing(where, names) and "-" not in standing(where, names)


def test_every_stop_of_a_real_game_is_said_without_dashes_or_step_ids(tmp_path, monkeypatch):
    from companion.scripted import scripted_setup, step
    from companion.table.authority import Table
    from companion.table.private_picks import where_in_game

    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    table = Table.new(scripted_setup("tracking", "short", 3))
    said = set()
    for _ in range(120):
        if table.over:
            break
        words = standing(where_in_game(table), table.names.values())
        said.add(words)
        assert words.startswith(f"Round {table.asked().round}, "), words
        assert " - " not in words and "_" not in words and "(" not in words, words
        step(table, 4)
    assert any(w.endswith("'s turn") for w in said) and any(w.endswith("the scoring") for w in said), said
