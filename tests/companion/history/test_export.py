"""companion.history.export: the BG Stats file parses back into the same play, the BGG CSV into the same
players, and the picture holds the standings in the players' colours."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC

import pytest
from PIL import Image

from companion.history import export
from companion.history.records import game_records, replay_log
from tests.companion.history.games_fixture import group_folder


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    group_folder(folder)
    unfinished, second, first = game_records(folder)
    return first, second, unfinished


def test_the_bgstats_file_parses_back_into_the_same_play(records, tmp_path):
    first = records[0]
    path = tmp_path / "play.bgsplay"
    export.write_bgstats(first, path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    [play] = export.read_bgstats(doc)
    assert play["game"] == "El Grande" and play["bggId"] == 93
    assert play["date"] == first.started.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")  # BG Stats: UTC
    assert play["durationMin"] == first.duration_min == 95
    assert play["players"] == [(p.name, p.score, p.winner) for p in first.players]
    [score] = [s for s in doc["plays"][0]["playerScores"] if s["startPlayer"]]
    assert score["seatOrder"] == 1
    ranks = sorted(s["rank"] for s in doc["plays"][0]["playerScores"])
    assert ranks[0] == 1
    again = export.bgstats(first)  # the same game exported twice is the same play to BG Stats
    assert again["plays"][0]["uuid"] == doc["plays"][0]["uuid"]
    assert again["players"][0]["uuid"] == doc["players"][0]["uuid"]
    assert export.bgstats(records[1])["plays"][0]["uuid"] != doc["plays"][0]["uuid"]


def test_the_bgg_csv_has_a_row_per_player(records):
    first = records[0]
    rows = list(csv.DictReader(io.StringIO(export.bgg_csv(first))))
    assert [(r["name"], int(r["score"]), r["win"] == "1", r["color"]) for r in rows] == [
        (p.name, p.score, p.winner, p.id.capitalize())
        for p in first.players  # the colour's printed name
    ]
    assert {r["objectid"] for r in rows} == {"93"} and {r["playdate"] for r in rows} == {
        first.started.strftime("%Y-%m-%d")
    }


def test_an_unfinished_game_is_not_logged(records):
    with pytest.raises(export.ExportError, match="not finished"):
        export.bgstats(records[2])
    with pytest.raises(export.ExportError, match="not finished"):
        export.bgg_csv(records[2])


def _ink_share(image, box) -> float:
    """How much of a box is drawn in the day theme's ink (text), 0..1."""
    left, top, right, bottom = box
    pixels = [image.getpixel((x, y)) for x in range(left, right, 2) for y in range(top, bottom, 2)]
    near = lambda c: sum(abs(a - b) for a, b in zip(c, export.INK)) < 60
    return sum(map(near, pixels)) / len(pixels)


def test_the_picture_says_who_won_and_shows_the_standings_with_their_cue(records, tmp_path):
    first = records[0]
    data = export.share_png(first, replay_log(first.path))
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == (1200, 800)
    winner = max(first.players, key=lambda p: p.score)
    assert export.headline(first) == f"{winner.name} won El Grande, {winner.score} points"
    # the headline is drawn large at the top left, in ink on the day theme's paper
    assert _ink_share(image, (48, 44, 600, 100)) > 0.12
    assert image.getpixel((1000, 60)) == export.PAPER and image.getpixel((5, 5)) == export.PAPER
    # the first place's token: its colour around its initial, the initial drawn in it
    assert image.getpixel((58, 206)) == export.colour_of(winner.id)
    token = {image.getpixel((x, y)) for x in range(64, 90) for y in range(196, 218)}
    assert export.colour_of(winner.id) in token and len(token) > 3
    plotted = {image.getpixel((x, y)) for x in range(584, 1104, 2) for y in range(200, 688, 2)}
    assert all(export.colour_of(p.id) in plotted for p in first.players)
    # the final scoring is seen: its band is wide and every line climbs across it
    from companion.history.score_plot import score_plot

    final = score_plot(replay_log(first.path)).scorings[-1]
    assert final.general and final.end - final.start >= 0.05
    band = range(int(584 + 520 * final.start) + 3, int(584 + 520 * final.end) - 3)
    crossing = {image.getpixel((x, y)) for x in band for y in range(200, 688)}
    assert all(export.colour_of(p.id) in crossing for p in first.players)


def test_export_game_writes_into_the_folder_chosen(records, tmp_path):
    first = records[0]
    folder = tmp_path / "made" / "for-plays"
    written = [export.export_game(first, kind, folder, replay_log(first.path)) for kind in ("bgstats", "csv", "png")]
    assert [p.parent for p in written] == [folder] * 3
    assert [p.suffix for p in written] == [".bgsplay", ".csv", ".png"]
    assert export.read_bgstats(json.loads(written[0].read_text(encoding="utf-8")))[0]["players"] == [
        (p.name, p.score, p.winner) for p in first.players
    ]
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(export.ExportError, match="cannot make the folder"):
        export.export_game(first, "csv", blocked / "sub")


# ---- hostile names (issue 31): a name is a name in every export ----

HOSTILE = [
    '=HYPERLINK("http://example.invalid","x")',
    "+1",
    "-1\x07\r\x00\n",
    "@SUM(A1)",
    " =1",
    "[size=200]Ana\x1b[31m",
    "Bo\u202eb\ud800",
    "W" * 10_000,
]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    from companion.history.records import read_record
    from tests.companion.history.games_fixture import table_game

    folder = tmp_path_factory.mktemp("hostile")
    return [read_record(table_game(folder, 1, HOSTILE[:4]).path), read_record(table_game(folder, 2, HOSTILE[4:]).path)]


def test_the_bgg_csv_writes_every_name_as_text(hostile, tmp_path):
    for record in hostile:
        path = export.export_game(record, "csv", tmp_path)
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 4  # a CR or a newline in a name ends no row
        for row, player in zip(rows, record.players):
            written = player.name.replace("\ud800", "\\ud800")
            assert row["name"] == ("'" + written if written.lstrip()[:1] in "=+-@" else written)
            assert row["name"].lstrip()[:1] not in "=+-@\t\r"
        assert all(r["score"].lstrip("-").isdigit() and r["objectid"] == "93" for r in rows)


def test_the_bgstats_file_keeps_every_name_as_written(hostile, tmp_path):
    for record in hostile:
        path = export.export_game(record, "bgstats", tmp_path)
        [play] = export.read_bgstats(json.loads(path.read_text(encoding="utf-8")))
        assert [name for name, _, _ in play["players"]] == [p.name for p in record.players]


def test_the_picture_draws_hostile_names_as_one_line_of_text(hostile, monkeypatch):
    from PIL import ImageDraw

    from companion.safe_text import for_picture
    from tests.companion.hostile_names import raw_control

    drawn, draw = [], ImageDraw.ImageDraw.text
    monkeypatch.setattr(
        ImageDraw.ImageDraw, "text", lambda self, xy, text, *a, **k: (drawn.append(text), draw(self, xy, text, *a, **k))
    )
    for record in hostile:
        image = Image.open(io.BytesIO(export.share_png(record, replay_log(record.path)))).convert("RGB")
        assert image.size == (1200, 800)
        assert image.getpixel((58, 206)) == export.colour_of(max(record.players, key=lambda p: p.score).id)
    assert drawn and all(raw_control(text) == [] for text in drawn)  # no newline starts a second line over the next
    assert any(for_picture("-1\x07\r\x00\n") in text for text in drawn)


def test_the_folder_picker_lists_folders_only_and_opens_at_the_nearest_one(tmp_path):
    for name in ("plays", "Archive", ".hidden"):
        (tmp_path / name).mkdir()
    (tmp_path / "notes.txt").write_text("")
    assert [p.name for p in export.subfolders(tmp_path)] == ["Archive", "plays"]
    assert export.subfolders(tmp_path / "missing") == []
    assert export.nearest_folder(tmp_path / "plays") == tmp_path / "plays"
    assert export.nearest_folder(tmp_path / "not" / "yet") == tmp_path
