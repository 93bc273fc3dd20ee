"""The `elgrande` command as a user runs it: a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SNAPSHOT = {
    "players": ["red", "blue", "green", "yellow"],
    "king": "cataluna",
    "grandes": {"red": "granada", "blue": "galicia", "green": "aragon", "yellow": "valencia"},
    "regions": {
        "galicia": {"green": 3, "blue": 2, "red": 1},
        "pais_vasco": {"blue": 3, "red": 3, "yellow": 3, "green": 2},
        "cataluna": {"green": 2, "red": 1},
        "granada": {"red": 4, "green": 1, "yellow": 1},
    },
    "castillo": {"red": 2, "blue": 2, "green": 1},
    "secret_discs": {"red": "sevilla", "blue": "cataluna", "green": "valencia"},
    "mobile_scoreboards": {"4-0-0": "castillo"},
    "scores": {"red": 10},
}


def elgrande(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, input=stdin, timeout=60
    )


def write(tmp_path, data, name="snap.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_general_scoring_json(tmp_path):
    out = elgrande("score", write(tmp_path, SNAPSHOT), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result["gained"]) == {"red", "blue", "green", "yellow"}
    castillo = [ln for ln in result["lines"] if ln["area"] == "castillo"]
    # the 4-0-0 lies on the Castillo: Red and Blue tie for 1st and take the 2nd place: 0
    assert {ln["player"]: ln["points"] for ln in castillo} == {"red": 0, "blue": 0, "green": 0}
    after = result["snapshot"]
    assert after["castillo"] == {} and after["regions"]["sevilla"] == {"red": 2}
    assert after["court"] == {"blue": 2}  # Blue's disc named the King's region
    assert after["scores"]["red"] == 10 + result["gained"]["red"]
    assert sum(ln["points"] for ln in result["lines"] if ln["player"] == "red") == result["gained"]["red"]


def test_readable_table_by_default(tmp_path):
    out = elgrande("score", write(tmp_path, SNAPSHOT))
    assert out.returncode == 0 and "País Vasco" in out.stdout and "King's bonus" in out.stdout


@pytest.mark.parametrize(
    "kind,areas",
    [
        ("4", {"galicia", "cataluna"}),
        ("5", {"pais_vasco"}),
        ("6-7", {"granada"}),
        ("castillo", set()),
        ("region:granada", {"granada"}),
        ("first-only", {"galicia", "cataluna", "granada", "pais_vasco"}),
        ("most", {"pais_vasco"}),
        ("least", {"cataluna"}),
    ],
)
def test_special_scorings(tmp_path, kind, areas):
    out = elgrande("score", write(tmp_path, SNAPSHOT), "--json", "--special", kind)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    scored = {ln["area"] for ln in result["lines"]}
    assert scored == (areas or {"castillo"})
    assert result["snapshot"]["castillo"] == SNAPSHOT["castillo"]  # special scorings leave it
    if kind == "first-only":
        assert all(ln["points"] == 0 for ln in result["lines"] if ln["area"] == "pais_vasco")


BAD = [
    ("{not json", "not valid JSON"),
    ({**SNAPSHOT, "king": "portugal"}, "unknown region 'portugal'"),
    ({**SNAPSHOT, "regions": {"galicia": {"purple": 1}}}, "unknown player 'purple'"),
    ({**SNAPSHOT, "regions": {"galicia": {"red": -1}}}, "negative"),
    ({**SNAPSHOT, "regions": {"galicia": {"red": 29}}}, "only 30"),
    ({**SNAPSHOT, "secret_discs": {"red": "sevilla"}}, "blue has Caballeros in the Castillo but no secret disc"),
    ({**SNAPSHOT, "players": ["red"]}, "2 to 5"),
    ({**SNAPSHOT, "players": ["red", "blue", "green", "yellow", "black", "white"]}, "2 to 5"),
    ({**SNAPSHOT, "mobile_scoreboards": {"8-4-0": "galicia", "4-0-0": "galicia"}}, "same area"),
    # counts and scores are whole numbers as typed: no "3", 3.0 or true taken for 3 or 1
    ({**SNAPSHOT, "regions": {"galicia": {"red": "3"}}}, "regions.galicia.red: must be a whole number"),
    ({**SNAPSHOT, "castillo": {"red": 2.0}}, "castillo.red: must be a whole number"),
    ({**SNAPSHOT, "scores": {"red": "10"}}, "scores.red: must be a whole number"),
    ({**SNAPSHOT, "court": {"red": True}}, "court.red: must be a whole number"),
    ("[]", "a snapshot is one JSON object {"),
    ('"snap"', "a snapshot is one JSON object {"),
]


@pytest.mark.parametrize("data,message", BAD)
def test_bad_snapshots_exit_2_with_one_clear_line(tmp_path, data, message):
    out = elgrande("score", write(tmp_path, data))
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert message in out.stderr


def test_missing_file_and_unknown_special(tmp_path):
    out = elgrande("score", str(tmp_path / "nope.json"))
    assert out.returncode == 2 and "cannot read" in out.stderr
    out = elgrande("score", write(tmp_path, SNAPSHOT), "--special", "9")
    assert out.returncode == 2 and "unknown kind" in out.stderr


def test_selfplay_is_repeatable_and_reports_speed():
    a = json.loads(elgrande("selfplay", "--games", "5", "--players", "3", "--seed", "4", "--json").stdout)
    b = json.loads(elgrande("selfplay", "--games", "5", "--players", "3", "--seed", "4", "--json").stdout)
    assert a["games"] == 5 and a["games_per_second"] > 0
    assert {k: v for k, v in a.items() if k not in ("seconds", "games_per_second")} == {
        k: v for k, v in b.items() if k not in ("seconds", "games_per_second")
    }
    bad = elgrande("selfplay", "--players", "7")
    assert bad.returncode == 2 and "2 to 5" in bad.stderr


def test_demo_plays_a_short_game_to_the_end():
    out = elgrande("demo", "--seed", "3")
    assert out.returncode == 0 and "General scoring after round 9" in out.stdout and "El Grande:" in out.stdout
