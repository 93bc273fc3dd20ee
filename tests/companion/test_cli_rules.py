"""`elgrande score`, `selfplay` and `demo` with --rules, --with, --board and --cards (issue 12),
as a user runs them: a real subprocess."""

from __future__ import annotations

import json

from tests.companion.test_cli import elgrande, write

# The 2023 rule book's scoring examples on one table: the Castillo (you 3, Blue 2, Orange 1),
# Galicia (Orange 4, Blue 3, you 2), Navarra (you, Blue and Green 2 each, Orange 1), Sevilla
# (Blue and Green 2, you 1), Granada (you 3 with your Grande, Orange and Green 1 each).
SNAPSHOT_2023 = {
    "players": ["you", "blue", "orange", "green"],
    "king": "valencia",
    "grandes": {"you": "granada", "green": "navarra"},
    "castillo": {"you": 3, "blue": 2, "orange": 1},
    "secret_discs": {"you": "granada", "blue": "toledo", "orange": "cataluna"},
    "regions": {
        "galicia": {"orange": 4, "blue": 3, "you": 2},
        "navarra": {"you": 2, "blue": 2, "green": 2, "orange": 1},
        "sevilla": {"blue": 2, "green": 2, "you": 1},
        "granada": {"orange": 1, "green": 1},
    },
}


def _by_area(result: dict) -> dict:
    out: dict = {}
    for line in result["lines"]:
        out.setdefault(line["area"], {}).setdefault(line["player"], 0)
        out[line["area"]][line["player"]] += line["points"]
    return out


def test_score_2023_gives_the_rule_books_example_points(tmp_path):
    out = elgrande("score", "--rules", "2023", "--json", write(tmp_path, SNAPSHOT_2023))
    assert out.returncode == 0, out.stderr
    points = _by_area(json.loads(out.stdout))
    assert points["castillo"] == {"you": 5, "blue": 3, "orange": 1}
    assert points["galicia"] == {"orange": 4, "blue": 2, "you": 0}
    assert points["navarra"] == {"you": 3, "blue": 3, "green": 3 + 0, "orange": 1}  # tied: no Grande bonus
    assert points["sevilla"] == {"blue": 3, "green": 3, "you": 1}
    assert points["granada"]["orange"] == points["granada"]["green"] == 1
    assert points["granada"]["you"] == 6 + 2  # 3 + 3 from the Castillo: majority and the Grande's bonus
    assert json.loads(out.stdout)["snapshot"]["regions"]["granada"]["you"] == 3


def test_the_snapshot_and_the_command_line_must_agree_on_the_rules(tmp_path):
    path = write(tmp_path, {**SNAPSHOT_2023, "rules": "classic"})
    out = elgrande("score", "--rules", "2023", path)
    assert out.returncode == 2 and "says rules 'classic' but --rules says '2023'" in out.stderr
    classic = elgrande("score", write(tmp_path, SNAPSHOT_2023, "b.json"))  # no --rules: classic regions
    assert classic.returncode == 2 and "unknown region 'navarra'" in classic.stderr


def test_a_three_player_2023_table_needs_its_board_side_entered_once(tmp_path):
    three = {
        **SNAPSHOT_2023,
        "players": ["you", "blue", "orange"],
        "grandes": {"you": "granada"},
        "regions": {"galicia": {"orange": 4, "blue": 3, "you": 2}},
    }
    out = elgrande("score", "--rules", "2023", write(tmp_path, three))
    assert (
        out.returncode == 2
        and "2-3 player side is not known" in out.stderr
        and "regions[galicia].scoreboard" in out.stderr
        and "Traceback" not in out.stderr
    )
    side = {
        "rules": "2023",
        "side": "2-3",
        "regions": [
            {"id": r, "scoreboard": [4, 2, 0]}
            for r in (
                "galicia",
                "navarra",
                "aragon",
                "cataluna",
                "castilla",
                "toledo",
                "valencia",
                "sevilla",
                "granada",
            )
        ],
        "castillo": {"scoreboard": [5, 3, 1]},
    }
    ok = elgrande(
        "score",
        "--rules",
        "2023",
        "--board",
        write(tmp_path, side, "board.json"),
        "--json",
        write(tmp_path, three, "t.json"),
    )
    assert ok.returncode == 0, ok.stderr
    points = _by_area(json.loads(ok.stdout))
    assert points["galicia"] == {"orange": 4, "blue": 2, "you": 0}  # 2-3 players: two places pay


def test_a_board_file_with_a_mistake_is_refused_naming_it(tmp_path):
    bad = {"rules": "2023", "regions": [{"id": "aragon", "neighbours": ["galicia"]}]}
    out = elgrande(
        "score", "--rules", "2023", "--board", write(tmp_path, bad, "board.json"), write(tmp_path, SNAPSHOT_2023)
    )
    assert out.returncode == 2 and "not symmetric" in out.stderr and "galicia" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_selfplay_plays_the_2023_dummy_game_with_modules_and_says_what_is_stood_in():
    out = elgrande(
        "selfplay", "--rules", "2023", "--with", "new-regency,power-shift", "--players", "2", "--games", "3", "--json"
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["rules"] == "2023" and summary["modules"] == ["new-regency", "power-shift"]
    assert summary["games"] == 3 and summary["invariant_checks"] and summary["stand_ins"]
    told = elgrande("selfplay", "--rules", "2023", "--players", "4", "--games", "1")
    assert told.returncode == 0 and "stand-ins" in told.stderr and "not the printed game" in told.stderr


def test_selfplay_refuses_a_bad_choice_of_rules_in_one_line(tmp_path):
    cases = [
        (("--rules", "2023", "--with", "royal-court"), "module 'royal-court' does not belong to the 2023 rules"),
        (("--with", "new-regency"), "module 'new-regency' does not belong to the classic rules"),
        (("--rules", "2023", "--with", "four-stacks", "--players", "5"), "four-stacks is for 2 or 3 players"),
        (
            (
                "--rules",
                "2023",
                "--cards",
                write(tmp_path, {"rules": "2023", "cards": [{"id": "veto", "stack": 3, "copies": 1}]}, "v.json"),
            ),
            "still unknown: stacks.2: Stack 2 holds 10 cards",
        ),
        (
            (
                "--rules",
                "2023",
                "--cards",
                write(tmp_path, {"rules": "2023", "cards": [{"id": "militia", "params": {"count": 9}}]}, "c.json"),
            ),
            "cards[militia].params.count",
        ),
    ]
    for args, message in cases:
        out = elgrande("selfplay", "--games", "1", *args)
        assert out.returncode == 2 and message in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_selfplay_and_demo_fill_only_what_the_tables_files_leave_unknown(tmp_path):
    """A one-line board file or a partial card file (README: "Your files complete or correct the
    shipped data"): the stand-ins fill the rest, said in one line; before, an empty stack crashed."""
    board = write(
        tmp_path,
        {"rules": "2023", "side": "4-5", "spaces": [{"id": "france", "neighbours": ["navarra", "aragon", "cataluna"]}]},
        "b.json",
    )
    cards = write(tmp_path, {"rules": "2023", "cards": [{"id": "outposts", "stack": 3, "copies": 2}]}, "c.json")
    for args in (
        ("selfplay", "--games", "2", "--players", "4", "--board", board),
        ("selfplay", "--games", "2", "--players", "4", "--cards", cards, "--with", "power-shift"),
        ("demo", "--board", board, "--cards", cards),
    ):
        out = elgrande(*args, "--rules", "2023")
        assert out.returncode == 0, (args, out.stderr)
        note = out.stderr.strip().splitlines()
        assert len(note) == 1 and "filled from self-play's stand-ins" in note[0], (args, out.stderr)
        assert "spaces.portugal.neighbours" in note[0] and "veto (stack, copies)" in note[0]
        assert ("spaces.france" in note[0]) == ("--board" not in args)  # what the files give is theirs
        assert ("outposts" in note[0]) == ("--cards" not in args)
    ps = elgrande(
        "selfplay", "--rules", "2023", "--games", "1", "--players", "4", "--cards", cards, "--with", "power-shift"
    )
    assert "Power Shift's 16 Modifier cards" in ps.stderr


def test_score_reads_a_card_file_with_power_shift_modifiers(tmp_path):
    """A fresh `python -m companion.cli score` loads the board before the flow: the card file's
    Modifier check used to import engine.rules.edition_2023.power_shift half-way (a circular import)."""
    from importlib import resources  # the stand-in set's data, read as a table would type it

    shipped = json.loads(resources.files("engine.data").joinpath("power_shift_stand_in.json").read_text("utf-8"))
    modifiers = [{**m, "id": m["id"].replace("stand_in", "ours"), "source": "our cards"} for m in shipped["modifiers"]]
    cards = write(
        tmp_path,
        {"rules": "2023", "cards": [{"id": "outposts", "stack": 3, "copies": 2}], "modifiers": modifiers},
        "cards23.json",
    )
    out = elgrande("score", "--rules", "2023", "--cards", cards, "--json", write(tmp_path, SNAPSHOT_2023))
    assert out.returncode == 0, out.stderr
    assert _by_area(json.loads(out.stdout))["castillo"] == {"you": 5, "blue": 3, "orange": 1}


def test_score_names_the_board_or_card_file_that_holds_the_mistake(tmp_path):
    snap = write(tmp_path, SNAPSHOT_2023, "snap23b.json")
    board = write(tmp_path, {"rules": "2023", "side": "2-3"}, "board45.json")
    cards = write(tmp_path, {"rules": "2023", "cards": [{"id": "zzz"}]}, "cards23.json")
    for flag, path, said in (("--board", board, "board file: side:"), ("--cards", cards, "card file: cards[zzz]")):
        out = elgrande("score", "--rules", "2023", flag, path, snap)
        assert out.returncode == 2 and out.stderr.startswith(f"elgrande score: {path}: {said}"), out.stderr
        assert "snap23b.json" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
