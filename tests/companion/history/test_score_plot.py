"""The scores' plot data shared by the replay, the end screen and the picture (issue 33)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.history.records import demo_replay, replay_events
from companion.history.score_plot import GENERAL_SHARE, score_plot
from engine.events import GameSetup, event_from_dict

GOLDEN = Path(__file__).resolve().parents[2] / "engine/golden/classic-5p-full-3.jsonl"


def _long_game():
    rows = [line for line in GOLDEN.read_text().splitlines() if line.strip()]
    setup = GameSetup.from_saved(json.loads(rows[0])["setup"])
    return replay_events(setup, [event_from_dict(json.loads(r)) for r in rows[1:]])


@pytest.fixture(scope="module", params=["demo", "long"])
def replay(request):
    return demo_replay() if request.param == "demo" else _long_game()


def test_the_final_scoring_has_a_band_of_its_own(replay):
    plot = score_plot(replay)
    final = plot.scorings[-1]
    assert final.general and final.step == len(replay) - 1
    assert final.end == 1.0 and final.end - final.start >= GENERAL_SHARE * 0.9
    # every general scoring is as wide; a special one is narrower but more than a step
    plain = min(b - a for a, b in zip(plot.x, plot.x[1:]) if b > a)
    for band in plot.scorings:
        assert band.end - band.start > 2 * plain
    assert plot.x[0] == 0.0 and all(a <= b for a, b in zip(plot.x, plot.x[1:]))


def test_the_lines_climb_across_the_bands_and_end_at_the_final_scores(replay):
    plot = score_plot(replay)
    last = replay.steps[-1].scores
    bands = [(b.start, b.end) for b in plot.scorings]
    for player, corners in plot.lines.items():
        assert corners[0] == (0.0, 0) and corners[-1] == (1.0, last[player])
        assert all(a[0] <= b[0] for a, b in zip(corners, corners[1:]))  # left to right
        for a, b in zip(corners, corners[1:]):
            if a[1] != b[1] and a[0] != b[0]:  # a climb: across a scoring's band
                assert (a[0], b[0]) in bands
    # the final scoring's gains are drawn across its band: before it, each player's score before it
    final = plot.scorings[-1]
    before = replay.steps[final.step - 1].scores
    for player, corners in plot.lines.items():
        if before[player] != last[player]:
            assert (final.start, before[player]) in corners and (final.end, last[player]) in corners
    assert plot.top == max(last.values())


def test_the_rounds_follow_each_other_and_cover_the_axis(replay):
    plot = score_plot(replay)
    assert [r.round for r in plot.rounds] == sorted({s.round for s in replay.steps})
    assert plot.rounds[0].start == 0.0 and plot.rounds[-1].end == 1.0
    assert all(a.end == b.start for a, b in zip(plot.rounds, plot.rounds[1:]))
    for band in plot.scorings:  # a scoring is inside the round it belongs to
        span = next(r for r in plot.rounds if r.round == band.round)
        assert span.start <= band.start and band.end <= span.end
