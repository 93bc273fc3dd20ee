"""`elgrande selfplay`, `score` and `demo` with --rules king-intrigue (issue 14), as a user runs
them: a real subprocess."""

from __future__ import annotations

import json

from tests.companion.test_cli import elgrande, write
from tests.engine.king_intrigue.table import CARDS_FILE


def test_selfplay_king_intrigue_plays_whole_games_and_says_it_used_stand_ins():
    out = elgrande("selfplay", "--rules", "king-intrigue", "--games", "3", "--players", "4", "--seed", "5", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["rules"] == "king-intrigue" and summary["stand_ins"] is True and summary["games"] == 3
    assert summary["scorings_per_game"] >= 3
    text = elgrande("selfplay", "--rules", "king-intrigue", "--games", "1", "--players", "2", "--seed", "5")
    assert text.returncode == 0 and "stand-ins from engine/data/standins_king_intrigue.json" in text.stderr


def test_selfplay_with_the_tables_own_card_file_uses_no_stand_in(tmp_path):
    out = elgrande(
        "selfplay",
        "--rules",
        "king-intrigue",
        "--cards",
        write(tmp_path, CARDS_FILE, "cards.json"),
        "--games",
        "2",
        "--players",
        "3",
        "--seed",
        "1",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["stand_ins"] is False and "stand-in" not in out.stderr


def test_a_card_file_with_a_mistake_or_a_missing_fact_is_refused_in_one_line(tmp_path):
    bad = elgrande(
        "selfplay",
        "--rules",
        "king-intrigue",
        "--cards",
        write(tmp_path, {"rules": "king-intrigue", "placements": {"4": [1, 2]}}, "bad.json"),
        "--games",
        "1",
        "--players",
        "4",
    )
    assert bad.returncode == 2 and "placements.4: must list 4 numbers" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    partial = elgrande(
        "selfplay",
        "--rules",
        "king-intrigue",
        "--cards",
        write(tmp_path, {"rules": "king-intrigue", "placements": {"4": [1, 2, 3, 4]}}, "part.json"),
        "--games",
        "1",
        "--players",
        "4",
    )
    assert partial.returncode == 2 and "card set is not complete" in partial.stderr
    assert "power_cards[ki_10].court" in partial.stderr and "Traceback" not in partial.stderr


def test_selfplay_with_both_modules_plays_and_a_module_card_not_completed_is_refused(tmp_path):
    out = elgrande(
        "selfplay",
        "--rules",
        "king-intrigue",
        "--with",
        "players-edition,special-cards",
        "--games",
        "2",
        "--players",
        "5",
        "--seed",
        "3",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["modules"] == ["players-edition", "special-cards"]
    refused = elgrande(
        "selfplay",
        "--rules",
        "king-intrigue",
        "--with",
        "players-edition",
        "--cards",
        write(tmp_path, CARDS_FILE, "cards.json"),
        "--games",
        "1",
        "--players",
        "4",
    )
    assert refused.returncode == 2 and "power_cards[pe_civil_war].params.outcome" in refused.stderr  # every card played
    assert "does not play that card yet" not in refused.stderr and "Traceback" not in refused.stderr
    wrong = elgrande("selfplay", "--rules", "king-intrigue", "--with", "power-shift", "--games", "1", "--players", "4")
    assert wrong.returncode == 2 and "its modules are players-edition, special-cards" in wrong.stderr


def test_score_king_intrigue_doubles_the_marked_region_at_a_general_scoring(tmp_path):
    snap = {
        "players": ["red", "blue", "green"],
        "king": "cataluna",
        "grandes": {"red": "granada", "blue": "galicia", "green": "valencia"},
        "regions": {"aragon": {"red": 3, "blue": 1}, "galicia": {"blue": 2}},
        "double_scoring": ["aragon"],
    }
    out = elgrande("score", "--rules", "king-intrigue", "--json", write(tmp_path, snap))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["gained"] == {"red": 10, "blue": 6 + 8, "green": 0}  # Aragón 5/4 twice; Galicia 4 + home 2
    assert "double_scoring" not in result["snapshot"]  # the markers go back to the supply
    special = elgrande(
        "score", "--rules", "king-intrigue", "--special", "region:aragon", "--json", write(tmp_path, snap, "s.json")
    )
    assert json.loads(special.stdout)["gained"]["red"] == 5  # a special scoring is not doubled
    classic = elgrande("score", write(tmp_path, snap, "c.json"))
    assert classic.returncode == 2 and "only the King and Intrigue rules have 2x markers" in classic.stderr


def test_demo_tells_who_holds_which_action_card():
    out = elgrande("demo", "--rules", "king-intrigue", "--players", "3", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "holds the King's Card" in out.stdout and "holds the Intrigue card" in out.stdout


def test_score_king_intrigue_with_the_alliance_and_the_relocated_castillo(tmp_path):
    snap = {
        "players": ["red", "blue", "green"],
        "king": "cataluna",
        "grandes": {"red": "granada", "blue": "galicia", "green": "valencia"},
        "regions": {"aragon": {"red": 3, "blue": 1}, "galicia": {"blue": 2}, "pais_vasco": {"green": 2}},
        "castillo": {"red": 1, "green": 2},
        "secret_discs": {"red": "sevilla", "green": "sevilla"},
        "alliance": ["aragon", "pais_vasco"],
        "castillo_at": "granada",
    }
    out = elgrande("score", "--rules", "king-intrigue", "--json", write(tmp_path, snap))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    by_area: dict = {}
    for line in result["lines"]:
        by_area.setdefault(line["area"], {}).setdefault(line["player"], 0)
        by_area[line["area"]][line["player"]] += line["points"]
    assert by_area["castillo"] == {"green": 6, "red": 3}  # Granada's 6/3/1, not the Castillo's 5/3/1
    # Aragón + País Vasco as one: red 3 (5 + 5), green 2 (4 + 3), blue 1 (3 players: 2 places paid)
    assert by_area["aragon"] == {"red": 5, "green": 4, "blue": 0}
    assert by_area["pais_vasco"] == {"red": 5, "green": 3, "blue": 0}
    assert "alliance" not in result["snapshot"] and "castillo_at" not in result["snapshot"]
    bad = elgrande(
        "score", "--rules", "king-intrigue", write(tmp_path, {**snap, "alliance": ["aragon", "aragon"]}, "bad.json")
    )
    assert bad.returncode == 2 and "alliance: the two Alliance markers lie on two different regions" in bad.stderr
    # the King may stand on an allied region he came to later ("bonus points are awarded accordingly")
    kings = elgrande(
        "score",
        "--rules",
        "king-intrigue",
        "--json",
        write(tmp_path, {**snap, "alliance": ["aragon", "cataluna"]}, "kings.json"),
    )
    assert kings.returncode == 0, kings.stderr


def test_score_king_intrigue_on_a_reversed_scoreboard(tmp_path):
    snap = {
        "players": ["red", "blue", "green", "yellow"],
        "king": "cataluna",
        "grandes": {"red": "aragon", "blue": "galicia", "green": "valencia", "yellow": "sevilla"},
        "regions": {"aragon": {"red": 4, "blue": 2, "green": 1, "yellow": 1}},
        "mobile_scoreboards": {"8-4-0": "aragon"},
        "reversed": ["8-4-0"],
    }
    out = elgrande("score", "--rules", "king-intrigue", "--json", write(tmp_path, snap))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["gained"] == {"red": 2, "blue": 0, "green": 4, "yellow": 4}  # the fewest first; red's home bonus
    assert result["snapshot"]["reversed"] == ["8-4-0"]
    special = elgrande(
        "score", "--rules", "king-intrigue", "--special", "region:aragon", "--json", write(tmp_path, snap, "s.json")
    )
    assert json.loads(special.stdout)["gained"]["green"] == 4


def test_score_king_intrigue_prints_the_alliance_under_one_heading_and_no_board_side(tmp_path):
    """The two allied regions are scored as one: one heading naming both, each line saying whose
    scoreboard pays; a 2x marker's lines under its region's heading; no "player side" (one board)."""
    snap = {
        "rules": "king-intrigue",
        "players": ["a", "b", "c"],
        "king": "aragon",
        "regions": {"sevilla": {"a": 3, "b": 1}, "galicia": {"b": 2, "c": 1}, "granada": {"c": 2}},
        "alliance": ["sevilla", "galicia"],
        "double_scoring": ["sevilla", "granada"],
    }
    out = elgrande("score", write(tmp_path, snap))
    assert out.returncode == 0, out.stderr
    text = out.stdout.splitlines()
    assert text[0] == "General scoring (3 players, king-intrigue rules)"
    headings = [ln for ln in text[1:] if ln and not ln.startswith((" ", "Gained:", "Scores:"))]
    assert headings == ["Granada", "Sevilla + Galicia (Alliance: scored as one)"]
    block = text[text.index("Sevilla + Galicia (Alliance: scored as one)") + 1 :]
    block = block[: block.index("")]
    assert any("Sevilla's scoreboard: 1st place" in ln for ln in block)
    assert any("Galicia's scoreboard: 1st place" in ln for ln in block)
    assert sum("2x marker on Sevilla" in ln for ln in block) == 2  # a and b, tied first
    granada = text[text.index("Granada") + 1 :]
    assert sum("2x marker on Granada" in ln for ln in granada[: granada.index("")]) == 1
