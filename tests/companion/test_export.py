"""companion.export: the BG Stats file parses back into the same play, the BGG CSV into the same
players, and the picture holds the standings in the players' colours."""
from __future__ import annotations

import csv
import io
import json

import pytest
from PIL import Image

from companion import export
from companion.history import game_records, replay_log
from tests.companion.games_fixture import group_folder


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
    assert play["date"] == first.started.strftime("%Y-%m-%d %H:%M:%S")
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
    assert [(r["name"], int(r["score"]), r["win"] == "1", r["color"]) for r in rows] == \
        [(p.name, p.score, p.winner, p.id) for p in first.players]
    assert {r["objectid"] for r in rows} == {"93"} and {r["playdate"] for r in rows} == {first.started.strftime("%Y-%m-%d")}


def test_an_unfinished_game_is_not_logged(records):
    with pytest.raises(export.ExportError, match="not finished"):
        export.bgstats(records[2])
    with pytest.raises(export.ExportError, match="not finished"):
        export.bgg_csv(records[2])


def test_the_picture_shows_the_standings_in_colour(records, tmp_path):
    first = records[0]
    data = export.share_png(first, replay_log(first.path))
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == (1200, 800)
    winner = max(first.players, key=lambda p: p.score)
    assert image.getpixel((52, 158)) == export.COLOURS[winner.id]  # the first place's swatch
    plotted = {image.getpixel((x, y)) for x in range(520, 1160, 4) for y in range(140, 740, 4)}
    assert all(export.COLOURS[p.id] in plotted for p in first.players)


def test_export_game_writes_into_the_folder_chosen(records, tmp_path):
    first = records[0]
    folder = tmp_path / "made" / "for-plays"
    written = [export.export_game(first, kind, folder, replay_log(first.path)) for kind in ("bgstats", "csv", "png")]
    assert [p.parent for p in written] == [folder] * 3
    assert [p.suffix for p in written] == [".bgsplay", ".csv", ".png"]
    assert export.read_bgstats(json.loads(written[0].read_text(encoding="utf-8")))[0]["players"] == \
        [(p.name, p.score, p.winner) for p in first.players]
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(export.ExportError, match="cannot make the folder"):
        export.export_game(first, "csv", blocked / "sub")
